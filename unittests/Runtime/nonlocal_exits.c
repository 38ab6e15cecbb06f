/*===- nonlocal_exits.c - Probed code left without its ends ---------------===*\
|*                                                                            *|
|* Shapes of code that leave probes open the way real programs do: C error   *|
|* recovery with setjmp/longjmp (interpreters, parsers), siglongjmp, and     *|
|* shapes that must NOT look like it (recursion, several probes in one frame,*|
|* a user range begun in one function and ended in another). Plain C, each   *|
|* function out of line, so its frame is its own.                            *|
\*===----------------------------------------------------------------------===*/

#include "tpuprof/tpuprof.h"

#include <setjmp.h>
#include <stdint.h>

#define NOINLINE __attribute__((noinline))

static jmp_buf env;
static sigjmp_buf senv;
static volatile int sink;

/// Begins `q` and jumps out (a parser's error path).
static NOINLINE void fail_inside(uint32_t q, int sig) {
  if (__tpuprof_enabled)
    __tpuprof_begin(q);
  sink = 1;
  if (sig)
    siglongjmp(senv, 1);
  longjmp(env, 1);
}

/// A probed function whose callee jumps out: neither end runs.
static NOINLINE void probed_call(uint32_t p, uint32_t q, int sig) {
  if (__tpuprof_enabled)
    __tpuprof_begin(p);
  fail_inside(q, sig);
  if (__tpuprof_enabled)
    __tpuprof_end(p);
}

/// `n` times: probe p begins, its callee begins q and jumps back to here.
void tp_jump_out(unsigned n, uint32_t p, uint32_t q, int sig) {
  for (volatile unsigned i = 0; i < n; ++i) {
    if (sig ? sigsetjmp(senv, 1) == 0 : setjmp(env) == 0)
      probed_call(p, q, sig);
  }
}

/// `n` times: probe p begins here, q in a callee that jumps back into this
/// frame, then p ends: the end finds q above it.
void tp_jump_within(unsigned n, uint32_t p, uint32_t q) {
  for (volatile unsigned i = 0; i < n; ++i) {
    if (__tpuprof_enabled)
      __tpuprof_begin(p);
    if (setjmp(env) == 0)
      fail_inside(q, 0);
    if (__tpuprof_enabled)
      __tpuprof_end(p);
  }
}

/// Recursion `depth` deep, probe p at every level (a begin from a deeper
/// frame than the open probe's).
NOINLINE void tp_recurse(unsigned depth, uint32_t p) {
  if (__tpuprof_enabled)
    __tpuprof_begin(p);
  if (depth > 1)
    tp_recurse(depth - 1, p);
  sink = (int)depth;
  if (__tpuprof_enabled)
    __tpuprof_end(p);
}

/// Lowered MLIR's shape: nested and sibling probes all in one frame.
NOINLINE void tp_one_frame(uint32_t a, uint32_t b, uint32_t c) {
  if (__tpuprof_enabled)
    __tpuprof_begin(a);
  if (__tpuprof_enabled)
    __tpuprof_begin(b);
  sink = 1;
  if (__tpuprof_enabled)
    __tpuprof_end(b);
  if (__tpuprof_enabled)
    __tpuprof_begin(c);
  sink = 2;
  if (__tpuprof_enabled)
    __tpuprof_end(c);
  if (__tpuprof_enabled)
    __tpuprof_end(a);
}

/// A user range pushed in one function, ended by another, with probes in a
/// third between (an "epoch begin" / "epoch end" callback pair).
NOINLINE void tp_range_start(const char *name) {
  volatile char frame[512]; // A larger frame than tp_range_middle's.
  frame[0] = 0;
  tpuprof_range_push(name);
  sink = frame[0];
}
NOINLINE void tp_range_middle(uint32_t p) {
  if (__tpuprof_enabled)
    __tpuprof_begin(p);
  sink = 3;
  if (__tpuprof_enabled)
    __tpuprof_end(p);
}
NOINLINE void tp_range_stop(void) { tpuprof_range_pop(); }

/// Recursion `depth` deep, probe p at every level, then a jump out from the
/// bottom: deeper than the stack of open probes the runtime keeps. It never
/// returns (GCC says so: every path recurses or jumps); its ends are there to
/// be skipped.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winfinite-recursion"
static NOINLINE void dive(unsigned depth, uint32_t p) {
  if (__tpuprof_enabled)
    __tpuprof_begin(p);
  if (depth > 1)
    dive(depth - 1, p);
  else
    longjmp(env, 1);
  if (__tpuprof_enabled)
    __tpuprof_end(p);
}
#pragma GCC diagnostic pop

void tp_deep_jump(unsigned times, unsigned depth, uint32_t p) {
  for (volatile unsigned i = 0; i < times; ++i)
    if (setjmp(env) == 0)
      dive(depth, p);
}
