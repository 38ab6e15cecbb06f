/*===- runtime/dump_file.c - The one writer of dump files ---------*- C -*-===*\
|*                                                                            *|
|* Everything the runtime writes to disk goes through this file: the first    *|
|* free name, the prefix (header, MODULE, EVENTS, CALIBRATION), MODULE        *|
|* sections of modules that register during the window, the SEGMENT sections  *|
|* threads take as they fill them, and the finalization in place at the       *|
|* close (docs/runtime.md, "Storage"; docs/formats.md, SEGMENT sections).     *|
|*                                                                            *|
|* Rules from the design:                                                     *|
|*   - a dump never overwrites another file (O_EXCL under a free name past    *|
|*     the run of taken ones, mode 0600);                                     *|
|*   - the file only grows through reserve(): RLIMIT_FSIZE is checked first   *|
|*     (so no SIGXFSZ) and the space is allocated with fallocate (or zeros    *|
|*     written where it is unsupported) before anything maps it (so no        *|
|*     SIGBUS: a full file system is an error return, never a fault);         *|
|*   - no record is copied: the records already are the file's bytes;         *|
|*   - a failure never stops the program: one line on stderr, and the         *|
|*     records that cannot be kept are counted as dropped.                    *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE 1 /* fallocate, FALLOC_FL_*, MADV_DONTFORK */
#include "rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

int __tpuprof_rt_kill_before_step;
volatile int __tpuprof_rt_dump_faulted;

static uint32_t dump_serial;

/// The test hook: dies here like a process killed at this point.
static void kill_point(int step) {
  if (TPUPROF_RT_UNLIKELY(__tpuprof_rt_kill_before_step == step))
    raise(SIGKILL);
}

static uint64_t page_size(void) {
  static uint64_t page;
  if (!page)
    page = (uint64_t)sysconf(_SC_PAGESIZE);
  return page;
}

/*===-- Messages ---------------------------------------------------------===*/

/// A program that flushes often while the disk stays full would print the
/// same line for every window: say each (kind, error, directory) once, until
/// a window gets through without it.
static int said_kind, said_err;
static char said_dir[TPUPROF_RT_DIR_MAX];

enum { SAID_CREATE = 1, SAID_GROW = 2 };

static void say_once(int kind, const tpuprof_rt_dump *d, int err,
                     const char *what) {
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_MESSAGES);
  int same =
      said_kind == kind && said_err == err && strcmp(said_dir, d->dir) == 0;
  if (!same) {
    said_kind = kind;
    said_err = err;
    snprintf(said_dir, sizeof(said_dir), "%s", d->dir);
    fprintf(stderr, "tpuprof: %s '%s': %s; %s\n",
            kind == SAID_CREATE ? "cannot create dump" : "dump", d->path,
            strerror(err), what);
  }
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_MESSAGES);
}

static void said_nothing(void) {
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_MESSAGES);
  said_kind = 0;
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_MESSAGES);
}

/*===-- Plain writing ----------------------------------------------------===*/

/// pwritev(2) of `iov` at `offset` until everything is out; retries EINTR
/// and short writes.
static int writev_all(int fd, struct iovec *iov, int n, uint64_t offset) {
  while (n > 0) {
    ssize_t w = pwritev(fd, iov, n, (off_t)offset);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      if (w == 0) // No progress and no error: treat as a full device.
        errno = ENOSPC;
      return -1;
    }
    offset += (uint64_t)w;
    for (; n > 0 && (size_t)w >= iov->iov_len; ++iov, --n)
      w -= (ssize_t)iov->iov_len;
    if (n > 0) {
      iov->iov_base = (uint8_t *)iov->iov_base + w;
      iov->iov_len -= (size_t)w;
    }
  }
  return 0;
}

static int write_all(int fd, const void *buf, uint64_t n, uint64_t offset) {
  struct iovec iov = {(void *)(uintptr_t)buf, (size_t)n};
  return writev_all(fd, &iov, 1, offset);
}

static int read_all(int fd, void *buf, uint64_t n, uint64_t offset) {
  uint8_t *p = (uint8_t *)buf;
  while (n > 0) {
    ssize_t r = pread(fd, p, n, (off_t)offset);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      if (r == 0)
        errno = EIO;
      return -1;
    }
    p += r;
    n -= (uint64_t)r;
    offset += (uint64_t)r;
  }
  return 0;
}

static uint8_t *put_section(uint8_t *p, uint32_t kind, uint64_t payload) {
  tpuprof_section_header h;
  memset(&h, 0, sizeof(h));
  h.kind = kind;
  h.size = (payload + 7u) & ~(uint64_t)7u;
  __tpuprof_rt_le_layout(&h, TPUPROF_RT_LAYOUT_SECTION_HEADER, 1);
  memcpy(p, &h, sizeof(h));
  return p + sizeof(h);
}

static uint64_t section_bytes(uint64_t payload) {
  return sizeof(tpuprof_section_header) + ((payload + 7u) & ~(uint64_t)7u);
}

/// `d`'s header in file order at `out`.
static void put_header(const tpuprof_rt_dump *d, void *out) {
  memcpy(out, &d->h, sizeof(d->h));
  __tpuprof_rt_le_layout(out, TPUPROF_RT_LAYOUT_DUMP_HEADER, 1);
}

/// The header as it stands, never claiming to be complete.
static int write_header(tpuprof_rt_dump *d) {
  d->h.flags &= ~(uint32_t)TPUPROF_DUMP_COMPLETE;
  tpuprof_dump_header h;
  put_header(d, &h);
  return write_all(d->fd, &h, sizeof(h), 0);
}

/// `d`'s PROCESS payload, in file order, at its place in the file.
static int write_process(tpuprof_rt_dump *d) {
  tpuprof_process_section p = d->process;
  __tpuprof_rt_le_layout(&p, TPUPROF_RT_LAYOUT_PROCESS_SECTION, 1);
  return write_all(d->fd, &p, sizeof(p), d->process_at);
}

/*===-- Growing the file -------------------------------------------------===*/

/// Whether the file may grow to `new_end` bytes: past RLIMIT_FSIZE a write
/// raises SIGXFSZ, whose default action kills the host program. 0, or -1
/// with errno EFBIG.
static int within_size_limit(uint64_t new_end) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      new_end > (uint64_t)rl.rlim_cur) {
    errno = EFBIG;
    return -1;
  }
  return 0;
}

/// Makes the file `new_end` bytes long with its space allocated, so that a
/// mapping of it can never fault for want of space. The file size limit is
/// checked first. 0, or -1 with errno (EFBIG, ENOSPC, EDQUOT, EIO...).
static int reserve(tpuprof_rt_dump *d, uint64_t new_end) {
  if (new_end <= d->end)
    return 0;
  if (within_size_limit(new_end) != 0)
    return -1;
  int rc;
  do
    rc = fallocate(d->fd, 0, (off_t)d->end, (off_t)(new_end - d->end));
  while (rc != 0 && errno == EINTR);
  if (rc == 0 || (errno != EOPNOTSUPP && errno != ENOSYS))
    return rc;
  // No fallocate on this file system: written zeros allocate the blocks
  // (or fail with ENOSPC) now, not when a page of the mapping is touched.
  static const uint8_t zeros[64 << 10];
  for (uint64_t off = d->end; off < new_end;) {
    uint64_t n = new_end - off < sizeof(zeros) ? new_end - off : sizeof(zeros);
    if (write_all(d->fd, zeros, n, off) != 0)
      return -1;
    off += n;
  }
  return 0;
}

/// A growth failed: said once per window. The thread that asked takes no
/// more segments in the window (segments.c), so a full file system costs each
/// thread one failed request, not a system call per dropped record; other
/// threads still try (a smaller segment may fit).
static void grow_failed(tpuprof_rt_dump *d, int err) {
  if (!d->grow_err) {
    d->grow_err = err ? err : EIO;
    say_once(SAID_GROW, d, d->grow_err,
             "this window's further records are counted as dropped");
  }
}

/*===-- Is the file still the dump's? ------------------------------------===*/

/// Whether `fd` is the file `d` created.
static int is_dump_file(const tpuprof_rt_dump *d, int fd) {
  struct stat st;
  return fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_dev == d->dev &&
         (uint64_t)st.st_ino == d->ino;
}

/// The window's file is lost: one line, and `d` is FAILED. Its own
/// descriptor is closed; one the program reused is left alone.
static int lost(tpuprof_rt_dump *d, int ours, const char *why) {
  fprintf(stderr, "tpuprof: dump '%s' %s; this window's records are lost\n",
          d->path, why);
  if (ours)
    close(d->fd);
  d->fd = -1;
  d->state = TPUPROF_RT_DUMP_FAILED;
  return -1;
}

int __tpuprof_rt_dump_check_locked(tpuprof_rt_dump *d) {
  if (d->state != TPUPROF_RT_DUMP_OPEN)
    return d->state == TPUPROF_RT_DUMP_PENDING ? 0 : -1;
  struct stat st;
  int ours = is_dump_file(d, d->fd);
  if (!ours) {
    // The program closed the descriptor (and may have opened a file of its
    // own under its number, which is never written): the file is reopened
    // by name, if it is still the one created.
    int fd = open(d->path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0 && !is_dump_file(d, fd)) {
      close(fd);
      fd = -1;
    }
    if (fd < 0)
      return lost(d, 0, "was closed by the program and cannot be reopened");
    d->fd = __tpuprof_rt_fd_high(fd);
  }
  if (__atomic_exchange_n(&__tpuprof_rt_dump_faulted, 0, __ATOMIC_RELAXED) ||
      (fstat(d->fd, &st) == 0 && (uint64_t)st.st_size < d->end))
    return lost(d, 1, "was truncated by another process");
  return 0;
}

/*===-- Creating a window's file -----------------------------------------===*/

/// Bytes and count of the MODULE sections of modules [from, count).
static uint64_t modules_bytes(uint32_t from, uint32_t count) {
  uint64_t bytes = 0;
  for (uint32_t i = from; i < count; ++i) {
    uint64_t size = 0;
    uint32_t first = 0;
    (void)__tpuprof_rt_module_locked(i, &size, &first);
    bytes += section_bytes(sizeof(tpuprof_module_section) + size);
  }
  return bytes;
}

/// Writes the MODULE sections of modules [from, count) at `p` (zeroed).
static uint8_t *put_modules(uint8_t *p, uint32_t from, uint32_t count) {
  for (uint32_t i = from; i < count; ++i) {
    tpuprof_module_section ms;
    memset(&ms, 0, sizeof(ms));
    const void *table =
        __tpuprof_rt_module_locked(i, &ms.table_size, &ms.first_probe);
    ms.module_id = i;
    uint64_t payload = sizeof(ms) + ms.table_size;
    uint8_t *q = put_section(p, TPUPROF_SECTION_MODULE, payload);
    memcpy(q, &ms, sizeof(ms));
    __tpuprof_rt_le_layout(q, TPUPROF_RT_LAYOUT_MODULE_SECTION, 1);
    memcpy(q + sizeof(ms), table, ms.table_size);
    p += section_bytes(payload);
  }
  return p;
}

/// Writes the prefix at offset 0 of `d`'s open, empty file: header (not
/// complete), MODULE sections, EVENTS, CALIBRATION. 0, or -1 with errno.
static int write_prefix(tpuprof_rt_dump *d) {
  d->grow_err = 0;
  d->end = 0;
  d->modules = d->threads = 0;
  d->num_segs = 0;
  uint32_t names = __tpuprof_rt_counters_names_bytes();
  uint64_t events = section_bytes(sizeof(tpuprof_events_section) + names);
  uint64_t calib_payload =
      sizeof(d->calib) + (uint64_t)d->num_counts * sizeof(d->counts[0]);
  uint64_t calib = d->calibrated ? section_bytes(calib_payload) : 0;
  uint64_t process = section_bytes(sizeof(d->process));
  __tpuprof_rt_process_section(&d->process);
  __tpuprof_rt_process_clock_pair(&d->process.realtime_ns0,
                                  &d->process.monotonic_ns0);
  __tpuprof_rt_modules_lock();
  uint32_t modules = __tpuprof_rt_modules_count_locked();
  uint64_t size =
      sizeof(d->h) + modules_bytes(0, modules) + events + calib + process;
  uint8_t *image = (uint8_t *)calloc(1, size); // Padding must be zero.
  if (image) {
    uint8_t *p = put_modules(image + sizeof(d->h), 0, modules);
    tpuprof_events_section ev;
    memset(&ev, 0, sizeof(ev));
    uint8_t *q = put_section(p, TPUPROF_SECTION_EVENTS, sizeof(ev) + names);
    ev.count = __tpuprof_rt_counters_write_names(q + sizeof(ev));
    __tpuprof_rt_le_layout(&ev, TPUPROF_RT_LAYOUT_EVENTS_SECTION, 1);
    memcpy(q, &ev, sizeof(ev));
    p += events;
    if (d->calibrated) {
      q = put_section(p, TPUPROF_SECTION_CALIBRATION, calib_payload);
      memcpy(q, &d->calib, sizeof(d->calib));
      memcpy(q + sizeof(d->calib), d->counts,
             d->num_counts * sizeof(d->counts[0]));
      __tpuprof_rt_le_layout(q, TPUPROF_RT_LAYOUT_CALIBRATION, 1);
      __tpuprof_rt_le_layout(q + sizeof(d->calib),
                             TPUPROF_RT_LAYOUT_CALIBRATION_COUNTS,
                             d->num_counts);
      p += calib;
    }
    q = put_section(p, TPUPROF_SECTION_PROCESS, sizeof(d->process));
    memcpy(q, &d->process, sizeof(d->process));
    __tpuprof_rt_le_layout(q, TPUPROF_RT_LAYOUT_PROCESS_SECTION, 1);
    d->process_at = (uint64_t)(q - image);
  }
  __tpuprof_rt_modules_unlock();
  if (!image) {
    errno = ENOMEM;
    return -1;
  }
  d->h.flags &= TPUPROF_DUMP_MEMORY; // Set by window.c for the window.
  d->h.num_sections = modules + 1 + (d->calibrated ? 1u : 0u) + 1u;
  put_header(d, image);
  int rc = reserve(d, size) == 0 ? write_all(d->fd, image, size, 0) : -1;
  free(image);
  if (rc != 0)
    return -1;
  d->end = size;
  d->modules = modules;
  return 0;
}

/// Gives `d` its new serial: segments of the file's earlier use are not
/// its own.
static void new_serial(tpuprof_rt_dump *d) {
  if (++dump_serial == 0)
    dump_serial = 1;
  d->serial = dump_serial;
  d->state = TPUPROF_RT_DUMP_OPEN;
}

/// Creates directory `dir` and its missing parents (mode 0777 less the
/// umask), as mkdir -p does; an existing one is fine.
static void make_dirs(const char *dir) {
  char path[TPUPROF_RT_DIR_MAX];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof(path))
    return;
  memcpy(path, dir, n + 1);
  for (size_t i = 1; i <= n; ++i) {
    if (path[i] != '/' && path[i] != '\0')
      continue;
    char c = path[i];
    path[i] = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
      path[i] = c;
      return; // The open below says why.
    }
    path[i] = c;
  }
}

/// Writes dump number `n`'s path into d->path; 0, or -1 when too long.
/// A rank's dumps say whose they are; a single process's keep the plain
/// name (docs/mpi.md).
static int dump_name(tpuprof_rt_dump *d, uint32_t rank, uint32_t n) {
  int len = rank == TPUPROF_RANK_UNKNOWN
                ? snprintf(d->path, sizeof(d->path), "%s/tpuprof_data_dev%u-%u",
                           d->dir, d->h.device, n)
                : snprintf(d->path, sizeof(d->path),
                           "%s/tpuprof_data_dev%u-rank%u-%u", d->dir,
                           d->h.device, rank, n);
  return len < 0 || (size_t)len >= sizeof(d->path) ? -1 : 0;
}

/// Whether dump number `n` names a file; numbers past UINT32_MAX are free.
static int dump_name_taken(tpuprof_rt_dump *d, uint32_t rank, uint64_t n) {
  struct stat st;
  return n <= UINT32_MAX && dump_name(d, rank, (uint32_t)n) == 0 &&
         lstat(d->path, &st) == 0;
}

/// The first number from `n` on that is free after the run of taken ones
/// starting there, found by doubling steps and then halving them: a
/// directory that holds thousands of dumps costs a new process a few dozen
/// lstat() calls, not an open() per file. A name freed inside the run may
/// be passed over; O_EXCL still decides, so nothing is ever overwritten.
static uint32_t skip_taken_dump_names(tpuprof_rt_dump *d, uint32_t rank,
                                      uint32_t n) {
  if (!dump_name_taken(d, rank, n))
    return n;
  uint64_t taken = n, free_n = (uint64_t)n + 1;
  while (dump_name_taken(d, rank, free_n)) {
    uint64_t step = free_n - taken;
    taken = free_n;
    free_n = taken + 2 * step;
  }
  // Now `taken` is taken and `free_n` is not: halve the gap.
  while (free_n - taken > 1) {
    uint64_t mid = taken + (free_n - taken) / 2;
    if (dump_name_taken(d, rank, mid))
      taken = mid;
    else
      free_n = mid;
  }
  // Every number taken: UINT32_MAX's EEXIST ends the search.
  return free_n > UINT32_MAX ? UINT32_MAX : (uint32_t)free_n;
}

void __tpuprof_rt_dump_create(tpuprof_rt_dump *d) {
  d->fd = -1;
  d->state = TPUPROF_RT_DUMP_FAILED;
  int err = 0;
  struct stat st;
  if (stat(d->dir, &st) != 0 && errno == ENOENT)
    make_dirs(d->dir);
  uint32_t rank = __tpuprof_rt_process_rank();
  for (uint32_t n = d->first_n;;) {
    if (dump_name(d, rank, n) != 0) {
      err = ENAMETOOLONG;
      break;
    }
    d->fd = open(d->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (d->fd >= 0) {
      d->h.call_num = n;
      d->fd = __tpuprof_rt_fd_high(d->fd);
      if (fstat(d->fd, &st) == 0) {
        d->dev = (uint64_t)st.st_dev;
        d->ino = (uint64_t)st.st_ino;
      }
      break;
    }
    if (errno == EINTR)
      continue;
    // EEXIST: a file of this name exists (an earlier run's, another
    // process's): never touch it, try the next number.
    if (errno != EEXIST || n == UINT32_MAX) {
      err = errno;
      break;
    }
    n = skip_taken_dump_names(d, rank, n + 1);
  }
  if (d->fd >= 0 && write_prefix(d) != 0) {
    err = errno;
    // A partial file would only confuse: it holds no record yet.
    unlink(d->path);
    close(d->fd);
    d->fd = -1;
  }
  if (d->fd < 0) {
    say_once(SAID_CREATE, d, err, "this window's records are not kept");
    return;
  }
  new_serial(d);
}

void __tpuprof_rt_dump_restart_locked(tpuprof_rt_dump *d) {
  (void)__tpuprof_rt_dump_check_locked(d);
  if (d->state != TPUPROF_RT_DUMP_OPEN) {
    if (d->state == TPUPROF_RT_DUMP_FAILED)
      __tpuprof_rt_dump_create(d);
    return;
  }
  if (ftruncate(d->fd, 0) == 0) {
    d->end = 0;
    if (write_prefix(d) == 0) {
      new_serial(d);
      return;
    }
  }
  int err = errno;
  unlink(d->path);
  close(d->fd);
  d->fd = -1;
  d->state = TPUPROF_RT_DUMP_FAILED;
  say_once(SAID_CREATE, d, err, "this window's records are not kept");
}

void __tpuprof_rt_dump_begin(tpuprof_rt_dump *d, uint64_t window_begin) {
  // Until the close the window spans [begin, begin]: the reader of an
  // incomplete dump extends it to its last record.
  d->h.window_begin = d->h.window_end = window_begin;
  if (d->state == TPUPROF_RT_DUMP_OPEN) {
    __tpuprof_rt_process_clock_pair(&d->process.realtime_ns0,
                                    &d->process.monotonic_ns0);
    (void)write_process(d);
    (void)write_header(d);
  }
}

/*===-- Modules registered during the window -----------------------------===*/

void __tpuprof_rt_dump_sync_modules_locked(tpuprof_rt_dump *d) {
  if (d->state != TPUPROF_RT_DUMP_OPEN || __tpuprof_rt_dump_check_locked(d))
    return;
  __tpuprof_rt_modules_lock();
  uint32_t count = __tpuprof_rt_modules_count_locked();
  uint32_t from = d->modules;
  uint64_t bytes = modules_bytes(from, count);
  uint8_t *buf = bytes ? (uint8_t *)calloc(1, bytes) : NULL;
  if (buf)
    put_modules(buf, from, count);
  __tpuprof_rt_modules_unlock();
  if (!bytes)
    return;
  if (!buf || reserve(d, d->end + bytes) != 0 ||
      write_all(d->fd, buf, bytes, d->end) != 0) {
    grow_failed(d, buf ? errno : ENOMEM);
    free(buf);
    return;
  }
  free(buf);
  // The sections first, then the header that counts them: a process killed
  // in between leaves bytes the header does not count yet (ignored).
  d->end += bytes;
  d->modules = count;
  d->h.num_sections += count - from;
  (void)write_header(d);
}

/*===-- Segments ---------------------------------------------------------===*/

/// Grows `d`'s table of segments by one slot; NULL when out of memory.
static tpuprof_rt_dump_seg *new_slot(tpuprof_rt_dump *d) {
  if (d->num_segs == d->segs_capacity) {
    uint32_t cap = d->segs_capacity ? d->segs_capacity * 2 : 64;
    tpuprof_rt_dump_seg *grown =
        (tpuprof_rt_dump_seg *)realloc(d->segs, cap * sizeof(*grown));
    if (!grown)
      return NULL;
    d->segs = grown;
    d->segs_capacity = cap;
  }
  tpuprof_rt_dump_seg *s = &d->segs[d->num_segs];
  memset(s, 0, sizeof(*s));
  return s;
}

/// Makes the pages of [p, p + n) present and writable now, so that the hot
/// path never takes a page fault billed to the op it measures. 0, or -1
/// when the kernel cannot back them (it would have been a SIGBUS).
static int populate(uint8_t *p, uint64_t n) {
  if (madvise(p, n, MADV_POPULATE_WRITE) == 0)
    return 0;
  if (errno != EINVAL)
    return -1;
  // Before Linux 5.14: touch each page. The space is allocated, so this
  // cannot fault for want of it.
  for (uint64_t off = 0; off < n; off += page_size()) {
    volatile uint8_t *q = p + off;
    *q = *q;
  }
  return 0;
}

int __tpuprof_rt_dump_add_segment_locked(tpuprof_rt_dump *d, uint64_t tid,
                                         uint32_t thread, uint32_t seq,
                                         uint64_t want,
                                         tpuprof_rt_segment *out) {
  if (d->state != TPUPROF_RT_DUMP_OPEN || __tpuprof_rt_dump_check_locked(d))
    return -1;
  tpuprof_rt_dump_seg *s = new_slot(d);
  if (!s) {
    grow_failed(d, ENOMEM);
    return -1;
  }
  // The section starts where the file ends; the mapping at the page that
  // holds that offset (it may hold a MODULE section's tail), and the
  // section ends on a page boundary, so the next one can do the same.
  uint64_t page = page_size();
  uint64_t sec = d->end;
  uint64_t map_off = sec & ~(page - 1);
  uint64_t file_end =
      (sec + TPUPROF_RT_SEGMENT_HEADERS + want + page - 1) & ~(page - 1);
  if (reserve(d, file_end) != 0) {
    grow_failed(d, errno);
    return -1;
  }
  uint64_t len = file_end - map_off;
  void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd,
                 (off_t)map_off);
  if (m == MAP_FAILED) {
    grow_failed(d, errno);
    return -1;
  }
  // A forked child never sees the parent's records (nor writes them).
  (void)madvise(m, len, MADV_DONTFORK);
  if (populate((uint8_t *)m, len) != 0) {
    int err = errno == EFAULT ? ENOSPC : errno;
    munmap(m, len);
    grow_failed(d, err);
    return -1;
  }
  uint8_t *p = (uint8_t *)m + (sec - map_off);
  uint8_t *q = put_section(p, TPUPROF_SECTION_SEGMENT,
                           file_end - sec - sizeof(tpuprof_section_header));
  tpuprof_segment_section head;
  memset(&head, 0, sizeof(head));
  head.tid = tid;
  head.thread = thread;
  head.seq = seq;
  __tpuprof_rt_le_layout(&head, TPUPROF_RT_LAYOUT_SEGMENT_SECTION, 1);
  memcpy(q, &head, sizeof(head)); // stream_size 0: scanned until closed.
  s->section = sec;
  s->capacity = file_end - sec - TPUPROF_RT_SEGMENT_HEADERS;
  s->used = 0;
  out->map = (uint8_t *)m;
  out->map_size = len;
  out->head = (tpuprof_segment_section *)q;
  out->base = q + sizeof(head);
  out->capacity = out->room = s->capacity;
  out->slot = d->num_segs++;
  out->serial = d->serial;
  d->end = file_end;
  ++d->h.num_sections;
  // An incomplete dump's second calibration pair: as late as possible.
  __tpuprof_rt_calibration_pair(&d->h.calib_ticks1, &d->h.calib_ns1);
  (void)write_header(d);
  return 0;
}

int __tpuprof_rt_dump_write_stage_locked(tpuprof_rt_dump *d,
                                         const tpuprof_rt_segment *s,
                                         uint64_t used, uint64_t *records_at) {
  if (d->state != TPUPROF_RT_DUMP_OPEN || s->serial != d->serial ||
      __tpuprof_rt_dump_check_locked(d))
    return -1;
  tpuprof_rt_dump_seg *slot = new_slot(d);
  if (!slot) {
    grow_failed(d, ENOMEM);
    return -1;
  }
  struct {
    tpuprof_section_header sh;
    tpuprof_segment_section head;
  } h;
  memset(&h, 0, sizeof(h));
  h.sh.kind = TPUPROF_SECTION_SEGMENT;
  h.sh.size = sizeof(h.head) + used;        // Records keep 8-byte multiples.
  memcpy(&h.head, s->head, sizeof(h.head)); // Live: in file order.
  __tpuprof_rt_le_layout(&h.head, TPUPROF_RT_LAYOUT_SEGMENT_SECTION, 1);
  h.head.stream_size = used;
  uint64_t sec = d->end, end = sec + TPUPROF_RT_SEGMENT_HEADERS + used;
  uint64_t dropped = h.head.dropped_full + h.head.dropped_overwritten +
                     h.head.dropped_depth + h.head.dropped_no_space;
  __tpuprof_rt_le_layout(&h, TPUPROF_RT_LAYOUT_SECTION_HEADER, 1);
  __tpuprof_rt_le_layout(&h.head, TPUPROF_RT_LAYOUT_SEGMENT_SECTION, 1);
  // No fallocate: a write reports a full file system as an error, it never
  // faults. The size limit is checked, as a write past it raises SIGXFSZ.
  struct iovec iov[2] = {{&h, sizeof(h)}, {s->base, (size_t)used}};
  if (within_size_limit(end) != 0 || writev_all(d->fd, iov, 2, sec) != 0) {
    int err = errno;
    (void)ftruncate(d->fd, (off_t)d->end); // What a partial write left.
    grow_failed(d, err);
    return -1;
  }
  slot->section = sec;
  slot->capacity = slot->used = used;
  slot->dropped = dropped;
  slot->written = 1;
  ++d->num_segs;
  d->end = end;
  // The section counts from here on. Until the stage starts over, the
  // reader of a crash dump sees this lap twice and keeps this copy.
  ++d->h.num_sections;
  __tpuprof_rt_calibration_pair(&d->h.calib_ticks1, &d->h.calib_ns1);
  (void)write_header(d);
  kill_point(6);
  *records_at = sec + TPUPROF_RT_SEGMENT_HEADERS;
  return 0;
}

void __tpuprof_rt_dump_patch_locked(tpuprof_rt_dump *d, uint32_t serial,
                                    uint64_t at, const void *bytes,
                                    uint64_t n) {
  if (d && d->state == TPUPROF_RT_DUMP_OPEN && d->serial == serial &&
      __tpuprof_rt_dump_check_locked(d) == 0)
    (void)write_all(d->fd, bytes, n, at);
}

void __tpuprof_rt_dump_set_used_locked(tpuprof_rt_dump *d, uint32_t slot,
                                       uint64_t used) {
  if (slot < d->num_segs)
    d->segs[slot].used =
        used <= d->segs[slot].capacity ? used : d->segs[slot].capacity;
}

/*===-- The close --------------------------------------------------------===*/

static void reset(tpuprof_rt_dump *d) {
  free(d->device_payload);
  d->device_payload = NULL;
  d->state = TPUPROF_RT_DUMP_NONE;
  d->fd = -1;
  d->num_segs = 0;
}

int __tpuprof_rt_dump_finish(tpuprof_rt_dump *d, uint64_t window_end,
                             uint64_t lost, char *path, size_t path_size,
                             uint32_t *call_num) {
  if (d->state == TPUPROF_RT_DUMP_OPEN)
    (void)__tpuprof_rt_dump_check_locked(d); // FAILED when lost.
  if (d->state != TPUPROF_RT_DUMP_OPEN) {
    int pending = d->state == TPUPROF_RT_DUMP_PENDING;
    reset(d);
    return pending ? 1 : -1;
  }
  // Every mapping of the file is detached: the records are final, and
  // nothing but this thread touches the file. Each step leaves a dump the
  // reader accepts (formats.md, "Incomplete (crash-safe) dumps").
  uint64_t dropped = lost;
  uint64_t size = d->end;
  kill_point(1);
  // 1. Each segment's stream size, and the drops it counted.
  for (uint32_t i = 0; i < d->num_segs; ++i) {
    const tpuprof_rt_dump_seg *s = &d->segs[i];
    if (s->written) { // Its header is final.
      dropped += s->dropped;
      continue;
    }
    uint64_t at = s->section + sizeof(tpuprof_section_header);
    tpuprof_segment_section head;
    if (read_all(d->fd, &head, sizeof(head), at) != 0)
      goto fail;
    __tpuprof_rt_le_layout(&head, TPUPROF_RT_LAYOUT_SEGMENT_SECTION, 1);
    head.stream_size = s->used;
    dropped += head.dropped_full + head.dropped_overwritten +
               head.dropped_depth + head.dropped_no_space;
    __tpuprof_rt_le_layout(&head, TPUPROF_RT_LAYOUT_SEGMENT_SECTION, 1);
    if (write_all(d->fd, &head, sizeof(head), at) != 0)
      goto fail;
  }
  kill_point(2);
  // 2. The unused capacity: the file's last section gives it back (its
  //    section shrinks, the file is cut), the others free its blocks.
  for (uint32_t i = 0; i < d->num_segs; ++i) {
    const tpuprof_rt_dump_seg *s = &d->segs[i];
    if (s->written)
      continue;
    uint64_t first = s->section + TPUPROF_RT_SEGMENT_HEADERS;
    uint64_t used_end = first + s->used, cap_end = first + s->capacity;
    if (cap_end == d->end) {
      tpuprof_section_header sh;
      memset(&sh, 0, sizeof(sh));
      sh.kind = TPUPROF_SECTION_SEGMENT;
      sh.size = sizeof(tpuprof_segment_section) + s->used;
      __tpuprof_rt_le_layout(&sh, TPUPROF_RT_LAYOUT_SECTION_HEADER, 1);
      if (write_all(d->fd, &sh, sizeof(sh), s->section) != 0)
        goto fail;
      size = used_end;
    } else if (cap_end > used_end) {
      (void)fallocate(d->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                      (off_t)used_end, (off_t)(cap_end - used_end));
    }
  }
  // Also whatever a failed fallocate left past the last section.
  if (ftruncate(d->fd, (off_t)size) != 0)
    goto fail;
  // The DEVICE section (device.c), after the records it refers to; the
  // header counts it once it is whole.
  if (d->device_payload) {
    uint64_t payload = d->device_payload_size, bytes = section_bytes(payload);
    uint8_t *buf = (uint8_t *)calloc(1, bytes);
    int ok = buf && within_size_limit(size + bytes) == 0;
    if (ok) {
      memcpy(put_section(buf, TPUPROF_SECTION_DEVICE, payload),
             d->device_payload, payload);
      ok = write_all(d->fd, buf, bytes, size) == 0;
    }
    free(buf);
    free(d->device_payload);
    d->device_payload = NULL;
    if (!ok) {
      (void)ftruncate(d->fd, (off_t)size);
      fprintf(stderr, "tpuprof: cannot write the device intervals of '%s'\n",
              d->path);
    } else {
      size += bytes;
      ++d->h.num_sections;
    }
  }
  kill_point(3);
  // 3. The clock pair at the end and the offsets measured meanwhile, then
  //    the header: window end, second calibration pair, drops.
  {
    tpuprof_process_section now;
    __tpuprof_rt_process_section(&now);
    memcpy(d->process.offsets, now.offsets, sizeof(now.offsets));
    __tpuprof_rt_process_clock_pair(&d->process.realtime_ns1,
                                    &d->process.monotonic_ns1);
    if (write_process(d) != 0)
      goto fail;
  }
  d->h.window_end = window_end;
  __tpuprof_rt_calibration_pair(&d->h.calib_ticks1, &d->h.calib_ns1);
  d->h.dropped = dropped;
  if (write_header(d) != 0)
    goto fail;
  kill_point(4);
  // 4. Complete, last.
  d->h.flags |= TPUPROF_DUMP_COMPLETE;
  {
    uint32_t flags = TPUPROF_RT_LE32(d->h.flags);
    if (write_all(d->fd, &flags, sizeof(flags),
                  offsetof(tpuprof_dump_header, flags)) != 0)
      goto fail;
  }
  kill_point(5);
  if (close(d->fd) != 0) {
    d->fd = -1;
    goto fail;
  }
  if (!d->grow_err)
    said_nothing();
  snprintf(path, path_size, "%s", d->path);
  *call_num = d->h.call_num;
  reset(d);
  return 0;

fail:
  fprintf(stderr, "tpuprof: cannot write dump '%s': %s\n", d->path,
          strerror(errno));
  if (d->fd >= 0)
    close(d->fd);
  reset(d);
  return -1;
}

void __tpuprof_rt_dump_discard(tpuprof_rt_dump *d) {
  if (d->state == TPUPROF_RT_DUMP_OPEN) {
    unlink(d->path);
    if (is_dump_file(d, d->fd))
      close(d->fd);
  }
  reset(d);
}

void __tpuprof_rt_dump_forget(tpuprof_rt_dump *d) {
  if (d->state == TPUPROF_RT_DUMP_OPEN && is_dump_file(d, d->fd))
    close(d->fd);
  reset(d);
}
