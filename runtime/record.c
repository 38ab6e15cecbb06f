/*===- runtime/record.c - The probe hot path and thread states -----*- C -*-===*\
|*                                                                            *|
|* __tpuprof_begin/_dims/_end run on every probe while a window is open, so   *|
|* they take no lock, allocate nothing and make no system call: one TLS load, *|
|* one load of the window generation, a few stores into the thread's own      *|
|* buffer and one clock read each.                                            *|
|*                                                                            *|
|* Ownership. Each thread owns a state (rt_thread) with its record buffer and *|
|* its stack of open probes. Only the owner writes them. A flush (control.c)  *|
|* reads them from another thread, so:                                        *|
|*   - `pos` is published with a release store after the record is complete, *|
|*     and the flusher copies only bytes below the `pos` it acquired;         *|
|*   - `end`, the one field written after publication, is stored and loaded  *|
|*     with relaxed atomics;                                                  *|
|*   - `dropped` is stored and loaded with relaxed atomics;                   *|
|*   - the buffer is reset (for a new window) only in the owner's slow path,  *|
|*     under the thread-list lock the flusher holds while it copies.          *|
|* A record begun just as a window closes may land in the old buffer above    *|
|* the flushed `pos`: it then belongs to no dump, which is the right answer   *|
|* for a probe that straddles the boundary.                                   *|
|*                                                                            *|
|* Thread exit. A pthread key destructor marks the state exited; it stays on  *|
|* the list until the window it recorded in is flushed, then it is freed.     *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define TPUPROF_RT_HAVE_TSC 1
#else
#define TPUPROF_RT_HAVE_TSC 0
#endif

/// ThreadSanitizer counts an mmap as a write to the whole range; the one
/// that detaches a buffer from its file (threads_detach_locked) is no access
/// in the C sense, so TSan is told to drop its history for the range instead.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TPUPROF_RT_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define TPUPROF_RT_TSAN 1
#endif
#ifdef TPUPROF_RT_TSAN
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);
#define TPUPROF_RT_TSAN_IGNORE_BEGIN() AnnotateIgnoreWritesBegin(__FILE__, __LINE__)
#define TPUPROF_RT_TSAN_IGNORE_END() AnnotateIgnoreWritesEnd(__FILE__, __LINE__)
#else
#define TPUPROF_RT_TSAN_IGNORE_BEGIN() ((void)0)
#define TPUPROF_RT_TSAN_IGNORE_END() ((void)0)
#endif

#define TPUPROF_RT_INITIAL_EXEC __attribute__((tls_model("initial-exec")))
#define TPUPROF_RT_NOINLINE __attribute__((noinline, cold))

/// Stack entry `word` value for a begin that wrote no record.
#define NO_RECORD UINT32_MAX

/// One open probe. `gen` is the window the record was written in (0 when it
/// was not written), so an end in a later window leaves that window alone.
typedef struct rt_stack_entry {
  uint32_t probe; ///< Probe id passed to begin (matched by end).
  uint32_t gen;   ///< Window generation of the record.
  uint32_t word;  ///< Record offset in 8-byte words, or NO_RECORD.
  uint32_t pad;
} rt_stack_entry;

/// A thread's recording state. The first cache line holds everything a
/// probe pair touches except the stack entry and the record itself.
typedef struct rt_thread {
  // --- Hot: owner-written on every probe. ---
  uint8_t *buf;     ///< Record buffer of the current window.
  uint64_t pos;     ///< Bytes used; release-stored, read by the flusher.
  uint64_t cap;     ///< Bytes in buf.
  uint64_t dropped; ///< Records not written this window (relaxed atomic).
  uint32_t gen;     ///< Window generation buf belongs to (0: none yet).
  uint32_t depth;   ///< Open probes, including ones not on the stack.
  uint32_t words;   ///< Counter words per record in this window (mode 1/2).
  uint32_t ring;    ///< Full-buffer policy of this window: 1 ring, 0 stop.
  /// Ring only, once the buffer has wrapped (wrap_end != 0): the previous
  /// lap's records still intact are [tail, wrap_end); the current lap's are
  /// [0, pos). Both are owner-written; the flusher reads them under the
  /// thread-list lock after acquiring `pos`.
  uint64_t tail;
  uint64_t wrap_end;
  // --- Cold: slow path and flusher, under the thread-list lock. ---
  struct rt_thread *next;
  uint64_t tid;       ///< OS thread id.
  uint64_t snap_pos;  ///< `pos` fixed by the last snapshot.
  uint64_t snap_tail; ///< `tail` and `wrap_end` at the same snapshot.
  uint64_t snap_wrap;
  int exited;         ///< The thread has exited; free after its flush.
  uint8_t *map;       ///< buf's file mapping (crash-safe), or NULL: malloc.
  uint64_t map_size;  ///< Bytes mapped at `map`.
  uint32_t wserial;   ///< Serial of the window file `map` belongs to.
  uint64_t wsec;      ///< File offset of that file's THREAD section.
  /// The THREAD section header in the file: `dropped` is mirrored there so
  /// an incomplete dump still counts drops (relaxed atomic, owner only).
  tpuprof_thread_section *fts;
  tpuprof_rt_group grp; ///< perf_event group (counters.c).
  rt_stack_entry stack[TPUPROF_RT_STACK_DEPTH] __attribute__((aligned(64)));
} __attribute__((aligned(64))) rt_thread;

/// The calling thread's state. initial-exec keeps the access to one
/// %fs-relative load; a pointer (8 bytes) keeps the static TLS the library
/// needs small enough for dlopen.
static __thread rt_thread *tls_thread TPUPROF_RT_INITIAL_EXEC;
/// Set by the key destructor: the thread is exiting and must not get a new
/// state (its old one may already be freed by a flush).
static __thread int tls_exiting TPUPROF_RT_INITIAL_EXEC;

uint32_t __tpuprof_rt_gen;
uint64_t __tpuprof_rt_window_cap;
int __tpuprof_rt_window_ring;
uint64_t __tpuprof_rt_lost;

static pthread_mutex_t threads_mutex = PTHREAD_MUTEX_INITIALIZER;
static rt_thread *threads_head, *threads_tail;
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;
static int thread_key_ok;

void __tpuprof_rt_threads_lock(void) { pthread_mutex_lock(&threads_mutex); }
void __tpuprof_rt_threads_unlock(void) { pthread_mutex_unlock(&threads_mutex); }

uint32_t __tpuprof_rt_next_gen_locked(void) {
  uint32_t g = __tpuprof_rt_gen + 1;
  if (g == 0) // 0 marks "no record" in stack entries.
    g = 1;
  __atomic_store_n(&__tpuprof_rt_gen, g, __ATOMIC_RELEASE);
  return g;
}

/*===-- Clock, inline copy for the hot path ------------------------------===*/

static inline __attribute__((always_inline)) uint64_t rt_now(void) {
#if TPUPROF_RT_HAVE_TSC
  if (TPUPROF_RT_LIKELY(__tpuprof_rt_use_tsc))
    return __rdtsc();
#endif
  // Out of line: a struct timespec here would give every probe a stack
  // frame and callee-saved register spills, even on the rdtsc path.
  return __tpuprof_rt_monotonic_ns();
}

/*===-- Thread states (slow path) ----------------------------------------===*/

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

/// Unmaps or frees the record buffer. Thread-list lock held, and either the
/// owner calls it or the owner no longer records into it.
static void release_buffer(rt_thread *t) {
  if (t->map)
    munmap(t->map, t->map_size);
  else
    free(t->buf);
  t->map = NULL;
  t->map_size = 0;
  t->buf = NULL;
  t->cap = 0;
  t->fts = NULL;
  t->wserial = 0;
  t->wsec = 0;
}

static void free_thread(rt_thread *t) {
  __tpuprof_rt_group_close(&t->grp);
  release_buffer(t);
  free(t);
}

/// pthread key destructor: runs on the exiting thread.
static void thread_exit(void *arg) {
  rt_thread *t = (rt_thread *)arg;
  tls_thread = NULL;
  tls_exiting = 1;
  pthread_mutex_lock(&threads_mutex);
  if (__atomic_load_n(&__tpuprof_enabled, __ATOMIC_RELAXED) &&
      t->gen == __tpuprof_rt_gen) {
    t->exited = 1; // Its records belong to the open window: keep them.
  } else {
    unlink_locked(t); // Already flushed (or never recorded).
    free_thread(t);
  }
  pthread_mutex_unlock(&threads_mutex);
}

static void make_thread_key(void) {
  thread_key_ok = pthread_key_create(&thread_key, thread_exit) == 0;
}

void __tpuprof_rt_threads_init(void) {
  pthread_once(&thread_key_once, make_thread_key);
}

/// Creates the calling thread's state and links it into the thread list.
/// Called with threads_mutex held; NULL when out of memory.
static rt_thread *create_thread_locked(void) {
  void *mem = NULL;
  if (posix_memalign(&mem, 64, sizeof(rt_thread)) != 0)
    return NULL;
  rt_thread *t = (rt_thread *)mem;
  memset(t, 0, sizeof(*t));
  t->tid = (uint64_t)syscall(SYS_gettid);
  t->grp.nfd = 0;
  if (threads_tail)
    threads_tail->next = t;
  else
    threads_head = t;
  threads_tail = t;
  if (thread_key_ok)
    pthread_setspecific(thread_key, t);
  tls_thread = t;
  return t;
}

/// Gives `t` a buffer of `cap` bytes for the open window: a THREAD section
/// of the window's file, mapped (crash-safe), or, when there is no file or
/// it cannot grow, memory (reused across windows of the same size). Called
/// with threads_mutex held; 0 on success.
static int size_buffer_locked(rt_thread *t, uint64_t cap) {
  tpuprof_rt_wfile *w = __tpuprof_rt_wfile;
  if (w && w->fd >= 0) {
    if (t->map && t->wserial == w->serial && t->cap == cap)
      return 0; // Prepared for this window already.
    uint64_t size = 0, off = 0, sec = 0;
    uint8_t *m =
        __tpuprof_rt_wfile_add_thread(w, t->tid, cap, &size, &off, &sec);
    if (m) {
      release_buffer(t);
      t->map = m;
      t->wsec = sec;
      t->map_size = size;
      t->fts = (tpuprof_thread_section *)(m + off +
                                          sizeof(tpuprof_section_header));
      t->buf = (uint8_t *)(t->fts + 1);
      t->cap = cap;
      t->wserial = w->serial;
      return 0;
    }
  }
  if (!t->map && t->cap == cap)
    return 0;
  release_buffer(t);
  void *mem = NULL;
  if (posix_memalign(&mem, 64, cap) != 0)
    return -1;
  // Touch every page now, so the hot path never takes a page fault that
  // would be billed to the op being measured.
  memset(mem, 0, cap);
  t->buf = (uint8_t *)mem;
  t->cap = cap;
  return 0;
}

void __tpuprof_rt_prepare_thread(uint64_t cap) {
  if (tls_exiting)
    return;
  __tpuprof_rt_threads_init();
  pthread_mutex_lock(&threads_mutex);
  rt_thread *t = tls_thread ? tls_thread : create_thread_locked();
  // On failure the thread's first probe tries again and reports it.
  if (t) {
    (void)size_buffer_locked(t, cap);
    // Open the counter group now too: perf_event_open is not window time.
    (void)__tpuprof_rt_group_sync(&t->grp);
  }
  pthread_mutex_unlock(&threads_mutex);
}

/// Makes the calling thread's state current for the open window: creates it
/// on the thread's first probe, and (re)sizes and resets its buffer on its
/// first probe in a new window. Returns NULL when no record can be written.
static rt_thread *enter_window(void) {
  if (tls_exiting || !__atomic_load_n(&__tpuprof_enabled, __ATOMIC_ACQUIRE))
    return NULL;
  __tpuprof_rt_threads_init();
  rt_thread *t = tls_thread;
  pthread_mutex_lock(&threads_mutex);
  uint32_t gen = __tpuprof_rt_gen;
  uint64_t cap = __tpuprof_rt_window_cap;
  if (!__atomic_load_n(&__tpuprof_enabled, __ATOMIC_RELAXED)) {
    pthread_mutex_unlock(&threads_mutex);
    return NULL;
  }
  if (t && t->gen == gen) { // Another path already entered.
    pthread_mutex_unlock(&threads_mutex);
    return t;
  }
  if (!t && !(t = create_thread_locked()))
    goto lost;
  if (size_buffer_locked(t, cap) != 0) {
    t->gen = 0;
    goto lost;
  }
  __atomic_store_n(&t->pos, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&t->dropped, 0, __ATOMIC_RELAXED);
  t->ring = (uint32_t)__tpuprof_rt_window_ring;
  t->tail = t->wrap_end = 0;
  // Lazily (re)open the thread's counter group: first probe of the thread,
  // or the window's event set changed since it was opened.
  t->words = __tpuprof_rt_group_sync(&t->grp);
  t->gen = gen;
  pthread_mutex_unlock(&threads_mutex);
  return t;

lost:
  pthread_mutex_unlock(&threads_mutex);
  __atomic_fetch_add(&__tpuprof_rt_lost, 1, __ATOMIC_RELAXED);
  static int warned;
  if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "tpuprof: cannot allocate a %llu-byte record buffer; "
                    "this thread's records are dropped\n",
                    (unsigned long long)cap);
  return NULL;
}

/// Begin's slow path: the thread has no state yet or it belongs to an
/// older window. Returns the state to record into, or NULL after keeping
/// the stack balanced for an end that will follow.
static TPUPROF_RT_NOINLINE rt_thread *begin_slow(uint32_t probe) {
  rt_thread *t = enter_window();
  if (t)
    return t;
  t = tls_thread;
  if (t) {
    // Not recording (window closed, or no memory), but a state exists: push
    // an entry that matches the end and writes nothing.
    uint32_t d = t->depth++;
    if (d < TPUPROF_RT_STACK_DEPTH) {
      t->stack[d].probe = probe;
      t->stack[d].gen = 0;
      t->stack[d].word = NO_RECORD;
    }
  }
  return NULL;
}

static inline __attribute__((always_inline)) void
count_dropped(rt_thread *t) {
  // Only the owner writes `dropped`; the atomic store is for the flusher.
  uint64_t n = t->dropped + 1;
  __atomic_store_n(&t->dropped, n, __ATOMIC_RELAXED);
  if (t->fts) // The file's copy, for a dump that is never closed.
    __atomic_store_n(&t->fts->dropped, n, __ATOMIC_RELAXED);
}

/*===-- Ring buffers (TPUPROF_BUFFER=ring) -------------------------------===*/

/// The record at `off` of the previous lap is overwritten: count it as
/// dropped and make open probes that point at it write nothing at their end.
static void ring_drop(rt_thread *t, uint64_t off) {
  count_dropped(t);
  uint32_t depth = t->depth < TPUPROF_RT_STACK_DEPTH ? t->depth
                                                     : TPUPROF_RT_STACK_DEPTH;
  for (uint32_t i = 0; i < depth; ++i)
    if (t->stack[i].word == (uint32_t)(off >> 3) && t->stack[i].gen == t->gen)
      t->stack[i].word = NO_RECORD;
}

/// Drops the previous lap's records from `tail` while they start below
/// `limit`.
static void ring_consume(rt_thread *t, uint64_t limit) {
  while (t->tail < t->wrap_end && t->tail < limit) {
    const tpuprof_record *r = (const tpuprof_record *)(t->buf + t->tail);
    ring_drop(t, t->tail);
    t->tail += TPUPROF_RECORD_BYTES(r->num_dims, r->num_counters);
  }
}

/// Begin's path when the record does not fit, or the ring has wrapped.
/// Returns the offset to write a `need`-byte record at, or UINT64_MAX when
/// it is dropped (stop policy, or a record larger than the ring).
static TPUPROF_RT_NOINLINE uint64_t ring_room(rt_thread *t, uint64_t pos,
                                              uint64_t need) {
  if (need > t->cap - pos && (!t->ring || need > t->cap))
    return UINT64_MAX;
  if (need > t->cap - pos) {
    // Wrap: the rest of the previous lap is lost, the current lap becomes
    // the previous one.
    ring_consume(t, UINT64_MAX);
    t->wrap_end = pos;
    t->tail = 0;
    pos = 0;
    // Publish the wrap before any record of the new lap.
    __atomic_store_n(&t->pos, 0, __ATOMIC_RELEASE);
  }
  // The slot after the record gets begin = 0, so that a scan of an
  // incomplete dump stops after the newest record: the previous lap's
  // records starting below its end are lost too. At the buffer's end there
  // is no slot to clear (the mapped section has zeros or ends there).
  uint64_t limit = pos + need + sizeof(tpuprof_record);
  if (limit > t->cap) {
    ring_consume(t, t->cap);
  } else {
    ring_consume(t, limit);
    tpuprof_record *next = (tpuprof_record *)(t->buf + pos + need);
    __atomic_store_n(&next->begin, 0, __ATOMIC_RELAXED);
  }
  if (t->fts) {
    // For an incomplete dump: where the previous lap lies (formats.md).
    __atomic_store_n(&t->fts->stream_size, t->wrap_end, __ATOMIC_RELAXED);
    __atomic_store_n(&t->fts->num_records, t->tail | (1ull << 63),
                     __ATOMIC_RELAXED);
  }
  return pos;
}

/*===-- The hot path -----------------------------------------------------===*/

static inline __attribute__((always_inline)) void
rt_begin(uint32_t probe, const int64_t *dims, uint32_t n) {
  if (TPUPROF_RT_UNLIKELY(probe >= TPUPROF_RT_IGNORED_PROBE_BASE))
    return;
  rt_thread *t = tls_thread;
  uint32_t gen = __atomic_load_n(&__tpuprof_rt_gen, __ATOMIC_RELAXED);
  if (TPUPROF_RT_UNLIKELY(!t || t->gen != gen)) {
    t = begin_slow(probe);
    if (!t)
      return;
  }
  uint32_t d = t->depth;
  t->depth = d + 1;
  if (TPUPROF_RT_UNLIKELY(d >= TPUPROF_RT_STACK_DEPTH)) {
    count_dropped(t);
    return;
  }
  rt_stack_entry *e = &t->stack[d];
  e->probe = probe;
  e->gen = t->gen;
  uint64_t pos = t->pos;
  uint32_t w = t->words;
  uint64_t need = sizeof(tpuprof_record) + 8u * ((uint64_t)n + w);
  if (TPUPROF_RT_UNLIKELY(need > t->cap - pos || t->wrap_end)) {
    pos = ring_room(t, pos, need);
    if (pos == UINT64_MAX) {
      e->word = NO_RECORD;
      count_dropped(t);
      return;
    }
  }
  tpuprof_record *r = (tpuprof_record *)(t->buf + pos);
  r->probe = probe;
  r->num_dims = (uint8_t)n;
  r->num_counters = (uint8_t)w;
  r->depth = (uint16_t)d;
  r->end = 0;
  int64_t *out = (int64_t *)(r + 1);
  for (uint32_t i = 0; i < n; ++i)
    out[i] = dims[i];
  e->word = (uint32_t)(pos >> 3);
  // Counters (one group read), then the clock: both as late as possible.
  // Read the clock last, so the runtime's own work is outside the op.
  if (w) {
    uint64_t *cw = (uint64_t *)(out + n);
    uint32_t nev = t->grp.nev;
    uint64_t before = nev ? rt_now() : 0;
    __tpuprof_rt_counters_begin(&t->grp, cw);
    uint64_t now = rt_now();
    // The read's own cost, which lands in every enclosing record: the
    // report subtracts it there (format.h, READ_TICKS).
    if (nev)
      cw[TPUPROF_RT_READ_TICKS_WORD(nev)] = now - before;
    r->begin = now;
  } else {
    r->begin = rt_now();
  }
  __atomic_store_n(&t->pos, pos + need, __ATOMIC_RELEASE);
}

TPUPROF_RT_API void __tpuprof_begin(uint32_t probe) {
  rt_begin(probe, NULL, 0);
}

TPUPROF_RT_API void __tpuprof_begin_dims(uint32_t probe, const int64_t *dims,
                                         uint32_t n) {
  if (TPUPROF_RT_UNLIKELY(!dims))
    n = 0;
  if (TPUPROF_RT_UNLIKELY(n > TPUPROF_RT_MAX_DIMS))
    n = TPUPROF_RT_MAX_DIMS;
  rt_begin(probe, dims, n);
}

static inline __attribute__((always_inline)) void
finish(rt_thread *t, const rt_stack_entry *e, uint64_t now) {
  // A record from an earlier window (the buffer was reset since) or one
  // that was never written is left alone.
  if (TPUPROF_RT_LIKELY(e->gen == t->gen && e->word != NO_RECORD)) {
    tpuprof_record *r = (tpuprof_record *)(t->buf + ((uint64_t)e->word << 3));
    if (r->num_counters) {
      uint64_t *cw = (uint64_t *)(r + 1) + r->num_dims;
      __tpuprof_rt_counters_end(&t->grp, cw);
      uint32_t nev = t->grp.nev;
      // r->num_counters is 0 in a detached (zeroed) buffer, so the word is
      // the record's own; add the end read's cost to the begin read's.
      if (nev) {
        uint64_t *rt = &cw[TPUPROF_RT_READ_TICKS_WORD(nev)];
        __atomic_store_n(rt, *rt + (rt_now() - now), __ATOMIC_RELAXED);
      }
    }
    // Release: a flusher that sees `end` also sees the counter deltas.
    __atomic_store_n(&r->end, now, __ATOMIC_RELEASE);
  }
}

/// End's slow path: `probe` is not the innermost open probe. Probes above it
/// were left without an end (a longjmp or exception skipped them): close the
/// stack down to `probe` and leave their records at end == 0. An end whose
/// probe is not open at all is ignored.
static TPUPROF_RT_NOINLINE void end_mismatch(rt_thread *t, uint32_t probe,
                                             uint64_t now) {
  for (uint32_t i = t->depth - 1; i-- > 0;) {
    if (t->stack[i].probe == probe) {
      t->depth = i;
      finish(t, &t->stack[i], now);
      return;
    }
  }
}

TPUPROF_RT_API void __tpuprof_end(uint32_t probe) {
  // Read the clock first, so the runtime's own work is outside the op.
  uint64_t now = rt_now();
  rt_thread *t = tls_thread;
  if (TPUPROF_RT_UNLIKELY(!t || probe >= TPUPROF_RT_IGNORED_PROBE_BASE))
    return;
  uint32_t d = t->depth;
  if (TPUPROF_RT_UNLIKELY(d == 0 || d > TPUPROF_RT_STACK_DEPTH)) {
    if (d) // Beyond the stack: nothing was recorded and there is no id.
      t->depth = d - 1;
    return;
  }
  const rt_stack_entry *e = &t->stack[d - 1];
  if (TPUPROF_RT_UNLIKELY(e->probe != probe)) {
    end_mismatch(t, probe, now);
    return;
  }
  t->depth = d - 1;
  finish(t, e, now);
}

/*===-- Private recording for calibration (calibrate.c) ------------------===*/

/// The private state and the thread's own one while a calibration runs
/// (ctl mutex held, so one at a time).
static rt_thread *private_state, *private_saved;

int __tpuprof_rt_private_begin(uint8_t *buf, uint64_t cap) {
  if (tls_exiting || private_state)
    return -1;
  __tpuprof_rt_threads_init();
  pthread_mutex_lock(&threads_mutex);
  rt_thread *t = tls_thread ? tls_thread : create_thread_locked();
  // The thread's own group, opened for the coming window's event set: the
  // counter reads cost what they will cost in the window.
  uint32_t words = t ? __tpuprof_rt_group_sync(&t->grp) : 0;
  pthread_mutex_unlock(&threads_mutex);
  if (!t)
    return -1;
  void *mem = NULL;
  if (posix_memalign(&mem, 64, sizeof(rt_thread)) != 0)
    return -1;
  rt_thread *p = (rt_thread *)mem;
  memset(p, 0, sizeof(*p));
  p->buf = buf;
  p->cap = cap;
  p->words = words;
  p->tid = t->tid;
  p->grp = t->grp; // Shares the fds; never closed through this copy.
  // The current generation, so begin takes its fast path. The state is on
  // no list: flushes never see it and no other thread can reach it.
  p->gen = __atomic_load_n(&__tpuprof_rt_gen, __ATOMIC_RELAXED);
  private_saved = t;
  private_state = p;
  tls_thread = p;
  return (int)words;
}

uint64_t __tpuprof_rt_private_end(void) {
  rt_thread *p = private_state;
  if (!p)
    return 0;
  uint64_t used = __atomic_load_n(&p->pos, __ATOMIC_RELAXED);
  tls_thread = private_saved;
  private_state = private_saved = NULL;
  free(p);
  return used;
}

/*===-- Snapshots for the flusher (thread-list lock held) ----------------===*/

uint64_t __tpuprof_rt_threads_snapshot_locked(uint32_t gen, uint32_t *count) {
  uint64_t bytes = 0;
  uint32_t n = 0;
  for (rt_thread *t = threads_head; t; t = t->next) {
    if (t->gen != gen)
      continue;
    t->snap_pos = __atomic_load_n(&t->pos, __ATOMIC_ACQUIRE);
    t->snap_tail = t->tail;
    t->snap_wrap = t->wrap_end;
    uint64_t stream = t->snap_pos;
    if (t->snap_wrap) // Ring: the previous lap's intact records come first.
      stream += t->snap_wrap - t->snap_tail;
    bytes += __tpuprof_rt_section_bytes(sizeof(tpuprof_thread_section) +
                                        stream);
    ++n;
  }
  *count = n;
  return bytes;
}

/// Copies the records in [from, to) of `t`'s buffer to `stream`; returns
/// the bytes copied and adds the records to *records.
static uint64_t copy_records(const rt_thread *t, uint64_t from, uint64_t to,
                           uint8_t *stream, uint64_t *records) {
  // Copy record by record: `end` may be stored concurrently by the owner,
  // so it is read atomically; everything else is immutable below snap_pos.
  uint64_t out = 0;
  for (uint64_t off = from; off < to;) {
    const tpuprof_record *src = (const tpuprof_record *)(t->buf + off);
    uint64_t len = TPUPROF_RECORD_BYTES(src->num_dims, src->num_counters);
    tpuprof_record *dst = (tpuprof_record *)(stream + out);
    memcpy(dst, src, offsetof(tpuprof_record, end));
    dst->end = __atomic_load_n(&src->end, __ATOMIC_ACQUIRE);
    memcpy(dst + 1, src + 1, 8u * (uint64_t)src->num_dims);
    // Counter words hold deltas only once `end` is set; before that they
    // hold begin readings, which mean nothing in a dump: write zeros.
    uint64_t *cs = (uint64_t *)(src + 1) + src->num_dims;
    uint64_t *cd = (uint64_t *)(dst + 1) + src->num_dims;
    for (uint32_t i = 0; i < src->num_counters; ++i)
      cd[i] = dst->end ? __atomic_load_n(&cs[i], __ATOMIC_RELAXED) : 0;
    off += len;
    out += len;
    ++*records;
  }
  return out;
}

uint8_t *__tpuprof_rt_threads_write_locked(uint32_t gen, uint8_t *p,
                                           uint64_t *dropped) {
  for (rt_thread *t = threads_head; t; t = t->next) {
    if (t->gen != gen)
      continue;
    uint64_t size = t->snap_pos;
    if (t->snap_wrap)
      size += t->snap_wrap - t->snap_tail;
    uint8_t *q = __tpuprof_rt_put_section(
        p, TPUPROF_SECTION_THREAD, sizeof(tpuprof_thread_section) + size);
    uint8_t *stream = q + sizeof(tpuprof_thread_section);
    uint64_t records = 0, done = 0;
    if (t->snap_wrap) // Oldest first: the previous lap's intact records.
      done = copy_records(t, t->snap_tail, t->snap_wrap, stream, &records);
    copy_records(t, 0, t->snap_pos, stream + done, &records);
    tpuprof_thread_section ts;
    memset(&ts, 0, sizeof(ts));
    ts.tid = t->tid;
    ts.dropped = __atomic_load_n(&t->dropped, __ATOMIC_RELAXED);
    ts.num_records = records;
    ts.stream_size = size;
    memcpy(q, &ts, sizeof(ts));
    *dropped += ts.dropped;
    p += __tpuprof_rt_section_bytes(sizeof(ts) + size);
  }
  return p;
}

int __tpuprof_rt_threads_sections_locked(uint32_t gen,
                                         const tpuprof_rt_wfile *w,
                                         tpuprof_rt_tsec *out, uint32_t max) {
  uint32_t n = 0;
  for (rt_thread *t = threads_head; t; t = t->next) {
    if (t->gen != gen)
      continue;
    if (n == max || !t->map || t->wserial != w->serial)
      return -1;
    tpuprof_rt_tsec *s = &out[n++];
    s->section = t->wsec;
    s->tail = t->snap_tail;
    s->wrap = t->snap_wrap;
    s->pos = t->snap_pos;
    s->tid = t->tid;
    s->dropped = __atomic_load_n(&t->dropped, __ATOMIC_RELAXED);
  }
  return n == max ? 0 : -1;
}

int __tpuprof_rt_threads_detach_locked(const tpuprof_rt_wfile *w) {
  for (rt_thread *t = threads_head; t; t = t->next) {
    if (!t->map || t->wserial != w->serial)
      continue;
    // One mmap replaces the pages for the owner, which may be storing into
    // them right now (an end, a begin racing the close): each store lands
    // in the file before the call returns, or in the new zero pages. In
    // zero pages a record reads as 0 dims and 0 counters, so an end writes
    // only its `end` word, and a ring's bookkeeping steps 24 bytes at a
    // time inside the buffer: nothing the owner does there can fault.
    TPUPROF_RT_TSAN_IGNORE_BEGIN();
    void *m = mmap(t->map, t->map_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    TPUPROF_RT_TSAN_IGNORE_END();
    if (m == MAP_FAILED)
      return -1;
    t->wserial = 0; // No longer the file's: never "prepared" for a window.
    t->wsec = 0;
  }
  return 0;
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
  // The other threads' states describe threads that do not exist in the
  // child. Mark them exited so the next flush frees them; none of them
  // carries the child's new generation, so none is dumped.
  for (rt_thread *t = threads_head; t; t = t->next)
    if (t != tls_thread)
      t->exited = 1;
  if (tls_thread) {
    rt_thread *t = tls_thread;
    t->tid = (uint64_t)syscall(SYS_gettid);
    // Its buffer maps the parent's dump file: never write there again. With
    // gen 0, ends of probes the parent began write nothing either.
    if (t->map)
      release_buffer(t);
    t->gen = 0;
    __atomic_store_n(&t->pos, 0, __ATOMIC_RELAXED);
  }
  // Inherited groups count the parent's threads: reopen on the next probe.
  ++__tpuprof_rt_ctr_setgen;
}

uint32_t __tpuprof_rt_innermost_probe(void) {
  rt_thread *t = tls_thread;
  if (!t || t->depth == 0 || t->depth > TPUPROF_RT_STACK_DEPTH)
    return UINT32_MAX;
  return t->stack[t->depth - 1].probe;
}
