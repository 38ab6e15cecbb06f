/*===- runtime/clock.c - Tick source and calibration --------------*- C -*-===*\
|*                                                                            *|
|* Records carry raw ticks so that a probe costs two clock reads and nothing  *|
|* else; the dump header carries two (ticks, CLOCK_MONOTONIC ns) pairs from   *|
|* which the report converts ticks to ns. rdtsc is used when the CPU says its *|
|* TSC is invariant (constant rate, keeps ticking in C-states), because it is *|
|* about half the cost of a vDSO clock_gettime; otherwise, or on request      *|
|* (TPUPROF_CLOCK=monotonic), ticks are CLOCK_MONOTONIC ns.                   *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <stdio.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define TPUPROF_RT_HAVE_TSC 1
#else
#define TPUPROF_RT_HAVE_TSC 0
#endif

int __tpuprof_rt_use_tsc = 0;
uint64_t __tpuprof_rt_calib_ticks0;
uint64_t __tpuprof_rt_calib_ns0;

int __tpuprof_rt_cpu_has_invariant_tsc(void) {
#if TPUPROF_RT_HAVE_TSC
  unsigned a, b, c, d;
  if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
    return 0;
  if (!__get_cpuid(0x80000007u, &a, &b, &c, &d))
    return 0;
  return (d >> 8) & 1u;
#else
  return 0;
#endif
}

/// The TSC way to read ticks: with rdtscp for ordered reads where the CPU
/// has it (a VM may hide it: then lfence; rdtsc).
static int tsc_ticks(void) {
#if TPUPROF_RT_HAVE_TSC
  unsigned a, b, c, d;
  if (__get_cpuid(0x80000001u, &a, &b, &c, &d) && ((d >> 27) & 1u))
    return TPUPROF_RT_TICKS_TSC_RDTSCP;
#endif
  return TPUPROF_RT_TICKS_TSC_LFENCE;
}

void __tpuprof_rt_clock_init(int request) {
#if TPUPROF_RT_HAVE_TSC
  int invariant = __tpuprof_rt_cpu_has_invariant_tsc();
  switch (request) {
  case TPUPROF_RT_CLOCK_TSC:
    if (!invariant)
      fprintf(stderr,
              "tpuprof: TPUPROF_CLOCK=tsc but this CPU reports no "
              "invariant TSC; times may drift with frequency changes\n");
    __tpuprof_rt_use_tsc = tsc_ticks();
    break;
  case TPUPROF_RT_CLOCK_MONOTONIC:
    __tpuprof_rt_use_tsc = 0;
    break;
  default:
    __tpuprof_rt_use_tsc = invariant ? tsc_ticks() : 0;
    break;
  }
#else
  if (request == TPUPROF_RT_CLOCK_TSC)
    fprintf(stderr, "tpuprof: TPUPROF_CLOCK=tsc is not available on this "
                    "architecture; using monotonic\n");
  __tpuprof_rt_use_tsc = 0;
#endif
  __tpuprof_rt_calibration_pair(&__tpuprof_rt_calib_ticks0,
                                &__tpuprof_rt_calib_ns0);
}

uint32_t __tpuprof_rt_clock_source(void) {
  return __tpuprof_rt_use_tsc ? TPUPROF_CLOCK_TSC : TPUPROF_CLOCK_MONOTONIC;
}

void __tpuprof_rt_set_clock_source(uint32_t source) {
  __tpuprof_rt_use_tsc =
      TPUPROF_RT_HAVE_TSC && source == TPUPROF_CLOCK_TSC ? tsc_ticks() : 0;
  // The first pair must be in the new source's ticks.
  __tpuprof_rt_calibration_pair(&__tpuprof_rt_calib_ticks0,
                                &__tpuprof_rt_calib_ns0);
}

uint64_t __tpuprof_rt_monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t __tpuprof_rt_now(void) {
#if TPUPROF_RT_HAVE_TSC
  if (__tpuprof_rt_use_tsc)
    return __rdtsc();
#endif
  return __tpuprof_rt_monotonic_ns();
}

void __tpuprof_rt_calibration_pair(uint64_t *ticks, uint64_t *ns) {
  if (!__tpuprof_rt_use_tsc) {
    *ticks = *ns = __tpuprof_rt_monotonic_ns();
    return;
  }
  // Bracket the clock_gettime between two tick reads and keep the tightest
  // of a few tries: a preemption between the reads would skew the pair.
  uint64_t best_gap = UINT64_MAX;
  for (int i = 0; i < 5; ++i) {
    uint64_t t0 = __tpuprof_rt_now();
    uint64_t n = __tpuprof_rt_monotonic_ns();
    uint64_t t1 = __tpuprof_rt_now();
    if (t1 - t0 < best_gap) {
      best_gap = t1 - t0;
      *ticks = t0 + (t1 - t0) / 2;
      *ns = n;
    }
  }
}
