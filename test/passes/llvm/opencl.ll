; OpenCL (docs/device.md): enqueues are launch probes, and every call of a
; function in format.h's TPUPROF_DEVICE_WRAPPED goes to the runtime's
; wrapper with the real function appended, inside the probes. Queue
; creation and waits are redirected without a probe; a call through a
; pointer is left alone.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s --check-prefix=TABLE

target triple = "x86_64-unknown-linux-gnu"

declare ptr @clCreateCommandQueueWithProperties(ptr, ptr, ptr, ptr)
declare i32 @clEnqueueNDRangeKernel(ptr, ptr, i32, ptr, ptr, ptr, i32, ptr, ptr)
declare i32 @clEnqueueReadBuffer(ptr, ptr, i32, i64, i64, ptr, i32, ptr, ptr)
declare i32 @clFinish(ptr)

; CHECK-LABEL: define i32 @run(
define i32 @run(ptr %ctx, ptr %dev, ptr %k, ptr %g, ptr %buf, ptr %host, i64 %n, ptr %other) {
; CHECK: %q = call ptr @__tpuprof_wrap_clCreateCommandQueueWithProperties(ptr %ctx, ptr %dev, ptr null, ptr null, ptr @clCreateCommandQueueWithProperties)
  %q = call ptr @clCreateCommandQueueWithProperties(ptr %ctx, ptr %dev, ptr null, ptr null)
; CHECK: call void @__tpuprof_begin(
; CHECK: %r1 = call i32 @__tpuprof_wrap_clEnqueueNDRangeKernel(ptr %q, ptr %k, i32 1, ptr null, ptr %g, ptr null, i32 0, ptr null, ptr null, ptr @clEnqueueNDRangeKernel)
; CHECK: call void @__tpuprof_end(
  %r1 = call i32 @clEnqueueNDRangeKernel(ptr %q, ptr %k, i32 1, ptr null, ptr %g, ptr null, i32 0, ptr null, ptr null)
; CHECK: call void @__tpuprof_begin_dims(
; CHECK: %r2 = call i32 @__tpuprof_wrap_clEnqueueReadBuffer(ptr %q, ptr %buf, i32 1, i64 0, i64 %n, ptr %host, i32 0, ptr null, ptr null, ptr @clEnqueueReadBuffer)
; CHECK: call void @__tpuprof_end(
  %r2 = call i32 @clEnqueueReadBuffer(ptr %q, ptr %buf, i32 1, i64 0, i64 %n, ptr %host, i32 0, ptr null, ptr null)
; CHECK: %r3 = call i32 @__tpuprof_wrap_clFinish(ptr %q, ptr @clFinish)
  %r3 = call i32 @clFinish(ptr %q)
; CHECK: %r4 = call i32 %other(ptr %q)
  %r4 = call i32 %other(ptr %q)
  %s = add i32 %r1, %r2
  %t = add i32 %s, %r3
  %u = add i32 %t, %r4
  ret i32 %u
}

; CHECK-DAG: declare i32 @__tpuprof_wrap_clEnqueueNDRangeKernel(ptr, ptr, i32, ptr, ptr, ptr, i32, ptr, ptr, ptr)
; CHECK-DAG: declare i32 @__tpuprof_wrap_clFinish(ptr, ptr)
; The probe table names the enqueues as launches with their shapes.
; TABLE-DAG: clEnqueueNDRangeKernel\00work_dim[1]
; TABLE-DAG: clEnqueueReadBuffer\00bytes[?]
