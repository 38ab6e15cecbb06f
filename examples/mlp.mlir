// The MLP of TVM's mlp workload in TOSA: 784 -> 128 -> 64 -> 10 with relu
// between the dense layers and a softmax at the end. Weights and biases are
// arguments, so tpuprof-run fills them with deterministic random values.
//
//   tpuprof-run examples/mlp.mlir
func.func @main(%x: tensor<1x784xf32>,
                %w1: tensor<128x784xf32>, %b1: tensor<128xf32>,
                %w2: tensor<64x128xf32>, %b2: tensor<64xf32>,
                %w3: tensor<10x64xf32>, %b3: tensor<10xf32>) -> tensor<1x10xf32> {
  %fc1 = tosa.fully_connected %x, %w1, %b1 : (tensor<1x784xf32>, tensor<128x784xf32>, tensor<128xf32>) -> tensor<1x128xf32>
  %relu1 = tosa.clamp %fc1 {min_fp = 0.0 : f32, max_fp = 3.4028235e38 : f32, min_int = 0 : i64, max_int = 9223372036854775807 : i64} : (tensor<1x128xf32>) -> tensor<1x128xf32>
  %fc2 = tosa.fully_connected %relu1, %w2, %b2 : (tensor<1x128xf32>, tensor<64x128xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  %relu2 = tosa.clamp %fc2 {min_fp = 0.0 : f32, max_fp = 3.4028235e38 : f32, min_int = 0 : i64, max_int = 9223372036854775807 : i64} : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %fc3 = tosa.fully_connected %relu2, %w3, %b3 : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  // softmax(x) = exp(x - max(x)) / sum(exp(x - max(x)))
  %max = tosa.reduce_max %fc3 {axis = 1 : i32} : (tensor<1x10xf32>) -> tensor<1x1xf32>
  %shifted = tosa.sub %fc3, %max : (tensor<1x10xf32>, tensor<1x1xf32>) -> tensor<1x10xf32>
  %exp = tosa.exp %shifted : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %sum = tosa.reduce_sum %exp {axis = 1 : i32} : (tensor<1x10xf32>) -> tensor<1x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %softmax = tosa.mul %exp, %inv {shift = 0 : i8} : (tensor<1x10xf32>, tensor<1x1xf32>) -> tensor<1x10xf32>
  return %softmax : tensor<1x10xf32>
}
