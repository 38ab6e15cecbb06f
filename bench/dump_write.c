/*===- bench/dump_write.c - How fast the runtime gets records to disk -*- C -*-===*\
|*                                                                            *|
|* One mode-0 window records N probe pairs on one thread, then closes; the    *|
|* close (tpuprof_disable: one thread, so the crash-safe file is finalized in *|
|* place) is timed, and so is the window's whole write path (opening the      *|
|* crash-safe file and mapping the thread's section at the first probe, plus  *|
|* the close). The peer is the ceiling: one write() of as many bytes as the   *|
|* dump has, from a buffer already in memory, to a new file in the same       *|
|* directory, plus its open and close. Rounds alternate between the two;      *|
|* figures are medians. With --threads T the window's records are split       *|
|* between the main thread and T-1 others (a T-section dump: streamed from    *|
|* the crash-safe file into a fresh one instead of finalized in place).       *|
|*                                                                            *|
|*   dump_write [--records N] [--rounds R] [--dir DIR] [--threads T]          *|
|*                                                                            *|
|* Prints a table, then `suite|dump|...` lines for bench/suite.py.            *|
|* docs/performance.md, "Dump writing", has the figures.                      *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include "tpuprof/tpuprof.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/// The probe id recorded (no table is registered: unknown ids are recorded
/// like any other).
#define BENCH_PROBE 3u

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(double), compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void die(const char *what) {
  fprintf(stderr, "dump_write: %s: %s\n", what, strerror(errno));
  exit(1);
}

/// Times of one tpuprof window.
typedef struct {
  double open;  ///< tpuprof_enable + the first probe pair (maps the section).
  double close; ///< tpuprof_disable.
  uint64_t bytes;
} window_times;

/// Probe pairs each thread records (--threads: all threads but main).
static uint64_t pairs_per_thread;

static void *record_pairs(void *arg) {
  (void)arg;
  for (uint64_t i = 0; i < pairs_per_thread; ++i) {
    __tpuprof_begin(BENCH_PROBE);
    __tpuprof_end(BENCH_PROBE);
  }
  return NULL;
}

static window_times tpuprof_round(const char *dir, uint64_t records,
                                  int threads) {
  window_times w;
  // Each of `threads` threads records records / threads pairs; the window
  // is sized per thread.
  uint64_t share = records / (uint64_t)threads;
  pairs_per_thread = share;
  tpuprof_set_output(dir, -1);
  double t0 = now_seconds();
  if (tpuprof_enable(threads > 1 ? share : records, 0) != 0) {
    fprintf(stderr, "dump_write: tpuprof_enable failed\n");
    exit(1);
  }
  __tpuprof_begin(BENCH_PROBE);
  __tpuprof_end(BENCH_PROBE);
  double t1 = now_seconds();
  pthread_t others[64];
  for (int k = 1; k < threads; ++k)
    if (pthread_create(&others[k], NULL, record_pairs, NULL) != 0)
      die("pthread_create");
  uint64_t mine = threads > 1 ? share : records;
  for (uint64_t i = 1; i < mine; ++i) {
    __tpuprof_begin(BENCH_PROBE);
    __tpuprof_end(BENCH_PROBE);
  }
  for (int k = 1; k < threads; ++k)
    pthread_join(others[k], NULL);
  double t2 = now_seconds();
  if (tpuprof_disable() != 0) {
    fprintf(stderr, "dump_write: tpuprof_disable could not write the dump\n");
    exit(1);
  }
  double t3 = now_seconds();
  struct stat st;
  const char *path = tpuprof_last_dump_path();
  if (stat(path, &st) != 0)
    die(path);
  unlink(path);
  w.open = t1 - t0;
  w.close = t3 - t2;
  w.bytes = (uint64_t)st.st_size;
  return w;
}

/// The ceiling: open, one write() of `bytes` from memory, close.
static double write_round(const char *dir, const uint8_t *buf, uint64_t bytes) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/dump_write_peer.%d", dir, (int)getpid());
  double t0 = now_seconds();
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    die(path);
  for (uint64_t done = 0; done < bytes;) {
    ssize_t n = write(fd, buf + done, bytes - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      die("write");
    done += (uint64_t)n;
  }
  if (close(fd) != 0)
    die("close");
  double t1 = now_seconds();
  unlink(path);
  return t1 - t0;
}

int main(int argc, char **argv) {
  uint64_t records = 1u << 22;
  int rounds = 7;
  const char *dir = ".";
  int threads = 1;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--records") && i + 1 < argc)
      records = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
      dir = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: dump_write [--records N] [--rounds R] "
                      "[--dir DIR] [--threads T]\n");
      return 2;
    }
  }
  if (records < 1 || rounds < 1 || rounds > 1000 || threads < 1 ||
      threads > 64 || records < (uint64_t)threads) {
    fprintf(stderr, "dump_write: --records must be >= 1 and >= --threads, "
                    "--rounds 1..1000, --threads 1..64\n");
    return 2;
  }

  // A first window learns the dump's size and warms the paths.
  uint64_t bytes = tpuprof_round(dir, records, threads).bytes;
  uint8_t *buf = malloc(bytes);
  if (!buf)
    die("malloc");
  memset(buf, 0x5a, bytes); // In memory before timing, like the records.

  double *open_s = calloc((size_t)rounds, sizeof(double));
  double *close_s = calloc((size_t)rounds, sizeof(double));
  double *path_s = calloc((size_t)rounds, sizeof(double));
  double *peer_s = calloc((size_t)rounds, sizeof(double));
  if (!open_s || !close_s || !path_s || !peer_s)
    die("calloc");
  for (int r = 0; r < rounds; ++r) {
    // Alternate which goes first, so that writeback of the previous round's
    // file hits both alike.
    if (r % 2)
      peer_s[r] = write_round(dir, buf, bytes);
    window_times w = tpuprof_round(dir, records, threads);
    if (!(r % 2))
      peer_s[r] = write_round(dir, buf, bytes);
    open_s[r] = w.open;
    close_s[r] = w.close;
    path_s[r] = w.open + w.close;
  }
  double open_m = median(open_s, rounds), close_m = median(close_s, rounds);
  double path_m = median(path_s, rounds), peer_m = median(peer_s, rounds);
  double mb = (double)bytes / 1e6, mrec = (double)records / 1e6;

  if (threads > 1)
    records = records / (uint64_t)threads * (uint64_t)threads;
  mrec = (double)records / 1e6;
  printf("dump writing: %llu mode-0 records on %d thread%s, %.1f MB dump, "
         "%d rounds, dir %s\n",
         (unsigned long long)records, threads, threads > 1 ? "s" : "", mb,
         rounds, dir);
  printf("  %-40s %10s %10s %14s\n", "step", "ms", "MB/s", "M records/s");
  printf("  %-40s %10.2f %10s %14s\n", "window open + first probe (map section)",
         open_m * 1e3, "", "");
  printf("  %-40s %10.2f %10.0f %14.1f\n", "window close (tpuprof_disable)",
         close_m * 1e3, mb / close_m, mrec / close_m);
  printf("  %-40s %10.2f %10.0f %14.1f\n", "whole write path (open + close)",
         path_m * 1e3, mb / path_m, mrec / path_m);
  printf("  %-40s %10.2f %10.0f %14.1f\n", "peer: open + write() + close",
         peer_m * 1e3, mb / peer_m, mrec / peer_m);
  printf("  ratio close / write(): %.2f   whole path / write(): %.2f\n",
         close_m / peer_m, path_m / peer_m);

  // suite|<section>|<metric>|<tpuprof>|<peer name>|<peer>|<unit>|<ratio>|<target>|<verdict>
  // Bandwidth: ratio tpuprof / peer (1.0 = as fast as a plain write()).
  // Metric names stay those of one thread; more threads say so.
  char tn[32] = "";
  if (threads > 1)
    snprintf(tn, sizeof(tn), ", %d threads", threads);
  printf("suite|dump|close, %.0f MB (%.1f M records)%s|%.0f|write()|%.0f|MB/s|%.3f||n/a\n",
         mb, mrec, tn, mb / close_m, mb / peer_m, peer_m / close_m);
  printf("suite|dump|whole write path, %.0f MB%s|%.0f|write()|%.0f|MB/s|%.3f||n/a\n",
         mb, tn, mb / path_m, mb / peer_m, peer_m / path_m);
  printf("suite|dump|close, records%s|%.1f|write()|%.1f|M records/s|%.3f||n/a\n",
         tn, mrec / close_m, mrec / peer_m, peer_m / close_m);
  free(buf);
  free(open_s);
  free(close_s);
  free(path_s);
  free(peer_s);
  return 0;
}
