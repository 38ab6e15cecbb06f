/*===- bench/dump_write.c - How fast the runtime gets records to disk -*- C -*-===*\
|*                                                                            *|
|* One mode-0 window records N probe pairs on one thread, then closes; the    *|
|* close (tpuprof_disable: one thread, so the crash-safe file is finalized in *|
|* place) is timed, and so is the window's whole write path (opening the      *|
|* crash-safe file and mapping the thread's section at the first probe, plus  *|
|* the close). The peer is the ceiling: one write() of as many bytes as the   *|
|* dump has, from a buffer already in memory, to a new file in the same       *|
|* directory, plus its open and close. Rounds alternate between the two;      *|
|* figures are medians.                                                       *|
|*                                                                            *|
|*   dump_write [--records N] [--rounds R] [--dir DIR]                        *|
|*                                                                            *|
|* Prints a table, then `suite|dump|...` lines for bench/suite.py.            *|
|* docs/performance.md, "Dump writing", has the figures.                      *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include "tpuprof/tpuprof.h"

#include <errno.h>
#include <fcntl.h>
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

static window_times tpuprof_round(const char *dir, uint64_t records) {
  window_times w;
  tpuprof_set_output(dir, -1);
  double t0 = now_seconds();
  if (tpuprof_enable(records, 0) != 0) {
    fprintf(stderr, "dump_write: tpuprof_enable failed\n");
    exit(1);
  }
  __tpuprof_begin(BENCH_PROBE);
  __tpuprof_end(BENCH_PROBE);
  double t1 = now_seconds();
  for (uint64_t i = 1; i < records; ++i) {
    __tpuprof_begin(BENCH_PROBE);
    __tpuprof_end(BENCH_PROBE);
  }
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
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--records") && i + 1 < argc)
      records = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
      dir = argv[++i];
    else {
      fprintf(stderr, "usage: dump_write [--records N] [--rounds R] [--dir DIR]\n");
      return 2;
    }
  }
  if (records < 1 || rounds < 1 || rounds > 1000) {
    fprintf(stderr, "dump_write: --records must be >= 1, --rounds 1..1000\n");
    return 2;
  }

  // A first window learns the dump's size and warms the paths.
  uint64_t bytes = tpuprof_round(dir, records).bytes;
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
    window_times w = tpuprof_round(dir, records);
    if (!(r % 2))
      peer_s[r] = write_round(dir, buf, bytes);
    open_s[r] = w.open;
    close_s[r] = w.close;
    path_s[r] = w.open + w.close;
  }
  double open_m = median(open_s, rounds), close_m = median(close_s, rounds);
  double path_m = median(path_s, rounds), peer_m = median(peer_s, rounds);
  double mb = (double)bytes / 1e6, mrec = (double)records / 1e6;

  printf("dump writing: %llu mode-0 records, %.1f MB dump, %d rounds, dir %s\n",
         (unsigned long long)records, mb, rounds, dir);
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
  printf("suite|dump|close, %.0f MB (%.1f M records)|%.0f|write()|%.0f|MB/s|%.3f||n/a\n",
         mb, mrec, mb / close_m, mb / peer_m, peer_m / close_m);
  printf("suite|dump|whole write path, %.0f MB|%.0f|write()|%.0f|MB/s|%.3f||n/a\n",
         mb, mb / path_m, mb / peer_m, peer_m / path_m);
  printf("suite|dump|close, records|%.1f|write()|%.1f|M records/s|%.3f||n/a\n",
         mrec / close_m, mrec / peer_m, peer_m / close_m);
  free(buf);
  free(open_s);
  free(close_s);
  free(path_s);
  free(peer_s);
  return 0;
}
