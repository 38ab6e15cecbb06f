// One function per TOSA op that MLIR 19 converts, on integers and in the
// quantized forms (zero points, rescales, shifts) (op_suite.py). Inputs are
// tpuprof-run's default random integers in [-8, 8], never 0, unless an
// ARGS line gives others; shift amounts are constants.

func.func @tosa_abs__i32(%a: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.abs %a : (tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_add__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.add %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_sub__i8(%a: tensor<4x16xi8>, %b: tensor<4x16xi8>) -> tensor<4x16xi8> {
  %0 = tosa.sub %a, %b : (tensor<4x16xi8>, tensor<4x16xi8>) -> tensor<4x16xi8>
  return %0 : tensor<4x16xi8>
}
func.func @tosa_mul__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.mul %a, %b {shift = 0 : i8} : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_mul__shift(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.mul %a, %b {shift = 2 : i8} : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_mul__i8_to_i32(%a: tensor<4x16xi8>, %b: tensor<4x16xi8>) -> tensor<4x16xi32> {
  %0 = tosa.mul %a, %b {shift = 0 : i8} : (tensor<4x16xi8>, tensor<4x16xi8>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_int_div__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.int_div %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_maximum__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.maximum %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_minimum__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.minimum %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_negate__i8_zero_point(%a: tensor<4x16xi8>) -> tensor<4x16xi8> {
  %0 = tosa.negate %a {quantization_info = #tosa.unary_quant<input_zp = 3, output_zp = -2>} : (tensor<4x16xi8>) -> tensor<4x16xi8>
  return %0 : tensor<4x16xi8>
}
func.func @tosa_clamp__i8(%a: tensor<4x16xi8>) -> tensor<4x16xi8> {
  %0 = tosa.clamp %a {min_fp = 0.0 : f32, max_fp = 0.0 : f32, min_int = -4 : i64, max_int = 5 : i64} : (tensor<4x16xi8>) -> tensor<4x16xi8>
  return %0 : tensor<4x16xi8>
}
func.func @tosa_bitwise_and__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.bitwise_and %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_bitwise_or__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.bitwise_or %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_bitwise_xor__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.bitwise_xor %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_bitwise_not__i32(%a: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.bitwise_not %a : (tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_logical_left_shift__i32(%a: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %s = "tosa.const"() {value = dense<3> : tensor<4x16xi32>} : () -> tensor<4x16xi32>
  %0 = tosa.logical_left_shift %a, %s : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_logical_right_shift__i32(%a: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %s = "tosa.const"() {value = dense<2> : tensor<4x16xi32>} : () -> tensor<4x16xi32>
  %0 = tosa.logical_right_shift %a, %s : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_arithmetic_right_shift__round(%a: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %s = "tosa.const"() {value = dense<1> : tensor<4x16xi32>} : () -> tensor<4x16xi32>
  %0 = tosa.arithmetic_right_shift %a, %s {round = true} : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_clz__i32(%a: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = tosa.clz %a : (tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_equal__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi1> {
  %0 = tosa.equal %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_greater__i32(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>) -> tensor<4x16xi1> {
  %0 = tosa.greater %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi1>
  return %0 : tensor<4x16xi1>
}
func.func @tosa_cast__i32_to_i8(%a: tensor<4x16xi32>) -> tensor<4x16xi8> {
  %0 = tosa.cast %a : (tensor<4x16xi32>) -> tensor<4x16xi8>
  return %0 : tensor<4x16xi8>
}
func.func @tosa_reduce_sum__i32(%a: tensor<4x16xi32>) -> tensor<4x1xi32> {
  %0 = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<4x16xi32>) -> tensor<4x1xi32>
  return %0 : tensor<4x1xi32>
}
func.func @tosa_reduce_max__i8(%a: tensor<4x16xi8>) -> tensor<1x16xi8> {
  %0 = tosa.reduce_max %a {axis = 0 : i32} : (tensor<4x16xi8>) -> tensor<1x16xi8>
  return %0 : tensor<1x16xi8>
}
func.func @tosa_argmax__i8(%a: tensor<4x16xi8>) -> tensor<4xi32> {
  %0 = tosa.argmax %a {axis = 1 : i32} : (tensor<4x16xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @tosa_table__i8(%a: tensor<4x16xi8>) -> tensor<4x16xi8> {
  %t = "tosa.const"() {value = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, -128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113, -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97, -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81, -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65, -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1]> : tensor<256xi8>} : () -> tensor<256xi8>
  %0 = tosa.table %a, %t : (tensor<4x16xi8>, tensor<256xi8>) -> tensor<4x16xi8>
  return %0 : tensor<4x16xi8>
}
func.func @tosa_table__i16(%a: tensor<4x16xi16>) -> tensor<4x16xi32> {
  %t = "tosa.const"() {value = dense<7> : tensor<513xi16>} : () -> tensor<513xi16>
  %0 = tosa.table %a, %t : (tensor<4x16xi16>, tensor<513xi16>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_rescale__i8_to_i8(%a: tensor<4x16xi8>) -> tensor<4x16xi8> {
  %0 = tosa.rescale %a {double_round = true, input_zp = 2 : i32, multiplier = array<i32: 1073741824>, output_zp = -1 : i32, per_channel = false, scale32 = true, shift = array<i8: 30>} : (tensor<4x16xi8>) -> tensor<4x16xi8>
  return %0 : tensor<4x16xi8>
}
func.func @tosa_rescale__i32_to_i8_per_channel(%a: tensor<4x2xi32>) -> tensor<4x2xi8> {
  %0 = tosa.rescale %a {double_round = false, input_zp = 0 : i32, multiplier = array<i32: 1518500250, 1073741824>, output_zp = 0 : i32, per_channel = true, scale32 = true, shift = array<i8: 31, 29>} : (tensor<4x2xi32>) -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}
func.func @tosa_rescale__i8_to_i32_scale16(%a: tensor<4x16xi8>) -> tensor<4x16xi32> {
  %0 = tosa.rescale %a {double_round = false, input_zp = 0 : i32, multiplier = array<i32: 16384>, output_zp = 0 : i32, per_channel = false, scale32 = false, shift = array<i8: 13>} : (tensor<4x16xi8>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
func.func @tosa_pad__i8_zero_point(%a: tensor<4x16xi8>) -> tensor<6x18xi8> {
  %p = "tosa.const"() {value = dense<[[1, 1], [1, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = tosa.pad %a, %p {quantization_info = #tosa.pad_quant<input_zp = 5>} : (tensor<4x16xi8>, tensor<2x2xi32>) -> tensor<6x18xi8>
  return %0 : tensor<6x18xi8>
}
func.func @tosa_transpose__i8(%a: tensor<2x3x4xi8>) -> tensor<4x2x3xi8> {
  %p = "tosa.const"() {value = dense<[2, 0, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = tosa.transpose %a, %p : (tensor<2x3x4xi8>, tensor<3xi32>) -> tensor<4x2x3xi8>
  return %0 : tensor<4x2x3xi8>
}
func.func @tosa_concat__i32(%a: tensor<4x3xi32>, %b: tensor<4x5xi32>) -> tensor<4x8xi32> {
  %0 = tosa.concat %a, %b {axis = 1 : i32} : (tensor<4x3xi32>, tensor<4x5xi32>) -> tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}
func.func @tosa_scatter__i32(%v: tensor<2x8x4xi32>, %x: tensor<2x2x4xi32>) -> tensor<2x8x4xi32> {
  %i = "tosa.const"() {value = dense<[[0, 7], [5, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = tosa.scatter %v, %i, %x : (tensor<2x8x4xi32>, tensor<2x2xi32>, tensor<2x2x4xi32>) -> tensor<2x8x4xi32>
  return %0 : tensor<2x8x4xi32>
}
func.func @tosa_resize__i8_bilinear(%a: tensor<1x4x4x2xi8>) -> tensor<1x8x8x2xi32> {
  %0 = tosa.resize %a {mode = "BILINEAR", scale = array<i64: 4, 2, 4, 2>, offset = array<i64: -1, -1>, border = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>) -> tensor<1x8x8x2xi32>
  return %0 : tensor<1x8x8x2xi32>
}
func.func @tosa_conv2d__i8(%a: tensor<1x10x10x3xi8>, %w: tensor<8x3x3x3xi8>, %b: tensor<8xi32>) -> tensor<1x8x8x8xi32> {
  %0 = tosa.conv2d %a, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -3, weight_zp = 2>} : (tensor<1x10x10x3xi8>, tensor<8x3x3x3xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi32>
  return %0 : tensor<1x8x8x8xi32>
}
func.func @tosa_depthwise_conv2d__i8(%a: tensor<1x10x10x8xi8>, %w: tensor<3x3x8x1xi8>, %b: tensor<8xi32>) -> tensor<1x8x8x8xi32> {
  %0 = tosa.depthwise_conv2d %a, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = 1, weight_zp = -1>} : (tensor<1x10x10x8xi8>, tensor<3x3x8x1xi8>, tensor<8xi32>) -> tensor<1x8x8x8xi32>
  return %0 : tensor<1x8x8x8xi32>
}
func.func @tosa_matmul__i8(%a: tensor<1x8x16xi8>, %b: tensor<1x16x32xi8>) -> tensor<1x8x32xi32> {
  %0 = tosa.matmul %a, %b {quantization_info = #tosa.matmul_quant<a_zp = 1, b_zp = -2>} : (tensor<1x8x16xi8>, tensor<1x16x32xi8>) -> tensor<1x8x32xi32>
  return %0 : tensor<1x8x32xi32>
}
func.func @tosa_matmul__i8_no_zero_point(%a: tensor<1x8x16xi8>, %b: tensor<1x16x32xi8>) -> tensor<1x8x32xi32> {
  %0 = tosa.matmul %a, %b : (tensor<1x8x16xi8>, tensor<1x16x32xi8>) -> tensor<1x8x32xi32>
  return %0 : tensor<1x8x32xi32>
}
func.func @tosa_fully_connected__i8(%x: tensor<8x64xi8>, %w: tensor<32x64xi8>, %b: tensor<32xi32>) -> tensor<8x32xi32> {
  %0 = tosa.fully_connected %x, %w, %b {quantization_info = #tosa.conv_quant<input_zp = 2, weight_zp = 1>} : (tensor<8x64xi8>, tensor<32x64xi8>, tensor<32xi32>) -> tensor<8x32xi32>
  return %0 : tensor<8x32xi32>
}
func.func @tosa_max_pool2d__i8(%a: tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8> {
  %0 = tosa.max_pool2d %a {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x8x8x16xi8>) -> tensor<1x4x4x16xi8>
  return %0 : tensor<1x4x4x16xi8>
}
func.func @tosa_avg_pool2d__i8(%a: tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8> {
  %0 = tosa.avg_pool2d %a {acc_type = i32, kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, quantization_info = #tosa.unary_quant<input_zp = -1, output_zp = 4>} : (tensor<1x8x8x16xi8>) -> tensor<1x8x8x16xi8>
  return %0 : tensor<1x8x8x16xi8>
}
