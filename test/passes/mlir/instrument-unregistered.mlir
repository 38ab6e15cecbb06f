// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument | FileCheck %s
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument=probe-constants=1 | FileCheck %s --check-prefix=CONST
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument='include=top.* probe-constants=1' | FileCheck %s --check-prefix=CONST

// A TPU-MLIR style graph of unregistered `top` ops is instrumented as is;
// the op that ends the block (which may be its terminator) is not.
// CHECK-LABEL: tpuprof.probes [{{.*}}location = "conv1", name = "top.Conv", shapes = "f32[1, 3, 32, 32], f32[8, 3, 3, 3]", out_shapes = "f32[1, 8, 30, 30]", node = "conv1"},
// CHECK-NEXT: {{.*}}name = "top.Relu", shapes = "f32[1, 8, 30, 30]", out_shapes = "f32[1, 8, 30, 30]"}]
// CHECK: func.func @graph
// CHECK: %[[IN:.*]]:2 = tpuprof.begin 0(%arg0, %arg1)
// CHECK-NEXT: %[[CONV:.*]] = "top.Conv"(%[[IN]]#0, %[[IN]]#1) {kernel_shape = [3, 3]}
// CHECK-NEXT: %[[CONV_OUT:.*]] = tpuprof.end 0(%[[CONV]])
// CHECK-NEXT: %[[IN2:.*]] = tpuprof.begin 1(%[[CONV_OUT]])
// CHECK-NEXT: %[[RELU:.*]] = "top.Relu"(%[[IN2]])
// CHECK-NEXT: %[[RELU_OUT:.*]] = tpuprof.end 1(%[[RELU]])
// CHECK-NEXT: "top.Return"(%[[RELU_OUT]])
func.func @graph(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  %0 = "top.Conv"(%x, %w) {kernel_shape = [3, 3]} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32> loc("conv1")
  %1 = "top.Relu"(%0) : (tensor<1x8x30x30xf32>) -> tensor<1x8x30x30xf32>
  "top.Return"(%1) : (tensor<1x8x30x30xf32>) -> ()
}

// -----

// TPU-MLIR's constants (top.Weight, top.None: results but no operands and
// no regions) do no work and get no probes; the ops using them do, with the
// weights forwarded. probe-constants=1 brings them back.
// CHECK-LABEL: tpuprof.probes [{{.*}}name = "top.Input"
// CHECK-NEXT: {{.*}}name = "top.Conv"
// CHECK-NEXT: {{.*}}name = "top.MatMul"
// CHECK-NOT: name = "top.
// CHECK: func.func @weights
// CHECK-NEXT: tpuprof.begin 0(%arg0)
// CHECK-NEXT: "top.Input"
// CHECK-NEXT: tpuprof.end 0
// CHECK-NEXT: %[[W:.*]] = "top.Weight"() {name = "w"}
// CHECK-NEXT: %[[B:.*]] = "top.Weight"() {name = "b"}
// CHECK-NEXT: %[[NONE:.*]] = "top.None"()
// CHECK-NEXT: tpuprof.begin 1(%{{.*}}, %[[W]], %[[B]])
// CHECK-NEXT: "top.Conv"
// CHECK-NEXT: tpuprof.end 1
// CHECK: tpuprof.begin 2(%{{.*}}, %[[W]], %[[NONE]])
// CHECK-NEXT: "top.MatMul"
// CONST-LABEL: tpuprof.probes [{{.*}}name = "top.Input"
// CONST-NEXT: {{.*}}name = "top.Weight"
// CONST-NEXT: {{.*}}name = "top.Weight"
// CONST-NEXT: {{.*}}name = "top.None"
// CONST-NEXT: {{.*}}name = "top.Conv"
// CONST-NEXT: {{.*}}name = "top.MatMul"
func.func @weights(%x: tensor<1x3x8x8xf32>) -> tensor<1x8x6x6xf32> {
  %0 = "top.Input"(%x) {name = "input"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %w = "top.Weight"() {name = "w"} : () -> tensor<8x3x3x3xf32>
  %b = "top.Weight"() {name = "b"} : () -> tensor<8xf32>
  %none = "top.None"() : () -> none
  %1 = "top.Conv"(%0, %w, %b) {kernel_shape = [3, 3]} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  %2 = "top.MatMul"(%1, %w, %none) : (tensor<1x8x6x6xf32>, tensor<8x3x3x3xf32>, none) -> tensor<1x8x6x6xf32>
  return %2 : tensor<1x8x6x6xf32>
}
