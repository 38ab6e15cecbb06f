// --tpu-profile-page-align-loops moves each loop nest at the top of a
// function that runs at least min-work ops into a private, never-inlined
// function aligned to a 4 KiB page, called in its place. Constants and
// globals' addresses are cloned into it; other values it uses are its
// arguments, its results the loop's. Short nests stay where they are.
// RUN: tpuprof-opt %s --tpu-profile-page-align-loops | FileCheck %s
// RUN: tpuprof-opt %s --tpu-profile-page-align-loops=min-work=100000000 | FileCheck %s --check-prefix=NONE

memref.global "private" constant @weights : memref<256xf32> = dense<1.0>

// CHECK-LABEL: func.func @model(
// CHECK-SAME:      %[[IN:.*]]: memref<256x256xf32>, %[[OUT:.*]]: memref<256x256xf32>, %[[N:.*]]: index)
// CHECK:         %[[SUM:.*]] = call @model_loop(%[[IN]], %[[OUT]]) : (memref<256x256xf32>, memref<256x256xf32>) -> f32
// CHECK:         scf.for %{{.*}} = %c0 to %c8
// CHECK:         call @model_loop_0(%[[SUM]], %[[OUT]], %[[N]])
// CHECK:         return %[[SUM]]
// CHECK:       func.func private @model_loop(%{{.*}}: memref<256x256xf32>, %{{.*}}: memref<256x256xf32>) -> f32 attributes {alignment = 4096 : i64, no_inline}
// CHECK-DAG:     memref.get_global @weights
// CHECK-DAG:     arith.constant 256 : index
// CHECK:         %[[R:.*]] = scf.for
// CHECK:         return %[[R]] : f32
// CHECK:       func.func private @model_loop_0(%{{.*}}: f32, %{{.*}}: memref<256x256xf32>, %{{.*}}: index) attributes {alignment = 4096 : i64, no_inline}
// NONE-NOT:    call
// NONE-NOT:    alignment
func.func @model(%in: memref<256x256xf32>, %out: memref<256x256xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @weights : memref<256xf32>
  // 256 x 256 iterations of 6 ops: outlined, with its sum as the result.
  %sum = scf.for %i = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> (f32) {
    %row = scf.for %j = %c0 to %c256 step %c1 iter_args(%a = %acc) -> (f32) {
      %x = memref.load %in[%i, %j] : memref<256x256xf32>
      %y = memref.load %w[%j] : memref<256xf32>
      %z = arith.mulf %x, %y : f32
      memref.store %z, %out[%i, %j] : memref<256x256xf32>
      %s = arith.addf %a, %z : f32
      scf.yield %s : f32
    }
    scf.yield %row : f32
  }
  // 8 x 8 iterations: stays.
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %zero, %out[%i, %j] : memref<256x256xf32>
    }
  }
  // A dynamic trip count counts as one trip: 256 x 256 inner ops, outlined.
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c256 step %c1 {
      scf.for %k = %c0 to %c256 step %c1 {
        memref.store %sum, %out[%j, %k] : memref<256x256xf32>
      }
    }
  }
  return %sum : f32
}
