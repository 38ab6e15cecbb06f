// One function per TOSA op that MLIR 19 converts, on floats (op_suite.py).
// Inputs are tpuprof-run's default random values in [-1, 1) unless an
// ARGS line gives others.

func.func @tosa_abs__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.abs %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_add__f32(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.add %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_add__broadcast(%a: tensor<4x16xf32>, %b: tensor<1x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.add %a, %b : (tensor<4x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_sub__f32(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.sub %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_mul__f32(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.mul %a, %b {shift = 0 : i8} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_pow__f32(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.pow %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_maximum__f32(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.maximum %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_minimum__f32(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.minimum %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_negate__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.negate %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_reciprocal__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.reciprocal %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_rsqrt__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.rsqrt %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_exp__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.exp %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_log__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.log %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_tanh__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.tanh %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_erf__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.erf %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_sigmoid__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.sigmoid %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_sin__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.sin %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_cos__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.cos %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_ceil__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.ceil %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_floor__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.floor %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_clamp__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.clamp %a {min_fp = -0.5 : f32, max_fp = 0.5 : f32, min_int = 0 : i64, max_int = 0 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_equal__f32(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xi1> {
  %0 = tosa.equal %a, %a : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_greater__f32(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xi1> {
  %0 = tosa.greater %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_greater_equal__f32(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xi1> {
  %0 = tosa.greater_equal %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_select__f32(%p: tensor<4x16xi1>, %a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.select %p, %a, %b : (tensor<4x16xi1>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_logical_and__i1(%a: tensor<4x16xi1>, %b: tensor<4x16xi1>) -> tensor<4x16xi1> {
  %0 = tosa.logical_and %a, %b : (tensor<4x16xi1>, tensor<4x16xi1>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_logical_or__i1(%a: tensor<4x16xi1>, %b: tensor<4x16xi1>) -> tensor<4x16xi1> {
  %0 = tosa.logical_or %a, %b : (tensor<4x16xi1>, tensor<4x16xi1>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_logical_xor__i1(%a: tensor<4x16xi1>, %b: tensor<4x16xi1>) -> tensor<4x16xi1> {
  %0 = tosa.logical_xor %a, %b : (tensor<4x16xi1>, tensor<4x16xi1>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_logical_not__i1(%a: tensor<4x16xi1>) -> tensor<4x16xi1> {
  %0 = tosa.logical_not %a : (tensor<4x16xi1>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_cast__f32_to_i32(%a: tensor<4x16xf32>) -> tensor<4x16xi32> {
  %0 = tosa.cast %a : (tensor<4x16xf32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_cast__i8_to_f32(%a: tensor<4x16xi8>) -> tensor<4x16xf32> {
  %0 = tosa.cast %a : (tensor<4x16xi8>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_cast__f32_to_i1(%a: tensor<4x16xf32>) -> tensor<4x16xi1> {
  %0 = tosa.cast %a : (tensor<4x16xf32>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_reduce_sum__f32(%a: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %0 = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}
func.func @tosa_reduce_max__f32(%a: tensor<4x16xf32>) -> tensor<1x16xf32> {
  %0 = tosa.reduce_max %a {axis = 0 : i32} : (tensor<4x16xf32>) -> tensor<1x16xf32>
  return %0 : tensor<1x16xf32>
}
func.func @tosa_reduce_min__f32(%a: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %0 = tosa.reduce_min %a {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}
func.func @tosa_reduce_prod__f32(%a: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %0 = tosa.reduce_prod %a {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}
func.func @tosa_reduce_all__i1(%a: tensor<4x16xi1>) -> tensor<4x1xi1> {
  %0 = tosa.reduce_all %a {axis = 1 : i32} : (tensor<4x16xi1>) -> tensor<4x1xi1>
  return %0 : tensor<4x1xi1>
}
func.func @tosa_reduce_any__i1(%a: tensor<4x16xi1>) -> tensor<4x1xi1> {
  %0 = tosa.reduce_any %a {axis = 1 : i32} : (tensor<4x16xi1>) -> tensor<4x1xi1>
  return %0 : tensor<4x1xi1>
}
func.func @tosa_argmax__f32(%a: tensor<4x16xf32>) -> tensor<4xi32> {
  %0 = tosa.argmax %a {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @tosa_reshape__f32(%a: tensor<4x16xf32>) -> tensor<8x8xf32> {
  %0 = tosa.reshape %a {new_shape = array<i64: 8, 8>} : (tensor<4x16xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func @tosa_transpose__f32(%a: tensor<4x16xf32>) -> tensor<16x4xf32> {
  %p = "tosa.const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = tosa.transpose %a, %p : (tensor<4x16xf32>, tensor<2xi32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}
func.func @tosa_slice__f32(%a: tensor<4x16xf32>) -> tensor<2x8xf32> {
  %0 = tosa.slice %a {start = array<i64: 1, 4>, size = array<i64: 2, 8>} : (tensor<4x16xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
func.func @tosa_pad__f32(%a: tensor<4x16xf32>) -> tensor<6x19xf32> {
  %p = "tosa.const"() {value = dense<[[1, 1], [2, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = tosa.pad %a, %p : (tensor<4x16xf32>, tensor<2x2xi32>) -> tensor<6x19xf32>
  return %0 : tensor<6x19xf32>
}
func.func @tosa_pad__value(%a: tensor<1x4x4x2xf32>) -> tensor<1x6x6x2xf32> {
  %p = "tosa.const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %v = "tosa.const"() {value = dense<-3.0> : tensor<f32>} : () -> tensor<f32>
  %0 = tosa.pad %a, %p, %v : (tensor<1x4x4x2xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x6x6x2xf32>
  return %0 : tensor<1x6x6x2xf32>
}
func.func @tosa_concat__f32(%a: tensor<4x16xf32>, %b: tensor<2x16xf32>) -> tensor<6x16xf32> {
  %0 = tosa.concat %a, %b {axis = 0 : i32} : (tensor<4x16xf32>, tensor<2x16xf32>) -> tensor<6x16xf32>
  return %0 : tensor<6x16xf32>
}
func.func @tosa_tile__f32(%a: tensor<2x3xf32>) -> tensor<4x9xf32> {
  %0 = tosa.tile %a {multiples = array<i64: 2, 3>} : (tensor<2x3xf32>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}
func.func @tosa_reverse__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.reverse %a {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_identity__f32(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.identity %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
func.func @tosa_gather__f32(%v: tensor<2x8x4xf32>) -> tensor<2x3x4xf32> {
  %i = "tosa.const"() {value = dense<[[0, 7, 3], [5, 5, 1]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %0 = tosa.gather %v, %i : (tensor<2x8x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
func.func @tosa_resize__bilinear(%a: tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32> {
  %0 = tosa.resize %a {mode = "BILINEAR", scale = array<i64: 4, 2, 4, 2>, offset = array<i64: -1, -1>, border = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32>
  return %0 : tensor<1x8x8x2xf32>
}
func.func @tosa_resize__nearest(%a: tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32> {
  %0 = tosa.resize %a {mode = "NEAREST_NEIGHBOR", scale = array<i64: 4, 2, 4, 2>, offset = array<i64: -1, -1>, border = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32>
  return %0 : tensor<1x8x8x2xf32>
}
func.func @tosa_conv2d__f32(%a: tensor<1x10x10x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = tosa.conv2d %a, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x10x10x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}
func.func @tosa_conv2d__padded_strided(%a: tensor<2x9x9x4xf32>, %w: tensor<16x3x3x4xf32>, %b: tensor<16xf32>) -> tensor<2x5x5x16xf32> {
  %0 = tosa.conv2d %a, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x9x9x4xf32>, tensor<16x3x3x4xf32>, tensor<16xf32>) -> tensor<2x5x5x16xf32>
  return %0 : tensor<2x5x5x16xf32>
}
func.func @tosa_conv3d__f32(%a: tensor<1x4x6x6x2xf32>, %w: tensor<4x2x3x3x2xf32>, %b: tensor<4xf32>) -> tensor<1x3x4x4x4xf32> {
  %0 = tosa.conv3d %a, %w, %b {dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x4x6x6x2xf32>, tensor<4x2x3x3x2xf32>, tensor<4xf32>) -> tensor<1x3x4x4x4xf32>
  return %0 : tensor<1x3x4x4x4xf32>
}
func.func @tosa_depthwise_conv2d__f32(%a: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x1xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = tosa.depthwise_conv2d %a, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x10x10x8xf32>, tensor<3x3x8x1xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}
func.func @tosa_transpose_conv2d__f32(%a: tensor<1x4x4x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = tosa.transpose_conv2d %a, %w, %b {out_pad = array<i64: 0, 0, 0, 0>, out_shape = array<i64: 1, 6, 6, 8>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
func.func @tosa_matmul__f32(%a: tensor<2x8x16xf32>, %b: tensor<2x16x32xf32>) -> tensor<2x8x32xf32> {
  %0 = tosa.matmul %a, %b : (tensor<2x8x16xf32>, tensor<2x16x32xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}
func.func @tosa_fully_connected__f32(%x: tensor<8x64xf32>, %w: tensor<32x64xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = tosa.fully_connected %x, %w, %b : (tensor<8x64xf32>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
func.func @tosa_max_pool2d__f32(%a: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %0 = tosa.max_pool2d %a {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}
func.func @tosa_avg_pool2d__f32(%a: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = tosa.avg_pool2d %a {acc_type = f32, kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
func.func @tosa_fft2d__f32(%re: tensor<1x8x8xf32>, %im: tensor<1x8x8xf32>) -> (tensor<1x8x8xf32>, tensor<1x8x8xf32>) {
  %0, %1 = tosa.fft2d %re, %im {inverse = false} : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> (tensor<1x8x8xf32>, tensor<1x8x8xf32>)
  return %0, %1 : tensor<1x8x8xf32>, tensor<1x8x8xf32>
}
func.func @tosa_rfft2d__f32(%a: tensor<1x8x8xf32>) -> (tensor<1x8x5xf32>, tensor<1x8x5xf32>) {
  %0, %1 = tosa.rfft2d %a : (tensor<1x8x8xf32>) -> (tensor<1x8x5xf32>, tensor<1x8x5xf32>)
  return %0, %1 : tensor<1x8x5xf32>, tensor<1x8x5xf32>
}
// ARGS: --input i1=1
func.func @tosa_cond_if__then(%p: tensor<i1>, %a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.cond_if %p -> (tensor<4x16xf32>) {
    %1 = tosa.exp %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
    tosa.yield %1 : tensor<4x16xf32>
  } else {
    tosa.yield %a : tensor<4x16xf32>
  }
  return %0 : tensor<4x16xf32>
}
// ARGS: --input i1=0
func.func @tosa_cond_if__else(%p: tensor<i1>, %a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = tosa.cond_if %p -> (tensor<4x16xf32>) {
    %1 = tosa.exp %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
    tosa.yield %1 : tensor<4x16xf32>
  } else {
    %1 = tosa.negate %a : (tensor<4x16xf32>) -> tensor<4x16xf32>
    tosa.yield %1 : tensor<4x16xf32>
  }
  return %0 : tensor<4x16xf32>
}
// ARGS: --input i32=0
func.func @tosa_while_loop__i32(%n: tensor<i32>, %a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0:2 = tosa.while_loop (%i = %n, %x = %a) : (tensor<i32>, tensor<4x16xf32>) -> (tensor<i32>, tensor<4x16xf32>) {
    %limit = "tosa.const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %c = tosa.greater %limit, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %x: tensor<4x16xf32>):
    %one = "tosa.const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %next = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %y = tosa.add %x, %x : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    tosa.yield %next, %y : tensor<i32>, tensor<4x16xf32>
  }
  return %0#1 : tensor<4x16xf32>
}
