// Two entries in one file: @custom calls an op no pass lowers (a TOSA
// custom op), @exp lowers fine. Each runs alone: only what the entry
// reaches is compiled.
func.func @custom(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.custom %a {domain_name = "acme", operator_name = "fancy", implementation_attrs = ""} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @exp(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer division by an input: default inputs are never 0.
func.func @divide(%a: tensor<64xi32>, %b: tensor<64xi32>) -> tensor<64xi32> {
  %0 = tosa.int_div %a, %b : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
