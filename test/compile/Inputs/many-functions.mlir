// Eight functions that call nothing, each with a constant of one shape:
// one-shot-bufferize reaches them in an order that changes from run to run.
func.func @f0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @f1(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {value = dense<1.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @f2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {value = dense<2.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @f3(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {value = dense<3.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @f4(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {value = dense<4.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @f5(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {value = dense<5.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @f6(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {value = dense<6.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @f7(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() {value = dense<7.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
