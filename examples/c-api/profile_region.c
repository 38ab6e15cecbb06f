// Profiles part of a program with the tpuprof C API: a warm-up that is not
// profiled, then a profiling window around three steps of a small "model".
// Each step and each stage is a user range; built with clang-19 and the
// LLVM plugin (CMakeLists.txt), the annotated functions get probes too.
//
//   profile_region [OUTPUT_DIR]     writes OUTPUT_DIR/tpuprof_data_dev0-N
#include "tpuprof/tpuprof.h"

#include <stdio.h>
#include <stdlib.h>

// Functions the LLVM plugin wraps in probes, named as given (clang only).
#ifdef __clang__
#define PROFILED(name) __attribute__((annotate("tpuprof:" name)))
#else
#define PROFILED(name)
#endif

enum { N = 96 };
static float a[N][N], b[N][N], c[N][N];

PROFILED("matmul") __attribute__((noinline)) static void matmul(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float sum = 0;
      for (int k = 0; k < N; ++k)
        sum += a[i][k] * b[k][j];
      c[i][j] = sum;
    }
}

PROFILED("relu") __attribute__((noinline)) static void relu(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      a[i][j] = c[i][j] > 0 ? c[i][j] / N : 0;
}

static void step(uint32_t stage_range) {
  tpuprof_range_begin(stage_range); // one id, looked up once
  matmul();
  relu();
  tpuprof_range_end(stage_range);
}

int main(int argc, char **argv) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      a[i][j] = (float)((i * 7 + j) % 13) - 6;
      b[i][j] = (float)((i + j * 5) % 11) - 5;
    }
  uint32_t stage = tpuprof_range_id("layer");

  step(stage); // warm-up: profiling is off, the probes cost a load and a branch

  if (argc > 1)
    tpuprof_set_output(argv[1], 0);
  if (tpuprof_enable(0, 0) != 0) // default buffer, mode 0 (timing)
    return 1;
  for (int i = 0; i < 3; ++i) {
    tpuprof_range_push("step");
    step(stage);
    tpuprof_range_pop();
  }
  if (tpuprof_disable() != 0) // writes the window's dump
    return 1;
  printf("dump: %s\n", tpuprof_last_dump_path());
  printf("checksum: %.1f\n", (double)c[N / 2][N / 2]);
  return EXIT_SUCCESS;
}
