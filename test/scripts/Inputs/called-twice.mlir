// A layer called twice: its kernel runs twice in the model, once a round
// alone, and the buffer it returns is freed by @main after each call.
func.func private @layer(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = tosa.mul %x, %w {shift = 0 : i8} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = tosa.exp %0 : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}
func.func @main(%a: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %x = call @layer(%a, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = call @layer(%x, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = tosa.add %y, %a : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
