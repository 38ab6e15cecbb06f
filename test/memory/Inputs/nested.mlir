// A call of an instrumented block: its ops nest inside the call's probe.
func.func private @block(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = tosa.add %x, %x : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %1 = tosa.sub %0, %x : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %1 : tensor<64x128xf32>
}
func.func @main(%a: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = func.call @block(%a) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %s = tosa.maximum %r, %a : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %s : tensor<64x128xf32>
}
