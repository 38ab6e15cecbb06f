// --tpu-profile-subsample-pointwise-convs takes the pixels a strided 1x1
// convolution reads as a strided slice of its input, and leaves a stride-1
// convolution, which tosa-optional-decompositions turns into a matmul
// (tosa.fully_connected). Other convolutions stay as they are.
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tpu-profile-subsample-pointwise-convs))' | FileCheck %s
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tpu-profile-subsample-pointwise-convs,tosa-optional-decompositions))' | FileCheck %s --check-prefix=MATMUL
// Inside a graph probe the slice is the convolution's, between its begin and end:
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument,func.func(tpu-profile-subsample-pointwise-convs))' | FileCheck %s --check-prefix=PROBED

// CHECK-LABEL: func.func @stride_2
// CHECK:         %[[PIXELS:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 7, 7, 8] [1, 2, 2, 1] : tensor<1x14x14x8xf32> to tensor<1x7x7x8xf32>
// CHECK:         tosa.conv2d %[[PIXELS]], %arg1, %arg2 {{.*}}stride = array<i64: 1, 1>{{.*}} -> tensor<1x7x7x16xf32>
// MATMUL-LABEL: func.func @stride_2
// MATMUL:         tensor.extract_slice
// MATMUL:         tosa.fully_connected
// MATMUL-NOT:     tosa.conv2d
// PROBED-LABEL: func.func @stride_2
// PROBED:         tpuprof.begin
// PROBED-NEXT:    tensor.extract_slice
// PROBED-NEXT:    tosa.conv2d
// PROBED-NEXT:    tpuprof.end
func.func @stride_2(%x: tensor<1x14x14x8xf32>, %w: tensor<16x1x1x8xf32>, %b: tensor<16xf32>) -> tensor<1x7x7x16xf32> {
  %y = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x14x14x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>) -> tensor<1x7x7x16xf32>
  return %y : tensor<1x7x7x16xf32>
}

// -----

// An odd size keeps its last pixel (15 -> 8), and the strides may differ.
// CHECK-LABEL: func.func @odd_size_mixed_strides
// MATMUL-LABEL: func.func @odd_size_mixed_strides
// CHECK:         tensor.extract_slice %arg0[0, 0, 0, 0] [2, 8, 5, 3] [1, 2, 3, 1] : tensor<2x15x15x3xf32> to tensor<2x8x5x3xf32>
// CHECK:         tosa.conv2d {{.*}}stride = array<i64: 1, 1>
func.func @odd_size_mixed_strides(%x: tensor<2x15x15x3xf32>, %w: tensor<4x1x1x3xf32>, %b: tensor<4xf32>) -> tensor<2x8x5x4xf32> {
  %y = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 3>} : (tensor<2x15x15x3xf32>, tensor<4x1x1x3xf32>, tensor<4xf32>) -> tensor<2x8x5x4xf32>
  return %y : tensor<2x8x5x4xf32>
}

// -----

// Stride 1, a 3x3 filter, padding and a dynamic input: unchanged.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     tensor.extract_slice
// CHECK-COUNT-4: stride = array<i64: {{[12]}}, {{[12]}}>
// CHECK-NOT:     tensor.extract_slice
func.func @unchanged(%x: tensor<1x14x14x8xf32>, %d: tensor<?x14x14x8xf32>, %w1: tensor<16x1x1x8xf32>, %w3: tensor<16x3x3x8xf32>, %b: tensor<16xf32>) -> (tensor<1x14x14x16xf32>, tensor<1x6x6x16xf32>, tensor<1x8x8x16xf32>, tensor<?x7x7x16xf32>) {
  %s1 = tosa.conv2d %x, %w1, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x14x14x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>) -> tensor<1x14x14x16xf32>
  %k3 = tosa.conv2d %x, %w3, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x14x14x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>) -> tensor<1x6x6x16xf32>
  %pad = tosa.conv2d %x, %w1, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x14x14x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
  %dyn = tosa.conv2d %d, %w1, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x14x14x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>) -> tensor<?x7x7x16xf32>
  return %s1, %k3, %pad, %dyn : tensor<1x14x14x16xf32>, tensor<1x6x6x16xf32>, tensor<1x8x8x16xf32>, tensor<?x7x7x16xf32>
}
