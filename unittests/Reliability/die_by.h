/*===- unittests/Reliability/die_by.h - Dying on purpose ----------*- C -*-===*\
|*                                                                            *|
|* The test programs' ways to die with a profiling window open.              *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_TEST_RELIABILITY_DIE_BY_H
#define TPUPROF_TEST_RELIABILITY_DIE_BY_H

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/// Dies by `how`: kill (SIGKILL), abort (abort()) or segv (a volatile store
/// into a page mapped without access: a real fault, not raise(), so the
/// kernel delivers SIGSEGV on the store; unlike a store through NULL, no
/// compiler may assume it away). Returns for anything else.
static void die_by(const char *how) {
  if (strcmp(how, "kill") == 0)
    raise(SIGKILL);
  if (strcmp(how, "abort") == 0)
    abort();
  if (strcmp(how, "segv") == 0) {
    signal(SIGSEGV, SIG_DFL);
    void *page =
        mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
      abort();
    *(volatile int *)page = 1;
  }
}

#endif
