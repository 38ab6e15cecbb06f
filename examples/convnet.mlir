// A small convolutional network in linalg on tensors:
// conv2d 3x3 (3 -> 8 channels), relu, 2x2 max-pool, flatten, dense 1800 -> 10.
//
//   tpuprof-run examples/convnet.mlir
#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @main(%image: tensor<1x32x32x3xf32>, %filter: tensor<3x3x3x8xf32>,
                %weights: tensor<1800x10xf32>) -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %conv_init = tensor.empty() : tensor<1x30x30x8xf32>
  %conv_zero = linalg.fill ins(%zero : f32) outs(%conv_init : tensor<1x30x30x8xf32>) -> tensor<1x30x30x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%image, %filter : tensor<1x32x32x3xf32>, tensor<3x3x3x8xf32>)
      outs(%conv_zero : tensor<1x30x30x8xf32>) -> tensor<1x30x30x8xf32>
  %relu = linalg.generic {indexing_maps = [#nhwc, #nhwc],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x30x30x8xf32>) outs(%conv_init : tensor<1x30x30x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x30x30x8xf32>
  %pool_init = tensor.empty() : tensor<1x15x15x8xf32>
  %pool_ninf = linalg.fill ins(%ninf : f32) outs(%pool_init : tensor<1x15x15x8xf32>) -> tensor<1x15x15x8xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%relu, %window : tensor<1x30x30x8xf32>, tensor<2x2xf32>)
      outs(%pool_ninf : tensor<1x15x15x8xf32>) -> tensor<1x15x15x8xf32>
  %flat = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<1x15x15x8xf32> into tensor<1x1800xf32>
  %fc_init = tensor.empty() : tensor<1x10xf32>
  %fc_zero = linalg.fill ins(%zero : f32) outs(%fc_init : tensor<1x10xf32>) -> tensor<1x10xf32>
  %fc = linalg.matmul ins(%flat, %weights : tensor<1x1800xf32>, tensor<1800x10xf32>)
      outs(%fc_zero : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %fc : tensor<1x10xf32>
}
