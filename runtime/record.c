/*===- runtime/record.c - The probe hot path and thread states -----*- C -*-===*\
|*                                                                            *|
|* __tpuprof_begin/_dims/_end run on every probe while a window is open, so   *|
|* they take no lock, allocate nothing and make no system call: one TLS load, *|
|* one load of the window generation, a few stores into the thread's current  *|
|* segment and one clock read each.                                           *|
|*                                                                            *|
|* Segments. A thread records into segments of the window's dump file that    *|
|* it takes as it fills them (16 KiB of records first, twice as much each     *|
|* time after, up to 1 MiB: its stage, which it reuses): memory and file      *|
|* grow with the records kept, and TPUPROF_RECORD_SIZE only caps them. Taking *|
|* one is the slow path: the thread-list lock, and dump_file.c reserves,      *|
|* maps and populates it.                                                     *|
|*                                                                            *|
|* Ownership. Each thread owns a state (rt_thread) with its segments and its  *|
|* stack of open probes. Only the owner writes them. A close (control.c)      *|
|* reads them from another thread, so:                                        *|
|*   - `cur` is published with a release store after the record is complete, *|
|*     and the closer keeps only bytes below the `cur` it acquired;           *|
|*   - `end`, the one field written after publication, is stored with a      *|
|*     release store;                                                         *|
|*   - segments are taken, sealed and reused only under the thread-list lock, *|
|*     which the closer holds while it fixes their sizes and detaches them    *|
|*     from the file (afterwards the owner's stores land in anonymous memory).*|
|* A record begun just as a window closes may land above the fixed size: it   *|
|* then belongs to no dump, which is the right answer for a probe that        *|
|* straddles the boundary.                                                    *|
|*                                                                            *|
|* Non-local exits. Each stack entry keeps the frame of its begin's caller    *|
|* (its CFA). A probe the passes insert begins and ends in one function, so   *|
|* when a later begin comes from a frame above that one, or from the same     *|
|* frame for the same probe again, the function was left without the end: a  *|
|* longjmp, an exception or a cancellation skipped it. Such entries are       *|
|* closed as unfinished (end = 0, counted as `unwound`) before the new begin, *|
|* so the stack never leaks. User ranges may end in another function: their  *|
|* entries are not bound to a frame.                                          *|
|*                                                                            *|
|* Thread exit. A pthread key destructor marks the state exited; it stays on  *|
|* the list until the window it recorded in is closed, then it is freed.      *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE 1 /* pthread_getattr_np, MADV_DONTFORK */
#include "rt_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
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
#define TPUPROF_RT_TSAN_IGNORE_BEGIN() AnnotateIgnoreWritesBegin(__FILE__, __LINE__)
#define TPUPROF_RT_TSAN_IGNORE_END() AnnotateIgnoreWritesEnd(__FILE__, __LINE__)
#else
#define TPUPROF_RT_TSAN_IGNORE_BEGIN() ((void)0)
#define TPUPROF_RT_TSAN_IGNORE_END() ((void)0)
#endif

#define TPUPROF_RT_INITIAL_EXEC __attribute__((tls_model("initial-exec")))
/// The hot path's out-of-line calls keep every register but r11 (clang's
/// preserve_most), so the probes need not save registers around them.
#if defined(__clang__) && defined(__x86_64__)
#define TPUPROF_RT_KEEPS_REGS __attribute__((preserve_most))
#else
#define TPUPROF_RT_KEEPS_REGS
#endif
#define TPUPROF_RT_NOINLINE                                                    \
  __attribute__((noinline, cold)) TPUPROF_RT_KEEPS_REGS
#define TPUPROF_RT_INLINE static inline __attribute__((always_inline))

/// Stack entry `frame` of a probe that may end in another function.
#define FRAME_FREE UINTPTR_MAX

/// Stack entry `gen` bit of a parked record (window generations skip it).
#define GEN_PARKED 0x80000000u

/// One open probe. `gen` is the window the record was written in (0 when it
/// was not written), so an end in a later window leaves that window alone;
/// with GEN_PARKED, `rec` is the record's parked copy (below).
typedef struct rt_stack_entry {
  uint32_t probe;      ///< Probe id passed to begin (matched by end).
  uint32_t gen;        ///< Window generation of the record.
  tpuprof_record *rec; ///< The record, NULL when none was written.
  uintptr_t frame;     ///< CFA of the begin's caller, or FRAME_FREE.
} rt_stack_entry;

/// An open probe's record whose stage lap was written to the file: the end
/// goes to this copy (first, so that end_counters finds the counter words
/// right after it), then to the file at `at` (the thread-list lock held).
typedef struct rt_parked {
  tpuprof_record rec; ///< The record, num_dims 0: ...
  uint64_t words[TPUPROF_RT_MAX_WORDS]; ///< ... its counter words follow.
  uint64_t at;        ///< File offset of the written record.
  uint32_t serial;    ///< Of the dump it was written to.
  uint32_t num_dims;  ///< Its dimension words in the file.
} rt_parked;

/// Why a thread takes no more segments in this window.
enum {
  OUT_NONE = 0,     ///< It may.
  OUT_FULL = 1,     ///< Its record limit is reached (stop policy).
  OUT_NO_SPACE = 2, ///< The dump could not grow (or does not exist).
  OUT_PRIVATE = 3,  ///< A calibration's private buffer: never.
};

/// A thread's recording state. The first cache line holds everything a
/// probe pair touches except the stack entry and the record itself.
typedef struct rt_thread {
  // --- Hot: owner-written on every probe. ---
  uint8_t *cur;   ///< Next record; release-stored, read by the closer.
  uint8_t *lim;   ///< End of the current segment's room.
  tpuprof_segment_section *head; ///< Current segment's header (its drop
                                 ///< counts), NULL when there is none.
  uint32_t gen;   ///< Window generation the segments belong to (0: none).
  uint32_t depth; ///< Open probes, including ones not on the stack.
  uint32_t words; ///< Counter words per record in this window (mode 1/2).
  uint32_t out;   ///< OUT_*: why no more segments are taken.
  // --- Cold: slow path and closer, under the thread-list lock. ---
  struct rt_thread *next;
  uint64_t tid;        ///< OS thread id.
  uint64_t taken;      ///< Record bytes of the segments taken this window.
  uint32_t thread_no;  ///< SEGMENT `thread`; UINT32_MAX before the first.
  uint32_t next_seq;   ///< SEGMENT `seq` of the next segment.
  int ring;            ///< Full-buffer policy of this window: 1 ring.
  int exited;          ///< The thread has exited; free after its close.
  uintptr_t stack_lo;  ///< The thread's stack, [lo, hi); both 0 when
  uintptr_t stack_hi;  ///< unknown. Frames elsewhere never unwind.
  /// The first probe begun beyond the stack (depth 256), which encloses
  /// every deeper one: when its frame is gone, so are theirs.
  uintptr_t overflow_frame;
  uint32_t overflow_probe;
  /// This window's segments, oldest first (the last is current), or an
  /// earlier window's (detached) until the thread enters the next one.
  tpuprof_rt_segment *segs;
  uint32_t num_segs, segs_capacity;
  /// Parked records, by stack index; allocated at the first one.
  rt_parked *parked;
  tpuprof_rt_group grp; ///< perf_event group (counters.c).
  rt_stack_entry stack[TPUPROF_RT_STACK_DEPTH] __attribute__((aligned(64)));
} __attribute__((aligned(64))) rt_thread;

/// The calling thread's state. initial-exec keeps the access to one
/// %fs-relative load; a pointer (8 bytes) keeps the static TLS the library
/// needs small enough for dlopen.
static __thread rt_thread *tls_thread TPUPROF_RT_INITIAL_EXEC;
/// Set by the key destructor: the thread is exiting and must not get a new
/// state (its old one may already be freed by a close).
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
  if (g == 0 || (g & GEN_PARKED)) // 0 marks "no record" in stack entries.
    g = 1;
  __atomic_store_n(&__tpuprof_rt_gen, g, __ATOMIC_RELEASE);
  return g;
}

/*===-- Clock, inline copy for the hot path ------------------------------===*/

static TPUPROF_RT_NOINLINE uint64_t monotonic_now(void) {
  return __tpuprof_rt_monotonic_ns();
}

TPUPROF_RT_INLINE uint64_t rt_now(void) {
#if TPUPROF_RT_HAVE_TSC
  if (TPUPROF_RT_LIKELY(__tpuprof_rt_use_tsc))
    return __rdtsc();
#endif
  // Out of line: a struct timespec here would give every probe a stack
  // frame and callee-saved register spills, even on the rdtsc path.
  return monotonic_now();
}

/* A plain rdtsc is not ordered with the instructions before it: the core
 * reads it as soon as it is decoded, while the op's work may still be in
 * flight. An op shorter than the core's reorder window (tens of ns) then
 * measured a fraction of its time (a 33 ns dependent chain read 17 ns) and
 * the rest landed after its end, where no correction can find it. So end
 * lets everything earlier finish, then reads: rdtscp, which waits for the
 * instructions before it and lets later ones start (the runtime's own work
 * after the read overlaps it), as XRay reads; lfence; rdtsc where the CPU
 * has no rdtscp. Ordering costs ~6 ns a pair, rdtscp a little less than
 * lfence; rdtsc (bench/probe_overhead rows (j)-(l), the reads alone), and
 * it makes what a pair costs between real work what it costs between
 * empty pairs, which is what the calibration measures (docs/report.md,
 * "Probe overhead correction"). Begin's read has no fence: what runs
 * before it is the runtime's, and a fence after it cost 5 ns a pair more
 * and made no op of bench/correction_truth more accurate. CLOCK_MONOTONIC's
 * vDSO read is ordered already. */
TPUPROF_RT_INLINE uint64_t rt_now_end(void) {
#if TPUPROF_RT_HAVE_TSC
  int ticks = __tpuprof_rt_use_tsc;
  if (TPUPROF_RT_LIKELY(ticks == TPUPROF_RT_TICKS_TSC_RDTSCP)) {
    unsigned aux;
    return __rdtscp(&aux);
  }
  if (ticks) {
    _mm_lfence();
    return __rdtsc();
  }
#endif
  return __tpuprof_rt_monotonic_ns();
}

/*===-- Counting what is not kept ----------------------------------------===*/

/// Adds one to the current segment's count at byte `offset` of its header
/// (only the owner writes it; relaxed atomics, since the file is its copy
/// for a dump that is never closed), or to the window's lost count when the
/// thread has no segment.
TPUPROF_RT_INLINE void count_in_segment(rt_thread *t, size_t offset) {
  if (TPUPROF_RT_LIKELY(t->head != NULL)) {
    uint64_t *c = (uint64_t *)((uint8_t *)t->head + offset);
    __atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
  } else if (t->out != OUT_PRIVATE) {
    __atomic_fetch_add(&__tpuprof_rt_lost, 1, __ATOMIC_RELAXED);
  }
}

#define COUNT(t, field)                                                        \
  count_in_segment((t), offsetof(tpuprof_segment_section, field))

/// A begin that no segment can take: counted by the reason.
static void count_out(rt_thread *t) {
  if (t->out == OUT_FULL)
    COUNT(t, dropped_full);
  else if (t->out == OUT_NO_SPACE)
    COUNT(t, dropped_no_space);
}

/// Open probe `e` is closed without its end.
static void count_unwound(rt_thread *t, const rt_stack_entry *e) {
  if ((e->gen & ~GEN_PARKED) == t->gen && e->rec)
    COUNT(t, unwound);
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

/// Unmaps the thread's segments (an earlier window's, detached from its
/// file; or, at thread exit, any). Lock held, and either the owner calls it
/// or the owner no longer records into them.
static void release_segments(rt_thread *t) {
  for (uint32_t i = 0; i < t->num_segs; ++i)
    munmap(t->segs[i].map, t->segs[i].map_size);
  t->num_segs = 0;
  t->head = NULL;
  t->cur = t->lim = NULL;
}

static void free_thread(rt_thread *t) {
  __tpuprof_rt_group_close(&t->grp);
  release_segments(t);
  free(t->segs);
  free(t->parked);
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
    // Its records belong to the open window: keep them. Probes still open
    // never end (pthread_exit, a cancellation): closed as unfinished.
    uint32_t d = t->depth < TPUPROF_RT_STACK_DEPTH ? t->depth
                                                   : TPUPROF_RT_STACK_DEPTH;
    for (uint32_t i = 0; i < d; ++i)
      count_unwound(t, &t->stack[i]);
    t->exited = 1;
  } else {
    unlink_locked(t); // Already closed (or never recorded).
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
  tls_thread = t;
  return t;
}

void __tpuprof_rt_prepare_thread(void) {
  if (tls_exiting)
    return;
  __tpuprof_rt_threads_init();
  pthread_mutex_lock(&threads_mutex);
  rt_thread *t = tls_thread ? tls_thread : create_thread_locked();
  // Open the counter group now: perf_event_open is not window time.
  if (t)
    (void)__tpuprof_rt_group_sync(&t->grp);
  pthread_mutex_unlock(&threads_mutex);
}

/*===-- Segments (slow path, thread-list lock held) ----------------------===*/

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
  __atomic_store_n(&s->head->stream_size, used, __ATOMIC_RELAXED);
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
  uint64_t used = __atomic_load_n(&h->stream_size, __ATOMIC_RELAXED);
  uint64_t records = 0;
  for (uint64_t off = 0; off + sizeof(tpuprof_record) <= used; ++records) {
    const tpuprof_record *r = (const tpuprof_record *)(s.base + off);
    off += TPUPROF_RECORD_BYTES(r->num_dims, r->num_counters);
  }
  uint32_t depth = t->depth < TPUPROF_RT_STACK_DEPTH ? t->depth
                                                     : TPUPROF_RT_STACK_DEPTH;
  for (uint32_t i = 0; i < depth; ++i) {
    uint8_t *r = (uint8_t *)t->stack[i].rec;
    if (r >= s.base && r < s.base + s.capacity)
      t->stack[i].rec = NULL;
  }
  // Scanned again (size 0) and empty (first begin 0) before it changes.
  __atomic_store_n(&h->stream_size, 0, __ATOMIC_RELAXED);
  if (used)
    __atomic_store_n(&((tpuprof_record *)s.base)->begin, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&h->seq, t->next_seq++, __ATOMIC_RELAXED);
  __atomic_store_n(&h->dropped_overwritten, h->dropped_overwritten + records,
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
  uint32_t depth = t->depth < TPUPROF_RT_STACK_DEPTH ? t->depth
                                                     : TPUPROF_RT_STACK_DEPTH;
  for (uint32_t i = 0; i < depth; ++i) {
    rt_stack_entry *e = &t->stack[i];
    const uint8_t *r = (const uint8_t *)e->rec;
    if (e->gen != t->gen || r < s->base || r >= s->base + used)
      continue;
    if (!t->parked &&
        !(t->parked = (rt_parked *)calloc(TPUPROF_RT_STACK_DEPTH,
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
    e->gen = t->gen | GEN_PARKED;
  }
}

/// The thread's stage (its largest segment, stop policy) is full: its
/// records go to a section of their own by one write, and it starts over,
/// so that a thread recording a lot reuses the same mapped pages, warm in
/// the cache, instead of faulting in new ones (docs/runtime.md, "Stages").
static uint8_t *restart_stage(rt_thread *t, tpuprof_rt_dump *d,
                              uint64_t left) {
  tpuprof_rt_segment *s = &t->segs[t->num_segs - 1];
  uint64_t used = (uint64_t)(t->cur - s->base);
  uint64_t at = 0;
  if (!d || __tpuprof_rt_dump_write_stage_locked(d, s, used, &at) != 0) {
    t->out = OUT_NO_SPACE; // The stage keeps what it holds.
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
  __atomic_store_n(&h->seq, t->next_seq++, __ATOMIC_RELEASE);
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
  uint64_t cap = __tpuprof_rt_window_cap;
  uint64_t taken = t->taken;
  if (t->num_segs && !t->ring) // The current segment's tail comes back.
    taken -= t->segs[t->num_segs - 1].capacity - (uint64_t)(t->cur -
             t->segs[t->num_segs - 1].base);
  uint64_t left = cap > taken ? cap - taken : 0;
  if (left < need) {
    if (!t->ring || !t->num_segs) {
      t->out = OUT_FULL;
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
      t->out = OUT_NO_SPACE;
      return NULL;
    }
    t->segs = grown;
    t->segs_capacity = n;
  }
  uint64_t want = next_segment_bytes(
      t, need ? need : TPUPROF_RECORD_BYTES(0, t->words));
  if (want > left)
    want = left;
  if (want < need)
    want = need;
  uint32_t no = t->thread_no != UINT32_MAX ? t->thread_no : d ? d->threads : 0;
  tpuprof_rt_segment *s = &t->segs[t->num_segs];
  if (!d || __tpuprof_rt_dump_add_segment_locked(d, t->tid, no, t->next_seq,
                                                 want, s) != 0) {
    t->out = OUT_NO_SPACE;
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

/// Makes the calling thread's state current for the open window: creates it
/// on the thread's first probe, and leaves the earlier window's segments on
/// its first probe in a new window. Returns NULL when it cannot record.
static rt_thread *enter_window(void) {
  if (tls_exiting || !__atomic_load_n(&__tpuprof_enabled, __ATOMIC_ACQUIRE))
    return NULL;
  __tpuprof_rt_threads_init();
  rt_thread *t = tls_thread;
  pthread_mutex_lock(&threads_mutex);
  uint32_t gen = __tpuprof_rt_gen;
  if (!__atomic_load_n(&__tpuprof_enabled, __ATOMIC_RELAXED)) {
    pthread_mutex_unlock(&threads_mutex);
    return NULL;
  }
  if (t && t->gen == gen) { // Another path already entered.
    pthread_mutex_unlock(&threads_mutex);
    return t;
  }
  if (!t && !(t = create_thread_locked())) {
    pthread_mutex_unlock(&threads_mutex);
    __atomic_fetch_add(&__tpuprof_rt_lost, 1, __ATOMIC_RELAXED);
    return NULL;
  }
  release_segments(t);
  t->taken = 0;
  t->out = OUT_NONE;
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
  pthread_mutex_unlock(&threads_mutex);
  return t;
}

/// Begin's path when the record does not fit the current segment.
static TPUPROF_RT_NOINLINE uint8_t *make_room(rt_thread *t, uint64_t need) {
  uint8_t *p = NULL;
  if (!t->out) {
    pthread_mutex_lock(&threads_mutex);
    // A begin racing the close of its window belongs to no dump.
    if (t->gen != __tpuprof_rt_gen) {
      pthread_mutex_unlock(&threads_mutex);
      return NULL;
    }
    p = next_segment_locked(t, need);
    pthread_mutex_unlock(&threads_mutex);
  }
  if (!p && t->out)
    count_out(t);
  else if (!p)
    COUNT(t, dropped_full); // Larger than a ring's segment.
  return p;
}

/*===-- Non-local exits --------------------------------------------------===*/

TPUPROF_RT_INLINE int on_stack(const rt_thread *t, uintptr_t frame) {
  return !t->stack_hi || (frame >= t->stack_lo && frame < t->stack_hi);
}

/// Whether a begin of `probe` from `frame` shows that a probe begun from
/// `open_frame` (`open_probe`) was left: the begin comes from a frame
/// above it, or from the same frame for the same probe again.
TPUPROF_RT_INLINE int left(uintptr_t frame, uint32_t probe,
                           uintptr_t open_frame, uint32_t open_probe) {
  return frame > open_frame || (frame == open_frame && probe == open_probe);
}

/// A begin from `frame` found the innermost open probe's frame gone: closes
/// every such entry from the top as unfinished and returns the new depth.
/// Beyond the stack (deep recursion) only the first probe's frame is known:
/// when it is gone, every deeper one is too (they wrote no record).
static TPUPROF_RT_NOINLINE uint32_t unwind(rt_thread *t, uint32_t depth,
                                           uint32_t probe, uintptr_t frame) {
  // A frame off the thread's stack (a signal handler on an alternate
  // stack, a fiber) says nothing about the probes on it.
  if (!on_stack(t, frame))
    return depth;
  if (depth > TPUPROF_RT_STACK_DEPTH) {
    if (!on_stack(t, t->overflow_frame) ||
        !left(frame, probe, t->overflow_frame, t->overflow_probe))
      return depth;
    depth = TPUPROF_RT_STACK_DEPTH;
  }
  while (depth > 0) {
    const rt_stack_entry *e = &t->stack[depth - 1];
    if (e->frame == FRAME_FREE || !on_stack(t, e->frame) ||
        !left(frame, probe, e->frame, e->probe))
      break;
    count_unwound(t, e);
    --depth;
  }
  return depth;
}

/*===-- The hot path -----------------------------------------------------===*/

/// The innermost open probe, if the begin of `probe` from `frame` proves
/// its frame was left: the check every begin makes (two compares).
TPUPROF_RT_INLINE uint32_t settle_depth(rt_thread *t, uint32_t probe,
                                        uintptr_t frame) {
  uint32_t d = t->depth;
  if (TPUPROF_RT_LIKELY(d - 1u < TPUPROF_RT_STACK_DEPTH)) {
    const rt_stack_entry *top = &t->stack[d - 1];
    if (TPUPROF_RT_UNLIKELY(left(frame, probe, top->frame, top->probe)))
      d = unwind(t, d, probe, frame);
  } else if (TPUPROF_RT_UNLIKELY(d)) {
    d = unwind(t, d, probe, frame);
  }
  return d;
}

/// A begin beyond the stack: the first one's frame stands for them all.
static TPUPROF_RT_NOINLINE void too_deep(rt_thread *t, uint32_t depth,
                                         uint32_t probe, uintptr_t bind) {
  if (depth == TPUPROF_RT_STACK_DEPTH) {
    t->overflow_frame = bind;
    t->overflow_probe = probe;
  }
}

/// Begin's slow path: the thread has no state yet or it belongs to an
/// older window. Returns the state to record into, or NULL after keeping
/// the stack balanced for an end that will follow.
static TPUPROF_RT_NOINLINE rt_thread *begin_slow(uint32_t probe,
                                                 uintptr_t frame,
                                                 uintptr_t bind) {
  rt_thread *t = enter_window();
  if (t)
    return t;
  t = tls_thread;
  if (t) {
    // Not recording (window closed, or no state), but a state exists: push
    // an entry that matches the end and writes nothing.
    uint32_t d = settle_depth(t, probe, frame);
    t->depth = d + 1;
    if (d < TPUPROF_RT_STACK_DEPTH) {
      t->stack[d].probe = probe;
      t->stack[d].gen = 0;
      t->stack[d].rec = NULL;
      t->stack[d].frame = bind;
    } else {
      too_deep(t, d, probe, bind);
    }
  }
  return NULL;
}

/// Modes 1/2, out of line so that mode 0 keeps a small frame: the counters
/// (one group read), then the clock, both as late as possible.
static __attribute__((noinline)) TPUPROF_RT_KEEPS_REGS void
begin_counters(rt_thread *t, tpuprof_record *r, uint64_t *cw) {
  uint32_t nev = t->grp.nev;
  uint64_t before = nev ? rt_now() : 0;
  __tpuprof_rt_counters_begin(&t->grp, cw);
  uint64_t now = rt_now();
  // The read's own cost, which lands in every enclosing record: the report
  // subtracts it there (format.h, READ_TICKS).
  if (nev)
    cw[TPUPROF_RT_READ_TICKS_WORD(nev)] = now - before;
  r->begin = now;
}

/// Modes 1/2: the counters' deltas, and the end read's cost added to the
/// begin read's (READ_TICKS).
static __attribute__((noinline)) TPUPROF_RT_KEEPS_REGS void
end_counters(rt_thread *t, tpuprof_record *r, uint64_t now) {
  uint64_t *cw = (uint64_t *)(r + 1) + r->num_dims;
  __tpuprof_rt_counters_end(&t->grp, cw);
  uint32_t nev = t->grp.nev;
  // r->num_counters is 0 in a detached (zeroed) segment, so the word is the
  // record's own.
  if (nev) {
    uint64_t *rt = &cw[TPUPROF_RT_READ_TICKS_WORD(nev)];
    __atomic_store_n(rt, *rt + (rt_now() - now), __ATOMIC_RELAXED);
  }
}

TPUPROF_RT_INLINE void rt_begin(uint32_t probe, const int64_t *dims,
                                uint32_t n, uintptr_t frame, uintptr_t bind) {
  if (TPUPROF_RT_UNLIKELY(probe >= TPUPROF_IGNORED_PROBE_BASE))
    return;
  rt_thread *t = tls_thread;
  uint32_t gen = __atomic_load_n(&__tpuprof_rt_gen, __ATOMIC_RELAXED);
  if (TPUPROF_RT_UNLIKELY(!t || t->gen != gen)) {
    t = begin_slow(probe, frame, bind);
    if (!t)
      return;
  }
  uint32_t d = settle_depth(t, probe, frame);
  t->depth = d + 1;
  if (TPUPROF_RT_UNLIKELY(d >= TPUPROF_RT_STACK_DEPTH)) {
    too_deep(t, d, probe, bind);
    COUNT(t, dropped_depth);
    return;
  }
  rt_stack_entry *e = &t->stack[d];
  e->probe = probe;
  e->gen = t->gen;
  e->frame = bind;
  uint32_t w = t->words;
  uint64_t need = sizeof(tpuprof_record) + 8u * ((uint64_t)n + w);
  uint8_t *p = t->cur;
  if (TPUPROF_RT_UNLIKELY(need > (uint64_t)((uintptr_t)t->lim - (uintptr_t)p))) {
    p = make_room(t, need);
    if (!p) {
      e->rec = NULL;
      return;
    }
  }
  tpuprof_record *r = (tpuprof_record *)p;
  r->probe = probe;
  r->num_dims = (uint8_t)n;
  r->num_counters = (uint8_t)w;
  r->depth = (uint16_t)d;
  r->end = 0;
  int64_t *out = (int64_t *)(r + 1);
  for (uint32_t i = 0; i < n; ++i)
    out[i] = dims[i];
  e->rec = r;
  // Read the clock last, so the runtime's own work is outside the op.
  if (TPUPROF_RT_UNLIKELY(w))
    begin_counters(t, r, (uint64_t *)(out + n));
  else
    r->begin = rt_now();
  __atomic_store_n(&t->cur, p + need, __ATOMIC_RELEASE);
}

TPUPROF_RT_API void __tpuprof_begin(uint32_t probe) {
  uintptr_t frame = (uintptr_t)__builtin_dwarf_cfa();
  rt_begin(probe, NULL, 0, frame, frame);
}

TPUPROF_RT_API void __tpuprof_begin_dims(uint32_t probe, const int64_t *dims,
                                         uint32_t n) {
  uintptr_t frame = (uintptr_t)__builtin_dwarf_cfa();
  if (TPUPROF_RT_UNLIKELY(!dims))
    n = 0;
  if (TPUPROF_RT_UNLIKELY(n > TPUPROF_RT_MAX_DIMS))
    n = TPUPROF_RT_MAX_DIMS;
  rt_begin(probe, dims, n, frame, frame);
}

void __tpuprof_rt_begin_range(uint32_t probe, uintptr_t frame) {
  rt_begin(probe, NULL, 0, frame, FRAME_FREE);
}

/// The end of a parked record: into its copy, then into the file, unless
/// the window closed meanwhile (the record then stays unfinished, like
/// every probe open at a close).
static TPUPROF_RT_NOINLINE void end_parked(rt_thread *t, tpuprof_record *r,
                                          uint64_t now) {
  if (r->num_counters)
    end_counters(t, r, now);
  r->end = now;
  const rt_parked *k = (const rt_parked *)r;
  pthread_mutex_lock(&threads_mutex);
  if (t->gen == __tpuprof_rt_gen) {
    // The counter deltas first: a record with an end is finished.
    uint64_t at = k->at + sizeof(tpuprof_record) + 8u * k->num_dims;
    if (r->num_counters)
      __tpuprof_rt_dump_patch_locked(__tpuprof_rt_dump, k->serial, at,
                                     k->words, 8u * r->num_counters);
    __tpuprof_rt_dump_patch_locked(__tpuprof_rt_dump, k->serial,
                                   k->at + offsetof(tpuprof_record, end),
                                   &r->end, sizeof(r->end));
  }
  pthread_mutex_unlock(&threads_mutex);
}

TPUPROF_RT_INLINE void finish(rt_thread *t, const rt_stack_entry *e,
                              uint64_t now) {
  // A record from an earlier window (its segments were left since) or one
  // that was never written is left alone.
  tpuprof_record *r = e->rec;
  if (TPUPROF_RT_LIKELY(e->gen == t->gen && r)) {
    // Mode 0 tests the thread's own field, and its end does not wait on a
    // load from the record. (The record's own count is 0 where the window
    // closed meanwhile: its segment was detached and reads as zeros.)
    if (TPUPROF_RT_UNLIKELY(t->words) && r->num_counters)
      end_counters(t, r, now);
    // Release: a reader that sees `end` also sees the counter deltas.
    __atomic_store_n(&r->end, now, __ATOMIC_RELEASE);
  } else if (TPUPROF_RT_UNLIKELY(e->gen == (t->gen | GEN_PARKED))) {
    end_parked(t, r, now);
  }
}

/// End's slow path: `probe` is not the innermost open probe. Probes above it
/// were left without an end (a longjmp or exception skipped them): they
/// close as unfinished, and the named one gets its end. An end whose probe
/// is not open at all is ignored.
static TPUPROF_RT_NOINLINE void end_mismatch(rt_thread *t, uint32_t probe,
                                             uint64_t now) {
  for (uint32_t i = t->depth - 1; i-- > 0;) {
    if (t->stack[i].probe != probe)
      continue;
    for (uint32_t j = i + 1; j < t->depth; ++j)
      count_unwound(t, &t->stack[j]);
    t->depth = i;
    finish(t, &t->stack[i], now);
    return;
  }
}

TPUPROF_RT_API void __tpuprof_end(uint32_t probe) {
  // Read the clock first, so the runtime's own work is outside the op.
  uint64_t now = rt_now_end();
  rt_thread *t = tls_thread;
  if (TPUPROF_RT_UNLIKELY(!t || probe >= TPUPROF_IGNORED_PROBE_BASE))
    return;
  uint32_t d = t->depth;
  if (TPUPROF_RT_UNLIKELY(d - 1u >= TPUPROF_RT_STACK_DEPTH)) {
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

/*===-- Memory events ----------------------------------------------------===*/

/// Writes one memory record into the calling thread's stream, attributed to
/// its innermost open probe. As allocation-free as a begin: a few stores
/// into the current segment and one clock read, the clock last.
static void rt_memory(uint8_t event, uint32_t source, const void *ptr,
                      uint64_t size) {
  // The inline check happened before the allocation: tracking may have
  // been switched off since.
  if (TPUPROF_RT_UNLIKELY(
          !ptr || source > TPUPROF_MEMORY_SOURCE_MAX ||
          !__atomic_load_n(&__tpuprof_memory, __ATOMIC_RELAXED)))
    return;
  rt_thread *t = tls_thread;
  uint32_t gen = __atomic_load_n(&__tpuprof_rt_gen, __ATOMIC_RELAXED);
  if (TPUPROF_RT_UNLIKELY(!t || t->gen != gen)) {
    t = enter_window();
    if (!t)
      return;
  }
  const uint64_t need = sizeof(tpuprof_memory_record);
  uint8_t *p = t->cur;
  uint64_t room = (uint64_t)((uintptr_t)t->lim - (uintptr_t)p);
  if (TPUPROF_RT_UNLIKELY(need > room)) {
    p = make_room(t, need);
    if (!p)
      return;
  }
  uint32_t d = t->depth;
  tpuprof_memory_record *r = (tpuprof_memory_record *)p;
  r->kind = TPUPROF_RECORD_MEMORY;
  r->num_words = 2;
  r->num_counters = 0;
  r->depth = (uint16_t)(d < UINT16_MAX ? d : UINT16_MAX);
  r->probe = d && d <= TPUPROF_RT_STACK_DEPTH ? t->stack[d - 1].probe
                                              : UINT32_MAX;
  r->event = event;
  r->source = (uint8_t)source;
  r->reserved = 0;
  r->address = (uint64_t)(uintptr_t)ptr;
  r->size = size;
  r->time = rt_now();
  __atomic_store_n(&t->cur, p + need, __ATOMIC_RELEASE);
}

TPUPROF_RT_API void __tpuprof_alloc(const void *ptr, uint64_t size,
                                    uint32_t source) {
  rt_memory(TPUPROF_MEMORY_ALLOC, source, ptr, size);
}

TPUPROF_RT_API void __tpuprof_alloc_out(void *const *out, uint64_t size,
                                        uint32_t source, int64_t status) {
  if (status == 0 && out)
    rt_memory(TPUPROF_MEMORY_ALLOC, source, *out, size);
}

TPUPROF_RT_API void __tpuprof_realloc(const void *old, const void *ptr,
                                      uint64_t size, uint32_t source) {
  // A failed realloc (NULL for a non-zero size) leaves `old` allocated;
  // realloc(old, 0) may free it and return NULL.
  if (!ptr && size)
    return;
  rt_memory(TPUPROF_MEMORY_FREE, source, old, 0);
  rt_memory(TPUPROF_MEMORY_ALLOC, source, ptr, size);
}

TPUPROF_RT_API void __tpuprof_free(const void *ptr, uint32_t source) {
  rt_memory(TPUPROF_MEMORY_FREE, source, ptr, 0);
}

/*===-- Private recording for calibration (calibrate.c) ------------------===*/

/// The private state and the thread's own one while a calibration runs
/// (ctl mutex held, so one at a time).
static rt_thread *private_state, *private_saved;
static uint8_t *private_buf;

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
  p->cur = buf;
  p->lim = buf + cap;
  p->out = OUT_PRIVATE;
  p->words = words;
  p->tid = t->tid;
  p->grp = t->grp; // Shares the fds; never closed through this copy.
  // The current generation, so begin takes its fast path. The state is on
  // no list: closes never see it and no other thread can reach it.
  p->gen = __atomic_load_n(&__tpuprof_rt_gen, __ATOMIC_RELAXED);
  private_saved = t;
  private_state = p;
  private_buf = buf;
  tls_thread = p;
  return (int)words;
}

uint64_t __tpuprof_rt_private_end(void) {
  rt_thread *p = private_state;
  if (!p)
    return 0;
  uint64_t used = (uint64_t)(p->cur - private_buf);
  tls_thread = private_saved;
  private_state = private_saved = NULL;
  free(p);
  return used;
}

/*===-- The close (thread-list lock held) --------------------------------===*/

int __tpuprof_rt_threads_close_locked(uint32_t gen, tpuprof_rt_dump *d) {
  int err = 0;
  for (rt_thread *t = threads_head; t; t = t->next) {
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
  rt_thread *self = tls_thread;
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

uint32_t __tpuprof_rt_innermost_probe(void) {
  rt_thread *t = tls_thread;
  if (!t || t->depth == 0 || t->depth > TPUPROF_RT_STACK_DEPTH)
    return UINT32_MAX;
  return t->stack[t->depth - 1].probe;
}
