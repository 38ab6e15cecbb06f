// An annotated step calls a kernel twice, with n and 4n iterations: a
// program built for a board with the plugin, profiled there.
#include <stdio.h>

__attribute__((annotate("tpuprof"), noinline)) double kernel(long n) {
  volatile double x = 0;
  for (long i = 0; i < n; ++i)
    x = x + 1.0;
  return x;
}

__attribute__((annotate("tpuprof:step"), noinline)) double step(long n) {
  return kernel(n) + kernel(4 * n);
}

int main(void) {
  double sum = 0;
  for (int i = 0; i < 5; ++i)
    sum += step(100000);
  printf("sum=%.0f\n", sum);
  return 0;
}
