// RUN: tpuprof-opt %s --split-input-file --tpu-profile-lower | FileCheck %s
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-lower --tpu-profile-lower | FileCheck %s --check-prefix=TWICE
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-lower=memory=false | FileCheck %s --check-prefix=OFF

// --tpu-profile-lower{memory}: buffers allocated and freed by lowered code
// are wrapped in calls of always-inlined guards of __tpuprof_memory.

// A static buffer: 64*128*4 bytes, its address (the aligned pointer),
// source 1 (memref); its dealloc is recorded before it happens.
// CHECK-LABEL: func.func @static
// CHECK: %[[M:.*]] = memref.alloc() : memref<64x128xf32>
// CHECK-NEXT: %[[N:.*]] = arith.constant 32768 : index
// CHECK-NEXT: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[M]] : memref<64x128xf32> -> index {tpuprof.memory}
// CHECK-NEXT: %[[PI:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK-NEXT: %[[SRC:.*]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.call @__tpuprof_alloc_guard(%[[PI]], %[[NI]], %[[SRC]])
// CHECK: %[[Q:.*]] = memref.extract_aligned_pointer_as_index %[[M]] : memref<64x128xf32> -> index {tpuprof.memory}
// CHECK-NEXT: %[[QI:.*]] = arith.index_cast %[[Q]] : index to i64
// CHECK-NEXT: %[[FSRC:.*]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.call @__tpuprof_free_guard(%[[QI]], %[[FSRC]])
// CHECK-NEXT: memref.dealloc %[[M]] {tpuprof.memory}
// Module level: the flag, the runtime's entries and the guards (one load
// and a branch when tracking is off).
// CHECK: llvm.mlir.global external @__tpuprof_memory() {addr_space = 0 : i32} : i32
// CHECK: llvm.func @__tpuprof_alloc(!llvm.ptr, i64, i32)
// CHECK-LABEL: llvm.func internal @__tpuprof_alloc_guard(%arg0: i64, %arg1: i64, %arg2: i32) attributes {always_inline}
// CHECK: llvm.mlir.addressof @__tpuprof_memory
// CHECK: llvm.load %{{.*}} atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: llvm.cond_br
// CHECK: %[[PTR:.*]] = llvm.inttoptr %arg0 : i64 to !llvm.ptr
// CHECK: llvm.call @__tpuprof_alloc(%[[PTR]], %arg1, %arg2)
// CHECK: llvm.func @__tpuprof_free(!llvm.ptr, i32)
// CHECK-LABEL: llvm.func internal @__tpuprof_free_guard(%arg0: i64, %arg1: i32)
// CHECK: llvm.call @__tpuprof_free(

// Run twice (after a pipeline that adds deallocations): nothing is wrapped
// again.
// TWICE-LABEL: func.func @static
// TWICE-COUNT-1: llvm.call @__tpuprof_alloc_guard
// TWICE-NOT: llvm.call @__tpuprof_alloc_guard
// TWICE-LABEL: func.func @dynamic
// OFF-NOT: __tpuprof_alloc
// OFF-NOT: __tpuprof_free
tpuprof.probes []
func.func @static(%x: f32) {
  %m = memref.alloc() : memref<64x128xf32>
  %c0 = arith.constant 0 : index
  memref.store %x, %m[%c0, %c0] : memref<64x128xf32>
  memref.dealloc %m : memref<64x128xf32>
  return
}

// -----

// A dynamic shape: the size is computed at run time from memref.dim.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[R:.*]]: index
// CHECK: %[[M:.*]] = memref.alloc(%[[R]]) : memref<?x128xf32>
// CHECK-NEXT: %[[BASE:.*]] = arith.constant 512 : index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = memref.dim %[[M]], %[[C0]] : memref<?x128xf32>
// CHECK: %[[BYTES:.*]] = arith.muli %[[BASE]], %[[D]] : index
// CHECK: arith.index_cast %[[BYTES]] : index to i64
// CHECK: llvm.call @__tpuprof_alloc_guard(
tpuprof.probes []
func.func @dynamic(%rows: index) -> memref<?x128xf32> {
  %m = memref.alloc(%rows) : memref<?x128xf32>
  return %m : memref<?x128xf32>
}

// -----

// Stack buffers are source 2; realloc records old and new addresses.
// CHECK-LABEL: func.func @kinds
// CHECK: memref.alloca() : memref<16xi8>
// CHECK-NEXT: arith.constant 16 : index
// CHECK: %[[STACK:.*]] = arith.constant 2 : i32
// CHECK-NEXT: llvm.call @__tpuprof_alloc_guard(%{{.*}}, %{{.*}}, %[[STACK]])
// CHECK-NEXT: %[[OLD:.*]] = memref.extract_aligned_pointer_as_index %arg0 : memref<8xf32> -> index {tpuprof.memory}
// CHECK-NEXT: %[[OLDI:.*]] = arith.index_cast %[[OLD]]
// CHECK-NEXT: %[[R:.*]] = memref.realloc %arg0 : memref<8xf32> to memref<16xf32>
// CHECK-NEXT: %[[NEW:.*]] = memref.extract_aligned_pointer_as_index %[[R]] : memref<16xf32> -> index {tpuprof.memory}
// CHECK-NEXT: %[[NEWI:.*]] = arith.index_cast %[[NEW]]
// CHECK-NEXT: %[[SIZE:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[SIZEI:.*]] = arith.index_cast %[[SIZE]]
// CHECK-NEXT: %[[MEMREF:.*]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.call @__tpuprof_realloc_guard(%[[OLDI]], %[[NEWI]], %[[SIZEI]], %[[MEMREF]])
// CHECK: llvm.func @__tpuprof_realloc(!llvm.ptr, !llvm.ptr, i64, i32)
tpuprof.probes []
func.func @kinds(%b: memref<8xf32>) -> memref<16xf32> {
  %s = memref.alloca() : memref<16xi8>
  %r = memref.realloc %b : memref<8xf32> to memref<16xf32>
  return %r : memref<16xf32>
}

// -----

// A module without probes or an earlier lowering is left alone.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: __tpuprof
// CHECK: // -----
func.func @plain() {
  %m = memref.alloc() : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}

// -----

// A buffer wrapped before a pass replaced it by a cast of a new allocation
// (canonicalization of constant sizes) is not wrapped again.
// CHECK-LABEL: func.func @cast
// TWICE-LABEL: func.func @cast
// TWICE: memref.alloc() : memref<8xf32>
// TWICE-NEXT: memref.cast
// TWICE-NOT: memref.alloc
tpuprof.probes []
func.func @cast(%x: f32) -> memref<?xf32> {
  %m = memref.alloc() : memref<8xf32>
  %c = memref.cast %m : memref<8xf32> to memref<?xf32>
  %p = memref.extract_aligned_pointer_as_index %c : memref<?xf32> -> index {tpuprof.memory}
  return %c : memref<?xf32>
}

// -----

// The deallocation lowering's bookkeeping (the arrays of addresses and
// flags a bufferization.dealloc of several buffers lowers to, handed to its
// helper) is not wrapped: it holds no tensor, and a guard would keep its
// mallocs, which LLVM removes otherwise. The buffers it frees are.
// CHECK-LABEL: func.func @bookkeeping
// TWICE-LABEL: func.func @bookkeeping
// TWICE-COUNT-1: llvm.call @__tpuprof_free_guard
// TWICE-NOT: llvm.call @__tpuprof_{{.*}}_guard
// TWICE: return
// CHECK: memref.alloc() : memref<2xindex>
// CHECK-NEXT: memref.alloc() : memref<2xi1>
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.cast
// CHECK-NEXT: memref.cast
// CHECK-NEXT: call @dealloc_helper
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<2xindex>
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<2xi1>
// CHECK: llvm.call @__tpuprof_free_guard
// CHECK-NEXT: memref.dealloc %{{.*}} {tpuprof.memory} : memref<64xf32>
tpuprof.probes []
func.func private @dealloc_helper(memref<?xindex>, memref<?xi1>)
func.func @bookkeeping(%b: memref<64xf32>, %p: index) -> i1 {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %addrs = memref.alloc() : memref<2xindex>
  %flags = memref.alloc() : memref<2xi1>
  memref.store %p, %addrs[%c0] : memref<2xindex>
  memref.store %true, %flags[%c0] : memref<2xi1>
  %a = memref.cast %addrs : memref<2xindex> to memref<?xindex>
  %f = memref.cast %flags : memref<2xi1> to memref<?xi1>
  call @dealloc_helper(%a, %f) : (memref<?xindex>, memref<?xi1>) -> ()
  %r = memref.load %flags[%c0] : memref<2xi1>
  memref.dealloc %addrs : memref<2xindex>
  memref.dealloc %flags : memref<2xi1>
  memref.dealloc %b : memref<64xf32>
  return %r : i1
}
