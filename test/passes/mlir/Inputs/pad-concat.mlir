// A concat and a pad between kernels (kernel-probes-same-kernels.test).
func.func @main(%a: tensor<1x8x8x4xf32>, %b: tensor<1x8x8x4xf32>) -> tensor<1x10x10x8xf32> {
  %0 = tosa.add %a, %b : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %1 = tosa.mul %a, %b {shift = 0 : i8} : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %2 = tosa.concat %0, %1 {axis = 3 : i32} : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x8xf32>
  %p = "tosa.const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %3 = tosa.pad %2, %p : (tensor<1x8x8x8xf32>, tensor<4x2xi32>) -> tensor<1x10x10x8xf32>
  %4 = tosa.clamp %3 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x10x10x8xf32>) -> tensor<1x10x10x8xf32>
  return %4 : tensor<1x10x10x8xf32>
}
