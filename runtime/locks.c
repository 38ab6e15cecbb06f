/*===- runtime/locks.c - The runtime's locks ----------------------*- C -*-===*\
|*                                                                            *|
|* The mutexes of rt_locks.h. With TPUPROF_RT_CHECK_LOCKS each thread keeps   *|
|* the set of locks it holds, and taking one while holding a later one in     *|
|* the order aborts: a wrong order shows in the first test that takes it,     *|
|* not in the rare run where two threads deadlock.                            *|
\*===----------------------------------------------------------------------===*/

#include "rt_locks.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t locks[TPUPROF_RT_LOCK_COUNT] = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER,
};

/// Locks the calling thread holds or is waiting for. Counted before the
/// wait, so that a signal handler's probe on this thread sees it from the
/// moment the thread may block on a lock until it has released it.
static __thread unsigned taking __attribute__((tls_model("initial-exec")));

unsigned __tpuprof_rt_locks_held(void) {
  return __atomic_load_n(&taking, __ATOMIC_RELAXED);
}

#ifdef TPUPROF_RT_CHECK_LOCKS
static __thread unsigned held __attribute__((tls_model("initial-exec")));

static void check_order(tpuprof_rt_lock_id id) {
  // Bits of `id` and every later lock.
  if (held & ~((1u << id) - 1u)) {
    fprintf(stderr, "tpuprof: lock %d taken while holding 0x%x\n", (int)id,
            held);
    abort();
  }
}
#endif

void __tpuprof_rt_lock(tpuprof_rt_lock_id id) {
#ifdef TPUPROF_RT_CHECK_LOCKS
  check_order(id);
#endif
  __atomic_store_n(&taking, taking + 1, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  pthread_mutex_lock(&locks[id]);
#ifdef TPUPROF_RT_CHECK_LOCKS
  held |= 1u << id;
#endif
}

void __tpuprof_rt_unlock(tpuprof_rt_lock_id id) {
#ifdef TPUPROF_RT_CHECK_LOCKS
  held &= ~(1u << id);
#endif
  pthread_mutex_unlock(&locks[id]);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&taking, taking - 1, __ATOMIC_RELAXED);
}
