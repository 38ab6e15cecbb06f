// A static tensor.empty is not forwarded through the begin probe (like a
// constant, it does no work); a dynamic one is, so its `?` dims are captured.
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-instrument | FileCheck %s
//
// Bufferization then gives the instrumented program the same buffers as the
// uninstrumented one: an init tensor shared by a fill and a linalg.generic's
// unread `outs` stays one allocation (forwarded through the probes it became
// two, and the conv net ran ~10 % slower).
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})' | FileCheck %s --check-prefix=BUF
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})' | FileCheck %s --check-prefix=BUF

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @shared_init
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[X:.*]] = tpuprof.begin 0(%arg0) : f32
// CHECK-NEXT: %[[FILL:.*]] = linalg.fill ins(%[[X]] : f32) outs(%[[INIT]] : tensor<4x8xf32>)
// CHECK-NEXT: %[[F:.*]] = tpuprof.end 0(%[[FILL]])
// CHECK: %[[IN:.*]] = tpuprof.begin 1(%[[F]]) : tensor<4x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[IN]] : tensor<4x8xf32>) outs(%[[INIT]] : tensor<4x8xf32>)
// BUF-LABEL: func.func @shared_init
// BUF: memref.alloc()
// BUF-NOT: memref.alloc()
// BUF: return
func.func @shared_init(%x: f32) -> tensor<4x8xf32> {
  %init = tensor.empty() : tensor<4x8xf32>
  %fill = linalg.fill ins(%x : f32) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%fill : tensor<4x8xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %relu : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_init
// CHECK: %[[INIT:.*]] = tensor.empty(%{{.*}}) : tensor<?x8xf32>
// CHECK: %[[IN:.*]]:2 = tpuprof.begin 0(%arg0, %[[INIT]]) : f32, tensor<?x8xf32>
// CHECK-NEXT: linalg.fill ins(%[[IN]]#0 : f32) outs(%[[IN]]#1 : tensor<?x8xf32>)
func.func @dynamic_init(%x: f32, %n: index) -> tensor<?x8xf32> {
  %init = tensor.empty(%n) : tensor<?x8xf32>
  %fill = linalg.fill ins(%x : f32) outs(%init : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %fill : tensor<?x8xf32>
}
