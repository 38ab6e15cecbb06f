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

/// Prints the loop's total time, a checksum, and the fastest of `chunks`
/// equal slices of the loop scaled to the whole loop: other processes only
/// ever add time, and on a shared VM they do so in bursts that one slice
/// can miss while a whole run cannot.
int main(int argc, char **argv) {
  long iters = argc > 1 ? std::atol(argv[1]) : 20000;
  long n = argc > 2 ? std::atol(argv[2]) : 16384;
  long chunks = argc > 3 ? std::atol(argv[3]) : 1;
  if (iters < 1 || n < 1 || chunks < 1 || chunks > iters) {
    std::fprintf(stderr, "usage: omp_bench [ITERS [N [CHUNKS <= ITERS]]]\n");
    return 2;
  }
  std::vector<float> x(n, 1.0f), y(n, 0.5f);
  float acc = 0;
  double total = 0, fastest = 0;
  for (long c = 0; c < chunks; ++c) {
    long begin = iters * c / chunks, end = iters * (c + 1) / chunks;
    auto t0 = std::chrono::steady_clock::now();
    for (long it = begin; it < end; ++it) {
      axpy(y, x, 1e-6f);
      acc += dot(x, y);
    }
    double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count();
    total += s;
    double scaled = s * double(iters) / double(end - begin);
    if (c == 0 || scaled < fastest)
      fastest = scaled;
  }
  std::printf("%.6f %g %.6f\n", total, (double)acc, fastest);
  return 0;
}
