// An int8 tosa.add after a tosa.rescale: bufferization allocates one
// buffer right after the rescale's begin probe; the rescale writes it, then the
// add writes its result into it in place, and it is returned: it holds the
// add's result.
func.func @main(%a: tensor<1x64xi8>, %b: tensor<1x64xi8>) -> tensor<1x64xi8> {
  %r = tosa.rescale %a {input_zp = 0 : i32, output_zp = 0 : i32, multiplier = array<i32: 1073741824>, shift = array<i8: 30>, scale32 = true, double_round = false, per_channel = false} : (tensor<1x64xi8>) -> tensor<1x64xi8>
  %s = tosa.add %r, %b : (tensor<1x64xi8>, tensor<1x64xi8>) -> tensor<1x64xi8>
  return %s : tensor<1x64xi8>
}
