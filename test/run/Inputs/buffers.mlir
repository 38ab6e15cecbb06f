// A model written on buffers, as MLIR's own integration tests are: it
// allocates and frees its memory itself (the built-in pipelines then add no
// deallocation of their own), prints with MLIR's runner utilities and
// carries a transform-dialect schedule, which tpuprof-run does not run.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %a = memref.alloc(%c4, %c4) : memref<?x?xf32>
  %b = memref.alloc(%c4, %c4) : memref<?x?xf32>
  %c = memref.alloc(%c4, %c4) : memref<?x?xf32>
  linalg.fill ins(%two : f32) outs(%a : memref<?x?xf32>)
  linalg.fill ins(%three : f32) outs(%b : memref<?x?xf32>)
  linalg.fill ins(%two : f32) outs(%c : memref<?x?xf32>)
  memref.store %three, %a[%c0, %c1] : memref<?x?xf32>
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  %u = memref.cast %c : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  return
}

transform.sequence failures(propagate) {
^bb0(%root: !transform.any_op):
  %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
  %tiled, %loops:3 = transform.structured.tile_using_for %mm tile_sizes [1, 2, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
}
