; Device-side modules (CUDA/HIP/OpenMP offload) cannot call the host runtime:
; the pass leaves them alone, even when they call a launch function.
; RUN: opt -load-pass-plugin=%tpuprof_plugin -passes=tpu-profile-instrument -S %s | FileCheck %s
; CHECK-NOT: __tpuprof
; CHECK: call void @launchKernel()
; CHECK-NOT: __tpuprof

target triple = "nvptx64-nvidia-cuda"

declare void @launchKernel()

define void @dev() "tpuprof" {
  call void @launchKernel()
  ret void
}
