/*===- test/device/cuda_runtime_calls.c - The other side of the calls -----===*\
|*                                                                            *|
|* Where a CUDA (or HIP) runtime would be, for cuda_calls.c on a machine      *|
|* without a GPU: built without the plugin, it only checks each call's        *|
|* arguments against what cuda_calls.c passed and answers success. No device  *|
|* work is pretended: the dump it leads to has host records only.             *|
\*===----------------------------------------------------------------------===*/

#include <stddef.h>

typedef struct dim3 {
  unsigned x, y, z;
} dim3;

void scale(float *p);

static int calls, bad;
static void *const stream = (void *)0x5714ea;

static void expect(int ok) {
  ++calls;
  bad += !ok;
}

int cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                     size_t shared, void *s) {
  // The three launches: grid {64n, 2, 1}, shared 128n.
  unsigned n = grid.x / 64;
  expect(func == (const void *)scale && n >= 1 && n <= 3 && grid.x == 64 * n &&
         grid.y == 2 && grid.z == 1 && block.x == 256 && block.y == 1 &&
         block.z == 1 && args && args[0] && shared == 128 * n && s == stream);
  return 0;
}

int cudaMemcpy(void *dst, const void *src, size_t count, int kind) {
  expect(dst && src && count == 4096 && kind == 1);
  return 0;
}

int cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                    void *s) {
  expect(dst && src && count == 2048 && kind == 2 && s == stream);
  return 0;
}

int cudaMemset(void *ptr, int value, size_t count) {
  expect(ptr && value == 7 && count == 1024);
  return 0;
}

int cudaMemsetAsync(void *ptr, int value, size_t count, void *s) {
  expect(ptr && value == 9 && count == 512 && s == stream);
  return 0;
}

int hipLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                    size_t shared, void *s) {
  expect(func == (const void *)scale && grid.x == 8 && grid.y == 1 &&
         grid.z == 1 && block.x == 64 && args && shared == 0 && s == stream);
  return 0;
}

int cuda_calls_seen(int *bad_out) {
  *bad_out += bad;
  return calls;
}
