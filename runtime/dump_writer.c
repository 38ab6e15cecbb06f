/*===- runtime/dump_writer.c - Writing a dump file -----------------*- C -*-===*\
|*                                                                            *|
|* A dump is assembled in memory by control.c and written here in one go.     *|
|* Two rules from the design: a dump never overwrites another file (each one  *|
|* is created with O_EXCL under the first free name), and a write error never *|
|* stops the program (one line on stderr, -1 to the caller).                  *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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
