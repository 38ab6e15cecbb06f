// An f16 argument: C has no portable type for it, so --header refuses it.
func.func @main(%a: tensor<4xf16>) -> tensor<4xf16> {
  return %a : tensor<4xf16>
}
