// An annotated step calls a small kernel many times: more records than one
// stage holds, so the runtime writes full stages to the file while the step
// stays open (its end then goes to the copy already written).
#include <stdio.h>

__attribute__((annotate("tpuprof"), noinline)) long kernel(long i) {
  return i * 3 + 1;
}

__attribute__((annotate("tpuprof:step"), noinline)) long step(long n) {
  long sum = 0;
  for (long i = 0; i < n; ++i)
    sum += kernel(i);
  return sum;
}

int main(void) {
  long sum = step(60000) + step(60000);
  printf("sum=%ld\n", sum);
  return 0;
}
