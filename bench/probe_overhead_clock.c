/*===- bench/probe_overhead_clock.c - A pair's clock reads alone --*- C -*-===*\
|*                                                                            *|
|* Rows (j)-(l) of bench/probe_overhead: the tiny function with only the two *|
|* clock reads a mode-0 pair makes, each out of line and storing its ticks.  *|
|* (j) reads them as the runtime does on this CPU (rdtsc at begin; rdtscp at *|
|* end, lfence; rdtsc without rdtscp): no runtime can make a pair cheaper    *|
|* than this floor while it reads the end after the op's work, and (c) minus *|
|* (j) is what tpuprof's bookkeeping costs. (k) reads the end unordered      *|
|* (rdtsc): (j) minus (k) is what the order costs. (l) orders it by          *|
|* lfence; rdtsc: (l) minus (j) is what rdtscp saves.                        *|
\*===----------------------------------------------------------------------===*/

#include <stdint.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>

static uint64_t ticks[2];
static int has_rdtscp;

int bench_clock_init(void) {
  unsigned a, b, c, d;
  has_rdtscp = __get_cpuid(0x80000001u, &a, &b, &c, &d) && ((d >> 27) & 1u);
  return 0;
}

__attribute__((noinline)) void bench_clock_begin(void) { ticks[0] = __rdtsc(); }

__attribute__((noinline)) void bench_clock_end_lfence(void) {
  _mm_lfence();
  ticks[1] = __rdtsc();
}

__attribute__((noinline)) void bench_clock_end(void) {
  unsigned aux;
  if (__builtin_expect(has_rdtscp, 1)) {
    ticks[1] = __rdtscp(&aux);
    return;
  }
  bench_clock_end_lfence();
}

__attribute__((noinline)) void bench_clock_end_unordered(void) {
  ticks[1] = __rdtsc();
}

#define BENCH_TINY_CLOCKS(fn, end)                                             \
  __attribute__((noinline)) int fn(int x) {                                    \
    bench_clock_begin();                                                       \
    __asm__ volatile("" : "+r"(x));                                            \
    x += 1;                                                                    \
    end();                                                                     \
    return x;                                                                  \
  }
BENCH_TINY_CLOCKS(bench_tiny_clocks, bench_clock_end)
BENCH_TINY_CLOCKS(bench_tiny_clocks_unordered, bench_clock_end_unordered)
BENCH_TINY_CLOCKS(bench_tiny_clocks_lfence, bench_clock_end_lfence)
#else
int bench_clock_init(void) { return -1; } // No TSC: the row is not measured.
int bench_tiny_clocks(int x) { return x + 1; }
int bench_tiny_clocks_unordered(int x) { return x + 1; }
int bench_tiny_clocks_lfence(int x) { return x + 1; }
#endif
