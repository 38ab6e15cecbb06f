// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument | FileCheck %s
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument=mode=0 | FileCheck %s --check-prefix=MODE0
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument=capture=0 | FileCheck %s --check-prefix=MODE0

// Dynamic dimensions show as '?' in the shapes and are counted in dyn_dims
// (captured at run time) except in mode 0. FLOPs and bytes are unknown (0).
// CHECK-LABEL: tpuprof.probes [{bytes = 0, dyn_dims = 3, flops = 0, {{.*}}name = "linalg.matmul", shapes = "f32[?, 784], f32[784, ?], f32[?, 128]", num_outs = 1}]
// MODE0-LABEL: tpuprof.probes [{bytes = 0, dyn_dims = 0, {{.*}}shapes = "f32[?, 784], f32[784, ?], f32[?, 128]", num_outs = 1}]
// CHECK: func.func @dynamic
// CHECK: tpuprof.begin 0(%arg0, %arg1, %arg2) : tensor<?x784xf32>, tensor<784x?xf32>, tensor<?x128xf32>
func.func @dynamic(%a: tensor<?x784xf32>, %b: tensor<784x?xf32>, %c: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x784xf32>, tensor<784x?xf32>) outs(%c : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}

// -----

// Unranked operands print with '*' and carry no dimensions.
// CHECK-LABEL: tpuprof.probes [{{.*}}dyn_dims = 0{{.*}}shapes = "f32[*]"}]
// CHECK: func.func @unranked
func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  %0 = tosa.abs %a : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
