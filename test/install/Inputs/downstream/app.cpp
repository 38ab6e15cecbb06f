// C++ against the installed runtime: a ProfileWindow around three calls, a
// TPUPROF_SCOPE in each; with the LLVM plugin the annotated kernel too.
//   app OUTPUT_DIR
#include <tpuprof/tpuprof.hpp>

#include <cstdio>

__attribute__((annotate("tpuprof:cxx_kernel"))) __attribute__((noinline)) static double
kernel(int n) {
  volatile double x = 0;
  for (int i = 0; i < n; ++i)
    x = x + 1.0;
  return x;
}

static double layer(int n) {
  TPUPROF_SCOPE("cxx_scope");
  return kernel(n);
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  tpuprof_set_output(argv[1], 4);
  double sum = 0;
  {
    tpuprof::ProfileWindow window;
    if (!window.active())
      return 1;
    for (int i = 0; i < 3; ++i)
      sum += layer(100000);
  }
  std::printf("sum=%.0f dump=%s\n", sum, tpuprof::ProfileWindow::lastDumpPath());
  return 0;
}
