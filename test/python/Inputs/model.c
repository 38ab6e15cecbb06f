// A C shared library that Python loads with ctypes: it links the installed
// libtpuprof_rt, and compiled with the installed LLVM plugin its annotated
// kernel gets a probe. model_layer adds a user range of its own.
#include <tpuprof/tpuprof.h>

__attribute__((annotate("tpuprof:model_kernel"))) __attribute__((noinline)) double
model_kernel(int n) {
  volatile double x = 0;
  for (int i = 0; i < n; ++i)
    x = x + 1.0;
  return x;
}

/// Two kernel calls.
double model_forward(int n) { return model_kernel(n) + model_kernel(n); }

/// A user range around one kernel call.
double model_layer(int n) {
  tpuprof_range_push("c_layer");
  double x = model_kernel(n);
  tpuprof_range_pop();
  return x;
}
