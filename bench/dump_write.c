/*===- bench/dump_write.c - How fast the runtime gets records to disk -----===*\
|*                                                                            *|
|* What it costs to get N mode-0 records into a finished dump, beyond making  *|
|* them: a window that keeps every record (enable, N probe pairs, whose       *|
|* segments of the dump file are taken as they fill, disable: the file is     *|
|* finalized in place) less the same N pairs in a ring window whose segments  *|
|* are already in place (the hot path alone). The peer is one write() of as  *|
|* many bytes as the dump has, from a buffer already in memory, to a new file *|
|* in the same directory, plus its open and close. Rounds alternate; figures  *|
|* are medians. With --threads T the records are split between the main      *|
|* thread and T-1 others. Each --dir (default: .) is measured in turn and     *|
|* named by its file system type (from /proc/self/mounts), since the page    *|
|* cache's cost differs between them (ext4 and tmpfs above all).              *|
|*                                                                            *|
|*   dump_write [--records N] [--rounds R] [--dir DIR]... [--threads T]       *|
|*                                                                            *|
|* Prints a table per directory, then `suite|dump|...` lines for              *|
|* bench/suite.py (target: the records' way to disk at >= 0.8x the speed of   *|
|* write(), on every file system).                                            *|
|* docs/performance.md, "Dump writing", has the figures.                      *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include "tpuprof/tpuprof.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
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

/// The type of the file system `dir` is on: that of the longest mount point
/// in /proc/self/mounts that contains it ("?" when unknown).
static void fs_type(const char *dir, char *out, size_t n) {
  snprintf(out, n, "?");
  char real[PATH_MAX];
  FILE *m = setmntent("/proc/self/mounts", "r");
  if (!realpath(dir, real) || !m) {
    if (m)
      endmntent(m);
    return;
  }
  size_t best = 0;
  for (struct mntent *e; (e = getmntent(m));) {
    size_t len = strlen(e->mnt_dir);
    int inside = strncmp(real, e->mnt_dir, len) == 0 &&
                 (real[len] == '/' || real[len] == 0 || len == 1);
    if (inside && len >= best) {
      best = len;
      snprintf(out, n, "%s", e->mnt_type);
    }
  }
  endmntent(m);
}

/// Probe pairs each thread records (--threads: all threads but main).
static uint64_t pairs_per_thread;

static void record(uint64_t pairs) {
  for (uint64_t i = 0; i < pairs; ++i) {
    __tpuprof_begin(BENCH_PROBE);
    __tpuprof_end(BENCH_PROBE);
  }
}

static void *record_share(void *arg) {
  (void)arg;
  record(pairs_per_thread);
  return NULL;
}

/// Records `records` pairs split over `threads` threads; returns seconds.
static double record_all(uint64_t records, int threads) {
  pairs_per_thread = records / (uint64_t)threads;
  pthread_t others[64];
  double t0 = now_seconds();
  for (int k = 1; k < threads; ++k)
    if (pthread_create(&others[k], NULL, record_share, NULL) != 0)
      die("pthread_create");
  record(records - pairs_per_thread * (uint64_t)(threads - 1));
  for (int k = 1; k < threads; ++k)
    pthread_join(others[k], NULL);
  return now_seconds() - t0;
}

/// A window that keeps every record, whole: enable to disable. Returns
/// seconds and sets *bytes to the dump's size.
static double keep_round(const char *dir, uint64_t records, int threads,
                         uint64_t *bytes) {
  tpuprof_set_output(dir, -1);
  tpuprof_set_buffer_policy(TPUPROF_BUFFER_STOP);
  double t0 = now_seconds();
  if (tpuprof_enable(records + 16, 0) != 0) {
    fprintf(stderr, "dump_write: tpuprof_enable failed\n");
    exit(1);
  }
  record_all(records, threads);
  if (tpuprof_disable() != 0) {
    fprintf(stderr, "dump_write: tpuprof_disable could not write the dump\n");
    exit(1);
  }
  double t1 = now_seconds();
  struct stat st;
  const char *path = tpuprof_last_dump_path();
  if (stat(path, &st) != 0)
    die(path);
  unlink(path);
  *bytes = (uint64_t)st.st_size;
  return t1 - t0;
}

/// The same pairs in a ring whose segments are in place (two laps first,
/// untimed): the hot path alone.
static double hot_round(const char *dir, uint64_t records, int threads) {
  const uint64_t ring = 1u << 16;
  tpuprof_set_output(dir, -1);
  tpuprof_set_buffer_policy(TPUPROF_BUFFER_RING);
  if (tpuprof_enable(ring, 0) != 0) {
    fprintf(stderr, "dump_write: tpuprof_enable failed\n");
    exit(1);
  }
  record_all(2 * ring * (uint64_t)threads, threads);
  double s = record_all(records, threads);
  if (tpuprof_disable() != 0) {
    fprintf(stderr, "dump_write: tpuprof_disable could not write the dump\n");
    exit(1);
  }
  tpuprof_set_buffer_policy(TPUPROF_BUFFER_STOP);
  unlink(tpuprof_last_dump_path());
  return s;
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

/// Measures `rounds` rounds in `dir` and prints its table and suite lines.
static void measure(const char *dir, uint64_t records, int rounds,
                    int threads) {
  char fs[64];
  fs_type(dir, fs, sizeof(fs));
  // A first window learns the dump's size and warms the paths.
  uint64_t bytes = 0;
  keep_round(dir, records, threads, &bytes);
  hot_round(dir, records, threads);
  uint8_t *buf = malloc(bytes);
  if (!buf)
    die("malloc");
  memset(buf, 0x5a, bytes); // In memory before timing, like the records.

  double *keep_s = calloc((size_t)rounds, sizeof(double));
  double *hot_s = calloc((size_t)rounds, sizeof(double));
  double *store_s = calloc((size_t)rounds, sizeof(double));
  double *peer_s = calloc((size_t)rounds, sizeof(double));
  if (!keep_s || !hot_s || !store_s || !peer_s)
    die("calloc");
  for (int r = 0; r < rounds; ++r) {
    // Alternate which goes first, so that writeback of the previous round's
    // file hits both alike.
    if (r % 2)
      peer_s[r] = write_round(dir, buf, bytes);
    uint64_t b = 0;
    keep_s[r] = keep_round(dir, records, threads, &b);
    hot_s[r] = hot_round(dir, records, threads);
    if (!(r % 2))
      peer_s[r] = write_round(dir, buf, bytes);
    store_s[r] = keep_s[r] - hot_s[r];
  }
  double keep_m = median(keep_s, rounds), hot_m = median(hot_s, rounds);
  double store_m = median(store_s, rounds), peer_m = median(peer_s, rounds);
  double mb = (double)bytes / 1e6, mrec = (double)records / 1e6;
  if (store_m <= 0)
    store_m = 1e-9; // Below the noise: as fast as can be told.

  printf("dump writing: %llu mode-0 records on %d thread%s, %.1f MB dump, "
         "%d rounds, dir %s (%s)\n",
         (unsigned long long)records, threads, threads > 1 ? "s" : "", mb,
         rounds, dir, fs);
  printf("  %-44s %10s %10s %14s\n", "step", "ms", "MB/s", "M records/s");
  printf("  %-44s %10.2f %10s %14s\n", "window keeping every record (whole)",
         keep_m * 1e3, "", "");
  printf("  %-44s %10.2f %10s %14s\n", "the same pairs, hot path only (ring)",
         hot_m * 1e3, "", "");
  printf("  %-44s %10.2f %10.0f %14.1f\n",
         "records to a finished dump (difference)", store_m * 1e3, mb / store_m,
         mrec / store_m);
  printf("  %-44s %10.2f %10.0f %14.1f\n", "peer: open + write() + close",
         peer_m * 1e3, mb / peer_m, mrec / peer_m);
  double ratio = peer_m / store_m;
  printf("  speed of records to disk / write(): %.2f   target >= 0.8: %s\n",
         ratio, ratio >= 0.8 ? "met" : "NOT met");

  // suite|<section>|<metric>|<tpuprof>|<peer
  // name>|<peer>|<unit>|<ratio>|<target>|<verdict> Bandwidth: ratio tpuprof /
  // peer (1.0 = as fast as a plain write()).
  char tn[32] = "";
  if (threads > 1)
    snprintf(tn, sizeof(tn), ", %d threads", threads);
  printf("suite|dump|records to a finished dump, %.0f MB, %s%s|%.0f|write()|"
         "%.0f|MB/s|%.3f|>= 0.8x|%s\n",
         mb, fs, tn, mb / store_m, mb / peer_m, ratio,
         ratio >= 0.8 ? "met" : "NOT met");
  printf("suite|dump|records to a finished dump, records, %s%s|%.1f|write()|"
         "%.1f|M records/s|%.3f||n/a\n",
         fs, tn, mrec / store_m, mrec / peer_m, ratio);
  free(buf);
  free(keep_s);
  free(hot_s);
  free(store_s);
  free(peer_s);
}

int main(int argc, char **argv) {
  uint64_t records = 1u << 22;
  int rounds = 7;
  const char *dirs[16];
  int ndirs = 0;
  int threads = 1;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--records") && i + 1 < argc)
      records = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--dir") && i + 1 < argc &&
             ndirs < (int)(sizeof(dirs) / sizeof(dirs[0])))
      dirs[ndirs++] = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: dump_write [--records N] [--rounds R] "
                      "[--dir DIR]... [--threads T]\n");
      return 2;
    }
  }
  if (records < 1 || rounds < 1 || rounds > 1000 || threads < 1 ||
      threads > 64 || records < (uint64_t)threads) {
    fprintf(stderr, "dump_write: --records must be >= 1 and >= --threads, "
                    "--rounds 1..1000, --threads 1..64\n");
    return 2;
  }
  if (!ndirs)
    dirs[ndirs++] = ".";
  for (int i = 0; i < ndirs; ++i)
    measure(dirs[i], records, rounds, threads);
  return 0;
}
