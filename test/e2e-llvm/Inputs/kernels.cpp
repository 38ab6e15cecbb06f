// A tpudnn-style runtime in a shared library: run_kernels launches `count`
// kernels through launchKernel, whose calls the LLVM plugin wraps in probes.
extern "C" __attribute__((noinline)) void launchKernel(long work) {
  volatile double x = 0;
  for (long i = 0; i < work; ++i)
    x = x + 1.0;
}

extern "C" void run_kernels(long count, long work) {
  volatile double setup = 0;
  for (long i = 0; i < work / 4; ++i)
    setup = setup + 1.0;
  for (long k = 0; k < count; ++k)
    launchKernel(work);
}
