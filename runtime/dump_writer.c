/*===- runtime/dump_writer.c - Writing a dump file -----------------*- C -*-===*\
|*                                                                            *|
|* A window's file is created here when it opens and grows by one mapped      *|
|* THREAD section per recording thread (crash-safe: records are in the page   *|
|* cache as they are written). At a clean close a window one thread recorded  *|
|* is finalized in that file, in place; others are streamed from it into a    *|
|* fresh file that takes its place (or, when a thread's buffer is heap        *|
|* memory, control.c assembles an image that is written the same way). Two    *|
|* rules from the design: a dump never overwrites another file (each one is   *|
|* created with O_EXCL under the first free name), and a write error never    *|
|* stops the program (one line on stderr, -1 to the caller).                  *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE 1 /* renameat2, RENAME_EXCHANGE */
#include "rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

uint8_t *__tpuprof_rt_put_section(uint8_t *p, uint32_t kind, uint64_t payload) {
  tpuprof_section_header h;
  memset(&h, 0, sizeof(h));
  h.kind = kind;
  h.size = (payload + 7u) & ~(uint64_t)7u;
  memcpy(p, &h, sizeof(h));
  return p + sizeof(h);
}

/// write(2) until everything is out; retries EINTR and short writes.
static int write_all(int fd, const uint8_t *p, uint64_t n, uint64_t offset,
                     int positional) {
  while (n > 0) {
    size_t chunk = n > (1u << 30) ? (1u << 30) : (size_t)n;
    ssize_t w = positional ? pwrite(fd, p, chunk, (off_t)offset)
                           : write(fd, p, chunk);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    if (w == 0) { // No progress and no error: treat as a full device.
      errno = ENOSPC;
      return -1;
    }
    p += w;
    n -= (uint64_t)w;
    offset += (uint64_t)w;
  }
  return 0;
}

/// A THREAD section's two headers, which both finishers write as one block.
typedef struct {
  tpuprof_section_header sh;
  tpuprof_thread_section ts;
} thread_headers;

static thread_headers make_thread_headers(uint64_t tid, uint64_t dropped,
                                          uint64_t records,
                                          uint64_t stream_size) {
  thread_headers th;
  memset(&th, 0, sizeof(th));
  th.sh.kind = TPUPROF_SECTION_THREAD;
  th.sh.size = sizeof(th.ts) + stream_size;
  th.ts.tid = tid;
  th.ts.dropped = dropped;
  th.ts.num_records = records;
  th.ts.stream_size = stream_size;
  return th;
}

int __tpuprof_rt_write_dump(const char *dir, uint32_t device, uint32_t first_n,
                            uint8_t *image, uint64_t size, char *path,
                            size_t path_size, uint32_t *call_num) {
  int fd = -1;
  uint32_t n = first_n;
  for (;;) {
    int len = snprintf(path, path_size, "%s/tpuprof_data_dev%u-%u", dir,
                       device, n);
    if (len < 0 || (size_t)len >= path_size) {
      errno = ENAMETOOLONG;
      goto fail;
    }
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0)
      break;
    if (errno == EINTR)
      continue;
    // EEXIST: a file of this name exists (an earlier run's, another
    // process's): never touch it, try the next number.
    if (errno != EEXIST || n == UINT32_MAX)
      goto fail;
    ++n;
  }

  // The header goes out without TPUPROF_DUMP_COMPLETE; the flag is set last,
  // so a file cut short by an error or a crash never claims to be complete.
  tpuprof_dump_header h;
  memcpy(&h, image, sizeof(h));
  h.call_num = n;
  h.flags &= ~(uint32_t)TPUPROF_DUMP_COMPLETE;
  memcpy(image, &h, sizeof(h));
  if (write_all(fd, image, size, 0, 0) != 0)
    goto fail_close;
  h.flags |= TPUPROF_DUMP_COMPLETE;
  if (write_all(fd, (const uint8_t *)&h.flags, sizeof(h.flags),
                offsetof(tpuprof_dump_header, flags), 1) != 0)
    goto fail_close;
  memcpy(image, &h, sizeof(h));
  if (close(fd) != 0) {
    fd = -1;
    goto fail;
  }
  *call_num = n;
  return 0;

fail_close: {
  int err = errno;
  close(fd);
  errno = err;
}
fail:
  fprintf(stderr, "tpuprof: cannot write dump '%s': %s\n", path,
          strerror(errno));
  return -1;
}

/*===-- Crash-safe window files ------------------------------------------===*/

int __tpuprof_rt_kill_before_step;

/// The test hook: dies here like a process killed at this point.
static void kill_point(int step) {
  if (TPUPROF_RT_UNLIKELY(__tpuprof_rt_kill_before_step == step))
    raise(SIGKILL);
}

/// `dir/.name.XXXXXX` for the dump `dir/name`: hidden, so that a report of
/// the directory (which reads every tpuprof_data_dev* file) never takes a
/// temporary file left by a killed process for a second dump.
static int temp_name(char *tmp, size_t size, const char *path) {
  const char *slash = strrchr(path, '/');
  int dir_len = slash ? (int)(slash - path) + 1 : 0;
  int len = snprintf(tmp, size, "%.*s.%s.XXXXXX", dir_len, path,
                     path + dir_len);
  if (len < 0 || (size_t)len >= size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return 0;
}

/// Puts the complete dump `tmp` in the place of the window file `path`.
/// RENAME_EXCHANGE then unlink: atomic for readers like rename(), but ext4
/// does not start writeback of all the new file's blocks inside the call,
/// as it does for a rename() over an existing file (auto_da_alloc: ≈ 40 ms
/// per 100 MB). Where the exchange is not supported, rename().
static int replace_file(const char *tmp, const char *path) {
  kill_point(7);
  if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
    kill_point(8);
    unlink(tmp); // Now the old, incomplete window file.
    return 0;
  }
  return rename(tmp, path);
}

tpuprof_rt_wfile *__tpuprof_rt_wfile;

static uint32_t wfile_serial;

int __tpuprof_rt_wfile_create(tpuprof_rt_wfile *w, const char *dir,
                              uint32_t device, uint32_t first_n,
                              const uint8_t *prefix, uint64_t size) {
  w->fd = -1;
  w->serial = 0;
  uint32_t n = first_n;
  for (;;) {
    int len = snprintf(w->path, sizeof(w->path), "%s/tpuprof_data_dev%u-%u",
                       dir, device, n);
    if (len < 0 || (size_t)len >= sizeof(w->path)) {
      errno = ENAMETOOLONG;
      return -1;
    }
    w->fd = open(w->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (w->fd >= 0)
      break;
    if (errno == EINTR)
      continue;
    if (errno != EEXIST || n == UINT32_MAX)
      return -1;
    ++n;
  }
  memcpy(&w->h, prefix, sizeof(w->h));
  w->h.call_num = n;
  w->h.flags &= ~(uint32_t)TPUPROF_DUMP_COMPLETE;
  if (write_all(w->fd, prefix, size, 0, 0) != 0 ||
      write_all(w->fd, (const uint8_t *)&w->h, sizeof(w->h), 0, 1) != 0) {
    int err = errno;
    // A partial file would only confuse: it holds no record yet.
    unlink(w->path);
    close(w->fd);
    w->fd = -1;
    errno = err;
    return -1;
  }
  w->end = w->prefix_end = size;
  if (++wfile_serial == 0)
    wfile_serial = 1;
  w->serial = wfile_serial;
  return 0;
}

void __tpuprof_rt_wfile_sync_header(tpuprof_rt_wfile *w) {
  if (w->fd >= 0)
    (void)write_all(w->fd, (const uint8_t *)&w->h, sizeof(w->h), 0, 1);
}

uint8_t *__tpuprof_rt_wfile_add_thread(tpuprof_rt_wfile *w, uint64_t tid,
                                       uint64_t cap, uint64_t *map_size,
                                       uint64_t *section_off,
                                       uint64_t *file_off) {
  if (w->fd < 0)
    return NULL;
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  // The section starts right after the last one (sections are contiguous);
  // the mapping starts at the page holding it, and the file ends on a page
  // boundary so the next thread's section can do the same.
  uint64_t sec = w->end;
  uint64_t map_off = sec & ~(page - 1);
  uint64_t file_end = sec + sizeof(tpuprof_section_header) +
                      sizeof(tpuprof_thread_section) + cap;
  file_end = (file_end + page - 1) & ~(page - 1);
  uint64_t bytes = file_end - map_off;
  if (ftruncate(w->fd, (off_t)file_end) != 0)
    return NULL;
  void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd,
                 (off_t)map_off);
  if (m == MAP_FAILED) {
    (void)ftruncate(w->fd, (off_t)w->end);
    return NULL;
  }
  uint8_t *base = (uint8_t *)m + (sec - map_off);
  // Pages from ftruncate are not in memory yet: touch every one now (from
  // this section on: the first page may hold the previous section's tail),
  // so the hot path never takes a page fault billed to a measured op.
  memset(base, 0, file_end - sec);
  uint8_t *q = __tpuprof_rt_put_section(
      base, TPUPROF_SECTION_THREAD,
      file_end - sec - sizeof(tpuprof_section_header));
  tpuprof_thread_section ts;
  memset(&ts, 0, sizeof(ts));
  ts.tid = tid;
  // num_records and stream_size stay 0 until the clean close rewrites the
  // dump: the reader of an incomplete dump scans the records up to the
  // first slot whose begin is still 0.
  memcpy(q, &ts, sizeof(ts));
  w->end = file_end;
  ++w->h.num_sections;
  __tpuprof_rt_calibration_pair(&w->h.calib_ticks1, &w->h.calib_ns1);
  __tpuprof_rt_wfile_sync_header(w);
  *map_size = bytes;
  *section_off = sec - map_off;
  *file_off = sec;
  return (uint8_t *)m;
}

/// Ends a close that made `w`'s file the complete dump: its path and N.
static int close_done(tpuprof_rt_wfile *w, char *path, size_t path_size,
                      uint32_t *call_num) {
  w->fd = -1;
  snprintf(path, path_size, "%s", w->path);
  *call_num = w->h.call_num;
  return 0;
}

/// Ends a close that failed (errno says why) after one line on stderr; the
/// window file stays, readable as an incomplete dump.
static int close_failed(tpuprof_rt_wfile *w) {
  fprintf(stderr, "tpuprof: cannot write dump '%s': %s\n", w->path,
          strerror(errno));
  if (w->fd >= 0)
    close(w->fd);
  w->fd = -1;
  return -1;
}

int __tpuprof_rt_wfile_finish(tpuprof_rt_wfile *w, uint8_t *image,
                              uint64_t size, char *path, size_t path_size,
                              uint32_t *call_num) {
  char tmp[sizeof(w->path) + 17];
  int fd = -1;
  tpuprof_dump_header h;
  memcpy(&h, image, sizeof(h));
  h.call_num = w->h.call_num;
  h.flags |= TPUPROF_DUMP_COMPLETE;
  memcpy(image, &h, sizeof(h));
  if (temp_name(tmp, sizeof(tmp), w->path) != 0)
    goto fail;
  // mkstemp: O_EXCL and mode 0600, like every dump.
  fd = mkstemp(tmp);
  if (fd < 0)
    goto fail;
  if (write_all(fd, image, size, 0, 0) != 0 || close(fd) != 0) {
    int err = errno;
    if (fd >= 0)
      close(fd);
    unlink(tmp);
    errno = err;
    goto fail;
  }
  fd = -1;
  if (replace_file(tmp, w->path) != 0) {
    int err = errno;
    unlink(tmp);
    errno = err;
    goto fail;
  }
  close(w->fd);
  return close_done(w, path, path_size, call_num);

fail:
  return close_failed(w);
}


/// Counts the records of a stream and zeroes the counter words of those
/// that did not end (they hold begin readings, which mean nothing in a
/// dump). -1 when the stream does not end on a record boundary.
static int settle_records(uint8_t *stream, uint64_t size, uint64_t *records) {
  uint64_t n = 0, off = 0;
  while (size - off >= sizeof(tpuprof_record)) {
    tpuprof_record *r = (tpuprof_record *)(stream + off);
    uint64_t len = TPUPROF_RECORD_BYTES(r->num_dims, r->num_counters);
    if (len > size - off)
      return -1;
    if (r->num_counters && r->end == 0)
      memset((uint64_t *)(r + 1) + r->num_dims, 0, 8u * r->num_counters);
    off += len;
    ++n;
  }
  *records = n;
  return off == size ? 0 : -1;
}

int __tpuprof_rt_wfile_finish_in_place(tpuprof_rt_wfile *w,
                                       const tpuprof_dump_header *final,
                                       const tpuprof_rt_tsec *t, char *path,
                                       size_t path_size, uint32_t *call_num) {
  // No other mapping of the file is left (the owners' were detached), so
  // the records below the snapshot are final and plain loads read them.
  uint64_t records = 0;
  uint64_t size = w->prefix_end;
  kill_point(1);
  if (t) {
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t stream_off = t->section + sizeof(tpuprof_section_header) +
                          sizeof(tpuprof_thread_section);
    size = stream_off + t->pos;
    if (t->pos) {
      uint64_t map_off = stream_off & ~(page - 1);
      uint64_t bytes = size - map_off;
      // MAP_POPULATE: the pages are in the page cache; map them in one go
      // rather than one read fault per 16 pages.
      void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_POPULATE, w->fd, (off_t)map_off);
      if (m == MAP_FAILED)
        goto fail;
      int bad = settle_records((uint8_t *)m + (stream_off - map_off),
                               t->pos, &records);
      munmap(m, bytes);
      if (bad) {
        errno = EIO; // The runtime's own records: never seen, but no dump.
        goto fail;
      }
    }
  }
  // Each write below leaves a readable dump (formats.md, "Incomplete
  // dumps"): first the header, still not complete, counting only the
  // sections kept (bytes after them are ignored until the flag is set);
  // then the THREAD section's counts (its records read the same counted or
  // scanned); then the unused capacity goes; the flag is set last.
  tpuprof_dump_header h = *final;
  h.call_num = w->h.call_num;
  h.flags &= ~(uint32_t)TPUPROF_DUMP_COMPLETE;
  kill_point(2);
  if (write_all(w->fd, (const uint8_t *)&h, sizeof(h), 0, 1) != 0)
    goto fail;
  if (t) {
    // Section header and THREAD header in one write: a single page copy in
    // the kernel (all but rare layouts), which a kill cannot split.
    thread_headers th =
        make_thread_headers(t->tid, t->dropped, records, t->pos);
    kill_point(3);
    if (write_all(w->fd, (const uint8_t *)&th, sizeof(th), t->section, 1) !=
        0)
      goto fail;
  }
  kill_point(4);
  if (ftruncate(w->fd, (off_t)size) != 0)
    goto fail;
  h.flags |= TPUPROF_DUMP_COMPLETE;
  kill_point(5);
  if (write_all(w->fd, (const uint8_t *)&h.flags, sizeof(h.flags),
                offsetof(tpuprof_dump_header, flags), 1) != 0)
    goto fail;
  kill_point(6);
  if (close(w->fd) != 0) {
    w->fd = -1;
    goto fail;
  }
  return close_done(w, path, path_size, call_num);

fail:
  return close_failed(w);
}

int __tpuprof_rt_wfile_finish_streamed(tpuprof_rt_wfile *w, uint8_t *prefix,
                                       uint64_t prefix_size,
                                       const tpuprof_rt_tsec *t, uint32_t n,
                                       char *path, size_t path_size,
                                       uint32_t *call_num) {
  char tmp[sizeof(w->path) + 17];
  int fd = -1;
  uint8_t *m = NULL;
  uint64_t bytes = w->end;
  // No other mapping of the file is left (the owners' were detached): the
  // records below the snapshot are final.
  m = (uint8_t *)mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_POPULATE, w->fd, 0);
  if (m == (uint8_t *)MAP_FAILED) {
    m = NULL;
    goto fail;
  }
  tpuprof_dump_header h;
  memcpy(&h, prefix, sizeof(h));
  h.call_num = w->h.call_num;
  h.flags &= ~(uint32_t)TPUPROF_DUMP_COMPLETE;
  memcpy(prefix, &h, sizeof(h));
  if (temp_name(tmp, sizeof(tmp), w->path) != 0)
    goto fail;
  fd = mkstemp(tmp); // O_EXCL and mode 0600, like every dump.
  if (fd < 0)
    goto fail;
  if (write_all(fd, prefix, prefix_size, 0, 0) != 0)
    goto fail_tmp;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t *stream = m + t[i].section + sizeof(tpuprof_section_header) +
                      sizeof(tpuprof_thread_section);
    uint64_t lap = t[i].wrap ? t[i].wrap - t[i].tail : 0;
    uint64_t records = 0, more = 0;
    if ((lap && settle_records(stream + t[i].tail, lap, &records) != 0) ||
        settle_records(stream, t[i].pos, &more) != 0) {
      errno = EIO; // The runtime's own records: never seen, but no dump.
      goto fail_tmp;
    }
    thread_headers th = make_thread_headers(t[i].tid, t[i].dropped,
                                            records + more, lap + t[i].pos);
    // Oldest first: a wrapped ring's previous lap, then the current one.
    if (write_all(fd, (const uint8_t *)&th, sizeof(th), 0, 0) != 0 ||
        write_all(fd, stream + t[i].tail, lap, 0, 0) != 0 ||
        write_all(fd, stream, t[i].pos, 0, 0) != 0)
      goto fail_tmp;
  }
  h.flags |= TPUPROF_DUMP_COMPLETE;
  if (write_all(fd, (const uint8_t *)&h.flags, sizeof(h.flags),
                offsetof(tpuprof_dump_header, flags), 1) != 0)
    goto fail_tmp;
  if (close(fd) != 0) {
    fd = -1;
    goto fail_tmp;
  }
  fd = -1;
  if (replace_file(tmp, w->path) != 0)
    goto fail_tmp;
  munmap(m, bytes);
  close(w->fd);
  return close_done(w, path, path_size, call_num);

fail_tmp: {
  int err = errno;
  if (fd >= 0)
    close(fd);
  unlink(tmp);
  errno = err;
}
fail: {
  int rc = close_failed(w);
  if (m)
    munmap(m, bytes);
  return rc;
}
}

void __tpuprof_rt_wfile_discard(tpuprof_rt_wfile *w) {
  if (w->fd < 0)
    return;
  unlink(w->path);
  close(w->fd);
  w->fd = -1;
}

void __tpuprof_rt_wfile_forget(tpuprof_rt_wfile *w) {
  if (w->fd >= 0)
    close(w->fd);
  w->fd = -1;
}
