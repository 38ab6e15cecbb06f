// Three user ranges of busy work: a dump with a PROCESS section (its clock
// pairs) for the --trace-file tests.
#include "tpuprof/tpuprof.h"

int main(void) {
  for (int i = 0; i < 3; ++i) {
    tpuprof_range_push("step");
    volatile double x = 0;
    for (long j = 0; j < 200000; ++j)
      x = x + (double)j;
    tpuprof_range_pop();
  }
  return 0;
}
