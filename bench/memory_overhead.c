/*===- bench/memory_overhead.c - Cost of a tracked allocation pair ------===*\
|*                                                                            *|
|* One malloc/free pair of 64 bytes, side by side in one process, in rounds   *|
|* that alternate between the variants (the machine is shared and noisy):     *|
|*   plain       malloc + free                                                *|
|*   off         the same pair wrapped as the passes wrap it, tracking off    *|
|*               (a load of __tpuprof_memory and a branch on each side)       *|
|*   probe off   a disabled probe pair around the plain pair, for reference:  *|
|*               what "costs what a disabled probe costs" compares with       *|
|*   tracked     wrapped, in a window that tracks memory (mode 0, ring)       *|
|*   probe pair  an enabled mode 0 probe pair around the plain pair, in the   *|
|*               same window: what a record costs on this machine             *|
|* Each figure is the fastest round's ns per pair; the ratios are against the *|
|* plain pair.                                                                *|
|*                                                                            *|
|*   memory_overhead [--pairs N] [--rounds R]                                 *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE 1
#include "tpuprof/format.h"
#include "tpuprof/tpuprof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void *volatile sink;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Keep the loops apart and their calls real. */
#define NOINLINE __attribute__((noinline))

NOINLINE static void plain(long n) {
  for (long i = 0; i < n; ++i) {
    void *p = malloc(64);
    sink = p;
    free(p);
  }
}

/* What the LLVM pass emits: after the allocation, before the free. */
NOINLINE static void wrapped(long n) {
  for (long i = 0; i < n; ++i) {
    void *p = malloc(64);
    if (__builtin_expect(__atomic_load_n(&__tpuprof_memory, __ATOMIC_RELAXED),
                         0))
      __tpuprof_alloc(p, 64, TPUPROF_SOURCE_HEAP);
    sink = p;
    if (__builtin_expect(__atomic_load_n(&__tpuprof_memory, __ATOMIC_RELAXED),
                         0))
      __tpuprof_free(p, TPUPROF_SOURCE_HEAP);
    free(p);
  }
}

/* A probe pair around the plain pair: disabled outside a window, enabled
 * (mode 0) inside. */
NOINLINE static void probed(long n) {
  for (long i = 0; i < n; ++i) {
    if (__builtin_expect(__atomic_load_n(&__tpuprof_enabled, __ATOMIC_RELAXED),
                         0))
      __tpuprof_begin(0);
    void *p = malloc(64);
    sink = p;
    free(p);
    if (__builtin_expect(__atomic_load_n(&__tpuprof_enabled, __ATOMIC_RELAXED),
                         0))
      __tpuprof_end(0);
  }
}

static double timed(void (*fn)(long), long n) {
  double t0 = now_ns();
  fn(n);
  return (now_ns() - t0) / (double)n;
}

int main(int argc, char **argv) {
  long pairs = 1000000, rounds = 9;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--pairs"))
      pairs = atol(argv[i + 1]);
    else if (!strcmp(argv[i], "--rounds"))
      rounds = atol(argv[i + 1]);
  }
  char dir[] = "/tmp/tpuprof-memory-bench-XXXXXX";
  if (!mkdtemp(dir))
    return perror("mkdtemp"), 1;
  tpuprof_set_output(dir, 0);
  /* A ring keeps the file at max_records whatever the number of pairs. */
  tpuprof_set_buffer_policy(TPUPROF_BUFFER_RING);
  enum { N = 5 };
  double best[N] = {1e30, 1e30, 1e30, 1e30, 1e30};
  plain(pairs / 10); /* Warm the allocator. */
  for (long r = 0; r < rounds; ++r) {
    double t[N];
    t[0] = timed(plain, pairs);
    t[1] = timed(wrapped, pairs);
    t[2] = timed(probed, pairs);
    tpuprof_set_memory(1);
    if (tpuprof_enable(1u << 20, 0) != 0)
      return 1;
    t[3] = timed(wrapped, pairs);
    t[4] = timed(probed, pairs);
    tpuprof_disable();
    tpuprof_set_memory(0);
    unlink(tpuprof_last_dump_path());
    for (int v = 0; v < N; ++v)
      if (t[v] < best[v])
        best[v] = t[v];
  }
  rmdir(dir);
  const char *names[N] = {"plain malloc/free", "wrapped, tracking off",
                          "disabled probe pair", "wrapped, tracked",
                          "enabled probe pair"};
  printf("One 64-byte malloc/free pair, fastest of %ld rounds of %ld pairs "
         "(ns per pair):\n",
         rounds, pairs);
  for (int v = 0; v < N; ++v)
    printf("  %-24s %8.2f ns  %5.2fx plain  (+%.2f ns)\n", names[v], best[v],
           best[v] / best[0], best[v] - best[0]);
  printf("suite|memory|tracked pair|%.2f|plain pair|%.2f|ns|%.3f||\n", best[3],
         best[0], best[3] / best[0]);
  /* Off: the flag tests cost what a disabled probe pair's do (within the
   * rounds' noise, 0.5 ns). */
  double off = best[1] - best[0], probe = best[2] - best[0];
  printf("suite|memory|wrapped pair, tracking off, extra|%.2f|disabled probe "
         "pair, extra|%.2f|ns||<= disabled probe pair + 0.5 ns|%s\n",
         off, probe, off <= probe + 0.5 ? "met" : "NOT met");
  printf("suite|memory|tracked pair, extra|%.2f|enabled probe pair, "
         "extra|%.2f|ns|%.3f||\n",
         best[3] - best[0], best[4] - best[0],
         (best[3] - best[0]) / (best[4] - best[0]));
  return 0;
}
