/*===- runtime/record.c - The probe hot path ----------------------*- C -*-===*\
|*                                                                            *|
|* __tpuprof_begin/_dims/_end run on every probe while a window is open, so   *|
|* they take no lock, allocate nothing and make no system call: one TLS load, *|
|* one load of the window generation, a few stores into the thread's current  *|
|* segment and one clock read each. Everything slower is out of line: a       *|
|* thread entering a window or needing room takes segments.c's slow path.     *|
|*                                                                            *|
|* Non-local exits. Each stack entry keeps the frame of its begin's caller    *|
|* (its CFA). A probe the passes insert begins and ends in one function, so   *|
|* when a later begin comes from a frame above that one, or from the same     *|
|* frame for the same probe again, the function was left without the end: a   *|
|* longjmp, an exception or a cancellation skipped it. Such entries are       *|
|* closed as unfinished (end = 0, counted as `unwound`) before the new begin, *|
|* so the stack never leaks. User ranges may end in another function: their   *|
|* entries are not bound to a frame.                                          *|
\*===----------------------------------------------------------------------===*/

#include "rt_thread.h"

#include <stddef.h>

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
    if (e->frame == TPUPROF_RT_FRAME_FREE || !on_stack(t, e->frame) ||
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
static TPUPROF_RT_NOINLINE rt_thread *
begin_slow(uint32_t probe, uintptr_t frame, uintptr_t bind) {
  rt_thread *t = __tpuprof_rt_enter_window();
  if (t)
    return t;
  t = __tpuprof_rt_tls_thread;
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
    cw[TPUPROF_RT_READ_TICKS_WORD(nev)] = TPUPROF_RT_LE64(now - before);
  r->begin = TPUPROF_RT_LE64(now);
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
    __atomic_store_n(rt,
                     TPUPROF_RT_LE64(TPUPROF_RT_LE64(*rt) + (rt_now() - now)),
                     __ATOMIC_RELAXED);
  }
}

TPUPROF_RT_INLINE void rt_begin(uint32_t probe, const int64_t *dims, uint32_t n,
                                uintptr_t frame, uintptr_t bind) {
  if (TPUPROF_RT_UNLIKELY(probe >= TPUPROF_IGNORED_PROBE_BASE))
    return;
  rt_thread *t = __tpuprof_rt_tls_thread;
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
  if (TPUPROF_RT_UNLIKELY(need >
                          (uint64_t)((uintptr_t)t->lim - (uintptr_t)p))) {
    p = __tpuprof_rt_make_room(t, need);
    if (!p) {
      e->rec = NULL;
      return;
    }
  }
  tpuprof_record *r = (tpuprof_record *)p;
  r->probe = TPUPROF_RT_LE32(probe);
  r->num_dims = (uint8_t)n;
  r->num_counters = (uint8_t)w;
  r->depth = TPUPROF_RT_LE16(d);
  r->end = 0;
  int64_t *out = (int64_t *)(r + 1);
  for (uint32_t i = 0; i < n; ++i)
    out[i] = (int64_t)TPUPROF_RT_LE64(dims[i]);
  e->rec = r;
  // Read the clock last, so the runtime's own work is outside the op.
  if (TPUPROF_RT_UNLIKELY(w))
    begin_counters(t, r, (uint64_t *)(out + n));
  else
    r->begin = TPUPROF_RT_LE64(rt_now());
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
  rt_begin(probe, NULL, 0, frame, TPUPROF_RT_FRAME_FREE);
}

/// The end of a parked record: into its copy, then into the file, unless
/// the window closed meanwhile (the record then stays unfinished, like
/// every probe open at a close).
static TPUPROF_RT_NOINLINE void end_parked(rt_thread *t, tpuprof_record *r,
                                           uint64_t now) {
  if (r->num_counters)
    end_counters(t, r, now);
  r->end = TPUPROF_RT_LE64(now); // Its copy in the file is patched below.
  const rt_parked *k = (const rt_parked *)r;
  if (__tpuprof_rt_locks_held())
    return; // A signal handler's probe inside the runtime: never wait.
  __tpuprof_rt_threads_lock();
  if (t->gen == __tpuprof_rt_gen) {
    // The counter deltas first: a record with an end is finished.
    uint64_t at = k->at + sizeof(tpuprof_record) + 8u * k->num_dims;
    if (r->num_counters)
      __tpuprof_rt_dump_patch_locked(__tpuprof_rt_dump, k->serial, at, k->words,
                                     8u * r->num_counters);
    __tpuprof_rt_dump_patch_locked(__tpuprof_rt_dump, k->serial,
                                   k->at + offsetof(tpuprof_record, end),
                                   &r->end, sizeof(r->end));
  }
  __tpuprof_rt_threads_unlock();
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
    __atomic_store_n(&r->end, TPUPROF_RT_LE64(now), __ATOMIC_RELEASE);
  } else if (TPUPROF_RT_UNLIKELY(e->gen == (t->gen | TPUPROF_RT_GEN_PARKED))) {
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
  rt_thread *t = __tpuprof_rt_tls_thread;
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

/*===-- The open probes (user_ranges.c) ---------------------------------===*/

uint32_t __tpuprof_rt_innermost_probe(void) {
  rt_thread *t = __tpuprof_rt_tls_thread;
  if (!t || t->depth == 0 || t->depth > TPUPROF_RT_STACK_DEPTH)
    return UINT32_MAX;
  return t->stack[t->depth - 1].probe;
}
