#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  llvm.mlir.global external @__tpuprof_enabled() {addr_space = 0 : i32} : i32
  llvm.mlir.global internal @__tpuprof_module_base(0 : i32) {addr_space = 0 : i32} : i32
  llvm.mlir.global internal constant @__tpuprof_probe_table("TPPT\01\00\00\00\07\00\00\00 \02\00\00\00\00\00\00\00\00\00\00)\D1Jf\9F\C6\\w\00\00\00\00\00\00\00\00\04\E1\00\00\00\00\00\00\0D\00\00\00\19\00\00\000\00\00\00L\00\00\00\00\00\01\00\00\00\00\00\A4J<\A5\1D\C4\E7s\C0\EE\05\00\00\00\00\00`\14\01\00\00\00\00\00Q\00\00\00j\00\00\00\A0\00\00\00L\00\00\00\00\00\01\00\00\00\00\00q\CC\ABz\F0\E41\E5 \1C\00\00\00\00\00\00\80Q\01\00\00\00\00\00\BC\00\00\00\CB\00\00\00\F0\00\00\00L\00\00\00\00\00\01\00\00\00\00\00]E\0A\ECw;\B4.\00\00\00\00\00\00\00\00D8\00\00\00\00\00\00\0D\00\00\00\0C\01\00\00#\01\00\00L\00\00\00\00\00\01\00\00\00\00\00'm#\FB2\A4&\D6 \1C\00\00\00\00\00\00\D0\A8\00\00\00\00\00\00?\01\00\00W\01\00\00\87\01\00\00L\00\00\00\00\00\01\00\00\00\00\00\8E\D2\C0\EB\ED\12\D2\B8\00\00\00\00\00\00\00\00T\00\00\00\00\00\00\00\0D\00\00\00\A3\01\00\00\B3\01\00\00L\00\00\00\00\00\01\00\00\00\00\00\14tw\8A\0A\ACQ\90\A0\8C\00\00\00\00\00\00\B05\01\00\00\00\00\00\CF\01\00\00\DD\01\00\00\05\02\00\00L\00\00\00\00\00\01\00\00\00\00\00convnet.mlir\00linalg.fill\00f32, f32[1, 30, 30, 8]\00examples/convnet.mlir:11:16\00main\00linalg.conv_2d_nhwc_hwcf\00f32[1, 32, 32, 3], f32[3, 3, 3, 8], f32[1, 30, 30, 8]\00examples/convnet.mlir:12:11\00linalg.generic\00f32[1, 30, 30, 8], f32[1, 30, 30, 8]\00examples/convnet.mlir:15:11\00f32, f32[1, 15, 15, 8]\00examples/convnet.mlir:23:16\00linalg.pooling_nhwc_max\00f32[1, 30, 30, 8], f32[2, 2], f32[1, 15, 15, 8]\00examples/convnet.mlir:25:11\00f32, f32[1, 10]\00examples/convnet.mlir:30:14\00linalg.matmul\00f32[1, 1800], f32[1800, 10], f32[1, 10]\00examples/convnet.mlir:31:9\00") {addr_space = 0 : i32, alignment = 8 : i64}
  llvm.func @__tpuprof_register_module(!llvm.ptr, i64, !llvm.ptr)
  llvm.func @__tpuprof_begin(i32)
  llvm.func @__tpuprof_begin_dims(i32, !llvm.ptr, i32)
  llvm.func @__tpuprof_end(i32)
  llvm.func internal @__tpuprof_module_ctor() {
    %0 = llvm.mlir.addressof @__tpuprof_probe_table : !llvm.ptr
    %1 = llvm.mlir.constant(904 : i64) : i64
    %2 = llvm.mlir.addressof @__tpuprof_module_base : !llvm.ptr
    llvm.call @__tpuprof_register_module(%0, %1, %2) : (!llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.return
  }
  func.func @main(%arg0: tensor<1x32x32x3xf32>, %arg1: tensor<3x3x3x8xf32>, %arg2: tensor<1800x10xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<1x30x30x8xf32>
    %1 = llvm.mlir.constant(0 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%1) : (i32) -> ()
    %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x30x30x8xf32>) -> tensor<1x30x30x8xf32>
    %3 = llvm.mlir.constant(0 : i32) : i32
    llvm.call @__tpuprof_end_guard(%3) : (i32) -> ()
    %4 = llvm.mlir.constant(1 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%4) : (i32) -> ()
    %5 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x32x32x3xf32>, tensor<3x3x3x8xf32>) outs(%2 : tensor<1x30x30x8xf32>) -> tensor<1x30x30x8xf32>
    %6 = llvm.mlir.constant(1 : i32) : i32
    llvm.call @__tpuprof_end_guard(%6) : (i32) -> ()
    %7 = llvm.mlir.constant(2 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%7) : (i32) -> ()
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<1x30x30x8xf32>) outs(%0 : tensor<1x30x30x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %25 = arith.maximumf %in, %cst : f32
      linalg.yield %25 : f32
    } -> tensor<1x30x30x8xf32>
    %9 = llvm.mlir.constant(2 : i32) : i32
    llvm.call @__tpuprof_end_guard(%9) : (i32) -> ()
    %10 = tensor.empty() : tensor<1x15x15x8xf32>
    %11 = llvm.mlir.constant(3 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%11) : (i32) -> ()
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<1x15x15x8xf32>) -> tensor<1x15x15x8xf32>
    %13 = llvm.mlir.constant(3 : i32) : i32
    llvm.call @__tpuprof_end_guard(%13) : (i32) -> ()
    %14 = tensor.empty() : tensor<2x2xf32>
    %15 = llvm.mlir.constant(4 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%15) : (i32) -> ()
    %16 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%8, %14 : tensor<1x30x30x8xf32>, tensor<2x2xf32>) outs(%12 : tensor<1x15x15x8xf32>) -> tensor<1x15x15x8xf32>
    %17 = llvm.mlir.constant(4 : i32) : i32
    llvm.call @__tpuprof_end_guard(%17) : (i32) -> ()
    %collapsed = tensor.collapse_shape %16 [[0], [1, 2, 3]] : tensor<1x15x15x8xf32> into tensor<1x1800xf32>
    %18 = tensor.empty() : tensor<1x10xf32>
    %19 = llvm.mlir.constant(5 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%19) : (i32) -> ()
    %20 = linalg.fill ins(%cst : f32) outs(%18 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %21 = llvm.mlir.constant(5 : i32) : i32
    llvm.call @__tpuprof_end_guard(%21) : (i32) -> ()
    %22 = llvm.mlir.constant(6 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%22) : (i32) -> ()
    %23 = linalg.matmul ins(%collapsed, %arg2 : tensor<1x1800xf32>, tensor<1800x10xf32>) outs(%20 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %24 = llvm.mlir.constant(6 : i32) : i32
    llvm.call @__tpuprof_end_guard(%24) : (i32) -> ()
    return %23 : tensor<1x10xf32>
  }
  llvm.mlir.global_ctors {ctors = [@__tpuprof_module_ctor], priorities = [65535 : i32]}
  llvm.func internal @__tpuprof_begin_guard(%arg0: i32) attributes {always_inline} {
    %0 = llvm.mlir.addressof @__tpuprof_enabled : !llvm.ptr
    %1 = llvm.load %0 atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
    %2 = llvm.mlir.constant(0 : i32) : i32
    %3 = llvm.icmp "ne" %1, %2 : i32
    llvm.cond_br %3, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    %4 = llvm.mlir.addressof @__tpuprof_module_base : !llvm.ptr
    %5 = llvm.load %4 : !llvm.ptr -> i32
    %6 = llvm.add %5, %arg0 : i32
    llvm.call @__tpuprof_begin(%6) : (i32) -> ()
    llvm.br ^bb2
  ^bb2:  // 2 preds: ^bb0, ^bb1
    llvm.return
  }
  llvm.func internal @__tpuprof_end_guard(%arg0: i32) attributes {always_inline} {
    %0 = llvm.mlir.addressof @__tpuprof_enabled : !llvm.ptr
    %1 = llvm.load %0 atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
    %2 = llvm.mlir.constant(0 : i32) : i32
    %3 = llvm.icmp "ne" %1, %2 : i32
    llvm.cond_br %3, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    %4 = llvm.mlir.addressof @__tpuprof_module_base : !llvm.ptr
    %5 = llvm.load %4 : !llvm.ptr -> i32
    %6 = llvm.add %5, %arg0 : i32
    llvm.call @__tpuprof_end(%6) : (i32) -> ()
    llvm.br ^bb2
  ^bb2:  // 2 preds: ^bb0, ^bb1
    llvm.return
  }
}

