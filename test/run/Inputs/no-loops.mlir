// A model whose stock lowering needs no loops, hence no scf and no
// convert-scf-to-cf: scalar (rank-0) TOSA ops and a reshape.
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<1x1xf32> {
  %0 = tosa.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = tosa.mul %0, %b {shift = 0 : i8} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %2 = tosa.reshape %1 {new_shape = array<i64: 1, 1>} : (tensor<f32>) -> tensor<1x1xf32>
  return %2 : tensor<1x1xf32>
}
