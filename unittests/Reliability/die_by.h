/*===- unittests/Reliability/die_by.h - Dying on purpose ----------*- C -*-===*\
|*                                                                            *|
|* The test programs' ways to die with a profiling window open.              *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_TEST_RELIABILITY_DIE_BY_H
#define TPUPROF_TEST_RELIABILITY_DIE_BY_H

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/// Dies by `how`: kill (SIGKILL), abort (abort()) or segv (a store through
/// NULL: a real fault, not raise(), so the kernel delivers SIGSEGV on the
/// store). Returns for anything else.
static void die_by(const char *how) {
  if (strcmp(how, "kill") == 0)
    raise(SIGKILL);
  if (strcmp(how, "abort") == 0)
    abort();
  if (strcmp(how, "segv") == 0) {
    signal(SIGSEGV, SIG_DFL);
    int *volatile nowhere = NULL;
    *nowhere = 1;
  }
}

#endif
