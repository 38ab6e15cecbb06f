/*===- module_main.c - Modules, dlopen and fork ----------------- -*- C -*-===*\
|*                                                                            *|
|* The main program of the module tests: it is module "mod_m" itself          *|
|* (probe_module.c with TAG m), links module "mod_a" (liba) and dlopens       *|
|* module "mod_b" (libb) while the TPUPROF_ENABLE window is open.             *|
|*                                                                            *|
|*   module_main dlopen LIBB   m x2, a x2, dlopen b: b x5, dlclose b, m x2,   *|
|*                             dlopen b again: b x2, dlclose (pairs of each   *|
|*                             of a module's two probes)                      *|
|*   module_main fork          m x2, begin m0, fork; the child ends m0 (not   *|
|*                             its record), runs a x3 and exits; the parent   *|
|*                             waits, ends m0, exits                          *|
|*   module_main spawn HOW     m x2, then a child by HOW: fork-idle (exits    *|
|*                             without a probe), fork-exec (execs this        *|
|*                             program's "record": m x1), vfork-exec (execs   *|
|*                             "idle"); the parent waits, m x1, exits         *|
|*   module_main crash HOW LIBB T   m x2, a x2, dlopen b: b x5, then T        *|
|*                             threads at once run m, a, b x3 each; dies by   *|
|*                             HOW (kill, abort, segv) with the window open   *|
\*===----------------------------------------------------------------------===*/

#include "die_by.h"
#include "tpuprof/tpuprof.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

uint32_t run_module_m(unsigned n);
uint32_t run_module_a(unsigned n);

static int run_b(const char *lib, unsigned n) {
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "module_main: %s\n", dlerror());
    return -1;
  }
  uint32_t (*fn)(unsigned) = (uint32_t (*)(unsigned))dlsym(h, "run_module_b");
  if (!fn)
    return -1;
  fn(n);
  return dlclose(h);
}

static uint32_t (*run_module_b)(unsigned);

static void *run_all(void *arg) {
  (void)arg;
  run_module_m(3);
  run_module_a(3);
  run_module_b(3);
  return NULL;
}

static int crash(const char *how, const char *lib, unsigned threads) {
  run_module_m(2);
  run_module_a(2);
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL); // Registers mid-window.
  if (!h || !(run_module_b = (uint32_t (*)(unsigned))dlsym(h, "run_module_b")))
    return 3;
  run_module_b(5);
  pthread_t th[16];
  if (threads > 16)
    return 2;
  for (unsigned k = 0; k < threads; ++k)
    if (pthread_create(&th[k], NULL, run_all, NULL) != 0)
      return 2;
  for (unsigned k = 0; k < threads; ++k)
    pthread_join(th[k], NULL);
  die_by(how);
  return 2;
}

static int spawn(const char *self, const char *how) {
  run_module_m(2);
  pid_t pid;
  if (strcmp(how, "fork-idle") == 0) {
    pid = fork();
    if (pid == 0)
      exit(0); // atexit runs: the child's window recorded nothing.
  } else if (strcmp(how, "fork-exec") == 0) {
    pid = fork();
    if (pid == 0) {
      execl(self, self, "record", (char *)NULL);
      _exit(127);
    }
  } else if (strcmp(how, "vfork-exec") == 0) {
    pid = vfork();
    if (pid == 0) {
      execl(self, self, "idle", (char *)NULL);
      _exit(127);
    }
  } else {
    return 2;
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return 3;
  run_module_m(1);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  if (strcmp(argv[1], "idle") == 0)
    return 0;
  if (strcmp(argv[1], "record") == 0) {
    run_module_m(1);
    return 0;
  }
  if (strcmp(argv[1], "spawn") == 0 && argc > 2)
    return spawn(argv[0], argv[2]);
  if (strcmp(argv[1], "crash") == 0 && argc > 4)
    return crash(argv[2], argv[3], (unsigned)atoi(argv[4]));
  if (strcmp(argv[1], "dlopen") == 0 && argc > 2) {
    run_module_m(2);
    run_module_a(2);
    if (run_b(argv[2], 5) != 0)
      return 3;
    run_module_m(2);
    if (run_b(argv[2], 2) != 0)
      return 3;
    return 0;
  }
  if (strcmp(argv[1], "fork") == 0) {
    uint32_t m0 = run_module_m(2);
    __tpuprof_begin(m0);
    pid_t pid = fork();
    if (pid < 0)
      return 2;
    if (pid == 0) {
      __tpuprof_end(m0); // Begun in the parent: must not touch its dump.
      run_module_a(3);
      exit(0); // atexit writes the child's dump.
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
      return 3;
    __tpuprof_end(m0);
    return 0;
  }
  return 2;
}
