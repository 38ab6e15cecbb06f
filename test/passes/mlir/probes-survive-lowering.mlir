// Probes measure the op (docs/probes.md): after the whole CPU lowering of
// tpuprof-run, naive or optimizing, the code between an op's begin and end
// calls is that op's computation and nothing else.
//
// Bufferized IR, right after --tpu-profile-lower (the first half of the
// built-in pipelines):
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument,func.func(tosa-optional-decompositions,tosa-infer-shapes,tosa-make-broadcastable,tosa-to-scf,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith{include-apply-rescale},tosa-to-tensor),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops},tpu-profile-lower)' | FileCheck %s --check-prefix=BUF
// Down to the LLVM dialect with the naive and the optimizing pipelines
// (whose vectors are as wide as the host's: the checks name no width):
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument,tpu-profile-cpu-naive)' | FileCheck %s --check-prefix=LLVM
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument,tpu-profile-cpu)' | FileCheck %s --check-prefix=OPT
// Fusion barrier: instrumented elementwise ops stay apart; without probes
// the same input fuses (so the FUSE checks can fail). The same through the
// optimizing pipeline's fusion, tiling and vectorization:
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=FUSE
// RUN: tpuprof-opt %s --split-input-file --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=NOFUSE
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument,func.func(linalg-fuse-elementwise-ops,tpu-profile-tile-and-vectorize{vector-bits=256},canonicalize))' | FileCheck %s --check-prefix=VFUSE
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(linalg-fuse-elementwise-ops,tpu-profile-tile-and-vectorize{vector-bits=256},canonicalize))' | FileCheck %s --check-prefix=VNOFUSE
// Canonicalization, CSE and loop-invariant code motion after instrumentation
// neither merge, nor drop, nor hoist instrumented ops; without probes they do.
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument --canonicalize --cse --loop-invariant-code-motion | FileCheck %s --check-prefix=CANON
// RUN: tpuprof-opt %s --split-input-file --canonicalize --cse --loop-invariant-code-motion | FileCheck %s --check-prefix=NOCANON

// Probe 0 = tosa.exp, 1 = tosa.matmul, 2 = tosa.add, 3 = tosa.transpose.
// The transpose's permutation is a constant: it is not forwarded through
// the probe, so tosa-to-linalg still sees it and makes a linalg.transpose.

// BUF-LABEL: func.func @main(%arg0: memref<1x4x8xf32>, %arg1: memref<1x8x16xf32>, %arg2: memref<1x4x16xf32>) -> memref<1x16x4xf32>
// BUF-NEXT: memref.get_global
// Begin of probe 0, then exactly the exp's allocation (with its memory
// tracking guard) and loop nest, then the end of probe 0.
// BUF-NEXT: %[[L0:.*]] = llvm.mlir.constant(0 : i32) : i32
// BUF-NEXT: llvm.call @__tpuprof_begin_guard(%[[L0]]) : (i32) -> ()
// BUF-NEXT: %[[EXP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x8xf32>
// BUF-NEXT: arith.constant {{[0-9]+}} : index
// BUF-NEXT: arith.index_cast
// BUF-NEXT: memref.extract_aligned_pointer_as_index %[[EXP]]
// BUF-NEXT: arith.index_cast
// BUF-NEXT: arith.constant 1 : i32
// BUF-NEXT: llvm.call @__tpuprof_alloc_guard
// BUF-NEXT: linalg.generic {{.*}} ins(%arg0 : memref<1x4x8xf32>) outs(%[[EXP]] : memref<1x4x8xf32>)
// BUF-NEXT: ^bb0
// BUF-NEXT: math.exp
// BUF-NEXT: linalg.yield
// BUF-NEXT: }
// BUF-NEXT: %[[L0:.*]] = llvm.mlir.constant(0 : i32) : i32
// BUF-NEXT: llvm.call @__tpuprof_end_guard(%[[L0]]) : (i32) -> ()
// Probe 1: the matmul's result buffer, its zero fill and the batch matmul.
// BUF-NEXT: %[[L1:.*]] = llvm.mlir.constant(1 : i32) : i32
// BUF-NEXT: llvm.call @__tpuprof_begin_guard(%[[L1]]) : (i32) -> ()
// BUF-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// BUF-NEXT: %[[MM:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x16xf32>
// BUF-NEXT: arith.constant {{[0-9]+}} : index
// BUF-NEXT: arith.index_cast
// BUF-NEXT: memref.extract_aligned_pointer_as_index %[[MM]]
// BUF-NEXT: arith.index_cast
// BUF-NEXT: arith.constant 1 : i32
// BUF-NEXT: llvm.call @__tpuprof_alloc_guard
// BUF-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs(%[[MM]] : memref<1x4x16xf32>)
// BUF-NEXT: linalg.batch_matmul ins(%[[EXP]], %arg1 : memref<1x4x8xf32>, memref<1x8x16xf32>) outs(%[[MM]] : memref<1x4x16xf32>)
// BUF-NEXT: %[[L1:.*]] = llvm.mlir.constant(1 : i32) : i32
// BUF-NEXT: llvm.call @__tpuprof_end_guard(%[[L1]]) : (i32) -> ()
// Probe 2: the add.
// BUF-NEXT: %[[L2:.*]] = llvm.mlir.constant(2 : i32) : i32
// BUF-NEXT: llvm.call @__tpuprof_begin_guard(%[[L2]]) : (i32) -> ()
// BUF-NEXT: %[[ADD:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x16xf32>
// BUF-NEXT: arith.constant {{[0-9]+}} : index
// BUF-NEXT: arith.index_cast
// BUF-NEXT: memref.extract_aligned_pointer_as_index %[[ADD]]
// BUF-NEXT: arith.index_cast
// BUF-NEXT: arith.constant 1 : i32
// BUF-NEXT: llvm.call @__tpuprof_alloc_guard
// BUF-NEXT: linalg.generic {{.*}} ins(%[[MM]], %arg2 : memref<1x4x16xf32>, memref<1x4x16xf32>) outs(%[[ADD]] : memref<1x4x16xf32>)
// BUF-NEXT: ^bb0
// BUF-NEXT: arith.addf
// BUF-NEXT: linalg.yield
// BUF-NEXT: }
// BUF-NEXT: %[[L2:.*]] = llvm.mlir.constant(2 : i32) : i32
// BUF-NEXT: llvm.call @__tpuprof_end_guard(%[[L2]]) : (i32) -> ()
// Probe 3: the transpose.
// BUF-NEXT: %[[L3:.*]] = llvm.mlir.constant(3 : i32) : i32
// BUF-NEXT: llvm.call @__tpuprof_begin_guard(%[[L3]]) : (i32) -> ()
// BUF-NEXT: %[[TR:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x16x4xf32>
// BUF-NEXT: arith.constant {{[0-9]+}} : index
// BUF-NEXT: arith.index_cast
// BUF-NEXT: memref.extract_aligned_pointer_as_index %[[TR]]
// BUF-NEXT: arith.index_cast
// BUF-NEXT: arith.constant 1 : i32
// BUF-NEXT: llvm.call @__tpuprof_alloc_guard
// BUF-NEXT: linalg.transpose ins(%[[ADD]] : memref<1x4x16xf32>) outs(%[[TR]] : memref<1x16x4xf32>) permutation = [0, 2, 1]
// BUF-NEXT: %[[L3:.*]] = llvm.mlir.constant(3 : i32) : i32
// BUF-NEXT: llvm.call @__tpuprof_end_guard(%[[L3]]) : (i32) -> ()
// BUF-NEXT: return %[[TR]] : memref<1x16x4xf32>

// In the LLVM dialect the local ids are constants hoisted to the entry.
// Each op's allocation and loop nest lie between its own calls; the
// buffers are freed after the last probe.
// LLVM-LABEL: llvm.func @main(
// LLVM-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// LLVM-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// LLVM-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// LLVM-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// Probe 0 (exp).
// LLVM: llvm.call @__tpuprof_begin_guard(%[[C0]]) : (i32) -> ()
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.call @malloc
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.intr.exp
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.call @__tpuprof_end_guard(%[[C0]]) : (i32) -> ()
// LLVM-NOT: llvm.call @malloc
// LLVM-NOT: llvm.f{{mul|add}}
// LLVM-NOT: llvm.intr.exp
// Probe 1 (matmul): malloc, zero-fill loop, then the fmul/fadd loop nest.
// LLVM: llvm.call @__tpuprof_begin_guard(%[[C1]]) : (i32) -> ()
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.call @malloc
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.store
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.fmul
// LLVM-NEXT: llvm.fadd
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// The exp's buffer dies here, its last reader (tpu-profile-free-early).
// LLVM: llvm.call @free
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.call @__tpuprof_end_guard(%[[C1]]) : (i32) -> ()
// LLVM-NOT: llvm.call @malloc
// LLVM-NOT: llvm.fmul
// Probe 2 (add).
// LLVM: llvm.call @__tpuprof_begin_guard(%[[C2]]) : (i32) -> ()
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.call @malloc
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.fadd
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.call @__tpuprof_end_guard(%[[C2]]) : (i32) -> ()
// LLVM-NOT: llvm.call @malloc
// LLVM-NOT: llvm.f{{mul|add}}
// Probe 3 (transpose): loads and stores only.
// LLVM: llvm.call @__tpuprof_begin_guard(%[[C3]]) : (i32) -> ()
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.call @malloc
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.store
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.call @__tpuprof_end_guard(%[[C3]]) : (i32) -> ()
// LLVM-NOT: llvm.call @malloc
// LLVM-NOT: llvm.store
// LLVM-NOT: llvm.call @__tpuprof_{{begin|end}}
// LLVM: llvm.return

// The optimizing pipeline: the same order, each op's vector code between
// its own calls (exp as a polynomial of FMAs, the matmul as broadcasts and
// FMAs, the add as vector adds, the transpose as shuffles).
// OPT-LABEL: llvm.func @main(
// OPT-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// OPT-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// OPT-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// OPT-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// Probe 0 (exp).
// OPT: llvm.call @__tpuprof_begin_guard(%[[C0]]) : (i32) -> ()
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.call @malloc
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.intr.fma({{.*}}) : (vector<
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.store {{.*}} : vector<
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.call @__tpuprof_end_guard(%[[C0]]) : (i32) -> ()
// OPT-NOT: llvm.call @malloc
// OPT-NOT: llvm.intr.fma(
// Probe 1 (matmul): its buffer, the zero fill, then broadcasts and FMAs.
// OPT: llvm.call @__tpuprof_begin_guard(%[[C1]]) : (i32) -> ()
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.call @malloc
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.shufflevector
// OPT: llvm.intr.fmuladd({{.*}}) : (vector<
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.call @__tpuprof_end_guard(%[[C1]]) : (i32) -> ()
// OPT-NOT: llvm.call @malloc
// OPT-NOT: llvm.intr.fmuladd(
// Probe 2 (add), in place: one-shot bufferization writes the sum into the
// matmul's buffer, which nothing reads afterwards. The buffer holds the
// add's result, so its allocation is recorded in the add's probe.
// OPT: llvm.call @__tpuprof_begin_guard(%[[C2]]) : (i32) -> ()
// OPT-NEXT: llvm.call @__tpuprof_alloc_guard(
// OPT-NOT: llvm.call @
// OPT: llvm.fadd {{.*}} : vector<
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.call @__tpuprof_end_guard(%[[C2]]) : (i32) -> ()
// OPT-NOT: llvm.call @malloc
// OPT-NOT: llvm.fadd
// Probe 3 (transpose).
// OPT: llvm.call @__tpuprof_begin_guard(%[[C3]]) : (i32) -> ()
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.call @malloc
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.shufflevector
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.store
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.call @__tpuprof_end_guard(%[[C3]]) : (i32) -> ()
// OPT-NOT: llvm.call @malloc
// OPT-NOT: llvm.store
// OPT-NOT: llvm.call @__tpuprof_{{begin|end}}
// OPT: llvm.return
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
// The optimizing pipeline's first half: each instrumented op is one vector
// read, its arithmetic and one write between its own probes; without probes
// the two ops are one.
// VFUSE-LABEL: func.func @fusion_barrier
// VFUSE: tpuprof.begin 0
// VFUSE-NEXT: tensor.empty
// VFUSE-NEXT: vector.transfer_read
// VFUSE-NEXT: arith.negf
// VFUSE-NEXT: vector.transfer_write
// VFUSE-NEXT: tpuprof.end 0
// VFUSE-NEXT: tpuprof.begin 1
// VFUSE-NEXT: tensor.empty
// VFUSE-NEXT: vector.transfer_read
// VFUSE-NEXT: math.exp
// VFUSE-NEXT: vector.transfer_write
// VFUSE-NEXT: tpuprof.end 1
// VFUSE-NEXT: return
// VNOFUSE-LABEL: func.func @fusion_barrier
// VNOFUSE: vector.transfer_read
// VNOFUSE-NEXT: arith.negf
// VNOFUSE-NEXT: math.exp
// VNOFUSE-NEXT: vector.transfer_write
// VNOFUSE-NEXT: return
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
