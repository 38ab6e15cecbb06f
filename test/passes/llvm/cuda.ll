; CUDA and HIP (docs/device.md): cudaLaunchKernel, cudaMemcpy(Async),
; cudaMemset(Async) and hipLaunchKernel go to the runtime's wrappers with
; the real function appended (the wrappers push CUPTI's external correlation
; id around the call); launches keep their probes around the redirected
; call. A call through a pointer is left alone.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | opt -passes=verify -disable-output

target triple = "x86_64-unknown-linux-gnu"

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr) nounwind
declare i32 @cudaMemcpy(ptr, ptr, i64, i32) nounwind
declare i32 @cudaMemcpyAsync(ptr, ptr, i64, i32, ptr) nounwind
declare i32 @cudaMemset(ptr, i32, i64) nounwind
declare i32 @cudaMemsetAsync(ptr, i32, i64, ptr) nounwind
declare i32 @hipLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr) nounwind

define void @_Z6kernelPf(ptr %p) {
  ret void
}

; CHECK-LABEL: define i32 @run(
define i32 @run(ptr %args, ptr %dev, ptr %host, i64 %n, ptr %stream, ptr %other) {
; CHECK: call void @__tpuprof_begin(
; CHECK: %r1 = call i32 @__tpuprof_wrap_cudaLaunchKernel(ptr @_Z6kernelPf, i64 4294967360, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr %stream, ptr @cudaLaunchKernel)
; CHECK: call void @__tpuprof_end(
  %r1 = call i32 @cudaLaunchKernel(ptr @_Z6kernelPf, i64 4294967360, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr %stream)
; CHECK: %r2 = call i32 @__tpuprof_wrap_cudaMemcpy(ptr %dev, ptr %host, i64 %n, i32 1, ptr @cudaMemcpy)
  %r2 = call i32 @cudaMemcpy(ptr %dev, ptr %host, i64 %n, i32 1)
; CHECK: %r3 = call i32 @__tpuprof_wrap_cudaMemcpyAsync(ptr %host, ptr %dev, i64 %n, i32 2, ptr %stream, ptr @cudaMemcpyAsync)
  %r3 = call i32 @cudaMemcpyAsync(ptr %host, ptr %dev, i64 %n, i32 2, ptr %stream)
; CHECK: %r4 = call i32 @__tpuprof_wrap_cudaMemset(ptr %dev, i32 0, i64 %n, ptr @cudaMemset)
  %r4 = call i32 @cudaMemset(ptr %dev, i32 0, i64 %n)
; CHECK: %r5 = call i32 @__tpuprof_wrap_cudaMemsetAsync(ptr %dev, i32 0, i64 %n, ptr %stream, ptr @cudaMemsetAsync)
  %r5 = call i32 @cudaMemsetAsync(ptr %dev, i32 0, i64 %n, ptr %stream)
; CHECK: call void @__tpuprof_begin(
; CHECK: %r6 = call i32 @__tpuprof_wrap_hipLaunchKernel(ptr @_Z6kernelPf, i64 4294967360, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr %stream, ptr @hipLaunchKernel)
; CHECK: call void @__tpuprof_end(
  %r6 = call i32 @hipLaunchKernel(ptr @_Z6kernelPf, i64 4294967360, i32 1, i64 4294967552, i32 1, ptr %args, i64 0, ptr %stream)
; CHECK: %r7 = call i32 %other(ptr @_Z6kernelPf, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  %r7 = call i32 %other(ptr @_Z6kernelPf, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  %s1 = add i32 %r1, %r2
  %s2 = add i32 %s1, %r3
  %s3 = add i32 %s2, %r4
  %s4 = add i32 %s3, %r5
  %s5 = add i32 %s4, %r6
  %s6 = add i32 %s5, %r7
  ret i32 %s6
}

; CHECK-DAG: declare i32 @__tpuprof_wrap_cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr, ptr)
; CHECK-DAG: declare i32 @__tpuprof_wrap_cudaMemcpy(ptr, ptr, i64, i32, ptr)
; CHECK-DAG: declare i32 @__tpuprof_wrap_hipLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr, ptr)
