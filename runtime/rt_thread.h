/*===- runtime/rt_thread.h - A thread's recording state -----------*- C -*-===*\
|*                                                                            *|
|* The state each recording thread owns (rt_thread), shared by the files      *|
|* that work on it, from the bottom up: threads.c (creating, listing and      *|
|* freeing states), segments.c (giving a state room in the window's dump),    *|
|* record.c (the hot path) and memory.c (memory records). Also the hot        *|
|* path's inline helpers that more than one of them needs: the inline clock   *|
|* reads and the counting of what is not kept.                                *|
|*                                                                            *|
|* Ownership. Only the owner writes its state. A close (window.c, through     *|
|* segments.c) reads it from another thread, so:                              *|
|*   - `cur` is published with a release store after the record is complete,  *|
|*     and the closer keeps only bytes below the `cur` it acquired;           *|
|*   - `end`, the one field written after publication, is stored with a       *|
|*     release store;                                                         *|
|*   - segments are taken, sealed and reused only under the thread-list lock, *|
|*     which the closer holds while it fixes their sizes and detaches them    *|
|*     from the file (afterwards the owner's stores land in anonymous memory).*|
|* A record begun just as a window closes may land above the fixed size: it   *|
|* then belongs to no dump, which is the right answer for a probe that        *|
|* straddles the boundary.                                                    *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_RUNTIME_RT_THREAD_H
#define TPUPROF_RUNTIME_RT_THREAD_H

#include "rt_internal.h"

#include <stddef.h>
#include <stdint.h>

#if TPUPROF_RT_HAVE_TSC
#include <x86intrin.h>
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
#define TPUPROF_RT_FRAME_FREE UINTPTR_MAX

/// Stack entry `gen` bit of a parked record (window generations skip it).
#define TPUPROF_RT_GEN_PARKED 0x80000000u

/// One open probe. `gen` is the window the record was written in (0 when it
/// was not written), so an end in a later window leaves that window alone;
/// with TPUPROF_RT_GEN_PARKED, `rec` is the record's parked copy (below).
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
  tpuprof_record rec;                   ///< The record, num_dims 0: ...
  uint64_t words[TPUPROF_RT_MAX_WORDS]; ///< ... its counter words follow.
  uint64_t at;                          ///< File offset of the written record.
  uint32_t serial;                      ///< Of the dump it was written to.
  uint32_t num_dims;                    ///< Its dimension words in the file.
} rt_parked;

/// Why a thread takes no more segments in this window.
enum {
  TPUPROF_RT_OUT_NONE = 0,     ///< It may.
  TPUPROF_RT_OUT_FULL = 1,     ///< Its record limit is reached (stop policy).
  TPUPROF_RT_OUT_NO_SPACE = 2, ///< The dump could not grow (or does not
                               ///< exist).
  TPUPROF_RT_OUT_PRIVATE = 3,  ///< A calibration's private buffer: never.
};

/// A thread's recording state. The first cache line holds everything a
/// probe pair touches except the stack entry and the record itself.
typedef struct rt_thread {
  // --- Hot: owner-written on every probe. ---
  uint8_t *cur; ///< Next record; release-stored, read by the closer.
  uint8_t *lim; ///< End of the current segment's room.
  tpuprof_segment_section *head; ///< Current segment's header (its drop
                                 ///< counts), NULL when there is none.
  uint32_t gen;   ///< Window generation the segments belong to (0: none).
  uint32_t depth; ///< Open probes, including ones not on the stack.
  uint32_t words; ///< Counter words per record in this window (mode 1/2).
  uint32_t out;   ///< TPUPROF_RT_OUT_*: why no more segments are taken.
  // --- Cold: slow path and closer, under the thread-list lock. ---
  struct rt_thread *next;
  uint64_t tid;       ///< OS thread id.
  uint64_t taken;     ///< Record bytes of the segments taken this window.
  uint32_t thread_no; ///< SEGMENT `thread`; UINT32_MAX before the first.
  uint32_t next_seq;  ///< SEGMENT `seq` of the next segment.
  int ring;           ///< Full-buffer policy of this window: 1 ring.
  int exited;         ///< The thread has exited; free after its close.
  uintptr_t stack_lo; ///< The thread's stack, [lo, hi); both 0 when
  uintptr_t stack_hi; ///< unknown. Frames elsewhere never unwind.
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

/*===-- Thread states (threads.c) ----------------------------------------===*/

/// The calling thread's state. initial-exec keeps the access to one
/// %fs-relative load; a pointer (8 bytes) keeps the static TLS the library
/// needs small enough for dlopen. Written by threads.c only.
extern __thread rt_thread *__tpuprof_rt_tls_thread TPUPROF_RT_INITIAL_EXEC
    TPUPROF_RT_HIDDEN;

/// Whether the calling thread is exiting (its key destructor ran): it must
/// not get a new state (its old one may already be freed by a close).
int __tpuprof_rt_thread_exiting(void);

/// The calling thread's state, created and linked into the thread list on
/// its first call; NULL when out of memory. Thread-list lock held, and the
/// thread not exiting (the caller checks).
rt_thread *__tpuprof_rt_thread_state_locked(void);

/// The first state of the thread list (then `next`). Thread-list lock held.
rt_thread *__tpuprof_rt_threads_first_locked(void);

/// Unmaps the state's segments (an earlier window's, detached from its
/// file; or, at thread exit, any). Lock held, and either the owner calls it
/// or the owner no longer records into them.
void __tpuprof_rt_release_segments(rt_thread *t);

/*===-- Segments (segments.c) --------------------------------------------===*/

/// Makes the calling thread's state current for the open window: creates it
/// on the thread's first probe, leaves the earlier window's segments on
/// its first probe in a new window and takes its first segment. Returns
/// NULL when it cannot record. Takes the thread-list lock.
rt_thread *__tpuprof_rt_enter_window(void);

/// Begin's path when a `need`-byte record does not fit the current segment:
/// a new segment, the stage again or the ring's oldest, under the
/// thread-list lock. NULL (the record counted as dropped) when there is
/// none.
TPUPROF_RT_NOINLINE TPUPROF_RT_HIDDEN uint8_t *
__tpuprof_rt_make_room(rt_thread *t, uint64_t need);

/*===-- Clock, inline copy for the hot path ------------------------------===*/

static TPUPROF_RT_NOINLINE __attribute__((unused)) uint64_t
monotonic_now(void) {
  return __tpuprof_rt_monotonic_ns();
}

TPUPROF_RT_INLINE uint64_t rt_now(void) {
#if TPUPROF_RT_HAVE_TSC
  if (TPUPROF_RT_LIKELY(__tpuprof_rt_use_tsc))
    return __rdtsc();
#elif TPUPROF_RT_HAVE_CNTVCT
  if (TPUPROF_RT_LIKELY(__tpuprof_rt_use_tsc)) {
    uint64_t ticks;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
  }
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
    // Not _mm_lfence(): an i686 build without SSE2 has no intrinsic for it.
    __asm__ __volatile__("lfence" ::: "memory");
    return __rdtsc();
  }
#elif TPUPROF_RT_HAVE_CNTVCT
  // isb: the counter is read after everything before it has completed,
  // as rdtscp is on x86.
  if (TPUPROF_RT_LIKELY(__tpuprof_rt_use_tsc)) {
    uint64_t ticks;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(ticks)::"memory");
    return ticks;
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
    __atomic_store_n(
        c,
        TPUPROF_RT_LE64(TPUPROF_RT_LE64(__atomic_load_n(c, __ATOMIC_RELAXED)) +
                        1),
        __ATOMIC_RELAXED);
  } else if (t->out != TPUPROF_RT_OUT_PRIVATE) {
    __atomic_fetch_add(&__tpuprof_rt_lost, 1, __ATOMIC_RELAXED);
  }
}

#define COUNT(t, field)                                                        \
  count_in_segment((t), offsetof(tpuprof_segment_section, field))

/// Open probe `e` is closed without its end.
static inline void count_unwound(rt_thread *t, const rt_stack_entry *e) {
  if ((e->gen & ~TPUPROF_RT_GEN_PARKED) == t->gen && e->rec)
    COUNT(t, unwound);
}

#endif /* TPUPROF_RUNTIME_RT_THREAD_H */
