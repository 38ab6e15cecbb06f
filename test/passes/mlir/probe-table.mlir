// The probe table op: printed first in the module, one entry per line, read
// back to the same text, kept by canonicalization (it declares no effects,
// so it is not trivially dead), and its attribute form parses on its own.
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument | FileCheck %s
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument > %t.mlir
// RUN: tpuprof-opt %t.mlir --split-input-file --allow-unregistered-dialect | diff %t.mlir -
// RUN: tpuprof-opt %t.mlir --split-input-file --allow-unregistered-dialect --canonicalize | FileCheck %s --check-prefix=CANON
// The manifest carries the same locations (one split: each split rewrites it).
// RUN: sed -n '/^func.func @locs/,/^}/p' %s | tpuprof-opt --tpu-profile-instrument=manifest=%t.json > /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// The probe id is a property: it survives bytecode and the generic form.
// RUN: sed -n '/^func.func @locs/,/^}/p' %s | tpuprof-opt --tpu-profile-instrument > %t.one.mlir
// RUN: tpuprof-opt %t.one.mlir --emit-bytecode | tpuprof-opt | diff %t.one.mlir -
// RUN: tpuprof-opt %t.one.mlir --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tpuprof-opt %t.one.mlir --mlir-print-op-generic | tpuprof-opt | diff %t.one.mlir -
// GENERIC: "tpuprof.begin"({{.*}}) <{probe = 0 : i64}>
// GENERIC: "tpuprof.end"({{.*}}) <{probe = 0 : i64}>

// CHECK-LABEL: module {
// CHECK-NEXT: tpuprof.probes [{bytes = 48, dyn_dims = 0, flops = 4, function = "locs", hash = "{{[0-9a-f]+}}", location = "model.py:7:3", name = "tosa.add", shapes = "f32[4], f32[4]", out_shapes = "f32[4]"},
// CHECK-NEXT: {{^    }}{bytes = 32, {{.*}}, location = "conv\22 1", name = "tosa.abs", shapes = "f32[4]", out_shapes = "f32[4]", node = "conv\22 1"},
// CHECK-NEXT: {{^    }}{bytes = 32, {{.*}}, location = "", name = "tosa.negate", shapes = "f32[4]", out_shapes = "f32[4]"}]{{$}}
// CHECK-NEXT: func.func @locs
// CANON-LABEL: module {
// CANON-NEXT: tpuprof.probes [{bytes = 48,
// JSON: "location": "model.py:7:3",
// JSON: "location": "conv\" 1",
// JSON: "location": "",
func.func @locs(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("model.py":7:3)
  %1 = tosa.abs %0 : (tensor<4xf32>) -> tensor<4xf32> loc("conv\22 1")
  %2 = tosa.negate %1 : (tensor<4xf32>) -> tensor<4xf32> loc(unknown)
  return %2 : tensor<4xf32>
}

// -----

// A module with nothing to instrument gets an empty table.
// CHECK-LABEL: module {
// CHECK-NEXT: tpuprof.probes []
// CHECK-NEXT: func.func @nothing
func.func @nothing(%a: f32) -> f32 {
  return %a : f32
}

// -----

// The attribute alone, on any op.
// CHECK-LABEL: module {
// CHECK: "test.table"() {table = #tpuprof.probes<[{bytes = 1, dyn_dims = 2, flops = 3, function = "g", hash = "00000000000000ff", location = "a.mlir:1:2", name = "x.y", shapes = ""}, {bytes = 0, {{.*}}name = "z"{{.*}}}]>}
module {
  "test.table"() {table = #tpuprof.probes<[{bytes = 1, dyn_dims = 2, flops = 3, function = "g", hash = "ff", location = "a.mlir:1:2", name = "x.y", shapes = ""}, {bytes = 0, dyn_dims = 0, flops = 0, function = "", hash = "0", location = "", name = "z", shapes = ""}]>} : () -> ()
}

// -----

// The reader takes what the dictionary syntax allows: integers with a type,
// keys in any order, and keys it does not know (ignored); it prints the
// table back in its own form.
// CHECK-LABEL: module {
// CHECK-NEXT: tpuprof.probes [{bytes = 16, dyn_dims = 1, flops = 4, function = "f", hash = "00000000000000ab", location = "a.mlir:3:4", name = "tosa.abs", shapes = "f32[?]"}]
module {
  tpuprof.probes [{name = "tosa.abs", hash = "ab", bytes = 16 : i64, dyn_dims = 1 : i64, flops = 4 : i64, function = "f", location = "a.mlir:3:4", shapes = "f32[?]", note = [1, "x"]}]
}
