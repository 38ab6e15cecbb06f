/*===- runtime/threads.c - Thread states and the window state -----*- C -*-===*\
|*                                                                            *|
|* The registry of recording threads: each thread's state (rt_thread.h) is    *|
|* created on its first probe (or ahead of a window by the enabling thread),  *|
|* linked into the thread list, and freed once the windows it recorded in     *|
|* are closed. Also the window state that threads read and window.c writes,   *|
|* under the thread-list lock: the generation, the flags instrumented code    *|
|* tests, the record cap, the full-buffer policy and the open dump.           *|
|*                                                                            *|
|* Thread exit. A pthread key destructor closes the thread's counter group    *|
|* and marks the state exited; it stays on the list until the window it       *|
|* recorded in is closed, then it is freed.                                   *|
|*                                                                            *|
|* Fork. In the child only the forking thread exists: every other state is    *|
|* freed, and the parent's segments are forgotten (never mapped in the        *|
|* child: MADV_DONTFORK).                                                     *|
|*                                                                            *|
|* Calibration. A private state, on no list, records into a buffer of         *|
|* calibrate.c's while the real hot path runs (__tpuprof_rt_private_begin).   *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE 1 /* pthread_getattr_np */
#include "rt_thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The flag instrumented code tests inline before calling a probe.
TPUPROF_RT_API volatile uint32_t __tpuprof_enabled = 0;
/// The flag wrapped allocations test inline: a window is open and tracks
/// memory. Set and cleared with __tpuprof_enabled.
TPUPROF_RT_API volatile uint32_t __tpuprof_memory = 0;

uint32_t __tpuprof_rt_gen;
uint64_t __tpuprof_rt_window_cap;
int __tpuprof_rt_window_ring;
uint64_t __tpuprof_rt_lost;
tpuprof_rt_dump *__tpuprof_rt_dump;

__thread rt_thread *__tpuprof_rt_tls_thread TPUPROF_RT_INITIAL_EXEC;
/// Set by the key destructor: the thread is exiting and must not get a new
/// state (its old one may already be freed by a close).
static __thread int tls_exiting TPUPROF_RT_INITIAL_EXEC;

static rt_thread *threads_head, *threads_tail;
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;
static int thread_key_ok;

void __tpuprof_rt_threads_lock(void) {
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_THREADS);
}
void __tpuprof_rt_threads_unlock(void) {
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_THREADS);
}

uint32_t __tpuprof_rt_next_gen_locked(void) {
  uint32_t g = __tpuprof_rt_gen + 1;
  if (g == 0 || (g & TPUPROF_RT_GEN_PARKED)) // 0 marks "no record".
    g = 1;
  __atomic_store_n(&__tpuprof_rt_gen, g, __ATOMIC_RELEASE);
  return g;
}

int __tpuprof_rt_thread_exiting(void) { return tls_exiting; }

rt_thread *__tpuprof_rt_threads_first_locked(void) { return threads_head; }

static void unlink_locked(rt_thread *t) {
  rt_thread *prev = NULL;
  for (rt_thread *it = threads_head; it; prev = it, it = it->next) {
    if (it != t)
      continue;
    if (prev)
      prev->next = t->next;
    else
      threads_head = t->next;
    if (threads_tail == t)
      threads_tail = prev;
    return;
  }
}

void __tpuprof_rt_release_segments(rt_thread *t) {
  for (uint32_t i = 0; i < t->num_segs; ++i)
    munmap(t->segs[i].map, t->segs[i].map_size);
  t->num_segs = 0;
  t->head = NULL;
  t->cur = t->lim = NULL;
}

static void free_thread(rt_thread *t) {
  __tpuprof_rt_group_close(&t->grp);
  __tpuprof_rt_release_segments(t);
  free(t->segs);
  free(t->parked);
  free(t);
}

/// pthread key destructor: runs on the exiting thread.
static void thread_exit(void *arg) {
  rt_thread *t = (rt_thread *)arg;
  __tpuprof_rt_tls_thread = NULL;
  tls_exiting = 1;
  __tpuprof_rt_threads_lock();
  if (__atomic_load_n(&__tpuprof_enabled, __ATOMIC_RELAXED) &&
      t->gen == __tpuprof_rt_gen) {
    // Its records belong to the open window: keep them. Probes still open
    // never end (pthread_exit, a cancellation): closed as unfinished.
    uint32_t d =
        t->depth < TPUPROF_RT_STACK_DEPTH ? t->depth : TPUPROF_RT_STACK_DEPTH;
    for (uint32_t i = 0; i < d; ++i)
      count_unwound(t, &t->stack[i]);
    t->exited = 1;
    // Its counters count nothing more: a program that starts and ends
    // threads during a window must not run out of descriptors.
    __tpuprof_rt_group_close(&t->grp);
  } else {
    unlink_locked(t); // Already closed (or never recorded).
    free_thread(t);
  }
  __tpuprof_rt_threads_unlock();
}

static void make_thread_key(void) {
  thread_key_ok = pthread_key_create(&thread_key, thread_exit) == 0;
}

void __tpuprof_rt_threads_init(void) {
  pthread_once(&thread_key_once, make_thread_key);
}

/// Creates the calling thread's state and links it into the thread list.
/// Called with the lock held; NULL when out of memory.
static rt_thread *create_thread_locked(void) {
  void *mem = NULL;
  if (posix_memalign(&mem, 64, sizeof(rt_thread)) != 0)
    return NULL;
  rt_thread *t = (rt_thread *)mem;
  memset(t, 0, sizeof(*t));
  t->tid = (uint64_t)syscall(SYS_gettid);
  t->thread_no = UINT32_MAX;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *lo = NULL;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0 && size) {
      t->stack_lo = (uintptr_t)lo;
      t->stack_hi = (uintptr_t)lo + size;
    }
    pthread_attr_destroy(&attr);
  }
  if (threads_tail)
    threads_tail->next = t;
  else
    threads_head = t;
  threads_tail = t;
  if (thread_key_ok)
    pthread_setspecific(thread_key, t);
  __tpuprof_rt_tls_thread = t;
  return t;
}

rt_thread *__tpuprof_rt_thread_state_locked(void) {
  rt_thread *t = __tpuprof_rt_tls_thread;
  return t ? t : create_thread_locked();
}

void __tpuprof_rt_prepare_thread(void) {
  if (tls_exiting)
    return;
  __tpuprof_rt_threads_init();
  __tpuprof_rt_threads_lock();
  rt_thread *t = __tpuprof_rt_thread_state_locked();
  // Open the counter group now: perf_event_open is not window time.
  if (t)
    (void)__tpuprof_rt_group_sync(&t->grp);
  __tpuprof_rt_threads_unlock();
}

void __tpuprof_rt_threads_reap_locked(void) {
  rt_thread *prev = NULL;
  for (rt_thread *t = threads_head; t;) {
    rt_thread *next = t->next;
    if (t->exited) {
      if (prev)
        prev->next = next;
      else
        threads_head = next;
      if (threads_tail == t)
        threads_tail = prev;
      free_thread(t);
    } else {
      prev = t;
    }
    t = next;
  }
}

void __tpuprof_rt_threads_after_fork_child_locked(void) {
  // Every segment mapping is MADV_DONTFORK: none exists in the child, so
  // the states only forget them. The other threads' states describe
  // threads that do not exist here: free them.
  rt_thread *self = __tpuprof_rt_tls_thread;
  for (rt_thread *t = threads_head; t;) {
    rt_thread *next = t->next;
    t->num_segs = 0;
    t->head = NULL;
    t->cur = t->lim = NULL;
    if (t != self) {
      __tpuprof_rt_group_close(&t->grp);
      free(t->segs);
      free(t->parked);
      free(t);
    }
    t = next;
  }
  threads_head = threads_tail = self;
  if (self) {
    self->next = NULL;
    self->tid = (uint64_t)syscall(SYS_gettid);
    // With gen 0, ends of probes the parent began write nothing.
    self->gen = 0;
  }
  // Inherited groups count the parent's threads: reopen on the next probe.
  ++__tpuprof_rt_ctr_setgen;
}

/*===-- Private recording for calibration (calibrate.c) ------------------===*/

/// The private state and the thread's own one while a calibration runs
/// (ctl lock held, so one at a time).
static rt_thread *private_state, *private_saved;
static uint8_t *private_buf;

int __tpuprof_rt_private_begin(uint8_t *buf, uint64_t cap) {
  if (tls_exiting || private_state)
    return -1;
  __tpuprof_rt_threads_init();
  __tpuprof_rt_threads_lock();
  rt_thread *t = __tpuprof_rt_thread_state_locked();
  // The thread's own group, opened for the coming window's event set: the
  // counter reads cost what they will cost in the window.
  uint32_t words = t ? __tpuprof_rt_group_sync(&t->grp) : 0;
  __tpuprof_rt_threads_unlock();
  if (!t)
    return -1;
  void *mem = NULL;
  if (posix_memalign(&mem, 64, sizeof(rt_thread)) != 0)
    return -1;
  rt_thread *p = (rt_thread *)mem;
  memset(p, 0, sizeof(*p));
  p->cur = buf;
  p->lim = buf + cap;
  p->out = TPUPROF_RT_OUT_PRIVATE;
  p->words = words;
  p->tid = t->tid;
  p->grp = t->grp; // Shares the fds; never closed through this copy.
  // The current generation, so begin takes its fast path. The state is on
  // no list: closes never see it and no other thread can reach it.
  p->gen = __atomic_load_n(&__tpuprof_rt_gen, __ATOMIC_RELAXED);
  private_saved = t;
  private_state = p;
  private_buf = buf;
  __tpuprof_rt_tls_thread = p;
  return (int)words;
}

uint64_t __tpuprof_rt_private_end(void) {
  rt_thread *p = private_state;
  if (!p)
    return 0;
  uint64_t used = (uint64_t)(p->cur - private_buf);
  __tpuprof_rt_tls_thread = private_saved;
  private_state = private_saved = NULL;
  free(p);
  return used;
}
