/*===- runtime/clock.c - Tick source and calibration --------------*- C -*-===*\
|*                                                                            *|
|* Records carry raw ticks so that a probe costs two clock reads and nothing  *|
|* else; the dump header carries two (ticks, CLOCK_MONOTONIC ns) pairs from   *|
|* which the report converts ticks to ns. rdtsc is used when the CPU says its *|
|* TSC is invariant (constant rate, keeps ticking in C-states) and the kernel *|
|* trusts it, because it is about half the cost of a vDSO clock_gettime. On   *|
|* aarch64 the generic timer's virtual count (cntvct_el0) is used: the vDSO  *|
|* reads it too, and its step is the clock's true resolution. Otherwise, or  *|
|* on request (TPUPROF_CLOCK=monotonic), ticks are CLOCK_MONOTONIC ns.       *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if TPUPROF_RT_HAVE_TSC
#include <cpuid.h>
#include <x86intrin.h>
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

/// Whether `word` is a whole word of `line` (up to its newline or NUL).
static int line_has_word(const char *line, const char *word) {
  size_t n = strlen(word);
  for (const char *p = line; *p && *p != '\n'; ++p) {
    if ((p == line || p[-1] == ' ' || p[-1] == '\t') &&
        strncmp(p, word, n) == 0 &&
        (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
      return 1;
  }
  return 0;
}

/// The first `size - 1` bytes of `path`, NUL-terminated; -1 if unreadable.
static int read_head(const char *path, char *buf, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  size_t got = 0;
  while (got + 1 < size) {
    ssize_t n = read(fd, buf + got, size - 1 - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += (size_t)n;
  }
  close(fd);
  buf[got] = '\0';
  return 0;
}

int __tpuprof_rt_kernel_trusts_tsc(const char *clocksources,
                                   const char *cpuinfo) {
  char buf[8192];
  int known = 0;
  if (read_head(clocksources, buf, sizeof(buf)) == 0) {
    known = 1;
    if (line_has_word(buf, "tsc"))
      return 1;
  }
  if (read_head(cpuinfo, buf, sizeof(buf)) == 0) {
    known = 1;
    for (const char *line = buf; line; line = strchr(line, '\n')) {
      if (*line == '\n')
        ++line;
      if (strncmp(line, "flags", 5) == 0)
        return line_has_word(line, "tsc_reliable");
    }
  }
  return !known;
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
  // The CPU's bit says the rate is constant; the kernel says whether the
  // counters agree across CPUs and sockets (it drops "tsc" from its clock
  // sources when they do not; a hypervisor vouches with tsc_reliable).
  int trusted = invariant && __tpuprof_rt_kernel_trusts_tsc(
                                 "/sys/devices/system/clocksource/clocksource0/"
                                 "available_clocksource",
                                 "/proc/cpuinfo");
  switch (request) {
  case TPUPROF_RT_CLOCK_TSC:
    if (!invariant)
      fprintf(stderr,
              "tpuprof: TPUPROF_CLOCK=tsc but this CPU reports no "
              "invariant TSC; times may drift with frequency changes\n");
    else if (!trusted)
      fprintf(stderr, "tpuprof: TPUPROF_CLOCK=tsc but the kernel does not "
                      "trust this TSC; times may disagree across CPUs\n");
    __tpuprof_rt_use_tsc = tsc_ticks();
    break;
  case TPUPROF_RT_CLOCK_MONOTONIC:
    __tpuprof_rt_use_tsc = 0;
    break;
  default:
    __tpuprof_rt_use_tsc = trusted ? tsc_ticks() : 0;
    break;
  }
#elif TPUPROF_RT_HAVE_CNTVCT
  __tpuprof_rt_use_tsc =
      request == TPUPROF_RT_CLOCK_MONOTONIC ? 0 : TPUPROF_RT_TICKS_CNTVCT;
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
  if (__tpuprof_rt_use_tsc == TPUPROF_RT_TICKS_CNTVCT)
    return TPUPROF_CLOCK_CNTVCT;
  return __tpuprof_rt_use_tsc ? TPUPROF_CLOCK_TSC : TPUPROF_CLOCK_MONOTONIC;
}

void __tpuprof_rt_set_clock_source(uint32_t source) {
  if (TPUPROF_RT_HAVE_TSC && source == TPUPROF_CLOCK_TSC)
    __tpuprof_rt_use_tsc = tsc_ticks();
  else if (TPUPROF_RT_HAVE_CNTVCT && source == TPUPROF_CLOCK_CNTVCT)
    __tpuprof_rt_use_tsc = TPUPROF_RT_TICKS_CNTVCT;
  else
    __tpuprof_rt_use_tsc = 0;
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
#elif TPUPROF_RT_HAVE_CNTVCT
  if (__tpuprof_rt_use_tsc) {
    uint64_t ticks;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(ticks)::"memory");
    return ticks;
  }
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
