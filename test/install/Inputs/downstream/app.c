// C against the installed runtime: the C API switches profiling on for two
// of three calls; a user range wraps each call. With the LLVM plugin the
// annotated kernel gets a probe of its own, nested in the range.
//   app OUTPUT_DIR
#include <tpuprof/tpuprof.h>

#include <stdio.h>

__attribute__((annotate("tpuprof:c_kernel"))) __attribute__((noinline)) static double
kernel(int n) {
  volatile double x = 0;
  for (int i = 0; i < n; ++i)
    x = x + 1.0;
  return x;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  double sum = kernel(1000); // profiling off
  tpuprof_set_output(argv[1], 3);
  if (tpuprof_enable(0, 0) != 0)
    return 1;
  for (int i = 0; i < 2; ++i) {
    tpuprof_range_push("c_range");
    sum += kernel(200000);
    tpuprof_range_pop();
  }
  if (tpuprof_disable() != 0)
    return 1;
  printf("sum=%.0f dump=%s\n", sum, tpuprof_last_dump_path());
  return 0;
}
