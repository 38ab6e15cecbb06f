// Static FLOP and byte estimates of docs/cost-model.md, as written to the
// probe table (flops/bytes; 0 = unknown).
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument | FileCheck %s

// tosa.matmul [1,4,8] x [1,8,16] -> [1,4,16]: 2 * 64 outputs * K=8.
// Bytes: (32 + 128 + 64) f32.
// CHECK-LABEL: tpuprof.probes [{bytes = 896, dyn_dims = 0, flops = 1024, {{[^}]*}}name = "tosa.matmul"
func.func @matmul(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>) -> tensor<1x4x16xf32> {
  %0 = tosa.matmul %a, %b : (tensor<1x4x8xf32>, tensor<1x8x16xf32>) -> tensor<1x4x16xf32>
  return %0 : tensor<1x4x16xf32>
}

// -----

// tosa.fully_connected [2,8] x [4,8] + [4] -> [2,4]: 2 * 8 outputs * IC=8
// plus one bias add per output = 136. Bytes: (16 + 32 + 4 + 8) f32.
// CHECK-LABEL: tpuprof.probes [{bytes = 240, dyn_dims = 0, flops = 136, {{[^}]*}}name = "tosa.fully_connected"
func.func @fully_connected(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = tosa.fully_connected %x, %w, %b : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// tosa.conv2d NHWC [1,8,8,3], weight [OC=4,KH=3,KW=3,IC=3] -> [1,6,6,4]:
// 144 outputs * 27 MACs * 2 + 144 bias adds = 7920.
// Bytes: (192 + 108 + 4 + 144) f32.
// CHECK-LABEL: tpuprof.probes [{bytes = 1792, dyn_dims = 0, flops = 7920, {{[^}]*}}name = "tosa.conv2d"
func.func @conv2d(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// tosa.depthwise_conv2d [1,6,6,2], weight [KH=3,KW=3,C=2,M=2] -> [1,4,4,4]:
// 64 outputs * 9 * 2 + 64 = 1216. Bytes: (72 + 36 + 4 + 64) f32.
// CHECK-LABEL: tpuprof.probes [{bytes = 704, dyn_dims = 0, flops = 1216, {{[^}]*}}name = "tosa.depthwise_conv2d"
func.func @depthwise(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = tosa.depthwise_conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<3x3x2x2xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// tosa.max_pool2d [1,8,8,4], kernel 2x2, stride 2 -> [1,4,4,4]: 64 outputs *
// 4 kernel elements = 256. Bytes: (256 + 64) f32.
// CHECK-LABEL: tpuprof.probes [{bytes = 1280, dyn_dims = 0, flops = 256, {{[^}]*}}name = "tosa.max_pool2d"
func.func @max_pool(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Elementwise: one op per output element. f16 is 2 bytes; i1 results are
// packed to whole bytes (10 bits -> 2 bytes).
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: {bytes = 24, dyn_dims = 0, flops = 6, {{[^}]*}}name = "tosa.sigmoid"
// CHECK-NEXT: {bytes = 82, dyn_dims = 0, flops = 10, {{[^}]*}}name = "tosa.equal"
// Broadcasting: counted per output element ([2,3] output, [1,3] operand).
// CHECK-NEXT: {bytes = 60, dyn_dims = 0, flops = 6, {{[^}]*}}name = "tosa.sub"
func.func @elementwise(%a: tensor<2x3xf16>, %x: tensor<10xf32>, %y: tensor<10xf32>, %p: tensor<2x3xf32>, %q: tensor<1x3xf32>) -> (tensor<2x3xf16>, tensor<10xi1>, tensor<2x3xf32>) {
  %0 = tosa.sigmoid %a : (tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = tosa.equal %x, %y : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
  %2 = tosa.sub %p, %q : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf16>, tensor<10xi1>, tensor<2x3xf32>
}

// -----

// Reductions: one op per input element ([4,5] -> [4,1]).
// Bytes: (20 + 4) f32.
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: {bytes = 96, dyn_dims = 0, flops = 20, {{[^}]*}}name = "tosa.reduce_sum"
// CHECK-NEXT: {bytes = 96, dyn_dims = 0, flops = 20, {{[^}]*}}name = "tosa.reduce_max"
func.func @reduce(%x: tensor<4x5xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x5xf32>) -> tensor<4x1xf32>
  %1 = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x5xf32>) -> tensor<4x1xf32>
  return %0, %1 : tensor<4x1xf32>, tensor<4x1xf32>
}

// -----

// Data movement and other tosa ops without a rule: 0 FLOPs, bytes counted.
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: {bytes = 96, dyn_dims = 0, flops = 0, {{[^}]*}}name = "tosa.reshape"
func.func @no_rule(%x: tensor<4x3xf32>) -> tensor<12xf32> {
  %0 = tosa.reshape %x {new_shape = array<i64: 12>} : (tensor<4x3xf32>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

// -----

// linalg.conv_2d_nhwc_hwcf: loop nest n=1, oh=4, ow=4, f=4, kh=3, kw=3, c=2
// = 1152 points * (mulf + addf) = 2304. Bytes on tensors: input 72 + filter
// 72 + init 64 + result 64, f32.
// CHECK-LABEL: tpuprof.probes [{bytes = 1088, dyn_dims = 0, flops = 2304, {{[^}]*}}name = "linalg.conv_2d_nhwc_hwcf"
func.func @linalg_conv(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x2x4xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// The same conv on memrefs: no results, so bytes = input + filter + output.
// CHECK-LABEL: tpuprof.probes [{bytes = 832, dyn_dims = 0, flops = 2304, {{[^}]*}}name = "linalg.conv_2d_nhwc_hwcf"
func.func @linalg_conv_memref(%x: memref<1x6x6x2xf32>, %w: memref<3x3x2x4xf32>, %out: memref<1x4x4x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x6x6x2xf32>, memref<3x3x2x4xf32>) outs(%out : memref<1x4x4x4xf32>)
  return
}

// -----

// linalg.generic over [8] with extf (a cast, not counted), mulf and addf:
// 8 points * 2 = 16. Bytes: f16[8] in + f32[8] init + f32[8] result.
// CHECK-LABEL: tpuprof.probes [{bytes = 80, dyn_dims = 0, flops = 16, {{[^}]*}}name = "linalg.generic"
#id = affine_map<(d0) -> (d0)>
func.func @generic(%a: tensor<8xf16>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf16>) outs(%init : tensor<8xf32>) {
  ^bb0(%x: f16, %acc: f32):
    %e = arith.extf %x : f16 to f32
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Unknown (unregistered) op: FLOPs unknown (0); bytes still from its types.
// A dynamic shape makes both unknown.
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: {bytes = 64, dyn_dims = 0, flops = 0, {{[^}]*}}name = "top.Conv"
// CHECK-NEXT: {bytes = 0, dyn_dims = 1, flops = 0, {{[^}]*}}name = "tosa.abs"
func.func @unknown(%a: tensor<1x8xf32>, %d: tensor<?xf32>) -> (tensor<1x8xf32>, tensor<?xf32>) {
  %0 = "top.Conv"(%a) {kernel = [3, 3]} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %1 = tosa.abs %d : (tensor<?xf32>) -> tensor<?xf32>
  return %0, %1 : tensor<1x8xf32>, tensor<?xf32>
}
