#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  tpuprof.probes [{bytes = 57604, dyn_dims = 0, flops = 0, function = "main", hash = "775cc69f664ad129", location = "examples/convnet.mlir:11:16", name = "linalg.fill", shapes = "f32, f32[1, 30, 30, 8]", num_outs = 1},
    {bytes = 70752, dyn_dims = 0, flops = 388800, function = "main", hash = "73e7c41da53c4aa4", location = "examples/convnet.mlir:12:11", name = "linalg.conv_2d_nhwc_hwcf", shapes = "f32[1, 32, 32, 3], f32[3, 3, 3, 8], f32[1, 30, 30, 8]", num_outs = 1},
    {bytes = 86400, dyn_dims = 0, flops = 7200, function = "main", hash = "e531e4f07aabcc71", location = "examples/convnet.mlir:15:11", name = "linalg.generic", shapes = "f32[1, 30, 30, 8], f32[1, 30, 30, 8]", num_outs = 1},
    {bytes = 14404, dyn_dims = 0, flops = 0, function = "main", hash = "2eb43b77ec0a455d", location = "examples/convnet.mlir:23:16", name = "linalg.fill", shapes = "f32, f32[1, 15, 15, 8]", num_outs = 1},
    {bytes = 43216, dyn_dims = 0, flops = 7200, function = "main", hash = "d626a432fb236d27", location = "examples/convnet.mlir:25:11", name = "linalg.pooling_nhwc_max", shapes = "f32[1, 30, 30, 8], f32[2, 2], f32[1, 15, 15, 8]", num_outs = 1},
    {bytes = 84, dyn_dims = 0, flops = 0, function = "main", hash = "b8d212edebc0d28e", location = "examples/convnet.mlir:30:14", name = "linalg.fill", shapes = "f32, f32[1, 10]", num_outs = 1},
    {bytes = 79280, dyn_dims = 0, flops = 36000, function = "main", hash = "9051ac0a8a777414", location = "examples/convnet.mlir:31:9", name = "linalg.matmul", shapes = "f32[1, 1800], f32[1800, 10], f32[1, 10]", num_outs = 1}]
  func.func @main(%arg0: tensor<1x32x32x3xf32>, %arg1: tensor<3x3x3x8xf32>, %arg2: tensor<1800x10xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<1x30x30x8xf32>
    tpuprof.begin 0
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x30x30x8xf32>) -> tensor<1x30x30x8xf32>
    %2 = tpuprof.end 0(%1) : tensor<1x30x30x8xf32>
    %3:3 = tpuprof.begin 1(%arg0, %arg1, %2) : tensor<1x32x32x3xf32>, tensor<3x3x3x8xf32>, tensor<1x30x30x8xf32>
    %4 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%3#0, %3#1 : tensor<1x32x32x3xf32>, tensor<3x3x3x8xf32>) outs(%3#2 : tensor<1x30x30x8xf32>) -> tensor<1x30x30x8xf32>
    %5 = tpuprof.end 1(%4) : tensor<1x30x30x8xf32>
    %6 = tpuprof.begin 2(%5) : tensor<1x30x30x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6 : tensor<1x30x30x8xf32>) outs(%0 : tensor<1x30x30x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.maximumf %in, %cst : f32
      linalg.yield %22 : f32
    } -> tensor<1x30x30x8xf32>
    %8 = tpuprof.end 2(%7) : tensor<1x30x30x8xf32>
    %9 = tensor.empty() : tensor<1x15x15x8xf32>
    tpuprof.begin 3
    %10 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<1x15x15x8xf32>) -> tensor<1x15x15x8xf32>
    %11 = tpuprof.end 3(%10) : tensor<1x15x15x8xf32>
    %12 = tensor.empty() : tensor<2x2xf32>
    %13:2 = tpuprof.begin 4(%8, %11) : tensor<1x30x30x8xf32>, tensor<1x15x15x8xf32>
    %14 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%13#0, %12 : tensor<1x30x30x8xf32>, tensor<2x2xf32>) outs(%13#1 : tensor<1x15x15x8xf32>) -> tensor<1x15x15x8xf32>
    %15 = tpuprof.end 4(%14) : tensor<1x15x15x8xf32>
    %collapsed = tensor.collapse_shape %15 [[0], [1, 2, 3]] : tensor<1x15x15x8xf32> into tensor<1x1800xf32>
    %16 = tensor.empty() : tensor<1x10xf32>
    tpuprof.begin 5
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %18 = tpuprof.end 5(%17) : tensor<1x10xf32>
    %19:3 = tpuprof.begin 6(%collapsed, %arg2, %18) : tensor<1x1800xf32>, tensor<1800x10xf32>, tensor<1x10xf32>
    %20 = linalg.matmul ins(%19#0, %19#1 : tensor<1x1800xf32>, tensor<1800x10xf32>) outs(%19#2 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %21 = tpuprof.end 6(%20) : tensor<1x10xf32>
    return %21 : tensor<1x10xf32>
  }
}

