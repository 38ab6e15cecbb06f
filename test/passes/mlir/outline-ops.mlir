// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument --tpu-profile-outline-ops='min-ops=2 ops-per-function=2' | FileCheck %s
// The pass's old name stays registered:
// RUN: tpuprof-opt %s --split-input-file --tpuprof-outline-ops | FileCheck %s --check-prefix=SMALL
// Kernel probes, placed after outlining, probe the kernels inside the parts,
// charge them to @main and put no probe on the calls the pass made:
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-tag-sources,tpu-profile-outline-ops{min-ops=2 ops-per-function=2},func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),tpu-profile-instrument{probe-level=kernel})' | FileCheck %s --check-prefix=KERNEL

// KERNEL: tpuprof.probes [{{.*}}function = "main", {{.*}}name = "exp"
// KERNEL-NEXT: function = "main", {{.*}}name = "negate"
// KERNEL-NEXT: function = "main", {{.*}}name = "transpose"
// KERNEL-LABEL: func.func @main
// KERNEL-NOT: tpuprof.begin
// KERNEL: call @main_part(
// KERNEL-NOT: tpuprof.begin
// KERNEL: call @main_part_0(
// KERNEL-NOT: tpuprof.begin
// KERNEL: return
// KERNEL: func.func private @main_part(
// KERNEL: tpuprof.begin 0

// Three graph ops, more than min-ops: functions of two graph ops each, in
// order, never inlined; each probe moves with its op; the transpose's
// permutation (a constant) is cloned into the function that uses it, and a
// value used later is returned.
// CHECK-LABEL: func.func @main(%arg0: tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[PERM:.*]] = "tosa.const"() <{value = dense<[1, 0]> : tensor<2xi32>}>
// CHECK-NEXT: %[[A:.*]] = call @main_part(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[B:.*]] = call @main_part_0(%[[A]]) : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %[[B]]
// CHECK: func.func private @main_part(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {no_inline, tpuprof.outlined = "main"}
// CHECK-NEXT: tpuprof.begin 0
// CHECK-NEXT: tosa.exp
// CHECK-NEXT: tpuprof.end 0
// CHECK-NEXT: tpuprof.begin 1
// CHECK-NEXT: tosa.negate
// CHECK-NEXT: tpuprof.end 1
// CHECK-NEXT: return
// CHECK: func.func private @main_part_0(%arg0: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {no_inline, tpuprof.outlined = "main"}
// CHECK-NEXT: %[[P:.*]] = "tosa.const"() <{value = dense<[1, 0]> : tensor<2xi32>}>
// CHECK-NEXT: tpuprof.begin 2(%arg0)
// CHECK-NEXT: tosa.transpose %{{.*}}, %[[P]]
// CHECK-NEXT: tpuprof.end 2
// CHECK-NEXT: return
// With the default threshold (128 graph ops) the function stays whole.
// SMALL-LABEL: func.func @main
// SMALL-NOT: call
// SMALL-NOT: func.func
func.func @main(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %perm = "tosa.const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = tosa.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.negate %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.transpose %1, %perm : (tensor<4x8xf32>, tensor<2xi32>) -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
