// One function per common linalg named op, and linalg.generic, on tensors
// (op_suite.py). The init operands of reductions are arguments: their
// random values are part of the result.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @linalg_matmul__f32(%a: tensor<24x40xf32>, %b: tensor<40x48xf32>, %c: tensor<24x48xf32>) -> tensor<24x48xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<24x40xf32>, tensor<40x48xf32>) outs(%c : tensor<24x48xf32>) -> tensor<24x48xf32>
  return %0 : tensor<24x48xf32>
}
func.func @linalg_matmul__i8_to_i32(%a: tensor<16x32xi8>, %b: tensor<32x16xi8>, %c: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xi8>, tensor<32x16xi8>) outs(%c : tensor<16x16xi32>) -> tensor<16x16xi32>
  return %0 : tensor<16x16xi32>
}
func.func @linalg_matmul__odd(%a: tensor<7x13xf32>, %b: tensor<13x11xf32>, %c: tensor<7x11xf32>) -> tensor<7x11xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<7x13xf32>, tensor<13x11xf32>) outs(%c : tensor<7x11xf32>) -> tensor<7x11xf32>
  return %0 : tensor<7x11xf32>
}
func.func @linalg_matmul_transpose_b__f32(%a: tensor<16x32xf32>, %b: tensor<24x32xf32>, %c: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %0 = linalg.matmul_transpose_b ins(%a, %b : tensor<16x32xf32>, tensor<24x32xf32>) outs(%c : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %0 : tensor<16x24xf32>
}
func.func @linalg_matmul_transpose_a__f32(%a: tensor<32x16xf32>, %b: tensor<32x24xf32>, %c: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %0 = linalg.matmul_transpose_a ins(%a, %b : tensor<32x16xf32>, tensor<32x24xf32>) outs(%c : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %0 : tensor<16x24xf32>
}
func.func @linalg_batch_matmul__f32(%a: tensor<3x8x16xf32>, %b: tensor<3x16x32xf32>, %c: tensor<3x8x32xf32>) -> tensor<3x8x32xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<3x8x16xf32>, tensor<3x16x32xf32>) outs(%c : tensor<3x8x32xf32>) -> tensor<3x8x32xf32>
  return %0 : tensor<3x8x32xf32>
}
func.func @linalg_matvec__f32(%a: tensor<32x48xf32>, %x: tensor<48xf32>, %y: tensor<32xf32>) -> tensor<32xf32> {
  %0 = linalg.matvec ins(%a, %x : tensor<32x48xf32>, tensor<48xf32>) outs(%y : tensor<32xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
func.func @linalg_vecmat__f32(%x: tensor<32xf32>, %a: tensor<32x48xf32>, %y: tensor<48xf32>) -> tensor<48xf32> {
  %0 = linalg.vecmat ins(%x, %a : tensor<32xf32>, tensor<32x48xf32>) outs(%y : tensor<48xf32>) -> tensor<48xf32>
  return %0 : tensor<48xf32>
}
func.func @linalg_dot__f32(%x: tensor<64xf32>, %y: tensor<64xf32>, %s: tensor<f32>) -> tensor<f32> {
  %0 = linalg.dot ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func @linalg_conv_1d_nwc_wcf__f32(%i: tensor<2x18x4xf32>, %f: tensor<3x4x8xf32>, %o: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  %0 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%i, %f : tensor<2x18x4xf32>, tensor<3x4x8xf32>) outs(%o : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %0 : tensor<2x16x8xf32>
}
func.func @linalg_conv_2d_nhwc_hwcf__f32(%i: tensor<1x10x10x3xf32>, %f: tensor<3x3x3x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : tensor<1x10x10x3xf32>, tensor<3x3x3x16xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
func.func @linalg_conv_2d_nhwc_hwcf__strided_dilated(%i: tensor<2x13x13x4xf32>, %f: tensor<3x3x4x8xf32>, %o: tensor<2x5x5x8xf32>) -> tensor<2x5x5x8xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %f : tensor<2x13x13x4xf32>, tensor<3x3x4x8xf32>) outs(%o : tensor<2x5x5x8xf32>) -> tensor<2x5x5x8xf32>
  return %0 : tensor<2x5x5x8xf32>
}
func.func @linalg_conv_2d_nchw_fchw__f32(%i: tensor<1x3x10x10xf32>, %f: tensor<16x3x3x3xf32>, %o: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : tensor<1x3x10x10xf32>, tensor<16x3x3x3xf32>) outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}
func.func @linalg_conv_2d_nhwc_fhwc__f32(%i: tensor<1x10x10x3xf32>, %f: tensor<16x3x3x3xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : tensor<1x10x10x3xf32>, tensor<16x3x3x3xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
func.func @linalg_depthwise_conv_2d_nhwc_hwc__f32(%i: tensor<1x10x10x16xf32>, %f: tensor<3x3x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
func.func @linalg_conv_3d_ndhwc_dhwcf__f32(%i: tensor<1x5x6x6x2xf32>, %f: tensor<2x3x3x2x4xf32>, %o: tensor<1x4x4x4x4xf32>) -> tensor<1x4x4x4x4xf32> {
  %0 = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%i, %f : tensor<1x5x6x6x2xf32>, tensor<2x3x3x2x4xf32>) outs(%o : tensor<1x4x4x4x4xf32>) -> tensor<1x4x4x4x4xf32>
  return %0 : tensor<1x4x4x4x4xf32>
}
func.func @linalg_pooling_nhwc_max__f32(%i: tensor<1x8x8x16xf32>, %o: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : tensor<1x8x8x16xf32>, tensor<2x2xf32>) outs(%o : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}
func.func @linalg_pooling_nhwc_sum__f32(%i: tensor<1x8x8x16xf32>, %o: tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32> {
  %w = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %w : tensor<1x8x8x16xf32>, tensor<3x3xf32>) outs(%o : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}
func.func @linalg_pooling_nchw_max__f32(%i: tensor<1x4x8x8xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : tensor<1x4x8x8xf32>, tensor<2x2xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}
func.func @linalg_fill__f32() -> tensor<16x40xf32> {
  %z = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<16x40xf32>
  %0 = linalg.fill ins(%z : f32) outs(%e : tensor<16x40xf32>) -> tensor<16x40xf32>
  return %0 : tensor<16x40xf32>
}
func.func @linalg_copy__f32(%a: tensor<16x40xf32>) -> tensor<16x40xf32> {
  %e = tensor.empty() : tensor<16x40xf32>
  %0 = linalg.copy ins(%a : tensor<16x40xf32>) outs(%e : tensor<16x40xf32>) -> tensor<16x40xf32>
  return %0 : tensor<16x40xf32>
}
func.func @linalg_transpose__f32(%a: tensor<48x40xf32>) -> tensor<40x48xf32> {
  %e = tensor.empty() : tensor<40x48xf32>
  %0 = linalg.transpose ins(%a : tensor<48x40xf32>) outs(%e : tensor<40x48xf32>) permutation = [1, 0]
  return %0 : tensor<40x48xf32>
}
func.func @linalg_transpose__3d(%a: tensor<4x6x8xf32>) -> tensor<8x4x6xf32> {
  %e = tensor.empty() : tensor<8x4x6xf32>
  %0 = linalg.transpose ins(%a : tensor<4x6x8xf32>) outs(%e : tensor<8x4x6xf32>) permutation = [2, 0, 1]
  return %0 : tensor<8x4x6xf32>
}
func.func @linalg_broadcast__f32(%a: tensor<40xf32>) -> tensor<16x40xf32> {
  %e = tensor.empty() : tensor<16x40xf32>
  %0 = linalg.broadcast ins(%a : tensor<40xf32>) outs(%e : tensor<16x40xf32>) dimensions = [0]
  return %0 : tensor<16x40xf32>
}
func.func @linalg_map__f32(%a: tensor<16x40xf32>, %b: tensor<16x40xf32>) -> tensor<16x40xf32> {
  %e = tensor.empty() : tensor<16x40xf32>
  %0 = linalg.map { arith.mulf } ins(%a, %b : tensor<16x40xf32>, tensor<16x40xf32>) outs(%e : tensor<16x40xf32>)
  return %0 : tensor<16x40xf32>
}
func.func @linalg_reduce__f32(%a: tensor<16x40xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<16x40xf32>) outs(%init : tensor<16xf32>) dimensions = [1]
  return %0 : tensor<16xf32>
}
func.func @linalg_reduce__columns(%a: tensor<16x40xf32>, %init: tensor<40xf32>) -> tensor<40xf32> {
  %0 = linalg.reduce { arith.maximumf } ins(%a : tensor<16x40xf32>) outs(%init : tensor<40xf32>) dimensions = [0]
  return %0 : tensor<40xf32>
}
func.func @linalg_elemwise_unary__exp(%a: tensor<16x40xf32>) -> tensor<16x40xf32> {
  %e = tensor.empty() : tensor<16x40xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%a : tensor<16x40xf32>) outs(%e : tensor<16x40xf32>) -> tensor<16x40xf32>
  return %0 : tensor<16x40xf32>
}
func.func @linalg_elemwise_binary__add(%a: tensor<16x40xf32>, %b: tensor<16x40xf32>) -> tensor<16x40xf32> {
  %e = tensor.empty() : tensor<16x40xf32>
  %0 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%a, %b : tensor<16x40xf32>, tensor<16x40xf32>) outs(%e : tensor<16x40xf32>) -> tensor<16x40xf32>
  return %0 : tensor<16x40xf32>
}
func.func @linalg_generic__softplus(%a: tensor<16x40xf32>) -> tensor<16x40xf32> {
  %e = tensor.empty() : tensor<16x40xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x40xf32>) outs(%e : tensor<16x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %ex = math.exp %x : f32
    %s = arith.addf %ex, %one : f32
    %l = math.log %s : f32
    linalg.yield %l : f32
  } -> tensor<16x40xf32>
  return %0 : tensor<16x40xf32>
}
func.func @linalg_generic__row_sum(%a: tensor<16x40xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<16x40xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
func.func @linalg_generic__index(%a: tensor<16x40xi32>) -> tensor<16x40xi32> {
  %e = tensor.empty() : tensor<16x40xi32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x40xi32>) outs(%e : tensor<16x40xi32>) {
  ^bb0(%x: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %ki = arith.index_cast %k : index to i32
    %r = arith.muli %x, %ki : i32
    linalg.yield %r : i32
  } -> tensor<16x40xi32>
  return %0 : tensor<16x40xi32>
}
func.func @linalg_mmt4d__f32(%a: tensor<2x4x8x1xf32>, %b: tensor<3x4x8x1xf32>, %c: tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32> {
  %0 = linalg.mmt4d ins(%a, %b : tensor<2x4x8x1xf32>, tensor<3x4x8x1xf32>) outs(%c : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  return %0 : tensor<2x3x8x8xf32>
}
