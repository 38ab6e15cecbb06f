// Node levels: one probe pair around each run of ops of one node (an
// importer's `loc("NODE"("OpType"))`), named `node.` and the op type (else
// the ops' short names); at node+graph each op's own probe inside it. An op
// without a node keeps its own probe.
// RUN: tpuprof-opt %s --tpu-profile-instrument=probe-level=node | FileCheck %s
// RUN: tpuprof-opt %s --tpu-profile-instrument=probe-level=node+graph | FileCheck %s --check-prefix=NESTED
// The region's hash (docs/hash.md, "Regions") is the same at both levels
// and from run to run:
// RUN: tpuprof-opt %s --tpu-profile-instrument=probe-level=node | grep -o 'hash = "[0-9a-f]*", location = "bn1"' > %t.node
// RUN: tpuprof-opt %s --tpu-profile-instrument=probe-level=node+graph | grep -o 'hash = "[0-9a-f]*", location = "bn1"' | head -1 > %t.nested
// RUN: diff %t.node %t.nested
// The regions survive the built-in lowering, nested ones too:
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-cpu{probe-level=node+graph})' | FileCheck %s --check-prefix=LOWERED

// The multi-op node is one region: its ops (and the constant between them)
// between begin 0 and end 0; the region's arguments are what comes in.
// CHECK: tpuprof.probes [{bytes = 144, dyn_dims = 0, flops = 12, function = "nodes", hash = "{{[0-9a-f]+}}", location = "bn1", name = "node.BatchNormalization", shapes = "f32[4], f32[4], f32[4]", out_shapes = "f32[4]", node = "bn1"},
// Two nodes back to back: two regions. The region of one op has its own
// hash (pinned: a change of the definition shows here).
// CHECK-NEXT: {bytes = 32, dyn_dims = 0, flops = 4, function = "nodes", hash = "3ff63a362047b90c", location = "relu1", name = "node.Relu", shapes = "f32[4]", out_shapes = "f32[4]", node = "relu1"},
// CHECK-NEXT: {bytes = 32, dyn_dims = 0, flops = 4, function = "nodes", hash = "{{[0-9a-f]+}}", location = "relu2", name = "node.Relu", shapes = "f32[4]", out_shapes = "f32[4]", node = "relu2"},
// An op without a node: its own probe, as at the graph level.
// CHECK-NEXT: location = "{{.*}}instrument-node-regions.mlir:{{[0-9]+}}:{{[0-9]+}}", name = "tosa.negate", shapes = "f32[4]", out_shapes = "f32[4]"},
// A node without an op type is named by its ops.
// CHECK-NEXT: location = "layer/exp", name = "node.exp+abs", shapes = "f32[4]", out_shapes = "f32[4]", node = "layer/exp"}]
// CHECK-LABEL: func.func @nodes
// CHECK: %[[IN:.*]]:3 = tpuprof.begin 0(%arg0, %arg1, %arg2)
// CHECK-NEXT: %[[MUL:.*]] = tosa.mul %[[IN]]#0, %[[IN]]#1
// CHECK-NEXT: %[[C:.*]] = "tosa.const"
// CHECK-NEXT: %[[ADD:.*]] = tosa.add %[[MUL]], %[[IN]]#2
// CHECK-NEXT: %[[SUB:.*]] = tosa.sub %[[ADD]], %[[C]]
// CHECK-NEXT: %[[BN:.*]] = tpuprof.end 0(%[[SUB]])
// CHECK-NEXT: tpuprof.begin 1(%[[BN]])
// CHECK-NEXT: tosa.clamp
// CHECK-NEXT: tpuprof.end 1(
// CHECK-NEXT: tpuprof.begin 2(
// CHECK-NEXT: tosa.clamp
// CHECK-NEXT: tpuprof.end 2(
// CHECK-NEXT: tpuprof.begin 3(
// CHECK-NEXT: tosa.negate
// CHECK-NEXT: tpuprof.end 3(
// CHECK-NEXT: tpuprof.begin 4(
// CHECK-NEXT: tosa.exp
// CHECK-NEXT: tosa.abs
// CHECK-NEXT: tpuprof.end 4(

// Nested: each region's entry, then its ops' entries; the ops' probes
// inside the region's.
// NESTED: tpuprof.probes [{{{.*}}name = "node.BatchNormalization"{{.*}}node = "bn1"},
// NESTED-NEXT: {{{.*}}name = "tosa.mul"{{.*}}node = "bn1"},
// NESTED-NEXT: {{{.*}}name = "tosa.add"{{.*}}node = "bn1"},
// NESTED-NEXT: {{{.*}}name = "tosa.sub"{{.*}}node = "bn1"},
// NESTED-NEXT: {{{.*}}name = "node.Relu"{{.*}}node = "relu1"},
// NESTED-NEXT: {{{.*}}name = "tosa.clamp"{{.*}}node = "relu1"},
// NESTED-NEXT: {{{.*}}name = "node.Relu"{{.*}}node = "relu2"},
// NESTED-NEXT: {{{.*}}name = "tosa.clamp"{{.*}}node = "relu2"},
// NESTED-NEXT: {{{.*}}name = "tosa.negate"
// NESTED-NEXT: {{{.*}}name = "node.exp+abs"
// NESTED-NEXT: {{{.*}}name = "tosa.exp"
// NESTED-NEXT: {{{.*}}name = "tosa.abs"{{.*}}}]
// NESTED-LABEL: func.func @nodes
// NESTED: %[[IN:.*]]:3 = tpuprof.begin 0(%arg0, %arg1, %arg2)
// NESTED-NEXT: %[[IN1:.*]]:2 = tpuprof.begin 1(%[[IN]]#0, %[[IN]]#1)
// NESTED-NEXT: tosa.mul %[[IN1]]#0, %[[IN1]]#1
// NESTED-NEXT: tpuprof.end 1(
// NESTED-NEXT: "tosa.const"
// NESTED-NEXT: tpuprof.begin 2(
// NESTED-NEXT: tosa.add
// NESTED-NEXT: tpuprof.end 2(
// NESTED-NEXT: tpuprof.begin 3(
// NESTED-NEXT: tosa.sub
// NESTED-NEXT: %[[SUB:.*]] = tpuprof.end 3(
// NESTED-NEXT: tpuprof.end 0(%[[SUB]])
// NESTED-NEXT: tpuprof.begin 4(
// NESTED-NEXT: tpuprof.begin 5(
// NESTED-NEXT: tosa.clamp
// NESTED-NEXT: tpuprof.end 5(
// NESTED-NEXT: tpuprof.end 4(

// LOWERED-LABEL: llvm.func @nodes
// LOWERED: llvm.call @__tpuprof_begin_guard(%[[REGION:[0-9]+]])
// LOWERED-NEXT: llvm.call @__tpuprof_begin_guard(%[[MUL:[0-9]+]])
// LOWERED-NOT: __tpuprof_end_guard
// LOWERED: llvm.fmul
// LOWERED-NOT: __tpuprof_begin_guard
// LOWERED: llvm.call @__tpuprof_end_guard(%[[MUL]])
// LOWERED: llvm.call @__tpuprof_end_guard(%[[REGION]])
// LOWERED-NEXT: llvm.call @__tpuprof_begin_guard
func.func @nodes(%a: tensor<4xf32>, %b: tensor<4xf32>, %d: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.mul %a, %b {shift = 0 : i8} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(#bn)
  %c = "tosa.const"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32> loc(#bn)
  %1 = tosa.add %0, %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(#bn)
  %2 = tosa.sub %1, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(#bn)
  %3 = tosa.clamp %2 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<4xf32>) -> tensor<4xf32> loc(#relu1)
  %4 = tosa.clamp %3 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<4xf32>) -> tensor<4xf32> loc(#relu2)
  %5 = tosa.negate %4 : (tensor<4xf32>) -> tensor<4xf32>
  %6 = tosa.exp %5 : (tensor<4xf32>) -> tensor<4xf32> loc("layer/exp")
  %7 = tosa.abs %6 : (tensor<4xf32>) -> tensor<4xf32> loc("layer/exp")
  return %7 : tensor<4xf32>
}
#bn = loc("bn1"("BatchNormalization"))
#relu1 = loc("relu1"("Relu"))
#relu2 = loc("relu2"("Relu"))
