/*===- bench/probe_overhead_cyg_hooks.c - A minimal function tracer -------===*\
|*                                                                            *|
|* The -finstrument-functions peer of the probe pair: the smallest tracer     *|
|* that still records what a profiler needs, so the comparison is fair. Each  *|
|* hook reads CLOCK_MONOTONIC (vDSO clock_gettime) and appends (function,     *|
|* time) to a buffer that was allocated and touched up front; no locks, no    *|
|* per-thread state (the benchmark is single-threaded), enter and exit told   *|
|* apart by the low bit of the function address.                              *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NO_INSTRUMENT __attribute__((no_instrument_function))

/// One hook call.
struct cyg_event {
  uintptr_t fn; ///< Function address; low bit set on exit.
  uint64_t ns;  ///< CLOCK_MONOTONIC.
};

static struct cyg_event *events;
static size_t capacity, position;

/// Makes room for `n` events and rewinds the buffer (outside the timing).
NO_INSTRUMENT int bench_cyg_reset(size_t n) {
  if (n > capacity) {
    free(events);
    events = malloc(n * sizeof(*events));
    if (!events) {
      capacity = 0;
      return -1;
    }
    memset(events, 0, n * sizeof(*events)); // No page faults while timing.
    capacity = n;
  }
  position = 0;
  return 0;
}

/// Events recorded since the last reset.
NO_INSTRUMENT size_t bench_cyg_count(void) { return position; }

static inline NO_INSTRUMENT void record(uintptr_t fn) {
  if (position == capacity)
    return;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  events[position].fn = fn;
  events[position].ns =
      (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  ++position;
}

NO_INSTRUMENT void __cyg_profile_func_enter(void *fn, void *site) {
  (void)site;
  record((uintptr_t)fn);
}

NO_INSTRUMENT void __cyg_profile_func_exit(void *fn, void *site) {
  (void)site;
  record((uintptr_t)fn | 1);
}
