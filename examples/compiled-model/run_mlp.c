// Calls the bundled MLP compiled by tpuprof-compile (mlp.h declares
// mlp_main): once with profiling off, where each probe costs a load and a
// branch, then five times inside a profiling window, each call in a user
// range "inference" that the model's per-op rows nest in.
//
//   run_mlp [OUTPUT_DIR]     writes OUTPUT_DIR/tpuprof_data_dev0-N
#include "mlp.h"
#include "tpuprof/tpuprof.h"

#include <stdio.h>
#include <stdlib.h>

/// A rows x cols matrix (cols = 0: a vector of `rows`) of values in
/// [-0.5, 0.5) from a small deterministic generator.
static tpuprof_memref_f32_2d matrix(int64_t rows, int64_t cols, unsigned seed) {
  int64_t n = rows * (cols ? cols : 1);
  float *data = malloc(sizeof(float) * n);
  for (int64_t i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    data[i] = (float)((seed >> 8) & 0xffff) / 65536.0f - 0.5f;
  }
  tpuprof_memref_f32_2d m = {data, data, 0, {rows, cols}, {cols, 1}};
  return m;
}

static tpuprof_memref_f32_1d vector(int64_t n, unsigned seed) {
  tpuprof_memref_f32_2d m = matrix(n, 0, seed);
  tpuprof_memref_f32_1d v = {m.allocated, m.aligned, 0, {n}, {1}};
  return v;
}

int main(int argc, char **argv) {
  tpuprof_memref_f32_2d x = matrix(1, 784, 1), w1 = matrix(128, 784, 2),
                        w2 = matrix(64, 128, 3), w3 = matrix(10, 64, 4);
  tpuprof_memref_f32_1d b1 = vector(128, 5), b2 = vector(64, 6),
                        b3 = vector(10, 7);
  tpuprof_memref_f32_2d probs;

  // Not profiled: the probes only test the runtime's enabled flag.
  mlp_main(&probs, &x, &w1, &b1, &w2, &b2, &w3, &b3);
  free(probs.allocated);

  tpuprof_set_output(argc > 1 ? argv[1] : ".", -1);
  if (tpuprof_enable(0, 0) != 0)
    return 1;
  for (int i = 0; i < 5; ++i) {
    tpuprof_range_push("inference");
    mlp_main(&probs, &x, &w1, &b1, &w2, &b2, &w3, &b3);
    tpuprof_range_pop();
    if (i < 4)
      free(probs.allocated);
  }
  if (tpuprof_disable() != 0)
    return 1;

  int best = 0;
  float sum = 0;
  const float *p = probs.aligned + probs.offset;
  for (int k = 0; k < 10; ++k) {
    sum += p[k * probs.strides[1]];
    if (p[k * probs.strides[1]] > p[best * probs.strides[1]])
      best = k;
  }
  printf("class=%d sum=%.3f dump=%s\n", best, sum, tpuprof_last_dump_path());
  free(probs.allocated);
  float *inputs[] = {x.allocated,  w1.allocated, w2.allocated, w3.allocated,
                     b1.allocated, b2.allocated, b3.allocated};
  for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); ++i)
    free(inputs[i]);
  return 0;
}
