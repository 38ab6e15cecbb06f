/*===- runtime/calibrate.c - Measuring the probe cost -------------*- C -*-===*\
|*                                                                            *|
|* A recorded interval holds more than the op: the tail of __tpuprof_begin    *|
|* after its clock read and the head of __tpuprof_end before its own, and,    *|
|* in the interval of every enclosing record, the whole cost of each nested   *|
|* probe pair (counter group reads included in modes 1/2). When a window      *|
|* opens, the enabling thread measures both with the real hot path, in the    *|
|* window's mode, and the dump carries them (format.h, CALIBRATION section)   *|
|* for the report to subtract (tpuprof/report/Correction.h).                  *|
|*                                                                            *|
|* The measurement: one outer probe pair around WARMUP + N empty pairs of an  *|
|* inner probe, each probe behind a volatile flag test like the inline check  *|
|* instrumented code has. Records go to a private buffer                      *|
|* (__tpuprof_rt_private_begin), never to the window's.                       *|
|*   self   = end - begin of the inner records;                               *|
|*   nested = the distance between consecutive inner records' begins: one     *|
|*            whole pair, call to return, which is what a child adds to its   *|
|*            parent;                                                         *|
|*   read   = (modes 1/2) the inner records' READ_TICKS: the part of nested   *|
|*            that each record also measures for itself;                      *|
|*   counts = (modes 1/2) per PMU event, the inner records' own deltas        *|
|*            (self) and the outer record's delta per inner pair (nested):    *|
|*            the probes' share of every record's counts;                     *|
|* each the mean of its fastest 90 % (fast_mean; nested counts: the mean).    *|
|* Empty pairs stand for pairs between real work because end's clock read     *|
|* is ordered (rt_thread.h, rt_now_end): an op's work cannot spill past its   *|
|* record into the pair, so a pair costs the same there.                      *|
|* Mode 0 runs 512 pairs (their mean moves by < 0.1 ns from 1024's); modes    *|
|* 1/2 read the counter group twice per pair (~1-3 us), so they run 96.       *|
|* Calibration adds ~75 us to a process's first tpuprof_enable in mode 0,     *|
|* ~55 us to later ones and ~0.12-0.15 ms in mode 1 (correction_accuracy      *|
|* --startup; docs/performance.md, "Measurement truth").                      *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

int __tpuprof_rt_calibration_on = 1;

/// Probe ids of the calibration pairs. They are recorded only into the
/// private buffer, so they may coincide with any module's ids.
#define CALIB_OUTER (TPUPROF_IGNORED_PROBE_BASE - 2u)
#define CALIB_INNER (TPUPROF_IGNORED_PROBE_BASE - 1u)

/// Pairs run first and left out of the medians: they warm the caches, the
/// branch predictors and the pages of the private buffer.
#define CALIB_WARMUP 32u
/// Fewest measured pairs that make a calibration.
#define CALIB_MIN_PAIRS 16u

/// Stands for the inline `if (__tpuprof_enabled)` before each probe.
static volatile uint32_t calib_flag = 1;

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/// Mean of the fastest 90 % of `n` values (sorts them), rounded. Noise only
/// ever slows a pair down (an interrupt, a preemption, a cache miss), so the
/// slowest tenth goes; a median would do that too, but it snaps to one tick
/// value, and where the clock advances in steps (rdtsc in this VM moves 26
/// ticks at a time) that is off by up to half a step for every pair.
static uint64_t fast_mean(uint64_t *v, uint32_t n) {
  qsort(v, n, sizeof(*v), cmp_u64);
  uint32_t keep = n - n / 10;
  uint64_t sum = 0;
  for (uint32_t i = 0; i < keep; ++i)
    sum += v[i];
  return (sum + keep / 2) / keep;
}

/// The probes, out of line so that the compiler cannot merge or hoist the
/// flag tests across iterations any more than it could in instrumented code.
static __attribute__((noinline)) void run_pairs(uint32_t n) {
  if (calib_flag)
    __tpuprof_begin(CALIB_OUTER);
  for (uint32_t i = 0; i < n; ++i) {
    if (calib_flag)
      __tpuprof_begin(CALIB_INNER);
    if (calib_flag)
      __tpuprof_end(CALIB_INNER);
  }
  if (calib_flag)
    __tpuprof_end(CALIB_OUTER);
}

/// Counter word `i` of record `r`.
static uint64_t word_of(const tpuprof_record *r, uint32_t i) {
  return ((const uint64_t *)(r + 1))[r->num_dims + i];
}

/// The first `used` bytes of a private stream of probe pairs, in host
/// order: records are written in file order (nothing on a little-endian
/// host).
static void stream_to_host(uint8_t *buf, uint64_t used) {
  if (!TPUPROF_RT_BIG_ENDIAN)
    return;
  for (uint64_t off = 0; off + sizeof(tpuprof_record) <= used;) {
    tpuprof_record *r = (tpuprof_record *)(buf + off);
    uint64_t bytes = TPUPROF_RECORD_BYTES(r->num_dims, r->num_counters);
    if (off + bytes > used)
      break;
    __tpuprof_rt_le_layout(r, TPUPROF_RT_LAYOUT_RECORD, 1);
    __tpuprof_rt_le_layout(r + 1, "q", (uint64_t)r->num_dims + r->num_counters);
    off += bytes;
  }
}

int __tpuprof_rt_calibrate(uint32_t words, tpuprof_calibration_section *out,
                           tpuprof_calibration_counts *counts) {
  memset(out, 0, sizeof(*out));
  memset(counts, 0, (size_t)words * sizeof(*counts));
  uint32_t pairs = words ? 96u : 512u;
  uint32_t total = CALIB_WARMUP + pairs;
  uint64_t record = TPUPROF_RECORD_BYTES(0, words);
  uint64_t cap = (uint64_t)(total + 1) * record;
  // Events are counted (and READ_TICKS written) only with a group.
  uint32_t nev = words ? __tpuprof_rt_counters_window_nev() : 0;
  if (TPUPROF_RT_EVENT_WORDS(nev) > words)
    nev = 0;
  uint8_t *buf = (uint8_t *)malloc(cap);
  // Per inner pair: self, nested, READ_TICKS, then each event's delta.
  uint64_t *deltas = (uint64_t *)malloc((3u + nev) * sizeof(uint64_t) * pairs);
  int rc = -1;
  if (!buf || !deltas)
    goto done;
  memset(buf, 0, cap); // No page faults inside the measured pairs.
  if (__tpuprof_rt_private_begin(buf, cap) < 0)
    goto done;
  run_pairs(total);
  uint64_t used = __tpuprof_rt_private_end();
  stream_to_host(buf, used);

  // The stream: the outer record, then the inner ones in order. A thread
  // whose group has more words than expected dropped records: use what is
  // complete and of the right shape.
  uint64_t *self = deltas, *nested = deltas + pairs, *reads = nested + pairs;
  uint64_t *events = reads + pairs; // events[e * pairs + k]
  uint32_t nself = 0, nnested = 0, nreads = 0, nevents = 0, index = 0;
  uint64_t prev_begin = 0;
  const tpuprof_record *outer = NULL;
  for (uint64_t off = 0; off + sizeof(tpuprof_record) <= used;) {
    const tpuprof_record *r = (const tpuprof_record *)(buf + off);
    off += TPUPROF_RECORD_BYTES(r->num_dims, r->num_counters);
    if (r->probe == CALIB_OUTER)
      outer = r;
    if (r->probe != CALIB_INNER)
      continue;
    uint32_t i = index++;
    int counted = nev && r->num_counters == words && r->end;
    if (i >= CALIB_WARMUP && r->end >= r->begin && nself < pairs) {
      self[nself++] = r->end - r->begin;
      if (counted)
        reads[nreads++] = word_of(r, TPUPROF_RT_READ_TICKS_WORD(nev));
      // Counts of records the group ran for the whole pair (never
      // multiplexed out: time_running == time_enabled).
      uint64_t enabled = counted ? word_of(r, nev) : 0;
      if (counted && enabled && word_of(r, nev + 1) == enabled) {
        for (uint32_t e = 0; e < nev; ++e)
          events[e * pairs + nevents] = word_of(r, e);
        ++nevents;
      }
    }
    if (i > CALIB_WARMUP && r->begin >= prev_begin && nnested < pairs)
      nested[nnested++] = r->begin - prev_begin;
    prev_begin = r->begin;
  }
  if (nself < CALIB_MIN_PAIRS || nnested < CALIB_MIN_PAIRS)
    goto done;
  out->self_ticks = fast_mean(self, nself);
  out->nested_ticks = fast_mean(nested, nnested);
  out->pairs = nself;
  if (nreads >= CALIB_MIN_PAIRS) {
    uint64_t read = fast_mean(reads, nreads);
    // Part of a nested pair, so never more than it (clock steps aside). A
    // mean too large for the field leaves read_ticks 0: no per-record part.
    if (read > out->nested_ticks)
      read = out->nested_ticks;
    if (read <= UINT32_MAX)
      out->read_ticks = (uint32_t)read;
  }
  // What the probes add to each event: an inner record's own deltas
  // (self), and the outer record's deltas over all `total` inner pairs,
  // scaled up if the group was multiplexed meanwhile (nested).
  if (nevents >= CALIB_MIN_PAIRS && outer && outer->end &&
      outer->num_counters == words) {
    uint64_t enabled = word_of(outer, nev), running = word_of(outer, nev + 1);
    for (uint32_t e = 0; running && e < nev; ++e) {
      counts[e].self = fast_mean(events + (uint64_t)e * pairs, nevents);
      double n = (double)word_of(outer, e) * (double)enabled / (double)running /
                 (double)total;
      counts[e].nested = (uint64_t)(n + 0.5);
    }
  }
  rc = 0;
done:
  free(deltas);
  free(buf);
  return rc;
}
