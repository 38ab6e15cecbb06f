// RUN: tpuprof-opt %s --split-input-file --tpu-profile-order-constants | FileCheck %s

// Bufferization's constants, as an unlucky run leaves them: the order and
// the suffixes say in which order it reached @second and @first. After the
// pass: in the order of their first use, named in that order.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_2x3xi8 : memref<2x3xi8> = dense<3>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<4.000000e+00>
// A global no one reads comes after those; other symbols stay where they are.
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_2 : memref<4xf32> = dense<5.000000e+00>
// CHECK-NEXT: memref.global "private" @state
// CHECK-LABEL: func.func @first
// CHECK: memref.get_global @__constant_4xf32 :
// CHECK: memref.get_global @__constant_4xf32_0 :
// CHECK: memref.get_global @__constant_4xf32 :
// CHECK-LABEL: func.func @second
// CHECK: memref.get_global @__constant_2x3xi8 :
// CHECK: memref.get_global @__constant_4xf32_1 :
// CHECK: memref.get_global @state :
module {
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<4.0>
  memref.global "private" constant @__constant_2x3xi8 : memref<2x3xi8> = dense<3>
  memref.global "private" constant @__constant_4xf32_2 : memref<4xf32> = dense<5.0>
  memref.global "private" @state : memref<4xf32> = uninitialized
  memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<1.0>
  memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<2.0>
  func.func @first() -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
    %a = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    %b = memref.get_global @__constant_4xf32_1 : memref<4xf32>
    %c = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    return %a, %b, %c : memref<4xf32>, memref<4xf32>, memref<4xf32>
  }
  func.func @second() -> (memref<2x3xi8>, memref<4xf32>, memref<4xf32>) {
    %a = memref.get_global @__constant_2x3xi8 : memref<2x3xi8>
    %b = memref.get_global @__constant_4xf32 : memref<4xf32>
    %c = memref.get_global @state : memref<4xf32>
    return %a, %b, %c : memref<2x3xi8>, memref<4xf32>, memref<4xf32>
  }
}

// -----

// A name another symbol holds is skipped, not taken.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT: memref.global "private" constant @__constant_4xf32_2 : memref<4xf32> = dense<2.000000e+00>
// CHECK: func.func @__constant_4xf32_0
// CHECK: memref.global @__constant_4xf32 :
module {
  memref.global "private" constant @__constant_4xf32_7 : memref<4xf32> = dense<2.0>
  memref.global "private" constant @__constant_4xf32_9 : memref<4xf32> = dense<1.0>
  func.func @__constant_4xf32_0() -> (memref<4xf32>, memref<4xf32>) {
    %a = memref.get_global @__constant_4xf32_9 : memref<4xf32>
    %b = memref.get_global @__constant_4xf32_7 : memref<4xf32>
    return %a, %b : memref<4xf32>, memref<4xf32>
  }
  memref.global @__constant_4xf32 : memref<4xf32> = uninitialized
}
