/*===- bench/whole_process.c - One tiny function, called N times --*- C -*-===*\
|*                                                                            *|
|* The program bench/whole_process.py builds three ways and times as whole    *|
|* processes: plain; with tpuprof (the function annotated, compiled with the  *|
|* LLVM plugin, run with TPUPROF_ENABLE=1 keeping every record); with XRay    *|
|* (the function always instrumented, run in FDR mode).                       *|
|*                                                                            *|
|*   whole_process N      N calls of tiny()                                   *|
\*===----------------------------------------------------------------------===*/

#include <stdlib.h>

#if defined(BENCH_TPUPROF)
#define TINY __attribute__((noinline, annotate("tpuprof")))
#define MAIN
#elif defined(BENCH_XRAY)
#define TINY __attribute__((noinline, xray_always_instrument))
#define MAIN __attribute__((xray_never_instrument))
#else
#define TINY __attribute__((noinline))
#define MAIN
#endif

static volatile int sink;

TINY int tiny(int x) {
  sink = x;
  return x + 1;
}

MAIN int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 5000000;
  int x = 0;
  for (long i = 0; i < n; ++i)
    x = tiny(x);
  return x == -1;
}
