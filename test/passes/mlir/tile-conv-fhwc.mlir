// --tpu-profile-tile-and-vectorize turns a TOSA-made convolution
// (linalg.conv_2d_nhwc_fhwc, filter OHWI) with a constant filter into
// linalg.conv_2d_nhwc_hwcf on the filter rearranged at compile time, which
// it tiles, decomposes into 1-D convolutions and vectorizes; a filter that
// is not a constant leaves the op as it is (a loop nest later).
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tpu-profile-tile-and-vectorize{vector-bits=256}))' | FileCheck %s
// The same with kernel probes placed around the convolution first:
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument{probe-level=kernel},func.func(tpu-profile-tile-and-vectorize{vector-bits=256}))' | FileCheck %s

// CHECK-LABEL: func.func @constant_filter
// CHECK-NOT:   linalg.conv_2d_nhwc_fhwc
// CHECK:       arith.constant dense_resource<conv_filter_hwcf{{[_0-9]*}}> : tensor<1x1x2x2xf32>
// CHECK-NOT:   linalg.conv_2d_nhwc_fhwc
// CHECK:       vector.{{contract|fma|outerproduct}}
// CHECK-NOT:   linalg.conv_2d_nhwc_fhwc
// CHECK-LABEL: func.func @runtime_filter
// CHECK:       linalg.conv_2d_nhwc_fhwc
// Filter [f][h][w][c] = 1, 2 / 3, 4 becomes [h][w][c][f] = 1, 3 / 2, 4.
// CHECK:       conv_filter_hwcf{{[_0-9]*}}: "0x040000000000803F000040400000004000008040"
func.func @constant_filter(%x: tensor<1x1x8x2xf32>) -> tensor<1x1x8x2xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x8x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x8x2xf32>) -> tensor<1x1x8x2xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x1x8x2xf32>, tensor<2x1x1x2xf32>)
         outs(%init : tensor<1x1x8x2xf32>) -> tensor<1x1x8x2xf32>
  return %y : tensor<1x1x8x2xf32>
}

func.func @runtime_filter(%x: tensor<1x1x8x2xf32>, %w: tensor<2x1x1x2xf32>) -> tensor<1x1x8x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x8x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x8x2xf32>) -> tensor<1x1x8x2xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x1x8x2xf32>, tensor<2x1x1x2xf32>)
         outs(%init : tensor<1x1x8x2xf32>) -> tensor<1x1x8x2xf32>
  return %y : tensor<1x1x8x2xf32>
}
