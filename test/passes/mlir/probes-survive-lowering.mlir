// "Probes must measure the op" (design.md): after the whole CPU lowering of
// tpuprof-run, the code between an op's begin and end calls is that op's
// computation and nothing else.
//
// Bufferized IR, right after --tpu-profile-lower:
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument,func.func(tosa-optional-decompositions,tosa-infer-shapes,tosa-make-broadcastable,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,tosa-to-scf),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},tpu-profile-lower)' | FileCheck %s --check-prefix=BUF
// The same, down to the LLVM dialect (tpuprof-run's built-in pipeline):
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument,func.func(tosa-optional-decompositions,tosa-infer-shapes,tosa-make-broadcastable,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,tosa-to-scf),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},tpu-profile-lower,convert-linalg-to-loops,expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-to-llvm,finalize-memref-to-llvm,reconcile-unrealized-casts)' | FileCheck %s --check-prefix=LLVM
// Fusion barrier: instrumented elementwise ops stay apart; without probes
// the same input fuses (so the FUSE checks can fail).
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=FUSE
// RUN: tpuprof-opt %s --split-input-file --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=NOFUSE
// Canonicalization, CSE and loop-invariant code motion after instrumentation
// neither merge, nor drop, nor hoist instrumented ops; without probes they do.
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument --canonicalize --cse --loop-invariant-code-motion | FileCheck %s --check-prefix=CANON
// RUN: tpuprof-opt %s --split-input-file --canonicalize --cse --loop-invariant-code-motion | FileCheck %s --check-prefix=NOCANON

// Probe 0 = tosa.exp, 1 = tosa.matmul, 2 = tosa.add, 3 = tosa.transpose.
// The transpose's permutation is a constant: it is not forwarded through
// the probe, so tosa-to-linalg still sees it and makes a linalg.transpose.

// BUF-LABEL: func.func @main(%arg0: memref<1x4x8xf32>, %arg1: memref<1x8x16xf32>, %arg2: memref<1x4x16xf32>) -> memref<1x16x4xf32>
// The flag's and the base's addresses and the zero, once, at entry.
// BUF-NEXT: llvm.mlir.addressof @__tpuprof_enabled
// BUF-NEXT: llvm.mlir.addressof @__tpuprof_module_base
// BUF-NEXT: arith.constant 0 : i32
// Begin of probe 0, then exactly the exp's allocation and loop nest, then
// the end of probe 0.
// BUF: scf.if
// BUF-NEXT: llvm.load
// BUF-NEXT: %[[L0:.*]] = arith.constant 0 : i32
// BUF-NEXT: %[[ID0:.*]] = arith.addi %{{.*}}, %[[L0]] : i32
// BUF-NEXT: llvm.call @__tpuprof_begin(%[[ID0]]) : (i32) -> ()
// BUF-NEXT: }
// BUF-NEXT: %[[EXP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x8xf32>
// BUF-NEXT: linalg.generic {{.*}} ins(%arg0 : memref<1x4x8xf32>) outs(%[[EXP]] : memref<1x4x8xf32>)
// BUF-NEXT: ^bb0
// BUF-NEXT: math.exp
// BUF-NEXT: linalg.yield
// BUF-NEXT: }
// BUF-NEXT: llvm.load {{.*}} atomic monotonic
// BUF-NEXT: arith.cmpi ne
// BUF-NEXT: scf.if
// BUF-NEXT: llvm.load
// BUF-NEXT: %[[L0:.*]] = arith.constant 0 : i32
// BUF-NEXT: %[[ID0:.*]] = arith.addi %{{.*}}, %[[L0]] : i32
// BUF-NEXT: llvm.call @__tpuprof_end(%[[ID0]]) : (i32) -> ()
// BUF-NEXT: }
// Probe 1: the matmul's result buffer, its zero fill and the batch matmul.
// BUF-NEXT: llvm.load {{.*}} atomic monotonic
// BUF-NEXT: arith.cmpi ne
// BUF-NEXT: scf.if
// BUF-NEXT: llvm.load
// BUF-NEXT: %[[L1:.*]] = arith.constant 1 : i32
// BUF-NEXT: %[[ID1:.*]] = arith.addi %{{.*}}, %[[L1]] : i32
// BUF-NEXT: llvm.call @__tpuprof_begin(%[[ID1]]) : (i32) -> ()
// BUF-NEXT: }
// BUF-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// BUF-NEXT: %[[MM:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x16xf32>
// BUF-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs(%[[MM]] : memref<1x4x16xf32>)
// BUF-NEXT: linalg.batch_matmul ins(%[[EXP]], %arg1 : memref<1x4x8xf32>, memref<1x8x16xf32>) outs(%[[MM]] : memref<1x4x16xf32>)
// BUF-NEXT: llvm.load {{.*}} atomic monotonic
// BUF-NEXT: arith.cmpi ne
// BUF-NEXT: scf.if
// BUF-NEXT: llvm.load
// BUF-NEXT: %[[L1:.*]] = arith.constant 1 : i32
// BUF-NEXT: %[[ID1:.*]] = arith.addi %{{.*}}, %[[L1]] : i32
// BUF-NEXT: llvm.call @__tpuprof_end(%[[ID1]]) : (i32) -> ()
// BUF-NEXT: }
// Probe 2: the add.
// BUF-NEXT: llvm.load {{.*}} atomic monotonic
// BUF-NEXT: arith.cmpi ne
// BUF-NEXT: scf.if
// BUF-NEXT: llvm.load
// BUF-NEXT: %[[L2:.*]] = arith.constant 2 : i32
// BUF-NEXT: %[[ID2:.*]] = arith.addi %{{.*}}, %[[L2]] : i32
// BUF-NEXT: llvm.call @__tpuprof_begin(%[[ID2]]) : (i32) -> ()
// BUF-NEXT: }
// BUF-NEXT: %[[ADD:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x16xf32>
// BUF-NEXT: linalg.generic {{.*}} ins(%[[MM]], %arg2 : memref<1x4x16xf32>, memref<1x4x16xf32>) outs(%[[ADD]] : memref<1x4x16xf32>)
// BUF-NEXT: ^bb0
// BUF-NEXT: arith.addf
// BUF-NEXT: linalg.yield
// BUF-NEXT: }
// BUF-NEXT: llvm.load {{.*}} atomic monotonic
// BUF-NEXT: arith.cmpi ne
// BUF-NEXT: scf.if
// BUF-NEXT: llvm.load
// BUF-NEXT: %[[L2:.*]] = arith.constant 2 : i32
// BUF-NEXT: %[[ID2:.*]] = arith.addi %{{.*}}, %[[L2]] : i32
// BUF-NEXT: llvm.call @__tpuprof_end(%[[ID2]]) : (i32) -> ()
// BUF-NEXT: }
// Probe 3: the transpose.
// BUF-NEXT: llvm.load {{.*}} atomic monotonic
// BUF-NEXT: arith.cmpi ne
// BUF-NEXT: scf.if
// BUF-NEXT: llvm.load
// BUF-NEXT: %[[L3:.*]] = arith.constant 3 : i32
// BUF-NEXT: %[[ID3:.*]] = arith.addi %{{.*}}, %[[L3]] : i32
// BUF-NEXT: llvm.call @__tpuprof_begin(%[[ID3]]) : (i32) -> ()
// BUF-NEXT: }
// BUF-NEXT: %[[TR:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x16x4xf32>
// BUF-NEXT: linalg.transpose ins(%[[ADD]] : memref<1x4x16xf32>) outs(%[[TR]] : memref<1x16x4xf32>) permutation = [0, 2, 1]
// BUF-NEXT: llvm.load {{.*}} atomic monotonic
// BUF-NEXT: arith.cmpi ne
// BUF-NEXT: scf.if
// BUF-NEXT: llvm.load
// BUF-NEXT: %[[L3:.*]] = arith.constant 3 : i32
// BUF-NEXT: %[[ID3:.*]] = arith.addi %{{.*}}, %[[L3]] : i32
// BUF-NEXT: llvm.call @__tpuprof_end(%[[ID3]]) : (i32) -> ()
// BUF-NEXT: }
// BUF-NEXT: return %[[TR]] : memref<1x16x4xf32>

// In the LLVM dialect the local ids are hoisted constants and 'base + 0'
// has been folded away. Each op's loop nest lies between its own calls.
// LLVM-LABEL: llvm.func @main(
// LLVM-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// LLVM-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// LLVM-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// LLVM-DAG: %[[BASE:.*]] = llvm.mlir.addressof @__tpuprof_module_base : !llvm.ptr
// Probe 0 (exp).
// LLVM: %[[B0:.*]] = llvm.load %[[BASE]] : !llvm.ptr -> i32
// LLVM-NEXT: llvm.call @__tpuprof_begin(%[[B0]]) : (i32) -> ()
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: llvm.call @malloc
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: llvm.intr.exp
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: %[[E0:.*]] = llvm.load %[[BASE]] : !llvm.ptr -> i32
// LLVM-NEXT: llvm.call @__tpuprof_end(%[[E0]]) : (i32) -> ()
// LLVM-NOT: llvm.call @malloc
// LLVM-NOT: llvm.f{{mul|add}}
// LLVM-NOT: llvm.intr.exp
// Probe 1 (matmul): malloc, zero-fill loop, then the fmul/fadd loop nest.
// LLVM: %[[ID1:.*]] = llvm.add %{{.*}}, %[[C1]] : i32
// LLVM-NEXT: llvm.call @__tpuprof_begin(%[[ID1]]) : (i32) -> ()
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: llvm.call @malloc
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: llvm.store
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: llvm.fmul
// LLVM-NEXT: llvm.fadd
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: %[[EID1:.*]] = llvm.add %{{.*}}, %[[C1]] : i32
// LLVM-NEXT: llvm.call @__tpuprof_end(%[[EID1]]) : (i32) -> ()
// LLVM-NOT: llvm.call @malloc
// LLVM-NOT: llvm.f{{mul|add}}
// Probe 2 (add).
// LLVM: %[[ID2:.*]] = llvm.add %{{.*}}, %[[C2]] : i32
// LLVM-NEXT: llvm.call @__tpuprof_begin(%[[ID2]]) : (i32) -> ()
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: llvm.call @malloc
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: llvm.fadd
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: %[[EID2:.*]] = llvm.add %{{.*}}, %[[C2]] : i32
// LLVM-NEXT: llvm.call @__tpuprof_end(%[[EID2]]) : (i32) -> ()
// LLVM-NOT: llvm.call @malloc
// LLVM-NOT: llvm.f{{mul|add}}
// Probe 3 (transpose): loads and stores only.
// LLVM: %[[ID3:.*]] = llvm.add %{{.*}}, %[[C3]] : i32
// LLVM-NEXT: llvm.call @__tpuprof_begin(%[[ID3]]) : (i32) -> ()
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: llvm.call @malloc
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: llvm.store
// LLVM-NOT: llvm.call @__tpuprof_
// LLVM: %[[EID3:.*]] = llvm.add %{{.*}}, %[[C3]] : i32
// LLVM-NEXT: llvm.call @__tpuprof_end(%[[EID3]]) : (i32) -> ()
// LLVM-NOT: llvm.call @malloc
// LLVM-NOT: llvm.store
// LLVM: llvm.return
func.func @main(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>, %c: tensor<1x4x16xf32>) -> tensor<1x16x4xf32> {
  %0 = tosa.exp %a : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %1 = tosa.matmul %0, %b : (tensor<1x4x8xf32>, tensor<1x8x16xf32>) -> tensor<1x4x16xf32>
  %2 = tosa.add %1, %c : (tensor<1x4x16xf32>, tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %perms = "tosa.const"() {value = dense<[0, 2, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %3 = tosa.transpose %2, %perms : (tensor<1x4x16xf32>, tensor<3xi32>) -> tensor<1x16x4xf32>
  return %3 : tensor<1x16x4xf32>
}

// -----

// Two elementwise linalg.generic ops in a producer/consumer chain.
// FUSE-LABEL: func.func @fusion_barrier
// FUSE: tpuprof.begin 0
// FUSE: linalg.generic
// FUSE: arith.negf
// FUSE-NOT: math.exp
// FUSE: tpuprof.end 0
// FUSE: tpuprof.begin 1
// FUSE: linalg.generic
// FUSE-NOT: arith.negf
// FUSE: math.exp
// FUSE: tpuprof.end 1
// FUSE-NOT: linalg.generic
// FUSE: return
// NOFUSE-LABEL: func.func @fusion_barrier
// NOFUSE: linalg.generic
// NOFUSE: arith.negf
// NOFUSE-NEXT: math.exp
// NOFUSE-NOT: linalg.generic
// NOFUSE: return
#id = affine_map<(d0) -> (d0)>
func.func @fusion_barrier(%a: tensor<16xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%0 : tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// Two identical pure ops (CSE would merge them), a dead op (canonicalize
// would erase it) and a loop-invariant op in a loop (LICM would hoist it).
// CANON-LABEL: func.func @cse_dce
// CANON: %[[I0:.*]]:2 = tpuprof.begin 0(%arg0, %arg1)
// CANON-NEXT: %[[A0:.*]] = tosa.add %[[I0]]#0, %[[I0]]#1
// CANON-NEXT: %[[O0:.*]] = tpuprof.end 0(%[[A0]])
// CANON-NEXT: %[[I1:.*]]:2 = tpuprof.begin 1(%arg0, %arg1)
// CANON-NEXT: %[[A1:.*]] = tosa.add %[[I1]]#0, %[[I1]]#1
// CANON-NEXT: %[[O1:.*]] = tpuprof.end 1(%[[A1]])
// CANON-NEXT: %[[I2:.*]] = tpuprof.begin 2(%arg0)
// CANON-NEXT: %[[X2:.*]] = tosa.exp %[[I2]]
// CANON-NEXT: tpuprof.end 2(%[[X2]])
// CANON-NEXT: return %[[O0]], %[[O1]]
// NOCANON-LABEL: func.func @cse_dce
// NOCANON-NEXT: %[[A:.*]] = tosa.add
// NOCANON-NEXT: return %[[A]], %[[A]]
func.func @cse_dce(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %dead = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// The loop writes its (loop-invariant) result to %out in each iteration.
// CANON-LABEL: func.func @licm
// CANON: scf.for
// CANON-NEXT: %[[I3:.*]] = tpuprof.begin 3(%arg0)
// CANON-NEXT: %[[X3:.*]] = tosa.exp %[[I3]]
// CANON-NEXT: %[[O3:.*]] = tpuprof.end 3(%[[X3]])
// CANON-NEXT: %[[I4:.*]]:2 = tpuprof.begin 4(%[[O3]], %[[O3]])
// CANON-NEXT: %[[A4:.*]] = tosa.add %[[I4]]#0, %[[I4]]#1
// CANON-NEXT: %[[O4:.*]] = tpuprof.end 4(%[[A4]])
// CANON-NEXT: bufferization.materialize_in_destination %[[O4]] in writable %arg1
// CANON-NEXT: }
// NOCANON-LABEL: func.func @licm
// NOCANON: tosa.exp
// NOCANON-NEXT: tosa.add
// NOCANON-NEXT: scf.for
// NOCANON-NEXT: bufferization.materialize_in_destination
// NOCANON-NEXT: }
func.func @licm(%a: tensor<4xf32>, %out: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %inv = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    %s = tosa.add %inv, %inv : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    bufferization.materialize_in_destination %s in writable %out : (tensor<4xf32>, memref<4xf32>) -> ()
  }
  return
}
