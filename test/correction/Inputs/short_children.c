// A parent op of 200 annotated children of ~100 ns each (the LLVM pass
// probes them), and the same code unannotated. The program times the
// unannotated parent itself (median of 15 batches) and prints it; the test
// compares the report's corrected parent against it.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t acc[16];

static inline uint64_t work(uint64_t n, uint64_t x) {
  for (uint64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    acc[i & 15] += x;
  }
  return x;
}

#define OPS(prefix, attr)                                                      \
  attr __attribute__((noinline)) uint64_t prefix##child(uint64_t n,            \
                                                        uint64_t x) {          \
    return work(n, x);                                                         \
  }                                                                            \
  attr __attribute__((noinline)) uint64_t prefix##parent(uint64_t n,           \
                                                         uint64_t x) {         \
    for (int c = 0; c < 200; ++c)                                              \
      x = prefix##child(n, x);                                                 \
    return x;                                                                  \
  }

OPS(probed_, __attribute__((annotate("tpuprof"))))
OPS(bare_, )

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  // Steps for ~100 ns a child: the fastest of a few timed runs.
  double best = 1e18;
  for (int i = 0; i < 7; ++i) {
    uint64_t t0 = now_ns();
    acc[0] += bare_child(4000, 1);
    double t = (double)(now_ns() - t0);
    best = t < best ? t : best;
  }
  uint64_t steps = (uint64_t)(100.0 * 4000 / best + 0.5);
  if (!steps)
    steps = 1;
  double bare[15];
  uint64_t x = 1;
  for (int b = 0; b < 15; ++b) {
    // Interleaved: 4 probed parents, then 4 bare ones timed as one.
    for (int c = 0; c < 4; ++c)
      x = probed_parent(steps, x);
    uint64_t t0 = now_ns();
    for (int c = 0; c < 4; ++c)
      x = bare_parent(steps, x);
    bare[b] = (double)(now_ns() - t0) / 4;
  }
  qsort(bare, 15, sizeof(double), cmp);
  printf("bare parent ns: %.0f\n", bare[7]);
  return x == 42; // Keeps x alive.
}
