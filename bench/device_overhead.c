/*===- bench/device_overhead.c - Device timing's cost per launch ----------===*\
|*                                                                            *|
|* Launches a trivial OpenCL kernel in batches and prints the host time per  *|
|* launch of each batch: the enqueues, the clFinish that waits for them and, *|
|* with --own-profiling, reading each command's START/END from its event the *|
|* way a program that profiles itself does. Built with the LLVM plugin by    *|
|* bench/device_overhead.py, which runs it with device timing on and off.    *|
|*                                                                            *|
|*   device_overhead [--own-profiling] [--launches N] [--batch B]             *|
|* prints "batch_ns_per_launch <min> <median>" over the batches.              *|
\*===----------------------------------------------------------------------===*/

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static const char *source = "__kernel void tiny(__global int *a) {\n"
                            "  a[get_global_id(0)] += 1;\n"
                            "}\n";

int main(int argc, char **argv) {
  int own = 0, launches = 20000, batch = 200;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--own-profiling"))
      own = 1;
    else if (!strcmp(argv[i], "--launches") && i + 1 < argc)
      launches = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--batch") && i + 1 < argc)
      batch = atoi(argv[++i]);
  }
  if (batch < 1 || launches < batch) {
    fprintf(stderr, "device_overhead: bad --launches/--batch\n");
    return 2;
  }
  cl_int err;
  cl_platform_id platform;
  cl_device_id device;
  if (clGetPlatformIDs(1, &platform, NULL) ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL)) {
    fprintf(stderr, "device_overhead: no OpenCL device\n");
    return 1;
  }
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                 0};
  cl_command_queue queue = clCreateCommandQueueWithProperties(
      context, device, own ? props : NULL, &err);
  cl_program program =
      clCreateProgramWithSource(context, 1, &source, NULL, &err);
  if (clBuildProgram(program, 1, &device, NULL, NULL, NULL)) {
    fprintf(stderr, "device_overhead: build failed\n");
    return 1;
  }
  cl_kernel kernel = clCreateKernel(program, "tiny", &err);
  cl_mem buffer =
      clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
  clSetKernelArg(kernel, 0, sizeof(buffer), &buffer);
  size_t global = 1;
  cl_event *events = calloc((size_t)batch, sizeof(cl_event));
  int batches = launches / batch;
  double *per_launch = calloc((size_t)batches, sizeof(double));
  cl_ulong device_ns = 0;
  // Warm-up: the kernel's first launch compiles it.
  clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
  clFinish(queue);
  for (int b = 0; b < batches; ++b) {
    uint64_t t0 = now_ns();
    for (int i = 0; i < batch; ++i)
      clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                             own ? &events[i] : NULL);
    clFinish(queue);
    if (own)
      for (int i = 0; i < batch; ++i) {
        cl_ulong start = 0, end = 0;
        clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_START,
                                sizeof(start), &start, NULL);
        clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_END,
                                sizeof(end), &end, NULL);
        device_ns += end - start;
        clReleaseEvent(events[i]);
      }
    per_launch[b] = (double)(now_ns() - t0) / batch;
  }
  qsort(per_launch, (size_t)batches, sizeof(double), by_value);
  printf("batch_ns_per_launch %.1f %.1f\n", per_launch[0],
         per_launch[batches / 2]);
  if (own)
    printf("own_device_ns %llu\n", (unsigned long long)device_ns);
  free(per_launch);
  free(events);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
