/*===- runtime/process.c - Who the process is, and its clocks ------*- C
-*-===*\
|*                                                                            *|
|* A process's identity in a job (rank, world size, local rank, host, job id: *|
|* env.c parses the launcher's variables) and the clock measurements that     *|
|* let a report put the ranks of several hosts on one time axis: a            *|
|* (CLOCK_REALTIME, CLOCK_MONOTONIC) pair at each window's begin and end, and *|
|* the offsets to rank 0's clock that libtpuprof_mpi measures by ping-pong.   *|
|* Every dump carries them in its PROCESS section (format.h, docs/mpi.md).    *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// Identity, set once by the constructor before any window opens.
static tpuprof_process_section identity;

/// Offsets, stored by the MPI library's thread whenever it measured and read
/// by whichever thread closes a window: each field atomically, and `at_ns`
/// (which says the slot is valid) last on the way in, first on the way out.
static tpuprof_clock_offset offsets[TPUPROF_OFFSET_SLOT_COUNT];

void __tpuprof_rt_process_init(const tpuprof_rt_config *cfg) {
  memset(&identity, 0, sizeof(identity));
  identity.rank = cfg->rank;
  identity.world_size = cfg->world_size;
  identity.local_rank = cfg->local_rank;
  identity.rank_source = cfg->rank_source;
  // gethostname truncates silently on some systems: always terminate.
  if (gethostname(identity.host, sizeof(identity.host) - 1) != 0)
    identity.host[0] = '\0';
  identity.host[sizeof(identity.host) - 1] = '\0';
  if (cfg->job_id)
    snprintf(identity.job_id, sizeof(identity.job_id), "%s", cfg->job_id);
}

uint32_t __tpuprof_rt_process_rank(void) { return identity.rank; }

static uint64_t read_ns(clockid_t id) {
  struct timespec ts;
  if (clock_gettime(id, &ts) != 0)
    return 0;
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void __tpuprof_rt_process_clock_pair(uint64_t *realtime_ns,
                                     uint64_t *monotonic_ns) {
  // The realtime read between two monotonic ones, paired with their mean:
  // the pair is off by at most half the time between them, which the
  // tightest of a few tries keeps to the cost of a clock read.
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < 3; ++i) {
    uint64_t m0 = read_ns(CLOCK_MONOTONIC);
    uint64_t r = read_ns(CLOCK_REALTIME);
    uint64_t m1 = read_ns(CLOCK_MONOTONIC);
    if (m1 >= m0 && m1 - m0 < best) {
      best = m1 - m0;
      *realtime_ns = r;
      *monotonic_ns = m0 + (m1 - m0) / 2;
    }
  }
  if (best == UINT64_MAX)
    *realtime_ns = *monotonic_ns = 0;
}

void __tpuprof_rt_process_section(tpuprof_process_section *out) {
  *out = identity;
  for (unsigned i = 0; i < TPUPROF_OFFSET_SLOT_COUNT; ++i) {
    tpuprof_clock_offset *o = &out->offsets[i];
    o->at_ns = __atomic_load_n(&offsets[i].at_ns, __ATOMIC_ACQUIRE);
    o->offset_ns = __atomic_load_n(&offsets[i].offset_ns, __ATOMIC_RELAXED);
    o->error_ns = __atomic_load_n(&offsets[i].error_ns, __ATOMIC_RELAXED);
  }
}

TPUPROF_RT_API int tpuprof_set_clock_offset(uint32_t slot, int64_t offset_ns,
                                            uint64_t at_ns, uint64_t error_ns) {
  if (slot >= TPUPROF_OFFSET_SLOT_COUNT || at_ns == 0)
    return -1;
  __atomic_store_n(&offsets[slot].at_ns, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&offsets[slot].offset_ns, offset_ns, __ATOMIC_RELAXED);
  __atomic_store_n(&offsets[slot].error_ns, error_ns, __ATOMIC_RELAXED);
  __atomic_store_n(&offsets[slot].at_ns, at_ns, __ATOMIC_RELEASE);
  return 0;
}
