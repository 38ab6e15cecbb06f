// --tpu-profile-fuse-elementwise fuses elementwise ops as upstream's
// linalg-fuse-elementwise-ops does, except into an op that reduces two of
// its inputs together: a ReLU6 (or a residual add) before a 1x1
// convolution, which TOSA's lowering makes a matmul on collapsed tensors
// and the pass a 4-D generic, stays an op of its own, and the convolution
// keeps a multiply-accumulate body.
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,tpu-profile-fuse-elementwise))' | FileCheck %s
// In the built-in pipeline the clamp is then a kernel of its own and the
// convolution is tiled and vectorized as a contraction: one vector.contract
// per tile, on the tensor the clamp wrote, with no clamp in between.
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-cpu{probe-level=kernel})' --mlir-print-ir-before=one-shot-bufferize -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE

// CHECK-LABEL: func.func @relu6_conv1x1
// CHECK:       %[[CLAMPED:.+]] = linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.minimumf
// CHECK-NEXT:    arith.maximumf
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:    ins(%[[CLAMPED]],
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.mulf
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    linalg.yield
// PIPE:        tpuprof.probes [{{.*}} name = "clamp",
// PIPE-NEXT:     name = "conv2d:copy"
// PIPE-NEXT:     name = "conv2d:reduction"
// PIPE-LABEL:  func.func @relu6_conv1x1
// PIPE:        tpuprof.begin 0(
// PIPE:        arith.minimumf
// PIPE:        arith.maximumf
// PIPE:        tpuprof.end 0(
// PIPE:        %[[IN:.+]]:2 = tpuprof.begin 2(
// PIPE:        scf.for
// PIPE:        scf.for
// PIPE-NOT:    arith.minimumf
// PIPE:        %[[A:.+]] = vector.transfer_read %[[IN]]#0
// PIPE-NEXT:   %[[B:.+]] = vector.transfer_read %[[IN]]#1
// PIPE-NEXT:   %[[C:.+]] = vector.transfer_read
// PIPE-NEXT:   vector.contract {{.*}} %[[A]], %[[B]], %[[C]]
// PIPE:        tpuprof.end 2(
func.func @relu6_conv1x1(%x: tensor<1x8x8x16xf32>, %w: tensor<32x1x1x16xf32>) -> tensor<1x8x8x32xf32> {
  %b = "tosa.const"() <{value = dense<0.25> : tensor<32xf32>}> : () -> tensor<32xf32>
  %a = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %y = tosa.conv2d %a, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<32x1x1x16xf32>, tensor<32xf32>) -> tensor<1x8x8x32xf32>
  return %y : tensor<1x8x8x32xf32>
}

// -----

// A residual add before a matmul stays apart too.
// CHECK-LABEL: func.func @add_matmul
// CHECK:       %[[SUM:.+]] = linalg.generic
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    linalg.yield
// CHECK:       linalg.batch_matmul ins(%[[SUM]],
// PIPE:        tpuprof.probes [{{.*}} name = "add",
// PIPE-NEXT:     name = "matmul"
func.func @add_matmul(%x: tensor<1x8x16xf32>, %r: tensor<1x8x16xf32>, %w: tensor<1x16x32xf32>) -> tensor<1x8x32xf32> {
  %s = tosa.add %x, %r : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %y = tosa.matmul %s, %w : (tensor<1x8x16xf32>, tensor<1x16x32xf32>) -> tensor<1x8x32xf32>
  return %y : tensor<1x8x32xf32>
}

// -----

// Elementwise chains still become one op, and a reduction of one input
// takes its elementwise producer: a subtract, a ReLU6 and an exponential
// summed along rows are one kernel.
// CHECK-LABEL: func.func @chain_into_sum
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.subf
// CHECK-NEXT:    arith.minimumf
// CHECK-NEXT:    arith.maximumf
// CHECK-NEXT:    math.exp
// CHECK-NEXT:    arith.addf
// CHECK-NOT:   linalg.generic
// PIPE:        tpuprof.probes [{{.*}} name = "reduce_sum+sub+clamp+exp"
func.func @chain_into_sum(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8x1xf32> {
  %d = tosa.sub %x, %y : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %c = tosa.clamp %d {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %e = tosa.exp %c : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<8x64xf32>) -> tensor<8x1xf32>
  return %s : tensor<8x1xf32>
}
