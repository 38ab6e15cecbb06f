// A parallel region whose threads each allocate and free a scratch buffer:
// the outlined region is a launch region, so its malloc/free are wrapped.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double work(int n) {
  double total = 0;
#pragma omp parallel reduction(+ : total)
  {
    double *scratch = malloc(n * sizeof(double));
    for (int i = 0; i < n; ++i)
      scratch[i] = i * 0.5;
    for (int i = 0; i < n; ++i)
      total += scratch[i];
    free(scratch);
  }
  return total;
}

int main(void) {
  double sum = 0;
  for (int i = 0; i < 3; ++i)
    sum += work(4096);
  printf("sum=%.0f\n", sum);
  return 0;
}
