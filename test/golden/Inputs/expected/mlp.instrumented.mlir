module {
  tpuprof.probes [{bytes = 405568, dyn_dims = 0, flops = 200832, function = "main", hash = "38b00913e5aa45e7", location = "examples/mlp.mlir:10:10", name = "tosa.fully_connected", shapes = "f32[1, 784], f32[128, 784], f32[128]", out_shapes = "f32[1, 128]"},
    {bytes = 1024, dyn_dims = 0, flops = 128, function = "main", hash = "b77ce44496dc3628", location = "examples/mlp.mlir:11:12", name = "tosa.clamp", shapes = "f32[1, 128]", out_shapes = "f32[1, 128]"},
    {bytes = 33792, dyn_dims = 0, flops = 16448, function = "main", hash = "1bc5b91407f20ea9", location = "examples/mlp.mlir:12:10", name = "tosa.fully_connected", shapes = "f32[1, 128], f32[64, 128], f32[64]", out_shapes = "f32[1, 64]"},
    {bytes = 512, dyn_dims = 0, flops = 64, function = "main", hash = "0365f3dc900e3a5d", location = "examples/mlp.mlir:13:12", name = "tosa.clamp", shapes = "f32[1, 64]", out_shapes = "f32[1, 64]"},
    {bytes = 2896, dyn_dims = 0, flops = 1290, function = "main", hash = "9baaf1064dbc3157", location = "examples/mlp.mlir:14:10", name = "tosa.fully_connected", shapes = "f32[1, 64], f32[10, 64], f32[10]", out_shapes = "f32[1, 10]"},
    {bytes = 44, dyn_dims = 0, flops = 10, function = "main", hash = "5dd4da180371bfff", location = "examples/mlp.mlir:16:10", name = "tosa.reduce_max", shapes = "f32[1, 10]", out_shapes = "f32[1, 1]"},
    {bytes = 84, dyn_dims = 0, flops = 10, function = "main", hash = "03da695983b3e8f1", location = "examples/mlp.mlir:17:14", name = "tosa.sub", shapes = "f32[1, 10], f32[1, 1]", out_shapes = "f32[1, 10]"},
    {bytes = 80, dyn_dims = 0, flops = 10, function = "main", hash = "54446ecc035d6844", location = "examples/mlp.mlir:18:10", name = "tosa.exp", shapes = "f32[1, 10]", out_shapes = "f32[1, 10]"},
    {bytes = 44, dyn_dims = 0, flops = 10, function = "main", hash = "1d8c46d0c3588b08", location = "examples/mlp.mlir:19:10", name = "tosa.reduce_sum", shapes = "f32[1, 10]", out_shapes = "f32[1, 1]"},
    {bytes = 8, dyn_dims = 0, flops = 1, function = "main", hash = "8a2e4f62aa99d151", location = "examples/mlp.mlir:20:10", name = "tosa.reciprocal", shapes = "f32[1, 1]", out_shapes = "f32[1, 1]"},
    {bytes = 84, dyn_dims = 0, flops = 10, function = "main", hash = "70b37ded5159b62c", location = "examples/mlp.mlir:21:14", name = "tosa.mul", shapes = "f32[1, 10], f32[1, 1]", out_shapes = "f32[1, 10]"}]
  func.func @main(%arg0: tensor<1x784xf32>, %arg1: tensor<128x784xf32>, %arg2: tensor<128xf32>, %arg3: tensor<64x128xf32>, %arg4: tensor<64xf32>, %arg5: tensor<10x64xf32>, %arg6: tensor<10xf32>) -> tensor<1x10xf32> {
    %0:3 = tpuprof.begin 0(%arg0, %arg1, %arg2) : tensor<1x784xf32>, tensor<128x784xf32>, tensor<128xf32>
    %1 = tosa.fully_connected %0#0, %0#1, %0#2 : (tensor<1x784xf32>, tensor<128x784xf32>, tensor<128xf32>) -> tensor<1x128xf32>
    %2 = tpuprof.end 0(%1) : tensor<1x128xf32>
    %3 = tpuprof.begin 1(%2) : tensor<1x128xf32>
    %4 = tosa.clamp %3 {max_fp = 3.40282347E+38 : f32, max_int = 9223372036854775807 : i64, min_fp = 0.000000e+00 : f32, min_int = 0 : i64} : (tensor<1x128xf32>) -> tensor<1x128xf32>
    %5 = tpuprof.end 1(%4) : tensor<1x128xf32>
    %6:3 = tpuprof.begin 2(%5, %arg3, %arg4) : tensor<1x128xf32>, tensor<64x128xf32>, tensor<64xf32>
    %7 = tosa.fully_connected %6#0, %6#1, %6#2 : (tensor<1x128xf32>, tensor<64x128xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %8 = tpuprof.end 2(%7) : tensor<1x64xf32>
    %9 = tpuprof.begin 3(%8) : tensor<1x64xf32>
    %10 = tosa.clamp %9 {max_fp = 3.40282347E+38 : f32, max_int = 9223372036854775807 : i64, min_fp = 0.000000e+00 : f32, min_int = 0 : i64} : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %11 = tpuprof.end 3(%10) : tensor<1x64xf32>
    %12:3 = tpuprof.begin 4(%11, %arg5, %arg6) : tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>
    %13 = tosa.fully_connected %12#0, %12#1, %12#2 : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
    %14 = tpuprof.end 4(%13) : tensor<1x10xf32>
    %15 = tpuprof.begin 5(%14) : tensor<1x10xf32>
    %16 = tosa.reduce_max %15 {axis = 1 : i32} : (tensor<1x10xf32>) -> tensor<1x1xf32>
    %17 = tpuprof.end 5(%16) : tensor<1x1xf32>
    %18:2 = tpuprof.begin 6(%14, %17) : tensor<1x10xf32>, tensor<1x1xf32>
    %19 = tosa.sub %18#0, %18#1 : (tensor<1x10xf32>, tensor<1x1xf32>) -> tensor<1x10xf32>
    %20 = tpuprof.end 6(%19) : tensor<1x10xf32>
    %21 = tpuprof.begin 7(%20) : tensor<1x10xf32>
    %22 = tosa.exp %21 : (tensor<1x10xf32>) -> tensor<1x10xf32>
    %23 = tpuprof.end 7(%22) : tensor<1x10xf32>
    %24 = tpuprof.begin 8(%23) : tensor<1x10xf32>
    %25 = tosa.reduce_sum %24 {axis = 1 : i32} : (tensor<1x10xf32>) -> tensor<1x1xf32>
    %26 = tpuprof.end 8(%25) : tensor<1x1xf32>
    %27 = tpuprof.begin 9(%26) : tensor<1x1xf32>
    %28 = tosa.reciprocal %27 : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %29 = tpuprof.end 9(%28) : tensor<1x1xf32>
    %30:2 = tpuprof.begin 10(%23, %29) : tensor<1x10xf32>, tensor<1x1xf32>
    %31 = tosa.mul %30#0, %30#1 {shift = 0 : i8} : (tensor<1x10xf32>, tensor<1x1xf32>) -> tensor<1x10xf32>
    %32 = tpuprof.end 10(%31) : tensor<1x10xf32>
    return %32 : tensor<1x10xf32>
  }
}

