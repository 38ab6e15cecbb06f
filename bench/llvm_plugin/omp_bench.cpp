//===- omp_bench.cpp - OpenMP program for the LLVM plugin's overhead ------===//
//
// A loop of small OpenMP parallel regions (the worst case for per-launch
// probes: ~tens of microseconds of work each). run.py builds it with and
// without TpuProfilePlugin.so and compares the times this prints.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void axpy(std::vector<float> &y, const std::vector<float> &x, float a) {
#pragma omp parallel for
  for (long i = 0; i < (long)y.size(); ++i)
    y[i] += a * x[i];
}

static float dot(const std::vector<float> &x, const std::vector<float> &y) {
  float s = 0;
#pragma omp parallel for reduction(+ : s)
  for (long i = 0; i < (long)x.size(); ++i)
    s += x[i] * y[i];
  return s;
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? std::atol(argv[1]) : 20000;
  long n = argc > 2 ? std::atol(argv[2]) : 16384;
  std::vector<float> x(n, 1.0f), y(n, 0.5f);
  float acc = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (long it = 0; it < iters; ++it) {
    axpy(y, x, 1e-6f);
    acc += dot(x, y);
  }
  auto t1 = std::chrono::steady_clock::now();
  std::printf("%.6f %g\n", std::chrono::duration<double>(t1 - t0).count(),
              (double)acc);
  return 0;
}
