// Three OpenMP parallel regions run 5, 3 and 1 times; omp-regions.test
// checks one report row per region, with its source line and Count.
// The line numbers below are part of the test: keep them.
#include <cstdio>
#include <vector>

static void scale(std::vector<double> &v, double f) {
#pragma omp parallel for
  for (long i = 0; i < (long)v.size(); ++i)
    v[i] *= f;
}

static void shift(std::vector<double> &v, double d) {
#pragma omp parallel for
  for (long i = 0; i < (long)v.size(); ++i)
    v[i] += d;
}

int main() {
  std::vector<double> v(1 << 14, 1.0);
  for (int r = 0; r < 5; ++r)
    scale(v, 1.0001);
  for (int r = 0; r < 3; ++r)
    shift(v, 0.5);
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < (long)v.size(); ++i)
    sum += v[i];
  std::printf("sum=%.3f\n", sum);
  return 0;
}
