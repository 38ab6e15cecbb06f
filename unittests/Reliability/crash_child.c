/*===- crash_child.c - A program that dies ------------------------*- C -*-===*\
|*                                                                            *|
|* Run by ReliabilityTest.cpp with TPUPROF_ENABLE=1 and TPUPROF_OUTPUT set.   *|
|* Linked to the SHARED libtpuprof_rt, like a profiled program.               *|
|*                                                                            *|
|*   crash_child N HOW FD [T]                                                 *|
|*     a thread records N/2 probe pairs of probe 2 and exits, then the main   *|
|*     thread records N - N/2 pairs of probe 1 (with T: T threads at once    *|
|*     record N/T pairs each, of probes 10, 11, ...); the child writes the    *|
|*     count of completed pairs (a uint64) to pipe FD and dies by HOW:        *|
|*     kill (SIGKILL), abort (abort()), segv (a store through NULL) or exit   *|
|*     (a clean exit, for comparison), fsize (a clean exit with a 64 KiB      *|
|*     RLIMIT_FSIZE and SIGXFSZ ignored) or fsize-default (the same with      *|
|*     SIGXFSZ's default action, which would kill the program).              *|
\*===----------------------------------------------------------------------===*/

#include "die_by.h"
#include "tpuprof/tpuprof.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static __thread volatile int sink; // Per thread: threads run work() at once.

static void work(uint32_t probe) {
  if (__tpuprof_enabled)
    __tpuprof_begin(probe);
  for (int i = 0; i < 10; ++i)
    sink += i;
  if (__tpuprof_enabled)
    __tpuprof_end(probe);
}

static uint64_t half;

static void *worker(void *arg) {
  (void)arg;
  for (uint64_t i = 0; i < half; ++i)
    work(2);
  return NULL;
}

static uint64_t share;

static void *one_of_many(void *arg) {
  uint32_t probe = (uint32_t)(uintptr_t)arg;
  for (uint64_t i = 0; i < share; ++i)
    work(probe);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  uint64_t n = strtoull(argv[1], NULL, 10);
  const char *how = argv[2];
  int fd = atoi(argv[3]);
  half = n / 2;
  if (strncmp(how, "fsize", 5) == 0) {
    // Growing a file past the limit fails with EFBIG and raises SIGXFSZ,
    // whose default action kills the process: the runtime must not try.
    if (strcmp(how, "fsize") == 0)
      signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {64 * 1024, 64 * 1024};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
      return 2;
  }
  if (argc > 4) {
    unsigned t = (unsigned)atoi(argv[4]);
    pthread_t th[64];
    if (t < 1 || t > 64)
      return 2;
    share = n / t;
    n = share * t;
    for (unsigned k = 0; k < t; ++k)
      if (pthread_create(&th[k], NULL, one_of_many,
                         (void *)(uintptr_t)(10 + k)) != 0)
        return 2;
    for (unsigned k = 0; k < t; ++k)
      pthread_join(th[k], NULL);
  } else {
    pthread_t th;
    if (pthread_create(&th, NULL, worker, NULL) != 0)
      return 2;
    pthread_join(th, NULL); // The worker has exited: its records are kept.
    for (uint64_t i = half; i < n; ++i)
      work(1);
  }
  if (write(fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
    return 2;
  close(fd);
  die_by(how);
  return 0;
}
