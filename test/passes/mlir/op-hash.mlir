// The op hash of docs/hash.md: a function of the op's name, attributes
// (tpuprof.* excluded), operand/result types and, recursively, its regions;
// never of locations, SSA names or pointers.
//
// The stock mlir-opt cannot load a sanitizer build's plugin.
// UNSUPPORTED: sanitizer
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument | FileCheck %s
// Stable across processes (hashing a pointer would differ under ASLR):
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument | grep -o 'hash = "[0-9a-f]*"' > %t.run1
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument | grep -o 'hash = "[0-9a-f]*"' > %t.run2
// RUN: diff %t.run1 %t.run2
// Stable across tools: stock mlir-opt with the pass plugin computes the same.
// RUN: mlir-opt %s --split-input-file --allow-unregistered-dialect --load-pass-plugin=%tpuprof_lib/TpuProfileMLIRPlugin.so --pass-pipeline='builtin.module(tpu-profile-instrument)' | grep -o 'hash = "[0-9a-f]*"' > %t.plugin
// RUN: diff %t.run1 %t.plugin
// Stable across a print/parse cycle in the generic form (inherent attributes
// as properties vs. as attributes make no difference):
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo | tpuprof-opt --split-input-file --allow-unregistered-dialect --tpu-profile-instrument | grep -o 'hash = "[0-9a-f]*"' > %t.generic
// RUN: diff %t.run1 %t.generic
// The pinned reference value of docs/hash.md:
// RUN: tpuprof-opt %s --split-input-file --allow-unregistered-dialect --tpu-profile-instrument | FileCheck %s --check-prefix=PIN

// Same op, same types -> same hash; locations and tpuprof.* attributes do
// not count, any other attribute does.
// PIN-LABEL: tpuprof.probes [{bytes = 48, dyn_dims = 0, flops = 4, function = "same", hash = "fbb04a67f313e7bf", {{[^}]*}}name = "tosa.add", shapes = "f32[4], f32[4]", out_shapes = "f32[4]"}
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: hash = "[[H:[0-9a-f]+]]", location = "{{[^"]*}}op-hash.mlir{{[^"]*}}", name = "tosa.add"
// CHECK-NEXT: hash = "[[H]]", location = "{{[^"]*}}op-hash.mlir{{[^"]*}}", name = "tosa.add"
// CHECK-NEXT: hash = "[[H]]", location = "model.py:7:3", name = "tosa.add"
// CHECK-NEXT: hash = "[[H]]", location = "{{[^"]*}}op-hash.mlir{{[^"]*}}", name = "tosa.add"
// CHECK-NOT: hash = "[[H]]"
// CHECK-NEXT: name = "tosa.add"
// CHECK-NOT: hash = "[[H]]"
// CHECK-SAME: }]
func.func @same(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.add %0, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = tosa.add %1, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("model.py":7:3)
  %3 = tosa.add %2, %a {tpuprof.note = "ignored"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = tosa.add %3, %a {user.note = "counted"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// Another module (and another function): still the same hash.
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: hash = "[[H]]", location = "{{[^"]*}}", name = "tosa.add"
func.func @elsewhere(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.add %y, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Different shape.
// CHECK-LABEL: tpuprof.probes [
// CHECK-NOT: hash = "[[H]]"
// CHECK-SAME: name = "tosa.add", shapes = "f32[8], f32[8]", out_shapes = "f32[8]"
func.func @shape(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tosa.add %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Different element type.
// CHECK-LABEL: tpuprof.probes [
// CHECK-NOT: hash = "[[H]]"
// CHECK-SAME: name = "tosa.add", shapes = "f16[4], f16[4]", out_shapes = "f16[4]"
func.func @element_type(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tosa.add %a, %b : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Different op name, same types.
// CHECK-LABEL: tpuprof.probes [
// CHECK-NOT: hash = "[[H]]"
// CHECK-SAME: name = "tosa.sub", shapes = "f32[4], f32[4]", out_shapes = "f32[4]"
func.func @name(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.sub %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Different attribute value: same op and types, axis 0 vs axis 1.
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: hash = "[[AX0:[0-9a-f]+]]", {{[^}]*}}name = "tosa.reduce_max"
// CHECK-NOT: hash = "[[AX0]]"
// CHECK-NEXT: name = "tosa.reduce_max"
// CHECK-SAME: }]
func.func @attribute(%a: tensor<4x4xf32>) -> (tensor<1x4xf32>, tensor<4x1xf32>) {
  %0 = tosa.reduce_max %a {axis = 0 : i32} : (tensor<4x4xf32>) -> tensor<1x4xf32>
  %1 = tosa.reduce_max %a {axis = 1 : i32} : (tensor<4x4xf32>) -> tensor<4x1xf32>
  return %0, %1 : tensor<1x4xf32>, tensor<4x1xf32>
}

// -----

// Same attributes, different result type only.
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: hash = "[[R:[0-9a-f]+]]", {{[^}]*}}name = "tosa.cast"
// CHECK-NOT: hash = "[[R]]"
// CHECK-NEXT: name = "tosa.cast"
// CHECK-SAME: }]
func.func @result_type(%a: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xi32>) {
  %0 = tosa.cast %a : (tensor<4xf32>) -> tensor<4xf16>
  %1 = tosa.cast %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0, %1 : tensor<4xf16>, tensor<4xi32>
}

// -----

// Different callee, same signature; the same callee twice hashes equal.
// The rows name the callee; the hash is the op's own.
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: hash = "[[K1:[0-9a-f]+]]", {{[^}]*}}name = "func.call @kernel_a"
// CHECK-NOT: hash = "[[K1]]"
// CHECK-NEXT: name = "func.call @kernel_b"
// CHECK-NEXT: hash = "[[K1]]", {{[^}]*}}name = "func.call @kernel_a"
// CHECK-SAME: }]
func.func private @kernel_a(tensor<4xf32>) -> tensor<4xf32>
func.func private @kernel_b(tensor<4xf32>) -> tensor<4xf32>
func.func @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @kernel_a(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @kernel_b(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = func.call @kernel_a(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// linalg.generic: same maps and types, different body (negf vs absf) ->
// different hash; the same body with other SSA names -> same hash.
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: hash = "[[G:[0-9a-f]+]]", {{[^}]*}}name = "linalg.generic"
// CHECK-NOT: hash = "[[G]]"
// CHECK-NEXT: name = "linalg.generic"
// CHECK-NEXT: hash = "[[G]]", {{[^}]*}}name = "linalg.generic"
// CHECK-SAME: }]
#id = affine_map<(d0) -> (d0)>
func.func @bodies(%a: tensor<4xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %n = math.absf %x : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    linalg.yield %neg : f32
  } -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Unregistered ops hash like any other: by name, attributes and types.
// CHECK-LABEL: tpuprof.probes [
// CHECK-SAME: hash = "[[U:[0-9a-f]+]]", {{[^}]*}}name = "top.Conv"
// CHECK-NEXT: hash = "[[U]]", {{[^}]*}}name = "top.Conv"
// CHECK-NOT: hash = "[[U]]"
// CHECK-NEXT: name = "top.Conv"
// CHECK-SAME: }]
func.func @unregistered(%a: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %0 = "top.Conv"(%a) {kernel = [3, 3]} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %1 = "top.Conv"(%0) {kernel = [3, 3]} : (tensor<1x8xf32>) -> tensor<1x8xf32> loc("resnet.onnx":12:0)
  %2 = "top.Conv"(%1) {kernel = [1, 1]} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %2 : tensor<1x8xf32>
}
