/*===- bench/probe_overhead_fns.c - Functions under measurement ---*- C -*-===*\
|*                                                                            *|
|* Kept in their own translation unit (and noinline) so the compiler cannot   *|
|* fold them into the timing loop: every variant pays one real call.          *|
|* bench_tiny_probed is what the tpuprof passes emit around an op: an inline  *|
|* test of __tpuprof_enabled guarding each runtime call.                      *|
\*===----------------------------------------------------------------------===*/

#include "tpuprof/tpuprof.h"

/// The probe id the benchmark records (no table is registered: unknown ids
/// are recorded like any other).
#define BENCH_PROBE 7u

__attribute__((noinline)) int bench_tiny(int x) {
  __asm__ volatile("" : "+r"(x)); // An op the optimizer cannot see through.
  return x + 1;
}

__attribute__((noinline)) int bench_tiny_probed(int x) {
  if (__tpuprof_enabled)
    __tpuprof_begin(BENCH_PROBE);
  __asm__ volatile("" : "+r"(x));
  x += 1;
  if (__tpuprof_enabled)
    __tpuprof_end(BENCH_PROBE);
  return x;
}
