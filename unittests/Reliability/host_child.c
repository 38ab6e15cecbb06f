/*===- host_child.c - A program that gets in the runtime's way ----*- C -*-===*\
|*                                                                            *|
|* Run by HostSafetyTest.cpp. Each scenario does something an ordinary host   *|
|* program may do while a window is open, and checks that the runtime, a      *|
|* guest, neither harms nor blocks it. Linked to the STATIC runtime, so that  *|
|* the signal scenario can reach a test hook. Exit 0: the program was fine;   *|
|* 1: it was harmed (one line on stdout says how); 77: the scenario cannot    *|
|* run here (no perf events).                                                 *|
|*                                                                            *|
|*   host_child closefrom MODE DIR  closefrom(3) mid-window, then a file and  *|
|*                                  a pipe of the program's own               *|
|*   host_child threads DIR         mode 1: 300 threads start and end under   *|
|*                                  a 64-descriptor limit                     *|
|*   host_child truncate DIR        the dump is truncated to 0 mid-window     *|
|*   host_child gone DIR            the dump is removed and every descriptor  *|
|*                                  closed mid-window                         *|
|*   host_child signal DIR          a signal handler's probe lands while      *|
|*                                  the thread takes a segment                *|
|*   host_child smallstack DIR      mode-1 tpuprof_enable on a thread with a  *|
|*                                  PTHREAD_STACK_MIN stack                   *|
|*   host_child chdir               TPUPROF_OUTPUT relative, then chdir(sub)  *|
|*   host_child flushexit DIR       tpuprof_flush() then _exit(0)             *|
|*   host_child newdir DIR          output set to a directory that does not   *|
|*                                  exist yet                                 *|
|*   host_child ownbus HOW DIR      a SIGBUS on a mapping of the program's    *|
|*                                  own: HOW handler (its handler, installed  *|
|*                                  first, must get it) or default (it must   *|
|*                                  die of it)                                *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE 1 /* closefrom, pipe2 */
#include "rt_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile unsigned sink;

static void pairs(uint32_t probe, int n) {
  for (int i = 0; i < n; ++i) {
    __tpuprof_begin(probe);
    sink += (unsigned)i;
    __tpuprof_end(probe);
  }
}

static int harmed(const char *what) {
  printf("%s\n", what);
  fflush(stdout);
  return 1;
}

/// Descriptors open now.
static int open_fds(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/fd");
  if (!d)
    return -1;
  while (readdir(d))
    ++n;
  closedir(d);
  return n - 3; // ".", ".." and the directory's own.
}

/// The only dump in `dir`, into `path`.
static int find_dump(const char *dir, char *path, size_t size) {
  DIR *d = opendir(dir);
  int found = 0;
  if (!d)
    return 0;
  for (struct dirent *e; (e = readdir(d));)
    if (strncmp(e->d_name, "tpuprof_data_", 13) == 0) {
      snprintf(path, size, "%s/%s", dir, e->d_name);
      found = 1;
    }
  closedir(d);
  return found;
}

static const char user_data[] = "IMPORTANT USER DATA";

static int closefrom_scenario(int mode, const char *dir) {
  if (tpuprof_enable(1u << 20, mode) != 0)
    return harmed("enable failed");
  pairs(1, 1000);
  // A daemon's clean-up: every descriptor but the standard ones.
  closefrom(3);
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/user.txt", dir);
  // The lowest numbers were the runtime's: the dump's in mode 0, the
  // counters' (opened first, by the calibration) in mode 1.
  int p[2] = {-1, -1}, fd = -1;
  if (mode == 0) {
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    (void)pipe2(p, O_NONBLOCK);
  } else {
    (void)pipe2(p, O_NONBLOCK);
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  }
  if (fd < 0 || p[0] < 0)
    return harmed("cannot open the program's own files");
  if (write(fd, user_data, sizeof(user_data)) != (ssize_t)sizeof(user_data) ||
      write(p[1], "PIPE", 4) != 4)
    return harmed("cannot write the program's own files");
  // Enough records for several new segments (slow paths) in either mode.
  pairs(2, 200000);
  char got[64] = "";
  if (read(p[0], got, sizeof(got)) != 4 || memcmp(got, "PIPE", 4) != 0)
    return harmed("the program's pipe lost its data");
  if (tpuprof_disable() != 0)
    return harmed("disable failed");
  memset(got, 0, sizeof(got));
  if (pread(fd, got, sizeof(got), 0) != (ssize_t)sizeof(user_data) ||
      memcmp(got, user_data, sizeof(user_data)) != 0)
    return harmed("the program's file was overwritten");
  return 0;
}

static void *short_lived(void *arg) {
  (void)arg;
  pairs(3, 10);
  return NULL;
}

static int threads_scenario(void) {
  struct rlimit rl = {64, 64};
  if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
    return harmed("setrlimit failed");
  int before = open_fds();
  if (tpuprof_enable(1u << 16, 1) != 0)
    return harmed("enable failed");
  pairs(3, 10);
  int with_counters = open_fds();
  if (with_counters <= before + 1) { // The dump's only: no counters here.
    tpuprof_disable();
    return 77;
  }
  for (int i = 0; i < 300; ++i) {
    pthread_t th;
    if (pthread_create(&th, NULL, short_lived, NULL) != 0)
      return harmed("pthread_create failed");
    pthread_join(th, NULL);
    if (open_fds() > with_counters + 2)
      return harmed("exited threads keep descriptors open");
  }
  if (tpuprof_disable() != 0)
    return harmed("disable failed");
  return 0;
}

static int truncate_scenario(const char *dir) {
  if (tpuprof_enable(1u << 20, 0) != 0)
    return harmed("enable failed");
  pairs(4, 1000);
  char path[PATH_MAX];
  if (!find_dump(dir, path, sizeof(path)))
    return harmed("no dump");
  // Another process would do the same through its own descriptor.
  if (truncate(path, 0) != 0)
    return harmed("truncate failed");
  pairs(4, 200000);
  (void)tpuprof_disable(); // The window is lost: -1.
  return 0;
}

static int gone_scenario(const char *dir) {
  if (tpuprof_enable(1u << 20, 0) != 0)
    return harmed("enable failed");
  pairs(4, 1000);
  char path[PATH_MAX];
  if (!find_dump(dir, path, sizeof(path)) || unlink(path) != 0)
    return harmed("cannot remove the dump");
  closefrom(3);
  int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600); // Its name, its own.
  if (fd < 0 || write(fd, user_data, sizeof(user_data)) < 0)
    return harmed("cannot write the program's own file");
  pairs(4, 200000);
  (void)tpuprof_disable(); // The window is lost: -1.
  char got[64] = "";
  if (pread(fd, got, sizeof(got), 0) != (ssize_t)sizeof(user_data) ||
      memcmp(got, user_data, sizeof(user_data)) != 0)
    return harmed("the program's file was overwritten");
  return 0;
}

static void probe_in_handler(int sig) {
  (void)sig;
  __tpuprof_begin(6);
  __tpuprof_end(6);
}

static void raise_in_slow_path(void) { raise(SIGUSR1); }

static int signal_scenario(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = probe_in_handler;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGUSR1, &sa, NULL) != 0)
    return harmed("sigaction failed");
  if (tpuprof_enable(1u << 20, 0) != 0)
    return harmed("enable failed");
  __tpuprof_rt_test_segment_hook = raise_in_slow_path;
  pairs(5, 100000);
  __tpuprof_rt_test_segment_hook = NULL;
  if (tpuprof_disable() != 0)
    return harmed("disable failed");
  return 0;
}

static void *enable_on_small_stack(void *arg) {
  int *rc = (int *)arg;
  *rc = tpuprof_enable(1u << 16, 1);
  pairs(7, 100);
  if (*rc == 0)
    *rc = tpuprof_disable();
  return NULL;
}

static int smallstack_scenario(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN) != 0)
    return harmed("cannot ask for a small stack");
  pthread_t th;
  int rc = -2;
  if (pthread_create(&th, &attr, enable_on_small_stack, &rc) != 0)
    return harmed("pthread_create failed");
  pthread_join(th, NULL);
  return rc == 0 ? 0 : harmed("enable or disable failed");
}

static int chdir_scenario(void) {
  if (mkdir("sub", 0700) != 0 || chdir("sub") != 0)
    return harmed("cannot chdir");
  if (tpuprof_enable(16, 0) != 0)
    return harmed("enable failed");
  pairs(8, 3);
  return tpuprof_disable() == 0 ? 0 : harmed("disable failed");
}

static int flushexit_scenario(void) {
  if (tpuprof_enable(16, 0) != 0)
    return harmed("enable failed");
  pairs(9, 3);
  if (tpuprof_flush() != 0)
    return harmed("flush failed");
  _exit(0); // What a program that skips atexit does.
}

static int newdir_scenario(const char *dir) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/a/b", dir);
  tpuprof_set_output(path, -1);
  if (tpuprof_enable(16, 0) != 0)
    return harmed("enable failed");
  pairs(10, 3);
  return tpuprof_disable() == 0 ? 0 : harmed("disable failed");
}

static sigjmp_buf after_bus;
static volatile sig_atomic_t own_handler_ran;

static void own_sigbus(int sig, siginfo_t *info, void *uc) {
  (void)sig;
  (void)info;
  (void)uc;
  own_handler_ran = 1;
  siglongjmp(after_bus, 1);
}

static int ownbus_scenario(int with_handler, const char *dir) {
  if (with_handler) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = own_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, NULL) != 0)
      return harmed("sigaction failed");
  }
  if (tpuprof_enable(1u << 20, 0) != 0)
    return harmed("enable failed");
  pairs(11, 1000); // The runtime maps segments: its handler is installed.
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/own.bin", dir);
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || ftruncate(fd, 4096) != 0)
    return harmed("cannot make the program's own file");
  volatile char *p = (volatile char *)mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                                           MAP_SHARED, fd, 0);
  if (p == (volatile char *)MAP_FAILED || ftruncate(fd, 0) != 0)
    return harmed("cannot map the program's own file");
  if (sigsetjmp(after_bus, 1) == 0) {
    p[0] = 1; // SIGBUS: the page is past the end of the file.
    return harmed("the program's own SIGBUS did not reach it");
  }
  if (!own_handler_ran)
    return harmed("the program's handler did not run");
  return tpuprof_disable() == 0 ? 0 : harmed("disable failed");
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *what = argv[1];
  const char *dir = argc > 2 ? argv[argc - 1] : ".";
  if (strcmp(what, "closefrom") == 0 && argc == 4)
    return closefrom_scenario(atoi(argv[2]), dir);
  if (strcmp(what, "threads") == 0)
    return threads_scenario();
  if (strcmp(what, "truncate") == 0)
    return truncate_scenario(dir);
  if (strcmp(what, "gone") == 0)
    return gone_scenario(dir);
  if (strcmp(what, "signal") == 0)
    return signal_scenario();
  if (strcmp(what, "smallstack") == 0)
    return smallstack_scenario();
  if (strcmp(what, "chdir") == 0)
    return chdir_scenario();
  if (strcmp(what, "flushexit") == 0)
    return flushexit_scenario();
  if (strcmp(what, "newdir") == 0)
    return newdir_scenario(dir);
  if (strcmp(what, "ownbus") == 0 && argc == 4)
    return ownbus_scenario(strcmp(argv[2], "handler") == 0, dir);
  return 2;
}
