/*===- test/device/opencl_sizes.c - OpenCL kernels of known sizes ---------===*\
|*                                                                            *|
|* Launches two kernels at three sizes each, and copies, on the first OpenCL *|
|* device, inside an op of its own (an annotated function). For each kernel *|
|* it prints OpenCL's own profiling times, the numbers tpuprof's device      *|
|* intervals must equal:                                                     *|
|*   kernel <name> <seq> <queued> <submit> <start> <end>   (device ns)       *|
|* Built with the LLVM plugin, so its enqueues are launch probes and its     *|
|* queue gets profiling from the runtime: it asks for none itself.           *|
\*===----------------------------------------------------------------------===*/

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>

static const char *source =
    "__kernel void spin_small(__global float *a, int n) {\n"
    "  int i = get_global_id(0); float x = a[i];\n"
    "  for (int k = 0; k < n; ++k) x = x * 1.0000001f + 0.5f;\n"
    "  a[i] = x;\n"
    "}\n"
    "__kernel void spin_large(__global float *a, int n) {\n"
    "  int i = get_global_id(0); float x = a[i];\n"
    "  for (int k = 0; k < 4 * n; ++k) x = x * 0.9999999f + 0.25f;\n"
    "  a[i] = x;\n"
    "}\n";

#define CHECK(what)                                                            \
  do {                                                                         \
    if ((err = (what)) != CL_SUCCESS) {                                        \
      fprintf(stderr, "opencl_sizes: %s failed: %d\n", #what, err);            \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

enum { ELEMS = 4096, RUNS = 3 };

static cl_command_queue queue;
static cl_kernel kernels[2];
static cl_mem buffer;
static float host[ELEMS];

/// One op: writes the input, runs both kernels at three sizes, reads back.
__attribute__((annotate("tpuprof:step"))) static void step(cl_event *events) {
  cl_int err;
  CHECK(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, sizeof(host), host, 0,
                             NULL, NULL));
  for (int r = 0; r < RUNS; ++r)
    for (int k = 0; k < 2; ++k) {
      int n = 2000 << (2 * r); // 2000, 8000, 32000 iterations
      size_t global = ELEMS >> r;
      CHECK(clSetKernelArg(kernels[k], 1, sizeof(n), &n));
      CHECK(clEnqueueNDRangeKernel(queue, kernels[k], 1, NULL, &global, NULL, 0,
                                   NULL, &events[2 * r + k]));
    }
  CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof(host), host, 0,
                            NULL, NULL));
  CHECK(clFinish(queue));
}

int main(void) {
  cl_int err;
  cl_platform_id platform;
  cl_device_id device;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
  CHECK(err);
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 1, &device, NULL, NULL, NULL));
  kernels[0] = clCreateKernel(program, "spin_small", &err);
  CHECK(err);
  kernels[1] = clCreateKernel(program, "spin_large", &err);
  CHECK(err);
  buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(host), NULL, &err);
  CHECK(err);
  for (int k = 0; k < 2; ++k)
    CHECK(clSetKernelArg(kernels[k], 0, sizeof(buffer), &buffer));

  cl_event events[2 * RUNS];
  step(events);
  for (int i = 0; i < 2 * RUNS; ++i) {
    cl_ulong t[4];
    for (int j = 0; j < 4; ++j)
      CHECK(clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_QUEUED + j,
                                    sizeof(t[j]), &t[j], NULL));
    printf("kernel %s %d %llu %llu %llu %llu\n",
           i % 2 ? "spin_large" : "spin_small", i / 2, (unsigned long long)t[0],
           (unsigned long long)t[1], (unsigned long long)t[2],
           (unsigned long long)t[3]);
    clReleaseEvent(events[i]);
  }
  clReleaseMemObject(buffer);
  clReleaseKernel(kernels[0]);
  clReleaseKernel(kernels[1]);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
