// RUN: tpuprof-opt %s --tpu-profile-instrument="include=arith.mulf" --canonicalize --loop-invariant-code-motion | FileCheck %s
// RUN: tpuprof-opt %s --canonicalize --loop-invariant-code-motion | FileCheck %s --check-prefix=PLAIN

// Scalar operands and results are forwarded too, so a loop-invariant scalar
// op stays inside its probes (and its loop); without probes LICM hoists it.
// CHECK-LABEL: tpuprof.probes [{{.*}}name = "arith.mulf", shapes = "f32, f32", out_shapes = "f32"}]
// CHECK: scf.for
// CHECK-NEXT: %[[IN:.*]]:2 = tpuprof.begin 0(%arg1, %arg1) : f32, f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[IN]]#0, %[[IN]]#1
// CHECK-NEXT: %[[OUT:.*]] = tpuprof.end 0(%[[M]]) : f32
// CHECK-NEXT: memref.store %[[OUT]]
// PLAIN-LABEL: func.func @loop
// PLAIN: arith.mulf
// PLAIN-NEXT: scf.for
func.func @loop(%out: memref<16xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %y = arith.mulf %x, %x : f32
    memref.store %y, %out[%i] : memref<16xf32>
  }
  return
}
