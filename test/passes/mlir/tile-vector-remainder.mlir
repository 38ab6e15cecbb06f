// --tpu-profile-tile-and-vectorize on a loop along the vector lanes whose
// range no multiple of the vector divides (58 output channels, 16 lanes at
// 512 bits): tiles of one vector and a last one of 10, peeled into a loop
// of its own so that both are static, never 29-lane vectors (the divisor
// LLVM would split into 16 + 8 + 4 + 1 lanes with shuffles). A range two
// vectors divide keeps its tiles of 32, and one of two vectors or less is
// one tile.
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tpu-profile-tile-and-vectorize{vector-bits=512}))' | FileCheck %s
// The same with kernel probes placed around the ops first:
// RUN: tpuprof-opt %s --split-input-file --pass-pipeline='builtin.module(tpu-profile-instrument{probe-level=kernel},func.func(tpu-profile-tile-and-vectorize{vector-bits=512}))' | FileCheck %s

// CHECK-LABEL: func.func @matmul_58
// CHECK-NOT:   vector<{{[0-9x]*}}29xf32>
// CHECK:       scf.for %{{.*}} = %c0 to %c48 step %c16
// CHECK:         vector.contract {{.*}} vector<{{[0-9x]*}}16xf32>
// CHECK-NOT:   vector<{{[0-9x]*}}29xf32>
// CHECK:       vector.contract {{.*}} vector<{{[0-9x]*}}10xf32>
// CHECK-NOT:   vector<{{[0-9x]*}}29xf32>
// CHECK-NOT:   = linalg.matmul
// CHECK-LABEL: func.func @matmul_64
// CHECK:       vector.contract {{.*}} vector<{{[0-9x]*}}32xf32>
// CHECK-NOT:   = linalg.matmul
// CHECK-LABEL: func.func @matmul_20
// CHECK:       vector.contract {{.*}} vector<{{[0-9x]*}}20xf32>
// CHECK-NOT:   = linalg.matmul
func.func @matmul_58(%a: tensor<8x64xf32>, %b: tensor<64x58xf32>) -> tensor<8x58xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x58xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x58xf32>) -> tensor<8x58xf32>
  %y = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x58xf32>)
                     outs(%init : tensor<8x58xf32>) -> tensor<8x58xf32>
  return %y : tensor<8x58xf32>
}

// -----

func.func @matmul_64(%a: tensor<8x64xf32>, %b: tensor<64x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x64xf32>)
                     outs(%init : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

func.func @matmul_20(%a: tensor<8x64xf32>, %b: tensor<64x20xf32>) -> tensor<8x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x20xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x20xf32>) -> tensor<8x20xf32>
  %y = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x20xf32>)
                     outs(%init : tensor<8x20xf32>) -> tensor<8x20xf32>
  return %y : tensor<8x20xf32>
}
