module {
  llvm.mlir.global external @__tpuprof_enabled() {addr_space = 0 : i32} : i32
  llvm.mlir.global internal @__tpuprof_module_base(0 : i32) {addr_space = 0 : i32} : i32
  llvm.mlir.global internal constant @__tpuprof_probe_table("TPPT\01\00\00\00\0B\00\00\000\02\00\00\00\00\00\00\00\00\00\00\E7E\AA\E5\13\09\B08\80\10\03\00\00\00\00\00@0\06\00\00\00\00\00\09\00\00\00\1E\00\00\00C\00\00\00[\00\00\00\00\00\00\01`\00\00\00(6\DC\96D\E4|\B7\80\00\00\00\00\00\00\00\00\04\00\00\00\00\00\00l\00\00\00`\00\00\00w\00\00\00[\00\00\00\00\00\00\01`\00\00\00\A9\0E\F2\07\14\B9\C5\1B@@\00\00\00\00\00\00\00\84\00\00\00\00\00\00\09\00\00\00\8F\00\00\00\B2\00\00\00[\00\00\00\00\00\00\01\CA\00\00\00]:\0E\90\DC\F3e\03@\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00l\00\00\00\CA\00\00\00\D5\00\00\00[\00\00\00\00\00\00\01\CA\00\00\00W1\BCM\06\F1\AA\9B\0A\05\00\00\00\00\00\00P\0B\00\00\00\00\00\00\09\00\00\00\ED\00\00\00\0E\01\00\00[\00\00\00\00\00\00\01&\01\00\00\FF\BFq\03\18\DA\D4]\0A\00\00\00\00\00\00\00,\00\00\00\00\00\00\001\01\00\00&\01\00\00A\01\00\00[\00\00\00\00\00\00\01Y\01\00\00\F1\E8\B3\83Yi\DA\03\0A\00\00\00\00\00\00\00T\00\00\00\00\00\00\00c\01\00\00l\01\00\00\82\01\00\00[\00\00\00\00\00\00\01&\01\00\00Dh]\03\CCnDT\0A\00\00\00\00\00\00\00P\00\00\00\00\00\00\00\9A\01\00\00&\01\00\00\A3\01\00\00[\00\00\00\00\00\00\01&\01\00\00\08\8BX\C3\D0F\8C\1D\0A\00\00\00\00\00\00\00,\00\00\00\00\00\00\00\BB\01\00\00&\01\00\00\CB\01\00\00[\00\00\00\00\00\00\01Y\01\00\00Q\D1\99\AAbO.\8A\01\00\00\00\00\00\00\00\08\00\00\00\00\00\00\00\E3\01\00\00Y\01\00\00\F3\01\00\00[\00\00\00\00\00\00\01Y\01\00\00,\B6YQ\ED}\B3p\0A\00\00\00\00\00\00\00T\00\00\00\00\00\00\00\0B\02\00\00l\01\00\00\14\02\00\00[\00\00\00\00\00\00\01&\01\00\00mlp.mlir\00tosa.fully_connected\00f32[1, 784], f32[128, 784], f32[128]\00examples/mlp.mlir:10:10\00main\00f32[1, 128]\00tosa.clamp\00examples/mlp.mlir:11:12\00f32[1, 128], f32[64, 128], f32[64]\00examples/mlp.mlir:12:10\00f32[1, 64]\00examples/mlp.mlir:13:12\00f32[1, 64], f32[10, 64], f32[10]\00examples/mlp.mlir:14:10\00f32[1, 10]\00tosa.reduce_max\00examples/mlp.mlir:16:10\00f32[1, 1]\00tosa.sub\00f32[1, 10], f32[1, 1]\00examples/mlp.mlir:17:14\00tosa.exp\00examples/mlp.mlir:18:10\00tosa.reduce_sum\00examples/mlp.mlir:19:10\00tosa.reciprocal\00examples/mlp.mlir:20:10\00tosa.mul\00examples/mlp.mlir:21:14\00\00\00\00\00") {addr_space = 0 : i32, alignment = 8 : i64}
  llvm.func @__tpuprof_register_module(!llvm.ptr, i64, !llvm.ptr)
  llvm.func @__tpuprof_begin(i32)
  llvm.func @__tpuprof_begin_dims(i32, !llvm.ptr, i32)
  llvm.func @__tpuprof_end(i32)
  llvm.func internal @__tpuprof_module_ctor() {
    %0 = llvm.mlir.addressof @__tpuprof_probe_table : !llvm.ptr
    %1 = llvm.mlir.constant(1112 : i64) : i64
    %2 = llvm.mlir.addressof @__tpuprof_module_base : !llvm.ptr
    llvm.call @__tpuprof_register_module(%0, %1, %2) : (!llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.return
  }
  func.func @main(%arg0: tensor<1x784xf32>, %arg1: tensor<128x784xf32>, %arg2: tensor<128xf32>, %arg3: tensor<64x128xf32>, %arg4: tensor<64xf32>, %arg5: tensor<10x64xf32>, %arg6: tensor<10xf32>) -> tensor<1x10xf32> {
    %0 = llvm.mlir.constant(0 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%0) : (i32) -> ()
    %1 = tosa.fully_connected %arg0, %arg1, %arg2 : (tensor<1x784xf32>, tensor<128x784xf32>, tensor<128xf32>) -> tensor<1x128xf32>
    %2 = llvm.mlir.constant(0 : i32) : i32
    llvm.call @__tpuprof_end_guard(%2) : (i32) -> ()
    %3 = llvm.mlir.constant(1 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%3) : (i32) -> ()
    %4 = tosa.clamp %1 {max_fp = 3.40282347E+38 : f32, max_int = 9223372036854775807 : i64, min_fp = 0.000000e+00 : f32, min_int = 0 : i64} : (tensor<1x128xf32>) -> tensor<1x128xf32>
    %5 = llvm.mlir.constant(1 : i32) : i32
    llvm.call @__tpuprof_end_guard(%5) : (i32) -> ()
    %6 = llvm.mlir.constant(2 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%6) : (i32) -> ()
    %7 = tosa.fully_connected %4, %arg3, %arg4 : (tensor<1x128xf32>, tensor<64x128xf32>, tensor<64xf32>) -> tensor<1x64xf32>
    %8 = llvm.mlir.constant(2 : i32) : i32
    llvm.call @__tpuprof_end_guard(%8) : (i32) -> ()
    %9 = llvm.mlir.constant(3 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%9) : (i32) -> ()
    %10 = tosa.clamp %7 {max_fp = 3.40282347E+38 : f32, max_int = 9223372036854775807 : i64, min_fp = 0.000000e+00 : f32, min_int = 0 : i64} : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %11 = llvm.mlir.constant(3 : i32) : i32
    llvm.call @__tpuprof_end_guard(%11) : (i32) -> ()
    %12 = llvm.mlir.constant(4 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%12) : (i32) -> ()
    %13 = tosa.fully_connected %10, %arg5, %arg6 : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
    %14 = llvm.mlir.constant(4 : i32) : i32
    llvm.call @__tpuprof_end_guard(%14) : (i32) -> ()
    %15 = llvm.mlir.constant(5 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%15) : (i32) -> ()
    %16 = tosa.reduce_max %13 {axis = 1 : i32} : (tensor<1x10xf32>) -> tensor<1x1xf32>
    %17 = llvm.mlir.constant(5 : i32) : i32
    llvm.call @__tpuprof_end_guard(%17) : (i32) -> ()
    %18 = llvm.mlir.constant(6 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%18) : (i32) -> ()
    %19 = tosa.sub %13, %16 : (tensor<1x10xf32>, tensor<1x1xf32>) -> tensor<1x10xf32>
    %20 = llvm.mlir.constant(6 : i32) : i32
    llvm.call @__tpuprof_end_guard(%20) : (i32) -> ()
    %21 = llvm.mlir.constant(7 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%21) : (i32) -> ()
    %22 = tosa.exp %19 : (tensor<1x10xf32>) -> tensor<1x10xf32>
    %23 = llvm.mlir.constant(7 : i32) : i32
    llvm.call @__tpuprof_end_guard(%23) : (i32) -> ()
    %24 = llvm.mlir.constant(8 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%24) : (i32) -> ()
    %25 = tosa.reduce_sum %22 {axis = 1 : i32} : (tensor<1x10xf32>) -> tensor<1x1xf32>
    %26 = llvm.mlir.constant(8 : i32) : i32
    llvm.call @__tpuprof_end_guard(%26) : (i32) -> ()
    %27 = llvm.mlir.constant(9 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%27) : (i32) -> ()
    %28 = tosa.reciprocal %25 : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %29 = llvm.mlir.constant(9 : i32) : i32
    llvm.call @__tpuprof_end_guard(%29) : (i32) -> ()
    %30 = llvm.mlir.constant(10 : i32) : i32
    llvm.call @__tpuprof_begin_guard(%30) : (i32) -> ()
    %31 = tosa.mul %22, %28 {shift = 0 : i8} : (tensor<1x10xf32>, tensor<1x1xf32>) -> tensor<1x10xf32>
    %32 = llvm.mlir.constant(10 : i32) : i32
    llvm.call @__tpuprof_end_guard(%32) : (i32) -> ()
    return %31 : tensor<1x10xf32>
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

