// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument | FileCheck %s
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument | tpuprof-opt --split-input-file | FileCheck %s

// Every tosa op gets a probe pair; constants and terminators do not.
// CHECK-LABEL: tpuprof.probes [{{.*}}name = "tosa.add"
// CHECK-NEXT: name = "tosa.mul"
// CHECK: func.func @tosa_ops
func.func @tosa_ops(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: %[[C:.*]] = "tosa.const"
  // CHECK-NOT: tpuprof.begin 0(%[[C]]
  %c = "tosa.const"() {value = dense<1.0> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
  // CHECK: %[[IN:.*]]:2 = tpuprof.begin 0(%arg0, %arg1) : tensor<4x8xf32>, tensor<4x8xf32>
  // CHECK-NEXT: %[[ADD:.*]] = tosa.add %[[IN]]#0, %[[IN]]#1
  // CHECK-NEXT: %[[ADD_OUT:.*]] = tpuprof.end 0(%[[ADD]]) : tensor<4x8xf32>
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // Constant operands are used directly, not forwarded.
  // CHECK-NEXT: %[[IN2:.*]] = tpuprof.begin 1(%[[ADD_OUT]]) : tensor<4x8xf32>
  // CHECK-NEXT: %[[MUL:.*]] = tosa.mul %[[IN2]], %[[C]]
  // CHECK-NEXT: %[[MUL_OUT:.*]] = tpuprof.end 1(%[[MUL]])
  %1 = tosa.mul %0, %c {shift = 0 : i8} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT: return %[[MUL_OUT]]
  return %1 : tensor<4x8xf32>
}

// -----

// Calls are instrumented, except calls into the runtime itself; ops that
// are not graph-level (arith) are left alone.
// CHECK-LABEL: tpuprof.probes [{bytes = 128, dyn_dims = 0, flops = 0, function = "calls", hash = "{{[0-9a-f]+}}", location = "{{.*}}instrument-selection.mlir{{.*}}:{{[0-9]+}}:{{[0-9]+}}", name = "func.call @kernel", shapes = "f32[16]", out_shapes = "f32[16]"}]
// CHECK: func.func @calls
func.func private @kernel(tensor<16xf32>) -> tensor<16xf32>
func.func private @__tpuprof_helper()
func.func @calls(%x: tensor<16xf32>, %i: index) -> tensor<16xf32> {
  // CHECK-NOT: tpuprof.begin {{.*}}(%arg1)
  // CHECK: arith.addi
  %j = arith.addi %i, %i : index
  // CHECK: %[[IN:.*]] = tpuprof.begin 0(%arg0)
  // CHECK-NEXT: %[[R:.*]] = call @kernel(%[[IN]])
  // CHECK-NEXT: tpuprof.end 0(%[[R]])
  %r = func.call @kernel(%x) : (tensor<16xf32>) -> tensor<16xf32>
  // CHECK-NEXT: call @__tpuprof_helper()
  // CHECK-NOT: tpuprof.end
  func.call @__tpuprof_helper() : () -> ()
  return %r : tensor<16xf32>
}

// -----

// linalg structured ops (named and generic) get probes; the ops inside a
// linalg body never do, even when selected by name.
// Static FLOPs: matmul = 8*16*4 points x (mulf + addf); generic = 32 negf.
// Bytes: operands and results (512 + 256 + 128 + 128 for the matmul).
// CHECK-LABEL: tpuprof.probes [{bytes = 1024, dyn_dims = 0, flops = 1024, {{.*}}name = "linalg.matmul", shapes = "f32[8, 16], f32[16, 4], f32[8, 4]", num_outs = 1},
// CHECK-NEXT: {bytes = 256, dyn_dims = 0, flops = 32, {{.*}}name = "linalg.generic"
// CHECK: func.func @linalg_ops
func.func @linalg_ops(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // CHECK: tpuprof.begin 0(%arg0, %arg1, %arg2)
  // CHECK-NEXT: linalg.matmul
  // CHECK-NEXT: tpuprof.end 0
  %0 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  // CHECK: tpuprof.begin 1
  // CHECK-NEXT: linalg.generic
  // CHECK-NOT: tpuprof.begin
  // CHECK: arith.negf
  // CHECK-NOT: tpuprof.begin
  // CHECK: linalg.yield
  // CHECK: tpuprof.end 1
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%0 : tensor<8x4xf32>) {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// Ops on buffers: probes forward the memrefs and keep their order.
// CHECK-LABEL: tpuprof.probes [{{.*}}name = "linalg.copy"
// CHECK: func.func @memref_ops
func.func @memref_ops(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  // CHECK: %[[IN:.*]]:2 = tpuprof.begin 0(%arg0, %arg1) : memref<4x4xf32>, memref<4x4xf32>
  // CHECK-NEXT: linalg.copy ins(%[[IN]]#0 : memref<4x4xf32>) outs(%[[IN]]#1 : memref<4x4xf32>)
  // CHECK-NEXT: tpuprof.end 0{{$}}
  linalg.copy ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>)
  return
}

// -----

// gpu.launch_func is a graph-level launch.
// CHECK-LABEL: module attributes {gpu.container_module} {
// CHECK-NEXT: tpuprof.probes [{{.*}}name = "gpu.launch_func"
// CHECK: func.func @launch
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<16xf32>) kernel { gpu.return }
  }
  func.func @launch(%x: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    // CHECK: tpuprof.begin 0(%arg0)
    // CHECK-NEXT: gpu.launch_func @kernels::@k
    // CHECK-NEXT: tpuprof.end 0
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<16xf32>)
    return
  }
}

// -----

// Device code gets no probes: a gpu.func is a function, but its body runs on
// the device, which cannot call the host runtime. The host op still does.
// CHECK-LABEL: module attributes {gpu.container_module} {
// CHECK-NEXT: tpuprof.probes [{{.*}}name = "tosa.negate"{{.*}}}]
// CHECK: gpu.func @device_tosa
// CHECK-NOT: tpuprof.begin
// CHECK: gpu.return
// CHECK: func.func @host
// CHECK: tpuprof.begin 0
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @device_tosa(%a: tensor<4xf32>) kernel {
      %b = tosa.abs %a : (tensor<4xf32>) -> tensor<4xf32>
      gpu.return
    }
  }
  func.func @host(%a: tensor<4xf32>) -> tensor<4xf32> {
    %b = tosa.negate %a : (tensor<4xf32>) -> tensor<4xf32>
    return %b : tensor<4xf32>
  }
}
