// RUN: tpuprof-opt %s --tpu-profile-instrument --tpu-profile-instrument --verify-diagnostics | FileCheck %s

// Running the pass twice does not wrap ops twice.
// CHECK-LABEL: tpuprof.probes [{{.*}}]
// CHECK: tpuprof.begin 0
// CHECK-NOT: tpuprof.begin
// expected-warning@+1 {{tpu-profile-instrument: module is already instrumented; leaving it unchanged}}
module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = tosa.abs %a : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
