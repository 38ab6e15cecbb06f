// Kernel level: tensor ops that become a loop or a copy after
// bufferization get probes of their own, as kernels: a pad (tosa.pad's, or
// a convolution's padding), the inserts a concat lowers to (one probe
// around the chain of them), named by their source ops like every kernel.
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-tag-sources,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,linalg-fuse-elementwise-ops),tpu-profile-instrument{probe-level=kernel})' | FileCheck %s
// Excluded, they have none (what the kernel level did before):
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-tag-sources,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,linalg-fuse-elementwise-ops),tpu-profile-instrument{probe-level=kernel exclude=tensor.*})' | FileCheck %s --check-prefix=EXCLUDED
// Through the whole built-in pipeline, the concat's copies and the pad's
// fill and copy run between their probes:
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-cpu{probe-level=kernel})' --mlir-print-ir-after=tpu-profile-lower -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUFFERS

// CHECK: tpuprof.probes [{{.*}}name = "add"
// CHECK-NEXT: name = "mul"
// CHECK-NEXT: {{{.*}}location = "{{.*}}instrument-kernel-copies.mlir:[[#CONCAT:]]:8", name = "concat", shapes = "f32[1, 8, 8, 4], f32[1, 8, 8, 8], f32[1, 8, 8, 4]", out_shapes = "f32[1, 8, 8, 8]"},
// CHECK-NEXT: {{{.*}}location = "{{.*}}instrument-kernel-copies.mlir:[[#CONCAT+2]]:8", name = "pad", shapes = "f32[1, 8, 8, 8], index, index, index, index, index, index, index, index", out_shapes = "f32[1, 10, 10, 8]"},
// CHECK-NEXT: name = "clamp"
// CHECK-LABEL: func.func @main
// CHECK: tpuprof.end 1(
// CHECK-NEXT: %[[DEST:.*]] = tensor.empty() : tensor<1x8x8x8xf32>
// CHECK-NEXT: %[[IN:.*]]:2 = tpuprof.begin 2(
// CHECK-NEXT: %[[FIRST:.*]] = tensor.insert_slice %[[IN]]#0 into %[[DEST]]
// CHECK-NEXT: %[[SECOND:.*]] = tensor.insert_slice %[[IN]]#1 into %[[FIRST]]
// CHECK-NEXT: %[[CAT:.*]] = tpuprof.end 2(%[[SECOND]])
// CHECK-NEXT: %[[PIN:.*]] = tpuprof.begin 3(%[[CAT]])
// CHECK-NEXT: %[[PAD:.*]] = tensor.pad %[[PIN]]
// CHECK: tpuprof.end 3(%[[PAD]])

// EXCLUDED: tpuprof.probes [{{.*}}name = "add"
// EXCLUDED-NEXT: name = "mul"
// EXCLUDED-NEXT: name = "clamp"
// EXCLUDED-NOT: name =

// BUFFERS-LABEL: func.func @main
// BUFFERS: memref.alloc() {{.*}} : memref<1x8x8x8xf32>
// BUFFERS: llvm.mlir.constant(2 : i32)
// BUFFERS-NEXT: llvm.call @__tpuprof_begin_guard
// BUFFERS-NOT: __tpuprof_end_guard
// BUFFERS: memref.copy
// BUFFERS-NOT: __tpuprof_end_guard
// BUFFERS: memref.copy
// BUFFERS-NEXT: llvm.mlir.constant(2 : i32)
// BUFFERS-NEXT: llvm.call @__tpuprof_end_guard
// BUFFERS-NEXT: llvm.mlir.constant(3 : i32)
// BUFFERS-NEXT: llvm.call @__tpuprof_begin_guard
// BUFFERS-NEXT: memref.alloc() {{.*}} : memref<1x10x10x8xf32>
// BUFFERS-NOT: __tpuprof_end_guard
// BUFFERS: linalg.map
// BUFFERS-NOT: __tpuprof_end_guard
// BUFFERS: memref.copy
// BUFFERS-NEXT: llvm.mlir.constant(3 : i32)
// BUFFERS-NEXT: llvm.call @__tpuprof_end_guard
func.func @main(%a: tensor<1x8x8x4xf32>, %b: tensor<1x8x8x4xf32>) -> tensor<1x10x10x8xf32> {
  %0 = tosa.add %a, %b : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %1 = tosa.mul %a, %b {shift = 0 : i8} : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %2 = tosa.concat %0, %1 {axis = 3 : i32} : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x8xf32>
  %p = "tosa.const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %3 = tosa.pad %2, %p : (tensor<1x8x8x8xf32>, tensor<4x2xi32>) -> tensor<1x10x10x8xf32>
  %4 = tosa.clamp %3 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x10x10x8xf32>) -> tensor<1x10x10x8xf32>
  return %4 : tensor<1x10x10x8xf32>
}
