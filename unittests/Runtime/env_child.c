/*===- env_child.c - A program profiled by environment --------------------===*\
|*                                                                            *|
|* Run by RuntimeTest.cpp's Environment tests with TPUPROF_* set. It is       *|
|* linked against the SHARED libtpuprof_rt and calls the probe ABI the way    *|
|* instrumented code does (inline flag test first), so it also checks the     *|
|* library's exported symbols. Never calls the control API: the window is     *|
|* opened by the library constructor and closed by its atexit handler.        *|
|*                                                                            *|
|*   env_child N          N probe pairs of probe 1, then exit(0)              *|
|*   env_child N fork     the same, then a forked child records 3 pairs of    *|
|*                        probe 2 and exits; the parent waits for it          *|
\*===----------------------------------------------------------------------===*/

#include "tpuprof/tpuprof.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

static void work(uint32_t probe) {
  if (__tpuprof_enabled)
    __tpuprof_begin(probe);
  for (int i = 0; i < 100; ++i)
    sink += i;
  if (__tpuprof_enabled)
    __tpuprof_end(probe);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  for (int i = 0; i < n; ++i)
    work(1);
  if (argc > 2 && strcmp(argv[2], "fork") == 0) {
    pid_t pid = fork();
    if (pid < 0)
      return 2;
    if (pid == 0) {
      for (int i = 0; i < 3; ++i)
        work(2);
      exit(0); // exit, not _exit: the child's atexit writes its dump.
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
      return 3;
  }
  return 0;
}
