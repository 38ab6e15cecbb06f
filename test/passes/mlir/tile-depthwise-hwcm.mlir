// --tpu-profile-tile-and-vectorize turns a depthwise convolution with a
// channel multiplier of 1 as TOSA makes it (linalg.depthwise_conv_2d_nhwc_hwcm)
// into linalg.depthwise_conv_2d_nhwc_hwc between reshapes, which it tiles,
// decomposes into 1-D convolutions and vectorizes (HWCM would stay a loop
// nest); with a multiplier of 2 the op stays as it is.
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tpu-profile-tile-and-vectorize{vector-bits=512}))' | FileCheck %s
// The same with kernel probes placed around the convolution first:
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument{probe-level=kernel},func.func(tpu-profile-tile-and-vectorize{vector-bits=512}))' | FileCheck %s

// CHECK-LABEL: func.func @multiplier_1
// CHECK-NOT:   = linalg.depthwise_conv_2d_nhwc_hwcm
// CHECK:       vector.{{fma|contract|outerproduct}}
// CHECK-NOT:   = linalg.depthwise_conv_2d_nhwc_hwcm
// CHECK:       tensor.expand_shape {{.*}} into tensor<1x8x8x58x1xf32>
// CHECK-LABEL: func.func @multiplier_2
// CHECK:       = linalg.depthwise_conv_2d_nhwc_hwcm
func.func @multiplier_1(%x: tensor<1x10x10x58xf32>, %w: tensor<3x3x58x1xf32>) -> tensor<1x8x8x58x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x58x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x58x1xf32>) -> tensor<1x8x8x58x1xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x10x10x58xf32>, tensor<3x3x58x1xf32>)
         outs(%init : tensor<1x8x8x58x1xf32>) -> tensor<1x8x8x58x1xf32>
  return %y : tensor<1x8x8x58x1xf32>
}

// -----

func.func @multiplier_2(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x2xf32>) -> tensor<1x8x8x8x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8x2xf32>) -> tensor<1x8x8x8x2xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x2xf32>)
         outs(%init : tensor<1x8x8x8x2xf32>) -> tensor<1x8x8x8x2xf32>
  return %y : tensor<1x8x8x8x2xf32>
}
