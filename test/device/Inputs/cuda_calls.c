/*===- test/device/cuda_calls.c - CUDA and HIP calls, no GPU --------------===*\
|*                                                                            *|
|* Makes the CUDA runtime and HIP calls the LLVM plugin redirects to the      *|
|* runtime's device-timing wrappers, against cuda_runtime_calls.c (built      *|
|* without the plugin, where a CUDA runtime would be): that side checks that  *|
|* every argument arrived through the wrapper unchanged, dim3s passed by      *|
|* value included, and this side that each result came back. Prints           *|
|*   calls <n> bad <n>                                                        *|
\*===----------------------------------------------------------------------===*/

#include <stddef.h>
#include <stdio.h>

typedef struct dim3 {
  unsigned x, y, z;
} dim3;

int cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                     size_t shared, void *stream);
int cudaMemcpy(void *dst, const void *src, size_t count, int kind);
int cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                    void *stream);
int cudaMemset(void *ptr, int value, size_t count);
int cudaMemsetAsync(void *ptr, int value, size_t count, void *stream);
int hipLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                    size_t shared, void *stream);
int cuda_calls_seen(int *bad);

/// The kernel's host stub, as nvcc or clang would make one.
void scale(float *p) { (void)p; }

int main(void) {
  static char device[4096], host[4096];
  void *stream = (void *)0x5714ea;
  float *p = (float *)device;
  void *args[] = {&p};
  int bad = 0;
  for (unsigned n = 1; n <= 3; ++n) {
    dim3 grid = {64 * n, 2, 1}, block = {256, 1, 1};
    bad += cudaLaunchKernel((const void *)scale, grid, block, args, 128 * n,
                            stream) != 0;
  }
  bad += cudaMemcpy(device, host, sizeof(host), 1) != 0;
  bad += cudaMemcpyAsync(host, device, 2048, 2, stream) != 0;
  bad += cudaMemset(device, 7, 1024) != 0;
  bad += cudaMemsetAsync(device, 9, 512, stream) != 0;
  dim3 grid = {8, 1, 1}, block = {64, 1, 1};
  for (int i = 0; i < 2; ++i)
    bad +=
        hipLaunchKernel((const void *)scale, grid, block, args, 0, stream) != 0;
  int seen = cuda_calls_seen(&bad);
  printf("calls %d bad %d\n", seen, bad);
  return bad != 0;
}
