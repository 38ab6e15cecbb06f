// Annotated C functions that allocate and free: make() allocates, drop()
// frees, step() allocates itself (calloc, realloc) and through make().
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROFILED __attribute__((annotate("tpuprof"), noinline))

PROFILED static float *make(size_t n) {
  float *p = malloc(n * sizeof(float));
  for (size_t i = 0; i < n; ++i)
    p[i] = (float)i;
  return p;
}

PROFILED static void drop(float *p) { free(p); }

PROFILED static double step(size_t n) {
  float *a = make(n);
  float *b = calloc(n, sizeof(float));
  float *c = realloc(b, 2 * n * sizeof(float));
  if (!c)
    abort();
  memcpy(c + n, a, n * sizeof(float));
  double sum = 0;
  for (size_t i = 0; i < 2 * n; ++i)
    sum += c[i];
  drop(a);
  free(c);
  return sum;
}

int main(void) {
  double total = 0;
  for (int i = 0; i < 4; ++i)
    total += step(1024);
  // Outside every annotated function: not wrapped, not recorded.
  char *unseen = malloc(100);
  unseen[0] = 1;
  free(unseen);
  printf("total=%.0f\n", total);
  return 0;
}
