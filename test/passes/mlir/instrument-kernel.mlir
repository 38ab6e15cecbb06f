// Kernel-level probes: --tpu-profile-tag-sources records each source op in
// its location, the lowering fuses, and --tpu-profile-instrument at
// probe-level=kernel wraps each kernel left, named by its source ops in
// order, with every source location.
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-tag-sources,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,linalg-fuse-elementwise-ops),tpu-profile-instrument{probe-level=kernel})' | FileCheck %s
// The hashes are stable from run to run:
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-tag-sources,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,linalg-fuse-elementwise-ops),tpu-profile-instrument{probe-level=kernel})' | grep -o 'hash = "[0-9a-f]*"' > %t.run1
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-tag-sources,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,linalg-fuse-elementwise-ops),tpu-profile-instrument{probe-level=kernel})' | grep -o 'hash = "[0-9a-f]*"' > %t.run2
// RUN: diff %t.run1 %t.run2
// The tags are fused locations with a tpuprof.op entry:
// RUN: tpuprof-opt %s --tpu-profile-tag-sources --mlir-print-debuginfo | FileCheck %s --check-prefix=TAGS
// Untagged kernels keep their op names; a bad level is an error:
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,linalg-fuse-elementwise-ops),tpu-profile-instrument{probe-level=kernel})' | FileCheck %s --check-prefix=UNTAGGED
// RUN: not tpuprof-opt %s --tpu-profile-instrument=probe-level=op 2>&1 | FileCheck %s --check-prefix=BAD
// The graph level (the default) is unchanged: one probe per TOSA op.
// RUN: tpuprof-opt %s --tpu-profile-instrument | FileCheck %s --check-prefix=GRAPH

// A chain of three elementwise ops is one kernel, one probe, three sources.
// CHECK: tpuprof.probes [{{.*}}function = "chain", hash = "{{[0-9a-f]+}}", location = "{{.*}}instrument-kernel.mlir:32:8; {{.*}}instrument-kernel.mlir:33:8; {{.*}}instrument-kernel.mlir:34:8", name = "add+mul+clamp", shapes = "f32[4, 8], f32[4, 8], f32[4, 8]", num_outs = 1},
// The other kernels of the table:
// CHECK-DAG: name = "fully_connected:transpose", shapes = "f32[4, 8], f32[8, 4]"
// CHECK-DAG: name = "fully_connected:broadcast", shapes = "f32[4], f32[1, 1, 4]"
// CHECK-DAG: name = "fully_connected:reduction"
// CHECK-DAG: location = "{{.*}}instrument-kernel.mlir:54:8", name = "reduce_sum", shapes = "f32[1, 1, 4], f32[1, 1]"
// CHECK-DAG: function = "caller", hash = "{{[0-9a-f]+}}", location = "{{.*}}instrument-kernel.mlir:64:8", name = "func.call @chain"
// CHECK-LABEL: func.func @chain
// CHECK: tpuprof.begin 0(
// CHECK-NEXT: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: tpuprof.end 0(
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.mul %0, %b {shift = 0 : i8} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.clamp %1 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// One op lowered to several kernels: each says what it does. A reduction's
// fill of its accumulator is inside the reduction's probe.
// CHECK-LABEL: func.func @dense
// CHECK: tpuprof.begin 1(
// CHECK-NEXT: linalg.transpose
// CHECK: tpuprof.begin 2(
// CHECK-NEXT: linalg.generic
// CHECK: tpuprof.begin 3(
// CHECK-NEXT: linalg.generic
// CHECK: tpuprof.begin 4(
// CHECK-NEXT: linalg.generic {{.*}} outs(
// CHECK-NEXT: ^bb
// CHECK: linalg.generic {{.*}} ins(
// CHECK: tpuprof.end 4(
func.func @dense(%x: tensor<1x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<1x1xf32> {
  %0 = tosa.fully_connected %x, %w, %b : (tensor<1x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  %1 = tosa.reduce_sum %0 {axis = 1 : i32} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  return %1 : tensor<1x1xf32>
}

// A call of the model's own function is probed as at the graph level.
// CHECK-LABEL: func.func @caller
// CHECK: tpuprof.begin 5(
// CHECK-NEXT: call @chain
// CHECK-NEXT: tpuprof.end 5(
func.func @caller(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = call @chain(%a, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}


// TAGS-DAG: loc(fused<{tpuprof.op = "tosa.add"}>[#[[ADD:loc[0-9]+]]])
// TAGS-DAG: #[[ADD]] = loc("{{.*}}instrument-kernel.mlir":32:8)
// TAGS-DAG: loc(fused<{tpuprof.op = "func.call"}>
// TAGS-NOT: tpuprof.op = "tosa.const"

// UNTAGGED-DAG: location = "{{.*}}instrument-kernel.mlir:34:8", name = "linalg.generic"
// UNTAGGED-DAG: name = "linalg.transpose"

// BAD: option 'probe-level' must be graph, kernel, node or node+graph, got 'op'

// GRAPH-DAG: name = "tosa.add"
// GRAPH-DAG: name = "tosa.mul"
// GRAPH-DAG: name = "tosa.clamp"
// GRAPH-DAG: name = "tosa.fully_connected"
