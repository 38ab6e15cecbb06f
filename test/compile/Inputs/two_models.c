// Links two compiled models into one program, one from an archive and one
// from an object file: each exports only its prefixed entry points (and a
// weak signature), so neither its `main` nor its probe table clashes with
// the other's or with this program's. Profiles both in one window.
#include "dyn.h"
#include "mlp.h"
#include "tpuprof/tpuprof.h"

#include <stdio.h>
#include <stdlib.h>

static float *filled(int64_t n, float value) {
  float *data = malloc(sizeof(float) * n);
  for (int64_t i = 0; i < n; ++i)
    data[i] = value;
  return data;
}

static tpuprof_memref_f32_2d matrix(int64_t rows, int64_t cols, float value) {
  float *data = filled(rows * cols, value);
  tpuprof_memref_f32_2d m = {data, data, 0, {rows, cols}, {cols, 1}};
  return m;
}

static tpuprof_memref_f32_1d vector(int64_t n, float value) {
  float *data = filled(n, value);
  tpuprof_memref_f32_1d v = {data, data, 0, {n}, {1}};
  return v;
}

int main(int argc, char **argv) {
  tpuprof_memref_f32_2d a = matrix(3, 4, 1.0f), b = matrix(4, 2, 0.5f), c;
  tpuprof_memref_f32_2d x = matrix(1, 784, 0.01f), w1 = matrix(128, 784, 0.01f),
                        w2 = matrix(64, 128, 0.01f), w3 = matrix(10, 64, 0.01f), probs;
  tpuprof_memref_f32_1d b1 = vector(128, 0), b2 = vector(64, 0), b3 = vector(10, 0);

  tpuprof_set_output(argv[1], -1);
  if (tpuprof_enable(0, 0) != 0)
    return 1;
  dyn_main(&c, &a, &b);
  mlp_main(&probs, &x, &w1, &b1, &w2, &b2, &w3, &b3);
  if (tpuprof_disable() != 0)
    return 1;
  // A 3x4 of ones times a 4x2 of halves: every element is 2. Equal logits:
  // a uniform softmax.
  printf("c: %lldx%lld c[2][1]=%g\n", (long long)c.sizes[0], (long long)c.sizes[1],
         c.aligned[c.offset + 2 * c.strides[0] + c.strides[1]]);
  printf("probs[9]=%.3f\n", probs.aligned[probs.offset + 9 * probs.strides[1]]);
  free(c.allocated);
  free(probs.allocated);
  float *inputs[] = {a.allocated, b.allocated, x.allocated, w1.allocated, w2.allocated,
                     w3.allocated, b1.allocated, b2.allocated, b3.allocated};
  for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); ++i)
    free(inputs[i]);
  return 0;
}
