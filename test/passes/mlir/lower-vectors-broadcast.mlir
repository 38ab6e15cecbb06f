// RUN: tpuprof-opt %s --tpu-profile-lower-vectors | FileCheck %s

// A softmax's row values against its row maximum: the [4,64,1] maximum is
// read as vector<1x2x64> broadcast along its unit inner dimension. The two
// elements there are read once and each is splat across its row; no
// transpose, no insert per element.
// CHECK-LABEL: func.func @inner_unit_broadcast
// CHECK-NOT: vector.transpose
// CHECK: %[[ROWS:.*]] = vector.transfer_read %arg1[%arg3, %arg4, %{{.*}}], %{{.*}} {in_bounds = [true, true]} : memref<4x64x1xf32>, vector<2x1xf32>
// CHECK: %[[A:.*]] = vector.extract %[[ROWS]][0, 0] : f32 from vector<2x1xf32>
// CHECK: vector.splat %[[A]] : vector<64xf32>
// CHECK: %[[B:.*]] = vector.extract %[[ROWS]][1, 0] : f32 from vector<2x1xf32>
// CHECK: vector.splat %[[B]] : vector<64xf32>
// CHECK-NOT: vector.insertelement
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @inner_unit_broadcast(%x: memref<4x64x64xf32>, %m: memref<4x64x1xf32>, %out: memref<4x64x64xf32>, %i: index, %j: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %x[%i, %j, %c0], %pad {in_bounds = [true, true, true]} : memref<4x64x64xf32>, vector<1x2x64xf32>
  %b = vector.transfer_read %m[%i, %j, %c0], %pad {in_bounds = [true, true, true], permutation_map = affine_map<(d0, d1, d2) -> (d0, d1, 0)>} : memref<4x64x1xf32>, vector<1x2x64xf32>
  %d = arith.subf %a, %b : vector<1x2x64xf32>
  vector.transfer_write %d, %out[%i, %j, %c0] {in_bounds = [true, true, true]} : vector<1x2x64xf32>, memref<4x64x64xf32>
  return
}

// Two unit dimensions broadcast, the middle one among them: the 16
// elements there are read once (the unit dimensions dropped by a subview)
// and each is splat along the innermost.
// CHECK-LABEL: func.func @middle_unit_broadcast
// CHECK-NOT: vector.transpose
// CHECK: %[[E:.*]] = vector.transfer_read {{.*}} : memref<2x8xf32>, vector<2x8xf32>
// CHECK-COUNT-16: vector.splat
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @middle_unit_broadcast(%m: memref<2x1x8x1xf32>, %out: memref<2x4x8x16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %b = vector.transfer_read %m[%c0, %c0, %c0, %c0], %pad {in_bounds = [true, true, true, true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, 0)>} : memref<2x1x8x1xf32>, vector<2x4x8x16xf32>
  vector.transfer_write %b, %out[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<2x4x8x16xf32>, memref<2x4x8x16xf32>
  return
}

// A broadcast of a dimension that is not a unit one is not this pattern's
// (the element it broadcasts is at the index, not the whole dimension):
// no read of a unit-sized vector.
// CHECK-LABEL: func.func @not_unit
// CHECK-NOT: vector<2x1xf32>
// CHECK: return
func.func @not_unit(%m: memref<4x64x8xf32>, %out: memref<4x64x64xf32>, %i: index, %j: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %b = vector.transfer_read %m[%i, %j, %c0], %pad {in_bounds = [true, true, true], permutation_map = affine_map<(d0, d1, d2) -> (d0, d1, 0)>} : memref<4x64x8xf32>, vector<1x2x64xf32>
  vector.transfer_write %b, %out[%i, %j, %c0] {in_bounds = [true, true, true]} : vector<1x2x64xf32>, memref<4x64x64xf32>
  return
}
