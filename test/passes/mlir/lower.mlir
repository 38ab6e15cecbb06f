// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-lower | FileCheck %s
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-lower | tpuprof-opt --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-lower | FileCheck %s --check-prefix=NOPROBE
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument=mode=0 --tpu-profile-lower 2>/dev/null | FileCheck %s --check-prefix=MODE0
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument=mode=1 --tpu-profile-lower 2>/dev/null | FileCheck %s --check-prefix=MODE1

// --tpu-profile-lower on hand-written probes (the tables are written out so
// that this file does not depend on --tpu-profile-instrument).
// No probe of this file survives lowering, and no table either.
// NOPROBE-NOT: tpuprof.begin
// NOPROBE-NOT: tpuprof.end
// NOPROBE-NOT: tpuprof.probes

// A static probe: module-level globals, declarations, the constructor, the
// calls of the guard functions at the probes and the guard functions.
// CHECK-LABEL: module {
// CHECK-DAG: llvm.mlir.global external @__tpuprof_enabled() {addr_space = 0 : i32} : i32
// CHECK-DAG: llvm.mlir.global internal @__tpuprof_module_base(0 : i32) {addr_space = 0 : i32} : i32
// CHECK-DAG: llvm.mlir.global internal constant @__tpuprof_probe_table("TPPT\01\00\00\00\02\00\00\00{{.*}}lower.mlir{{[^\]*}}\00tosa.abs\00f32[4]\00x.mlir:1:1\00f\00linalg.copy\00f32[4], f32[4]\00{{.*}}") {addr_space = 0 : i32, alignment = 8 : i64}
// CHECK-DAG: llvm.func @__tpuprof_register_module(!llvm.ptr, i64, !llvm.ptr)
// CHECK-DAG: llvm.func @__tpuprof_begin(i32)
// CHECK-DAG: llvm.func @__tpuprof_begin_dims(i32, !llvm.ptr, i32)
// CHECK-DAG: llvm.func @__tpuprof_end(i32)
// CHECK: llvm.func internal @__tpuprof_module_ctor() {
// CHECK-NEXT: %[[TABLE:.*]] = llvm.mlir.addressof @__tpuprof_probe_table : !llvm.ptr
// CHECK-NEXT: %[[SIZE:.*]] = llvm.mlir.constant({{[0-9]+}} : i64) : i64
// CHECK-NEXT: %[[BASE:.*]] = llvm.mlir.addressof @__tpuprof_module_base : !llvm.ptr
// CHECK-NEXT: llvm.call @__tpuprof_register_module(%[[TABLE]], %[[SIZE]], %[[BASE]]) : (!llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK-NEXT: llvm.return
// At each probe, its local id and one call; nothing else (no control flow,
// nothing outside the LLVM dialect). The probe's results are replaced by
// its operands.
// CHECK: func.func @static(%[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<4xf32>)
// CHECK-NEXT: %[[ID:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call @__tpuprof_begin_guard(%[[ID]]) : (i32) -> ()
// CHECK-NEXT: "test.work"(%[[A]], %[[B]])
// CHECK-NEXT: %[[ID:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call @__tpuprof_end_guard(%[[ID]]) : (i32) -> ()
// CHECK-NEXT: "test.use"(%[[B]])
// CHECK-NEXT: %[[ID:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call @__tpuprof_begin_guard(%[[ID]]) : (i32) -> ()
// CHECK-NEXT: "test.work"(%[[B]])
// CHECK-NEXT: %[[ID:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call @__tpuprof_end_guard(%[[ID]]) : (i32) -> ()
// CHECK-NEXT: return
// The constructor is registered once.
// CHECK: llvm.mlir.global_ctors {ctors = [@__tpuprof_module_ctor], priorities = [65535 : i32]}
// CHECK-NOT: llvm.mlir.global_ctors
// One guard per runtime function, internal and always inlined: the flag's
// load and a branch, then the module's base plus the local id under it.
// CHECK: llvm.func internal @__tpuprof_begin_guard(%[[LOCAL:.*]]: i32) attributes {always_inline} {
// CHECK-NEXT: %[[EN:.*]] = llvm.mlir.addressof @__tpuprof_enabled : !llvm.ptr
// CHECK-NEXT: %[[ON:.*]] = llvm.load %[[EN]] atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[COND:.*]] = llvm.icmp "ne" %[[ON]], %[[ZERO]] : i32
// CHECK-NEXT: llvm.cond_br %[[COND]], ^[[CALL:.*]], ^[[DONE:.*]]
// CHECK-NEXT: ^[[CALL]]:
// CHECK-NEXT: %[[BA:.*]] = llvm.mlir.addressof @__tpuprof_module_base : !llvm.ptr
// CHECK-NEXT: %[[BV:.*]] = llvm.load %[[BA]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[GID:.*]] = llvm.add %[[BV]], %[[LOCAL]] : i32
// CHECK-NEXT: llvm.call @__tpuprof_begin(%[[GID]]) : (i32) -> ()
// CHECK-NEXT: llvm.br ^[[DONE]]
// CHECK-NEXT: ^[[DONE]]:
// CHECK-NEXT: llvm.return
// CHECK: llvm.func internal @__tpuprof_end_guard(%[[LOCAL:.*]]: i32) attributes {always_inline} {
// CHECK: llvm.call @__tpuprof_end(
// CHECK-NOT: @__tpuprof_begin_dims_guard
module {
  tpuprof.probes [
  {bytes = 16, dyn_dims = 0, flops = 4, function = "f", hash = "00112233aabbccdd", location = "x.mlir:1:1", name = "tosa.abs", shapes = "f32[4]"},
  {bytes = 32, dyn_dims = 0, flops = 0, function = "f", hash = "ffffffffffffffff", location = "x.mlir:2:1", name = "linalg.copy", shapes = "f32[4], f32[4]"}]
  func.func @static(%a: memref<4xf32>, %b: memref<4xf32>) {
    %0:2 = tpuprof.begin 0 (%a, %b) : memref<4xf32>, memref<4xf32>
    "test.work"(%0#0, %0#1) : (memref<4xf32>, memref<4xf32>) -> ()
    %1 = tpuprof.end 0 (%0#1) : memref<4xf32>
    "test.use"(%1) : (memref<4xf32>) -> ()
    %2 = tpuprof.begin 1 (%1) : memref<4xf32>
    "test.work"(%2) : (memref<4xf32>) -> ()
    tpuprof.end 1
    return
  }
}

// -----

// An existing llvm.mlir.global_ctors is merged into one op holding both
// constructors (two such ops would be invalid when translated to LLVM IR).
// CHECK-LABEL: module {
// CHECK-NOT: llvm.mlir.global_ctors
// CHECK: llvm.func internal @__tpuprof_module_ctor()
// CHECK-NOT: llvm.mlir.global_ctors
// CHECK: llvm.func @other_ctor()
// CHECK-NOT: llvm.mlir.global_ctors
// CHECK: func.func @with_ctor
// CHECK: llvm.call @__tpuprof_begin_guard(
// CHECK: llvm.call @__tpuprof_end_guard(
// CHECK: llvm.mlir.global_ctors {ctors = [@__tpuprof_module_ctor, @other_ctor], priorities = [65535 : i32, 100 : i32]}
// CHECK-NOT: llvm.mlir.global_ctors
// (This table is in the module-attribute form that earlier builds wrote;
// it still lowers.)
module attributes {tpuprof.probes = [{bytes = 16 : i64, dyn_dims = 0 : i64, flops = 4 : i64, function = "with_ctor", hash = "1", location = "", name = "tosa.abs", shapes = "f32[4]"}]} {
  llvm.func @other_ctor() {
    llvm.return
  }
  llvm.mlir.global_ctors {ctors = [@other_ctor], priorities = [100 : i32]}
  func.func @with_ctor(%a: memref<4xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<4xf32>
    "test.work"(%0) : (memref<4xf32>) -> ()
    tpuprof.end 0
    return
  }
}

// -----

// Dynamic dimensions of memref operands, in operand then dimension order:
// memref.dim + index_cast at the probe, passed to the guard that takes as
// many. Its slot is a static alloca in its entry block, which becomes part
// of the caller's frame once inlined: a probe in a loop does not grow the
// stack. The end probe's guard takes the id alone.
// CHECK-LABEL: module {
// CHECK: func.func @dynamic(%[[M:.*]]: memref<?x8x?xf32>, %[[V:.*]]: memref<?xf32>, %[[N:.*]]: index)
// CHECK-NOT: llvm.alloca
// CHECK: scf.for
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D0:.*]] = memref.dim %[[M]], %[[C0]] : memref<?x8x?xf32>
// CHECK-NEXT: %[[D0I:.*]] = arith.index_cast %[[D0]] : index to i64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[D2:.*]] = memref.dim %[[M]], %[[C2]] : memref<?x8x?xf32>
// CHECK-NEXT: %[[D2I:.*]] = arith.index_cast %[[D2]] : index to i64
// CHECK-NEXT: %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D3:.*]] = memref.dim %[[V]], %[[C0B]] : memref<?xf32>
// CHECK-NEXT: %[[D3I:.*]] = arith.index_cast %[[D3]] : index to i64
// CHECK-NEXT: %[[ID:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call @__tpuprof_begin_dims_guard_3(%[[ID]], %[[D0I]], %[[D2I]], %[[D3I]]) : (i32, i64, i64, i64) -> ()
// CHECK-NEXT: "test.work"(%[[M]], %[[V]])
// CHECK-NEXT: %[[ID:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call @__tpuprof_end_guard(%[[ID]]) : (i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK: llvm.func internal @__tpuprof_begin_dims_guard_3(%[[LOCAL:.*]]: i32, %[[X0:.*]]: i64, %[[X1:.*]]: i64, %[[X2:.*]]: i64) attributes {always_inline} {
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %[[ONE]] x !llvm.array<3 x i64> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK: llvm.cond_br
// CHECK: %[[GID:.*]] = llvm.add %{{.*}}, %[[LOCAL]] : i32
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[SLOT]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT: llvm.store %[[X0]], %[[P0]] : i64, !llvm.ptr
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[SLOT]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT: llvm.store %[[X1]], %[[P1]] : i64, !llvm.ptr
// CHECK-NEXT: %[[P2:.*]] = llvm.getelementptr %[[SLOT]][2] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT: llvm.store %[[X2]], %[[P2]] : i64, !llvm.ptr
// CHECK-NEXT: %[[NDIMS:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: llvm.call @__tpuprof_begin_dims(%[[GID]], %[[SLOT]], %[[NDIMS]]) : (i32, !llvm.ptr, i32) -> ()
module {
  tpuprof.probes [{bytes = 0, dyn_dims = 3, flops = 0, function = "dynamic", hash = "ab", location = "", name = "linalg.copy", shapes = "f32[?, 8, ?], f32[?]"}]
  func.func @dynamic(%m: memref<?x8x?xf32>, %v: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %0:2 = tpuprof.begin 0 (%m, %v) : memref<?x8x?xf32>, memref<?xf32>
      "test.work"(%0#0, %0#1) : (memref<?x8x?xf32>, memref<?xf32>) -> ()
      %1 = tpuprof.end 0 (%0#1) : memref<?xf32>
    }
    return
  }
}

// -----

// Two dynamic probes with as many dimensions share one guard.
// CHECK-LABEL: module {
// CHECK: func.func @two_dynamic
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @__tpuprof_begin_dims_guard_1(
// CHECK: llvm.call @__tpuprof_end_guard(
// CHECK: llvm.call @__tpuprof_begin_dims_guard_1(
// CHECK: llvm.call @__tpuprof_end_guard(
// CHECK: return
// CHECK-COUNT-1: llvm.func internal @__tpuprof_begin_dims_guard_1(
// CHECK-NOT: llvm.func internal @__tpuprof_begin_dims_guard
module {
  tpuprof.probes [
  {bytes = 0, dyn_dims = 1, flops = 0, function = "two_dynamic", hash = "1", location = "", name = "tosa.abs", shapes = "f32[?]"},
  {bytes = 0, dyn_dims = 1, flops = 0, function = "two_dynamic", hash = "2", location = "", name = "tosa.abs", shapes = "f32[?]"}]
  func.func @two_dynamic(%a: memref<?xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<?xf32>
    "test.work"(%0) : (memref<?xf32>) -> ()
    %1 = tpuprof.end 0 (%0) : memref<?xf32>
    %2 = tpuprof.begin 1 (%1) : memref<?xf32>
    "test.work"(%2) : (memref<?xf32>) -> ()
    %3 = tpuprof.end 1 (%2) : memref<?xf32>
    return
  }
}

// -----

// Tensor IR is accepted: dimensions come from tensor.dim, and the wrapped op
// uses the probe's operands directly.
// CHECK-LABEL: module {
// CHECK: func.func @tensor_level(%[[T:.*]]: tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: %[[TD:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<?x4xf32>
// CHECK-NEXT: %[[TDI:.*]] = arith.index_cast %[[TD]] : index to i64
// CHECK: llvm.call @__tpuprof_begin_dims_guard_1(%{{.*}}, %[[TDI]])
// CHECK: %[[R:.*]] = tosa.abs %[[T]] : (tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: llvm.call @__tpuprof_end_guard(
// CHECK: return %[[R]] : tensor<?x4xf32>
module {
  tpuprof.probes [{bytes = 0, dyn_dims = 1, flops = 0, function = "tensor_level", hash = "1", location = "", name = "tosa.abs", shapes = "f32[?, 4]"}]
  func.func @tensor_level(%t: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %0 = tpuprof.begin 0 (%t) : tensor<?x4xf32>
    %1 = tosa.abs %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %2 = tpuprof.end 0 (%1) : tensor<?x4xf32>
    return %2 : tensor<?x4xf32>
  }
}

// -----

// A table whose dyn_dims is 0 gets a plain begin even for dynamic operands
// (what --tpu-profile-instrument=mode=0 writes).
// CHECK-LABEL: module {
// CHECK: func.func @mode0_table
// CHECK-NOT: memref.dim
// CHECK: llvm.call @__tpuprof_begin_guard(%{{.*}}) : (i32) -> ()
// CHECK-NOT: __tpuprof_begin_dims_guard
// CHECK: llvm.call @__tpuprof_end_guard(
module {
  tpuprof.probes [{bytes = 0, dyn_dims = 0, flops = 0, function = "mode0_table", hash = "1", location = "", name = "tosa.abs", shapes = "f32[?]"}]
  func.func @mode0_table(%a: memref<?xf32>) {
    %0 = tpuprof.begin 0 (%a) : memref<?xf32>
    "test.work"(%0) : (memref<?xf32>) -> ()
    tpuprof.end 0
    return
  }
}

// -----

// A module without probes and without a table is left exactly as it is: no
// globals, no constructor.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @plain(%{{.*}}: memref<?xf32>) -> memref<?xf32> {
// CHECK-NEXT: "top.Abs"
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// The same module instrumented (the other modules of this file already are,
// and are left alone) and lowered end to end: --tpu-profile-instrument=mode=0
// leaves dynamic dimensions out (plain begin, no slot), mode=1 captures them.
// MODE0-LABEL: func.func @plain
// MODE0-NOT: memref.dim
// MODE0: llvm.call @__tpuprof_begin_guard(%{{.*}}) : (i32) -> ()
// MODE0-NEXT: "top.Abs"
// MODE0: llvm.call @__tpuprof_end_guard(
// MODE0-NOT: __tpuprof_begin_dims_guard
// MODE1-LABEL: func.func @plain
// MODE1: %[[D:.*]] = memref.dim %arg0
// MODE1-NEXT: %[[DI:.*]] = arith.index_cast %[[D]]
// MODE1-NEXT: %[[ID:.*]] = llvm.mlir.constant(0 : i32)
// MODE1-NEXT: llvm.call @__tpuprof_begin_dims_guard_1(%[[ID]], %[[DI]])
// MODE1-NEXT: "top.Abs"
// MODE1: llvm.call @__tpuprof_end_guard(
func.func @plain(%a: memref<?xf32>) -> memref<?xf32> {
  %0 = "top.Abs"(%a) : (memref<?xf32>) -> memref<?xf32>
  return %0 : memref<?xf32>
}
