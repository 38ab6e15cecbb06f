// Ops named as an importer names them: a NameLoc alone, or inside a
// FusedLoc with a file position. Two ops of layer0 share a node; layer1's
// add equals layer0's (one op hash); the negate has no name.
func.func @main(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = tosa.mul %a, %b {shift = 0 : i8} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> loc("encoder/layer0/mul")
  %1 = tosa.add %0, %b : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> loc(fused["encoder/layer0", "model.py":12:5])
  %2 = tosa.exp %1 : (tensor<32x32xf32>) -> tensor<32x32xf32> loc(fused["encoder/layer0", "model.py":13:5])
  %3 = tosa.add %2, %b : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> loc(fused["encoder/layer1", "model.py":14:5])
  %4 = tosa.negate %3 : (tensor<32x32xf32>) -> tensor<32x32xf32>
  return %4 : tensor<32x32xf32>
}
