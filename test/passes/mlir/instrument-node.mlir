// A location's name part is the probe's node: a NameLoc's name (not the
// op type an importer nests inside it), every name inside a FusedLoc, a
// CallSiteLoc's callee's name. The location keeps its file position; an op
// without a name has no node.
// RUN: tpuprof-opt %s --tpu-profile-instrument="manifest=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// At the kernel level a kernel fused from several nodes lists them all, in
// program order, as it lists their locations:
// RUN: tpuprof-opt %s --pass-pipeline='builtin.module(tpu-profile-tag-sources,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,linalg-fuse-elementwise-ops),tpu-profile-instrument{probe-level=kernel})' | FileCheck %s --check-prefix=KERNEL
// The node survives the lowering into the binary table:
// RUN: tpuprof-opt %s --tpu-profile-instrument --tpu-profile-lower | FileCheck %s --check-prefix=LOWER

// CHECK: tpuprof.probes
// CHECK-SAME: location = "encoder/layer0/mul", name = "tosa.mul"{{.*}}node = "encoder/layer0/mul"}
// CHECK-NEXT: location = "model.py:12:5", name = "tosa.add"{{.*}}node = "encoder/layer0/add"}
// CHECK-NEXT: location = "conv1", name = "tosa.clamp"{{.*}}node = "conv1"}
// CHECK-NEXT: location = "{{.*}}instrument-node.mlir:{{[0-9]+}}:{{[0-9]+}}", name = "tosa.negate"
// CHECK-NOT: node =
// CHECK-SAME: }
// CHECK-NEXT: location = "lib.py:3:1", name = "tosa.exp"{{.*}}node = "decoder/exp"}
// CHECK-NEXT: location = "a.py:1:1", name = "tosa.abs"{{.*}}node = "a; b"}

// MANIFEST: "location": "model.py:12:5",
// MANIFEST-NEXT: "name": "tosa.add",
// MANIFEST-NEXT: "node": "encoder/layer0/add",

// KERNEL: location = "encoder/layer0/mul; model.py:12:5; conv1; {{.*}}instrument-node.mlir:{{[0-9]+}}:{{[0-9]+}}; lib.py:3:1; a.py:1:1", name = "mul+add+clamp+negate+exp+abs"
// KERNEL-SAME: node = "encoder/layer0/mul; encoder/layer0/add; conv1; decoder/exp; a; b"}

// LOWER: llvm.mlir.global internal constant @__tpuprof_probe_table(
// LOWER-SAME: \00encoder/layer0/mul\00encoder/layer0/mul\00
// LOWER-SAME: \00model.py:12:5\00encoder/layer0/add\00
func.func @layers(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.mul %a, %b {shift = 0 : i8} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("encoder/layer0/mul")
  %1 = tosa.add %0, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(fused["encoder/layer0/add", "model.py":12:5])
  %2 = tosa.clamp %1 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<4xf32>) -> tensor<4xf32> loc("conv1"("Conv"))
  %3 = tosa.negate %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = tosa.exp %3 : (tensor<4xf32>) -> tensor<4xf32> loc(callsite("decoder/exp"("lib.py":3:1) at "main.py":9:1))
  %5 = tosa.abs %4 : (tensor<4xf32>) -> tensor<4xf32> loc(fused["a"("a.py":1:1), "b"])
  return %5 : tensor<4xf32>
}
