; Vulkan (docs/device.md): vkQueueSubmit is a launch probe, and every call of
; a vk* function in format.h's TPUPROF_DEVICE_WRAPPED goes to the runtime's
; wrapper with the real function appended, inside the probes. Recording
; (vkCmdDispatch, vkBeginCommandBuffer, ...) and waits are redirected
; without a probe; a function not in the list (vkEndCommandBuffer) and a
; call through a pointer are left alone.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s --check-prefix=TABLE

target triple = "x86_64-unknown-linux-gnu"

declare i32 @vkBeginCommandBuffer(ptr, ptr)
declare void @vkCmdDispatch(ptr, i32, i32, i32)
declare i32 @vkEndCommandBuffer(ptr)
declare i32 @vkQueueSubmit(ptr, i32, ptr, ptr)
declare i32 @vkQueueWaitIdle(ptr)

; CHECK-LABEL: define i32 @run(
define i32 @run(ptr %cb, ptr %queue, ptr %submit, ptr %other) {
; CHECK: %r1 = call i32 @__tpuprof_wrap_vkBeginCommandBuffer(ptr %cb, ptr null, ptr @vkBeginCommandBuffer)
  %r1 = call i32 @vkBeginCommandBuffer(ptr %cb, ptr null)
; CHECK-NEXT: call void @__tpuprof_wrap_vkCmdDispatch(ptr %cb, i32 4, i32 1, i32 1, ptr @vkCmdDispatch)
  call void @vkCmdDispatch(ptr %cb, i32 4, i32 1, i32 1)
; CHECK-NEXT: %r2 = call i32 @vkEndCommandBuffer(ptr %cb)
  %r2 = call i32 @vkEndCommandBuffer(ptr %cb)
; CHECK: call void @__tpuprof_begin(
; CHECK: %r3 = call i32 @__tpuprof_wrap_vkQueueSubmit(ptr %queue, i32 1, ptr %submit, ptr null, ptr @vkQueueSubmit)
; CHECK: call void @__tpuprof_end(
  %r3 = call i32 @vkQueueSubmit(ptr %queue, i32 1, ptr %submit, ptr null)
; CHECK: %r4 = call i32 @__tpuprof_wrap_vkQueueWaitIdle(ptr %queue, ptr @vkQueueWaitIdle)
  %r4 = call i32 @vkQueueWaitIdle(ptr %queue)
; CHECK: %r5 = call i32 %other(ptr %queue)
  %r5 = call i32 %other(ptr %queue)
  %s = add i32 %r1, %r2
  %t = add i32 %s, %r3
  %u = add i32 %t, %r4
  %v = add i32 %u, %r5
  ret i32 %v
}

; CHECK-DAG: declare i32 @__tpuprof_wrap_vkQueueSubmit(ptr, i32, ptr, ptr, ptr)
; CHECK-DAG: declare void @__tpuprof_wrap_vkCmdDispatch(ptr, i32, i32, i32, ptr)
; The probe table names the submit as a launch.
; TABLE: vkQueueSubmit\00args[1]
