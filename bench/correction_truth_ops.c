/*===- bench/correction_truth_ops.c - Short ops and their parents -*- C -*-===*\
|*                                                                            *|
|* The ops of bench/correction_truth.cpp, as a user's C program has them: a   *|
|* child function of about 45, 100, 250 or 1000 ns and a parent that calls   *|
|* it 100 times, each annotated for the LLVM pass. The file is compiled       *|
|* twice into the benchmark: with the pass plugin (names probed_*) and        *|
|* without it (-DTRUTH_BARE, names bare_*), so that the uninstrumented        *|
|* program runs in the same process, on the same machine state.               *|
|* Children are noinline in both builds: the benchmark measures what the      *|
|* probes cost, not what inlining does to code that has none.                 *|
\*===----------------------------------------------------------------------===*/

#include <stdint.h>

#ifdef TRUTH_BARE
#define TRUTH_OP(name) bare_##name
#define TRUTH_PROBE(label)
#else
#define TRUTH_OP(name) probed_##name
#define TRUTH_PROBE(label) __attribute__((annotate("tpuprof:" label)))
#endif

/// Per child call: a dependent xorshift chain with a store a step, the mix
/// of latency and throughput of ordinary scalar code. `n` steps.
static inline uint64_t work(uint64_t n, uint64_t x, uint64_t *acc) {
  for (uint64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    acc[i & 15] += x;
  }
  return x;
}

static uint64_t acc[16];

#define TRUTH_SIZE(ns)                                                         \
  TRUTH_PROBE("child" #ns)                                                     \
  __attribute__((noinline)) uint64_t TRUTH_OP(child##ns)(uint64_t n,           \
                                                         uint64_t x) {         \
    return work(n, x, acc);                                                    \
  }                                                                            \
  TRUTH_PROBE("parent" #ns)                                                    \
  __attribute__((noinline)) uint64_t TRUTH_OP(parent##ns)(uint64_t n,          \
                                                          uint64_t x) {        \
    for (int c = 0; c < 100; ++c)                                              \
      x = TRUTH_OP(child##ns)(n, x);                                           \
    return x;                                                                  \
  }

TRUTH_SIZE(45)
TRUTH_SIZE(100)
TRUTH_SIZE(250)
TRUTH_SIZE(1000)
