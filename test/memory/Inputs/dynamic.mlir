// The rows of the result are known only at run time: ?x128 f32.
func.func @main(%a: tensor<?x128xf32>, %b: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %0 = tosa.add %a, %b : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
  %1 = tosa.sub %0, %b : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
  return %1 : tensor<?x128xf32>
}
