// --tpu-profile-lower-copies turns a memref.copy between buffers that are not
// both contiguous into loops over the outer dimensions around a contiguous
// copy of the largest trailing block contiguous in both, which
// finalize-memref-to-llvm makes an llvm.memcpy; contiguous and dynamic
// copies stay as they are.
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-lower-copies | FileCheck %s
// Lowered to the LLVM dialect, each block is an llvm.memcpy; only the
// dynamic copy calls the generic memrefCopy.
// RUN: tpuprof-opt %s --split-input-file --tpu-profile-lower-copies --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM
// Without the pass, the same copies call memrefCopy:
// RUN: tpuprof-opt %s --split-input-file --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=GENERIC

// A pad's copy into the interior of its result: rows of 112x96 contiguous
// elements in both, one loop over the 112 rows (the unit batch needs none).
// CHECK-LABEL: func.func @pad_interior
// CHECK-SAME:    (%[[SRC:.+]]: memref<1x112x112x96xf32>, %[[DST:.+]]: memref<1x114x114x96xf32>)
// CHECK:         %[[SV:.+]] = memref.subview %[[DST]][0, 1, 1, 0]
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C112:.+]] = arith.constant 112 : index
// CHECK-NOT:     memref.copy
// CHECK:         scf.for %[[I:.+]] = %[[C0]] to %[[C112]] step %[[C1]] {
// CHECK-NEXT:      %[[FROM:.+]] = memref.subview %[[SRC]][0, %[[I]], 0, 0] [1, 1, 112, 96] [1, 1, 1, 1] : memref<1x112x112x96xf32> to memref<1x1x112x96xf32, strided<[1204224, 10752, 96, 1], offset: ?>>
// CHECK-NEXT:      %[[TO:.+]] = memref.subview %[[SV]][0, %[[I]], 0, 0] [1, 1, 112, 96] [1, 1, 1, 1] : memref<1x112x112x96xf32, strided<[1247616, 10944, 96, 1], offset: 11040>> to memref<1x1x112x96xf32, strided<[1247616, 10944, 96, 1], offset: ?>>
// CHECK-NEXT:      memref.copy %[[FROM]], %[[TO]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// LLVM-LABEL:  llvm.func @pad_interior
// LLVM:          "llvm.intr.memcpy"
// LLVM-NOT:      memrefCopy
// LLVM:          llvm.return
// GENERIC-LABEL: llvm.func @pad_interior
// GENERIC:       llvm.call @memrefCopy
func.func @pad_interior(%src: memref<1x112x112x96xf32>, %dst: memref<1x114x114x96xf32>) {
  %sv = memref.subview %dst[0, 1, 1, 0] [1, 112, 112, 96] [1, 1, 1, 1] : memref<1x114x114x96xf32> to memref<1x112x112x96xf32, strided<[1247616, 10944, 96, 1], offset: 11040>>
  memref.copy %src, %sv : memref<1x112x112x96xf32> to memref<1x112x112x96xf32, strided<[1247616, 10944, 96, 1], offset: 11040>>
  return
}

// -----

// Contiguous copies (identity layouts, or a contiguous subview at an
// offset) already become llvm.memcpy: untouched.
// CHECK-LABEL: func.func @contiguous
// CHECK-NOT:     scf.for
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<4x8xf32> to memref<4x8xf32>
// CHECK-NOT:     scf.for
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<2x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 16>>
// CHECK-NOT:     scf.for
// CHECK:         return
// LLVM-LABEL:  llvm.func @contiguous
// LLVM-NOT:      memrefCopy
// LLVM:          llvm.return
func.func @contiguous(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %c: memref<2x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  %sv = memref.subview %b[2, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 16>>
  memref.copy %c, %sv : memref<2x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 16>>
  return
}

// -----

// A concatenation along the channels (i8): each input row of 24 bytes goes
// to a slice of a 48-byte row; loops over the two image dimensions.
// CHECK-LABEL: func.func @concat_channels_i8
// CHECK:         scf.for %[[H:.+]] = %{{.+}} to %{{.+}}
// CHECK:           scf.for %[[W:.+]] = %{{.+}} to %{{.+}}
// CHECK-NEXT:        memref.subview %{{.+}}[0, %[[H]], %[[W]], 0] [1, 1, 1, 24] [1, 1, 1, 1] : memref<1x56x56x24xi8> to memref<1x1x1x24xi8, strided<[75264, 1344, 24, 1], offset: ?>>
// CHECK-NEXT:        memref.subview %{{.+}}[0, %[[H]], %[[W]], 0] [1, 1, 1, 24] [1, 1, 1, 1] : memref<1x56x56x24xi8, strided<[150528, 2688, 48, 1], offset: 24>> to memref<1x1x1x24xi8, strided<[150528, 2688, 48, 1], offset: ?>>
// CHECK-NEXT:        memref.copy
// LLVM-LABEL:  llvm.func @concat_channels_i8
// LLVM:          "llvm.intr.memcpy"
// LLVM-NOT:      memrefCopy
// LLVM:          llvm.return
func.func @concat_channels_i8(%a: memref<1x56x56x24xi8>, %out: memref<1x56x56x48xi8>) {
  %sv = memref.subview %out[0, 0, 0, 24] [1, 56, 56, 24] [1, 1, 1, 1] : memref<1x56x56x48xi8> to memref<1x56x56x24xi8, strided<[150528, 2688, 48, 1], offset: 24>>
  memref.copy %a, %sv : memref<1x56x56x24xi8> to memref<1x56x56x24xi8, strided<[150528, 2688, 48, 1], offset: 24>>
  return
}

// -----

// A slice copied out of a strided source into a contiguous buffer (f16,
// rank 2): the block is one row.
// CHECK-LABEL: func.func @slice_out_f16
// CHECK:         scf.for %[[I:.+]] =
// CHECK-NEXT:      memref.subview %{{.+}}[%[[I]], 0] [1, 5] [1, 1] : memref<3x5xf16, strided<[9, 1], offset: ?>> to memref<1x5xf16, strided<[9, 1], offset: ?>>
// CHECK-NEXT:      memref.subview %{{.+}}[%[[I]], 0] [1, 5] [1, 1] : memref<3x5xf16> to memref<1x5xf16, strided<[5, 1], offset: ?>>
// CHECK-NEXT:      memref.copy
// LLVM-LABEL:  llvm.func @slice_out_f16
// LLVM-NOT:      memrefCopy
// LLVM:          llvm.return
func.func @slice_out_f16(%src: memref<7x9xf16>, %i: index, %dst: memref<3x5xf16>) {
  %sv = memref.subview %src[%i, 2] [3, 5] [1, 1] : memref<7x9xf16> to memref<3x5xf16, strided<[9, 1], offset: ?>>
  memref.copy %sv, %dst : memref<3x5xf16, strided<[9, 1], offset: ?>> to memref<3x5xf16>
  return
}

// -----

// A copy whose innermost dimension is strided (a transposed view, i32):
// no contiguous block, one element per iteration of a loop nest.
// CHECK-LABEL: func.func @transposed_i32
// CHECK:         scf.for %[[I:.+]] =
// CHECK:           scf.for %[[J:.+]] =
// CHECK-NEXT:        %[[V:.+]] = memref.load %{{.+}}[%[[I]], %[[J]]] : memref<8x4xi32, strided<[1, 8]>>
// CHECK-NEXT:        memref.store %[[V]], %{{.+}}[%[[I]], %[[J]]] : memref<8x4xi32>
// CHECK-NOT:     memref.copy
// LLVM-LABEL:  llvm.func @transposed_i32
// LLVM-NOT:      memrefCopy
// LLVM:          llvm.return
func.func @transposed_i32(%src: memref<4x8xi32>, %dst: memref<8x4xi32>) {
  %t = memref.transpose %src (i, j) -> (j, i) : memref<4x8xi32> to memref<8x4xi32, strided<[1, 8]>>
  memref.copy %t, %dst : memref<8x4xi32, strided<[1, 8]>> to memref<8x4xi32>
  return
}

// -----

// Rank 5 with a trailing unit dimension and a strided middle: the block is
// the last two dimensions (16x1), loops over the three before it but the
// unit batch.
// CHECK-LABEL: func.func @rank5
// CHECK-COUNT-2: scf.for
// CHECK-NOT:     scf.for
// CHECK:         memref.subview %{{.+}}[0, %{{.+}}, %{{.+}}, 0, 0] [1, 1, 1, 16, 1] [1, 1, 1, 1, 1] : memref<1x3x4x16x1xf64> to memref<1x1x1x16x1xf64, strided<[192, 64, 16, 1, 1], offset: ?>>
// CHECK-NEXT:    memref.subview %{{.+}}[0, %{{.+}}, %{{.+}}, 0, 0] [1, 1, 1, 16, 1] [1, 1, 1, 1, 1] : memref<1x3x4x16x1xf64, strided<[480, 160, 32, 1, 1], offset: 8>> to memref<1x1x1x16x1xf64, strided<[480, 160, 32, 1, 1], offset: ?>>
// CHECK-NEXT:    memref.copy
// LLVM-LABEL:  llvm.func @rank5
// LLVM-NOT:      memrefCopy
// LLVM:          llvm.return
func.func @rank5(%src: memref<1x3x4x16x1xf64>, %dst: memref<1x3x5x32x1xf64>) {
  %sv = memref.subview %dst[0, 0, 0, 8, 0] [1, 3, 4, 16, 1] [1, 1, 1, 1, 1] : memref<1x3x5x32x1xf64> to memref<1x3x4x16x1xf64, strided<[480, 160, 32, 1, 1], offset: 8>>
  memref.copy %src, %sv : memref<1x3x4x16x1xf64> to memref<1x3x4x16x1xf64, strided<[480, 160, 32, 1, 1], offset: 8>>
  return
}

// -----

// Dynamic sizes: left to the generic path.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT:     scf.for
// CHECK:         memref.copy
// LLVM-LABEL:  llvm.func @dynamic
// LLVM:          llvm.call @memrefCopy
func.func @dynamic(%src: memref<?x8xf32>, %dst: memref<?x10xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %src, %c0 : memref<?x8xf32>
  %sv = memref.subview %dst[0, 1] [%n, 8] [1, 1] : memref<?x10xf32> to memref<?x8xf32, strided<[10, 1], offset: 1>>
  memref.copy %src, %sv : memref<?x8xf32> to memref<?x8xf32, strided<[10, 1], offset: 1>>
  return
}
