// Annotated functions in a C++ program: one returns early, one throws (its
// probe must still end), and one calls a launch function, which nests in it.
#include <cstdio>
#include <stdexcept>

extern "C" __attribute__((noinline)) void launchKernel(long n) {
  volatile double x = 0;
  for (long i = 0; i < n; ++i)
    x = x + 1.0;
}

__attribute__((annotate("tpuprof"))) __attribute__((noinline)) int
check(int v) {
  if (v < 0)
    throw std::invalid_argument("negative");
  if (v == 0)
    return 0; // early return
  return v * 2;
}

__attribute__((annotate("tpuprof:step"))) __attribute__((noinline)) void
step(long n) {
  volatile double y = 0;
  for (long i = 0; i < n; ++i)
    y = y + 2.0;
  launchKernel(n);
}

int main() {
  int caught = 0, sum = 0;
  for (int i = -2; i < 4; ++i) {
    try {
      sum += check(i);
    } catch (const std::invalid_argument &) {
      ++caught;
    }
  }
  for (int i = 0; i < 4; ++i)
    step(200000);
  std::printf("caught=%d sum=%d\n", caught, sum);
  return 0;
}
