// RUN: tpuprof-opt %s --allow-unregistered-dialect --tpu-profile-instrument | FileCheck %s

// A TPU-MLIR style graph of unregistered `top` ops is instrumented as is;
// the op that ends the block (which may be its terminator) is not.
// CHECK-LABEL: tpuprof.probes [{{.*}}location = "conv1", name = "top.Conv", shapes = "f32[1, 3, 32, 32], f32[8, 3, 3, 3]"},
// CHECK-NEXT: {{.*}}name = "top.Relu", shapes = "f32[1, 8, 30, 30]"}]
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
