/*===- runtime/segments.c - A thread's segments of the dump -------*- C -*-===*\
|*                                                                            *|
|* A thread records into segments of the window's dump file that it takes as  *|
|* it fills them (16 KiB of records first, twice as much each time after, up  *|
|* to 256 KiB: its stage, which it reuses): memory and file grow with the     *|
|* records kept, and TPUPROF_RECORD_SIZE only caps them. Taking one is the    *|
|* hot path's slow path: the thread-list lock, and dump_file.c reserves,      *|
|* maps and populates it (docs/runtime.md, "Segments" and "Stages").          *|
|*                                                                            *|
|* Also the threads' side of a window's close: fixing each thread's current   *|
|* segment size and detaching every mapping of the window's file.             *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE 1 /* MADV_DONTFORK */
#include "rt_thread.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/// ThreadSanitizer counts an mmap as a write to the whole range; the one
/// that detaches a segment from its file is no access in the C sense, so
/// TSan is told to drop its history for the range instead.
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
#define TPUPROF_RT_TSAN_IGNORE_BEGIN()                                         \
  AnnotateIgnoreWritesBegin(__FILE__, __LINE__)
#define TPUPROF_RT_TSAN_IGNORE_END() AnnotateIgnoreWritesEnd(__FILE__, __LINE__)
#else
#define TPUPROF_RT_TSAN_IGNORE_BEGIN() ((void)0)
#define TPUPROF_RT_TSAN_IGNORE_END() ((void)0)
#endif

void (*__tpuprof_rt_test_segment_hook)(void);

/*===-- A dump file that shrinks under its mappings ----------------------===*/

/* Segments are MAP_SHARED mappings of the dump file, so that records survive
 * a crash of the program without a copy. Another process that truncates the
 * file (or removes its blocks) makes the next store into a page past the
 * new end fault with SIGBUS, which would kill the program. The hot path
 * cannot afford a check per record, so the fault itself is handled: a
 * SIGBUS handler, installed when the first segment is mapped, looks the
 * faulting address up among the mappings of the thread that faulted (a
 * store into a segment is always its owner's), swaps each of them for
 * anonymous memory at the same address (the same mmap MAP_FIXED a close
 * does, which is async-signal-safe) and returns, so the store is done
 * again into memory no dump reads; the dump is marked lost, and the next
 * slow path (segment, close) says so in one line and detaches every
 * thread. Any other SIGBUS goes to the handler that was installed before,
 * or takes its default action, as if the runtime were not there. The
 * segment slow path also checks the file's size, so a truncation is found
 * there even before a store faults (docs/reliability.md). */

static struct sigaction host_sigbus;
static int sigbus_installed;

/// Swaps the thread's mappings of the dump with serial `serial` for
/// anonymous memory. Async-signal-safe.
static void detach_thread_segments(rt_thread *t, uint32_t serial) {
  for (uint32_t i = 0; i < t->num_segs; ++i) {
    tpuprof_rt_segment *s = &t->segs[i];
    if (s->serial && s->serial == serial)
      (void)mmap(s->map, s->map_size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  }
}

static void on_sigbus(int sig, siginfo_t *info, void *uc) {
  int saved = errno;
  rt_thread *t = __tpuprof_rt_tls_thread;
  const uint8_t *a = (const uint8_t *)info->si_addr;
  if (t && info->si_code > 0) { // Raised by a fault, not sent.
    for (uint32_t i = 0; i < t->num_segs; ++i) {
      const tpuprof_rt_segment *s = &t->segs[i];
      if (a >= s->map && a < s->map + s->map_size) {
        detach_thread_segments(t, s->serial);
        __tpuprof_rt_dump_faulted = 1;
        errno = saved;
        return;
      }
    }
  }
  errno = saved;
  // Not the runtime's: what would have happened without it.
  if (host_sigbus.sa_flags & SA_SIGINFO) {
    host_sigbus.sa_sigaction(sig, info, uc);
    return;
  }
  if (host_sigbus.sa_handler != SIG_DFL && host_sigbus.sa_handler != SIG_IGN) {
    host_sigbus.sa_handler(sig);
    return;
  }
  if (host_sigbus.sa_handler == SIG_IGN && info->si_code <= 0)
    return; // A sent SIGBUS, ignored; a fault cannot be.
  // The default action, once this returns (the signal is blocked until
  // then; a fault happens again).
  struct sigaction dfl;
  memset(&dfl, 0, sizeof(dfl));
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  (void)sigaction(SIGBUS, &dfl, NULL);
  (void)raise(SIGBUS);
}

/// Installs on_sigbus once, before the first segment is mapped. Thread-list
/// lock held.
static void install_sigbus_handler(void) {
  if (sigbus_installed)
    return;
  sigbus_installed = 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = on_sigbus;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  (void)sigaction(SIGBUS, &sa, &host_sigbus);
}

/// Whether the window's dump may take another segment: its file is still
/// the dump's and whole (dump_file.c). When it is lost, every thread's
/// mapping of it is detached, so that no store faults on it.
static int dump_usable(rt_thread *t, tpuprof_rt_dump *d) {
  if (!d)
    return 0;
  if (d->state != TPUPROF_RT_DUMP_OPEN)
    return d->state == TPUPROF_RT_DUMP_PENDING;
  if (__tpuprof_rt_dump_check_locked(d) == 0)
    return 1;
  // FAILED, its serial still names its segments.
  (void)__tpuprof_rt_segments_close_locked(t->gen, d);
  return 0;
}

/*===-- Taking, sealing and reusing segments (thread-list lock held) -----===*/

/// Record bytes to ask for next: doubling from the first size to the
/// largest, the headers included so that sections fill whole pages; for a
/// ring, at most a quarter of the limit, in whole records of `unit` bytes,
/// so that reusing the oldest segment keeps at least three quarters of it.
static uint64_t next_segment_bytes(const rt_thread *t, uint64_t unit) {
  uint32_t shift = t->next_seq < 8 ? t->next_seq : 8;
  uint64_t bytes = (uint64_t)TPUPROF_RT_SEGMENT_FIRST << shift;
  if (bytes > TPUPROF_RT_SEGMENT_MAX)
    bytes = TPUPROF_RT_SEGMENT_MAX;
  bytes -= TPUPROF_RT_SEGMENT_HEADERS;
  if (t->ring && bytes > __tpuprof_rt_window_cap / 4)
    bytes = __tpuprof_rt_window_cap / 4 / unit * unit;
  return bytes;
}

/// Makes `s` (in t->segs) the segment records go to.
static uint8_t *use_segment(rt_thread *t, const tpuprof_rt_segment *s) {
  t->head = s->head;
  t->cur = s->base;
  t->lim = s->base + s->capacity;
  return t->cur;
}

/// Fixes the current segment's record bytes, in its header (for a dump that
/// is never closed) and in the writer's table.
static void seal_current(rt_thread *t, tpuprof_rt_dump *d) {
  if (!t->num_segs)
    return;
  tpuprof_rt_segment *s = &t->segs[t->num_segs - 1];
  uint64_t used = (uint64_t)(t->cur - s->base);
  // The tail no record fitted in is not kept: the limit counts records. (A
  // ring keeps its segments' room: it reuses them whole.)
  if (!t->ring) {
    t->taken -= s->capacity - used;
    s->capacity = used;
  }
  __atomic_store_n(&s->head->stream_size, TPUPROF_RT_LE64(used),
                   __ATOMIC_RELAXED);
  if (d && s->serial == d->serial)
    __tpuprof_rt_dump_set_used_locked(d, s->slot, used);
}

/// Ring: the oldest segment becomes the newest. Its records are counted as
/// overwritten, open probes whose record was there write nothing at their
/// end, and it is cleared so that the scan of an incomplete dump never
/// reads the old records as new ones.
static uint8_t *reuse_oldest(rt_thread *t, tpuprof_rt_dump *d) {
  tpuprof_rt_segment s = t->segs[0];
  tpuprof_segment_section *h = s.head;
  uint64_t used =
      TPUPROF_RT_LE64(__atomic_load_n(&h->stream_size, __ATOMIC_RELAXED));
  uint64_t records = 0;
  for (uint64_t off = 0; off + sizeof(tpuprof_record) <= used; ++records) {
    const tpuprof_record *r = (const tpuprof_record *)(s.base + off);
    off += TPUPROF_RECORD_BYTES(r->num_dims, r->num_counters);
  }
  uint32_t depth =
      t->depth < TPUPROF_RT_STACK_DEPTH ? t->depth : TPUPROF_RT_STACK_DEPTH;
  for (uint32_t i = 0; i < depth; ++i) {
    uint8_t *r = (uint8_t *)t->stack[i].rec;
    if (r >= s.base && r < s.base + s.capacity)
      t->stack[i].rec = NULL;
  }
  // Scanned again (size 0) and empty (first begin 0) before it changes.
  __atomic_store_n(&h->stream_size, 0, __ATOMIC_RELAXED);
  if (used)
    __atomic_store_n(&((tpuprof_record *)s.base)->begin, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&h->seq, TPUPROF_RT_LE32(t->next_seq++), __ATOMIC_RELAXED);
  __atomic_store_n(
      &h->dropped_overwritten,
      TPUPROF_RT_LE64(TPUPROF_RT_LE64(h->dropped_overwritten) + records),
      __ATOMIC_RELAXED);
  memset(s.base, 0, used);
  if (d && s.serial == d->serial)
    __tpuprof_rt_dump_set_used_locked(d, s.slot, 0);
  memmove(t->segs, t->segs + 1, (t->num_segs - 1) * sizeof(s));
  t->segs[t->num_segs - 1] = s;
  return use_segment(t, &t->segs[t->num_segs - 1]);
}

/// Parks the open probes whose records are in the first `used` bytes of
/// stage `s`, just written to the file at `at` (dump `serial`): their ends
/// go to the written copies (end_parked), since the stage starts over.
static void park_open_records(rt_thread *t, const tpuprof_rt_segment *s,
                              uint64_t used, uint64_t at, uint32_t serial) {
  uint32_t depth =
      t->depth < TPUPROF_RT_STACK_DEPTH ? t->depth : TPUPROF_RT_STACK_DEPTH;
  for (uint32_t i = 0; i < depth; ++i) {
    rt_stack_entry *e = &t->stack[i];
    const uint8_t *r = (const uint8_t *)e->rec;
    if (e->gen != t->gen || r < s->base || r >= s->base + used)
      continue;
    if (!t->parked && !(t->parked = (rt_parked *)calloc(TPUPROF_RT_STACK_DEPTH,
                                                        sizeof(rt_parked)))) {
      e->rec = NULL; // No memory: the written record stays unfinished.
      continue;
    }
    const tpuprof_record *rec = (const tpuprof_record *)r;
    rt_parked *k = &t->parked[i];
    k->rec = *rec;
    k->rec.num_dims = 0;
    memcpy(k->words, (const uint64_t *)(rec + 1) + rec->num_dims,
           8u * rec->num_counters);
    k->at = at + (uint64_t)(r - s->base);
    k->serial = serial;
    k->num_dims = rec->num_dims;
    e->rec = &k->rec;
    e->gen = t->gen | TPUPROF_RT_GEN_PARKED;
  }
}

/// The thread's stage (its largest segment, stop policy) is full: its
/// records go to a section of their own by one write, and it starts over,
/// so that a thread recording a lot reuses the same mapped pages, warm in
/// the cache, instead of faulting in new ones (docs/runtime.md, "Stages").
static uint8_t *restart_stage(rt_thread *t, tpuprof_rt_dump *d, uint64_t left) {
  tpuprof_rt_segment *s = &t->segs[t->num_segs - 1];
  uint64_t used = (uint64_t)(t->cur - s->base);
  uint64_t at = 0;
  if (!d || __tpuprof_rt_dump_write_stage_locked(d, s, used, &at) != 0) {
    t->out = TPUPROF_RT_OUT_NO_SPACE; // The stage keeps what it holds.
    return NULL;
  }
  park_open_records(t, s, used, at, d->serial);
  // The lap and its counts belong to the written copy now. Cleared first,
  // the next seq last: until then the reader of a crash dump sees the lap
  // twice under one seq and keeps the written copy.
  memset(s->base, 0, used);
  tpuprof_segment_section *h = s->head;
  __atomic_store_n(&h->dropped_full, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&h->dropped_overwritten, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&h->dropped_depth, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&h->dropped_no_space, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&h->unwound, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&h->seq, TPUPROF_RT_LE32(t->next_seq++), __ATOMIC_RELEASE);
  t->taken -= s->capacity - used;
  s->capacity = s->room < left ? s->room : left;
  t->taken += s->capacity;
  return use_segment(t, s);
}

/// Whether `s` is a stage: a stop-policy thread's segment of the largest
/// size, which it reuses rather than taking another.
static int is_stage(const rt_thread *t, const tpuprof_rt_segment *s) {
  return !t->ring &&
         s->room >= TPUPROF_RT_SEGMENT_MAX - TPUPROF_RT_SEGMENT_HEADERS;
}

/// Gives the thread room for a `need`-byte record: a new segment, its stage
/// again, or the oldest segment again (ring), or none (t->out says why, if
/// for good). The current segment is sealed only when another takes its
/// place.
static uint8_t *next_segment_locked(rt_thread *t, uint64_t need) {
  tpuprof_rt_dump *d = __tpuprof_rt_dump;
  if (TPUPROF_RT_UNLIKELY(__tpuprof_rt_test_segment_hook != NULL))
    __tpuprof_rt_test_segment_hook();
  // Slow-path checks of what the program may have done meanwhile: closed
  // the runtime's descriptors, truncated the dump.
  __tpuprof_rt_group_check(&t->grp);
  if (!dump_usable(t, d)) {
    t->out = TPUPROF_RT_OUT_NO_SPACE;
    return NULL;
  }
  uint64_t cap = __tpuprof_rt_window_cap;
  uint64_t taken = t->taken;
  if (t->num_segs && !t->ring) // The current segment's tail comes back.
    taken -= t->segs[t->num_segs - 1].capacity -
             (uint64_t)(t->cur - t->segs[t->num_segs - 1].base);
  uint64_t left = cap > taken ? cap - taken : 0;
  if (left < need) {
    if (!t->ring || !t->num_segs) {
      t->out = TPUPROF_RT_OUT_FULL;
      return NULL;
    }
    // A record larger than the oldest segment's room (more dims than the
    // records it was taken for) is dropped, counted by make_room, and
    // overwrites nothing; smaller ones still fit.
    if (need > t->segs[0].capacity)
      return NULL;
    seal_current(t, d);
    return reuse_oldest(t, d);
  }
  if (t->num_segs && is_stage(t, &t->segs[t->num_segs - 1]))
    return restart_stage(t, d, left);
  if (t->num_segs == t->segs_capacity) {
    uint32_t n = t->segs_capacity ? t->segs_capacity * 2 : 8;
    tpuprof_rt_segment *grown =
        (tpuprof_rt_segment *)realloc(t->segs, n * sizeof(*grown));
    if (!grown) {
      t->out = TPUPROF_RT_OUT_NO_SPACE;
      return NULL;
    }
    t->segs = grown;
    t->segs_capacity = n;
  }
  uint64_t want =
      next_segment_bytes(t, need ? need : TPUPROF_RECORD_BYTES(0, t->words));
  if (want > left)
    want = left;
  if (want < need)
    want = need;
  uint32_t no = t->thread_no != UINT32_MAX ? t->thread_no : d ? d->threads : 0;
  tpuprof_rt_segment *s = &t->segs[t->num_segs];
  install_sigbus_handler();
  if (!d || __tpuprof_rt_dump_add_segment_locked(d, t->tid, no, t->next_seq,
                                                 want, s) != 0) {
    t->out = TPUPROF_RT_OUT_NO_SPACE;
    return NULL;
  }
  seal_current(t, d);
  if (t->thread_no == UINT32_MAX)
    t->thread_no = d->threads++;
  ++t->next_seq;
  ++t->num_segs;
  // The writer rounds up to whole pages; the limit still caps the
  // capacity, and a ring's segments keep to their quarter.
  if (s->capacity > left)
    s->capacity = left;
  if (t->ring && s->capacity > want)
    s->capacity = want;
  t->taken += s->capacity;
  return use_segment(t, s);
}

/*===-- Entering a window and making room -------------------------------===*/

/// Makes `t` the state of window `gen`: the earlier window's segments
/// left, its counter group synced, its first segment taken.
static void enter_locked(rt_thread *t, uint32_t gen) {
  __tpuprof_rt_release_segments(t);
  t->taken = 0;
  t->out = TPUPROF_RT_OUT_NONE;
  t->thread_no = UINT32_MAX;
  t->next_seq = 0;
  t->ring = __tpuprof_rt_window_ring;
  // Lazily (re)open the thread's counter group: first probe of the thread,
  // or the window's event set changed since it was opened.
  t->words = __tpuprof_rt_group_sync(&t->grp);
  t->gen = gen;
  tpuprof_rt_dump *d = __tpuprof_rt_dump;
  if (d && d->state == TPUPROF_RT_DUMP_PENDING)
    __tpuprof_rt_dump_create(d); // A forked child's first record.
  (void)next_segment_locked(t, 0);
}

rt_thread *__tpuprof_rt_enter_window(void) {
  if (__tpuprof_rt_thread_exiting() ||
      !__atomic_load_n(&__tpuprof_enabled, __ATOMIC_ACQUIRE))
    return NULL;
  if (TPUPROF_RT_UNLIKELY(__tpuprof_rt_locks_held())) {
    // A probe in a signal handler that interrupted this thread inside the
    // runtime: the lock it needs may be the one the thread holds.
    __atomic_fetch_add(&__tpuprof_rt_lost, 1, __ATOMIC_RELAXED);
    return NULL;
  }
  __tpuprof_rt_threads_init();
  rt_thread *t = __tpuprof_rt_tls_thread;
  __tpuprof_rt_threads_lock();
  uint32_t gen = __tpuprof_rt_gen;
  if (!__atomic_load_n(&__tpuprof_enabled, __ATOMIC_RELAXED)) {
    __tpuprof_rt_threads_unlock();
    return NULL;
  }
  if (t && t->gen == gen) { // Another path already entered.
    __tpuprof_rt_threads_unlock();
    return t;
  }
  if (!t && !(t = __tpuprof_rt_thread_state_locked())) {
    __tpuprof_rt_threads_unlock();
    __atomic_fetch_add(&__tpuprof_rt_lost, 1, __ATOMIC_RELAXED);
    return NULL;
  }
  enter_locked(t, gen);
  __tpuprof_rt_threads_unlock();
  return t;
}

void __tpuprof_rt_segments_enter_locked(void) {
  rt_thread *t = __tpuprof_rt_tls_thread;
  tpuprof_rt_dump *d = __tpuprof_rt_dump;
  // A window whose file its first record creates keeps it so: a process
  // that never records leaves no file.
  if (t && d && d->state == TPUPROF_RT_DUMP_OPEN)
    enter_locked(t, __tpuprof_rt_gen);
}

/// A begin that no segment can take: counted by the reason.
static void count_out(rt_thread *t) {
  if (t->out == TPUPROF_RT_OUT_FULL)
    COUNT(t, dropped_full);
  else if (t->out == TPUPROF_RT_OUT_NO_SPACE)
    COUNT(t, dropped_no_space);
}

uint8_t *__tpuprof_rt_make_room(rt_thread *t, uint64_t need) {
  uint8_t *p = NULL;
  if (!t->out) {
    if (TPUPROF_RT_UNLIKELY(__tpuprof_rt_locks_held())) {
      // A signal handler's probe on a thread inside the runtime: never
      // wait on a lock the thread may hold. The segment's counts may be
      // in the middle of a change: the window's count takes it.
      __atomic_fetch_add(&__tpuprof_rt_lost, 1, __ATOMIC_RELAXED);
      return NULL;
    }
    __tpuprof_rt_threads_lock();
    // A begin racing the close of its window belongs to no dump.
    if (t->gen != __tpuprof_rt_gen) {
      __tpuprof_rt_threads_unlock();
      return NULL;
    }
    p = next_segment_locked(t, need);
    __tpuprof_rt_threads_unlock();
  }
  if (!p && t->out)
    count_out(t);
  else if (!p)
    COUNT(t, dropped_full); // Larger than a ring's segment.
  return p;
}

/*===-- The close (thread-list lock held) --------------------------------===*/

int __tpuprof_rt_segments_close_locked(uint32_t gen, tpuprof_rt_dump *d) {
  int err = 0;
  for (rt_thread *t = __tpuprof_rt_threads_first_locked(); t; t = t->next) {
    if (t->gen == gen && t->num_segs) {
      const tpuprof_rt_segment *s = &t->segs[t->num_segs - 1];
      uint8_t *cur = __atomic_load_n(&t->cur, __ATOMIC_ACQUIRE);
      if (s->serial == d->serial)
        __tpuprof_rt_dump_set_used_locked(d, s->slot,
                                          (uint64_t)(cur - s->base));
    }
    for (uint32_t i = 0; i < t->num_segs; ++i) {
      tpuprof_rt_segment *s = &t->segs[i];
      if (!s->serial || s->serial != d->serial)
        continue;
      // One mmap replaces the pages for the owner, which may be storing into
      // them right now (an end, a begin racing the close): each store lands
      // in the file before the call returns, or in the new zero pages. In
      // zero pages a record reads as 0 dims and 0 counters, so an end writes
      // only its `end` word: nothing the owner does there can fault.
      TPUPROF_RT_TSAN_IGNORE_BEGIN();
      void *m = mmap(s->map, s->map_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
      TPUPROF_RT_TSAN_IGNORE_END();
      if (m == MAP_FAILED) {
        err = errno;
        continue;
      }
      (void)madvise(m, s->map_size, MADV_DONTFORK);
      s->serial = 0;
    }
  }
  if (err) {
    errno = err;
    return -1;
  }
  return 0;
}
