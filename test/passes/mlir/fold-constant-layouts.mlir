// --tpu-profile-fold-constant-layouts: a transpose, a permuting copy or a
// reshape of a constant becomes a constant in the new layout, computed on
// its bytes (a dense resource: one new blob; its reshape: the same blob);
// splats stay splats; operands that are not constants are left alone.
// RUN: tpuprof-opt %s --tpu-profile-fold-constant-layouts | FileCheck %s
// The built-in pipeline runs it after TOSA's lowering: fully_connected's
// weight transpose and a 1x1 conv2d's filter collapse and transpose are gone
// before any kernel runs.
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-cpu)' -o /dev/null
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(func.func(tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),tpu-profile-fold-constant-layouts)' | FileCheck %s --check-prefix=TOSA

// CHECK-LABEL: func.func @transpose_f32
// CHECK-NOT:   linalg.transpose
// CHECK:       %[[C:.*]] = arith.constant dense_resource<f32_2x3_permuted{{[_0-9]*}}> : tensor<3x2xf32>
// CHECK-NOT:   linalg.transpose
// CHECK:       return %[[C]]
func.func @transpose_f32() -> tensor<3x2xf32> {
  %c = arith.constant dense_resource<f32_2x3> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  return %t : tensor<3x2xf32>
}

// Rank 3, i8: out[a][b][c] = in[b][c][a].
// CHECK-LABEL: func.func @transpose_i8_rank3
// CHECK-NOT:   linalg.transpose
// CHECK:       arith.constant dense_resource<i8_2x2x2_permuted{{[_0-9]*}}> : tensor<2x2x2xi8>
func.func @transpose_i8_rank3() -> tensor<2x2x2xi8> {
  %c = arith.constant dense_resource<i8_2x2x2> : tensor<2x2x2xi8>
  %e = tensor.empty() : tensor<2x2x2xi8>
  %t = linalg.transpose ins(%c : tensor<2x2x2xi8>) outs(%e : tensor<2x2x2xi8>) permutation = [2, 0, 1]
  return %t : tensor<2x2x2xi8>
}

// A 1x1 filter collapsed, then transposed (f16), from a tosa.const.
// CHECK-LABEL: func.func @collapse_then_transpose_f16
// CHECK-NOT:   tensor.collapse_shape
// CHECK-NOT:   linalg.transpose
// CHECK:       arith.constant dense_resource<f16_2x1x1x3_permuted{{[_0-9]*}}> : tensor<3x2xf16>
func.func @collapse_then_transpose_f16() -> tensor<3x2xf16> {
  %c = "tosa.const"() {value = dense_resource<f16_2x1x1x3> : tensor<2x1x1x3xf16>} : () -> tensor<2x1x1x3xf16>
  %r = tensor.collapse_shape %c [[0, 1, 2], [3]] : tensor<2x1x1x3xf16> into tensor<2x3xf16>
  %e = tensor.empty() : tensor<3x2xf16>
  %t = linalg.transpose ins(%r : tensor<2x3xf16>) outs(%e : tensor<3x2xf16>) permutation = [1, 0]
  return %t : tensor<3x2xf16>
}

// A reshape alone shares the blob.
// CHECK-LABEL: func.func @expand_shares_blob
// CHECK-NOT:   tensor.expand_shape
// CHECK:       arith.constant dense_resource<f32_2x3> : tensor<2x1x3xf32>
func.func @expand_shares_blob() -> tensor<2x1x3xf32> {
  %c = arith.constant dense_resource<f32_2x3> : tensor<2x3xf32>
  %r = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 1, 3] : tensor<2x3xf32> into tensor<2x1x3xf32>
  return %r : tensor<2x1x3xf32>
}

// A linalg.generic that only copies its input through a permutation (i32).
// CHECK-LABEL: func.func @permuting_generic_i32
// CHECK-NOT:   linalg.generic
// CHECK:       arith.constant dense_resource<i32_2x3_permuted{{[_0-9]*}}> : tensor<3x2xi32>
func.func @permuting_generic_i32() -> tensor<3x2xi32> {
  %c = arith.constant dense_resource<i32_2x3> : tensor<2x3xi32>
  %e = tensor.empty() : tensor<3x2xi32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
       ins(%c : tensor<2x3xi32>) outs(%e : tensor<3x2xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<3x2xi32>
  return %g : tensor<3x2xi32>
}

// A generic that computes is not a copy.
// CHECK-LABEL: func.func @computing_generic
// CHECK:       linalg.generic
func.func @computing_generic() -> tensor<3x2xi32> {
  %c = arith.constant dense_resource<i32_2x3> : tensor<2x3xi32>
  %e = tensor.empty() : tensor<3x2xi32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
       ins(%c : tensor<2x3xi32>) outs(%e : tensor<3x2xi32>) {
  ^bb0(%in: i32, %out: i32):
    %s = arith.addi %in, %in : i32
    linalg.yield %s : i32
  } -> tensor<3x2xi32>
  return %g : tensor<3x2xi32>
}

// A generic without inputs (a fill) has no source: left alone.
// CHECK-LABEL: func.func @generic_without_inputs
// CHECK:       linalg.generic
func.func @generic_without_inputs() -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
       outs(%e : tensor<3x2xf32>) {
  ^bb0(%out: f32):
    %z = arith.constant 0.0 : f32
    linalg.yield %z : f32
  } -> tensor<3x2xf32>
  return %g : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @splat
// CHECK-NOT:   linalg.transpose
// CHECK:       arith.constant dense<1.500000e+00> : tensor<3x2xf32>
func.func @splat() -> tensor<3x2xf32> {
  %c = arith.constant dense<1.5> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  return %t : tensor<3x2xf32>
}

// A small dense constant (i64) is permuted on its raw data.
// CHECK-LABEL: func.func @dense_i64
// CHECK-NOT:   linalg.transpose
// CHECK:       arith.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi64>
func.func @dense_i64() -> tensor<3x2xi64> {
  %c = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %e = tensor.empty() : tensor<3x2xi64>
  %t = linalg.transpose ins(%c : tensor<2x3xi64>) outs(%e : tensor<3x2xi64>) permutation = [1, 0]
  return %t : tensor<3x2xi64>
}

// i1 is bit-packed: not permuted.
// CHECK-LABEL: func.func @dense_i1
// CHECK:       linalg.transpose
func.func @dense_i1() -> tensor<2x2xi1> {
  %c = arith.constant dense<[[true, false], [false, false]]> : tensor<2x2xi1>
  %e = tensor.empty() : tensor<2x2xi1>
  %t = linalg.transpose ins(%c : tensor<2x2xi1>) outs(%e : tensor<2x2xi1>) permutation = [1, 0]
  return %t : tensor<2x2xi1>
}

// CHECK-LABEL: func.func @not_a_constant
// CHECK:       linalg.transpose ins(%arg0
// CHECK:       tensor.collapse_shape %arg0
func.func @not_a_constant(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<6xf32>) {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %r = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  return %t, %r : tensor<3x2xf32>, tensor<6xf32>
}

// A constant with other uses stays, with its blob.
// CHECK-LABEL: func.func @still_used
// CHECK:       %[[OLD:.*]] = arith.constant dense_resource<f32_used> : tensor<2x3xf32>
// CHECK:       %[[NEW:.*]] = arith.constant dense_resource<f32_used_permuted{{[_0-9]*}}> : tensor<3x2xf32>
// CHECK:       return %[[NEW]], %[[OLD]]
func.func @still_used() -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %c = arith.constant dense_resource<f32_used> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  return %t, %c : tensor<3x2xf32>, tensor<2x3xf32>
}

// From TOSA, fully_connected's [N, K] weight arrives as [K, N]; a 1x1 conv2d's
// OHWI filter as [I, O].
// TOSA-LABEL: func.func @tosa_layers
// TOSA-NOT:   linalg.transpose
// TOSA-NOT:   tensor.collapse_shape %cst
// TOSA-DAG:   arith.constant dense_resource<fc_weight_permuted{{[_0-9]*}}> : tensor<3x2xf32>
// TOSA-DAG:   arith.constant dense_resource<conv_filter_permuted{{[_0-9]*}}> : tensor<3x2xf16>
// TOSA-NOT:   linalg.transpose
// TOSA:       return
func.func @tosa_layers(%x: tensor<1x3xf32>, %y: tensor<1x4x4x3xf16>) -> (tensor<1x2xf32>, tensor<1x4x4x2xf16>) {
  %w = "tosa.const"() {value = dense_resource<fc_weight> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %fc = tosa.fully_connected %x, %w, %b : (tensor<1x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %f = "tosa.const"() {value = dense_resource<conv_filter> : tensor<2x1x1x3xf16>} : () -> tensor<2x1x1x3xf16>
  %fb = "tosa.const"() {value = dense<0.0> : tensor<2xf16>} : () -> tensor<2xf16>
  %conv = tosa.conv2d %y, %f, %fb {pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x3xf16>, tensor<2x1x1x3xf16>, tensor<2xf16>) -> tensor<1x4x4x2xf16>
  return %fc, %conv : tensor<1x2xf32>, tensor<1x4x4x2xf16>
}

// The bytes. f32 [[1, 2, 3], [4, 5, 6]] -> [[1, 4], [2, 5], [3, 6]]:
// CHECK-DAG: f32_2x3_permuted{{[_0-9]*}}: "0x040000000000803F00008040000000400000A040000040400000C040"
// i8 0..7 as [2][2][2], permutation [2, 0, 1]:
// CHECK-DAG: i8_2x2x2_permuted{{[_0-9]*}}: "0x010000000002040601030507"
// f16 words 1..6 as [2][3] -> [3][2]:
// CHECK-DAG: f16_2x1x1x3_permuted{{[_0-9]*}}: "0x02000000010004000200050003000600"
// CHECK-DAG: i32_2x3_permuted{{[_0-9]*}}: "0x04000000010000000400000002000000050000000300000006000000"
// The weights folded away and left without uses are not printed:
// CHECK-NOT: {{^ *}}f16_2x1x1x3:
// TOSA-DAG: fc_weight_permuted{{[_0-9]*}}: "0x040000000000803F00008040000000400000A040000040400000C040"
// TOSA-DAG: conv_filter_permuted{{[_0-9]*}}: "0x02000000010004000200050003000600"
// TOSA-NOT: {{^ *}}conv_filter:
{-#
  dialect_resources: {
    builtin: {
      f32_2x3: "0x040000000000803F0000004000004040000080400000A0400000C040",
      f32_used: "0x040000000000803F0000004000004040000080400000A0400000C040",
      i8_2x2x2: "0x010000000001020304050607",
      f16_2x1x1x3: "0x02000000010002000300040005000600",
      fc_weight: "0x040000000000803F0000004000004040000080400000A0400000C040",
      conv_filter: "0x02000000010002000300040005000600",
      i32_2x3: "0x04000000010000000200000003000000040000000500000006000000"
    }
  }
#-}
