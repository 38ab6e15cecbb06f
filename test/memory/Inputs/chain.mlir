// Three elementwise ops on 64x128 f32: each allocates its result, 32768 B a
// call; add's result dies in sub, sub's in maximum, maximum's is returned.
func.func @main(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = tosa.add %a, %b : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %1 = tosa.sub %0, %b : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %2 = tosa.maximum %1, %a : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %2 : tensor<64x128xf32>
}
