// The op hash does not depend on printer command-line flags: attributes are
// printed with fixed flags, so neither eliding nor hex-printing large
// elements attributes changes a hash, and two ops that differ in one weight
// still hash differently.
//
// RUN: tpuprof-opt %s --allow-unregistered-dialect --tpu-profile-instrument | grep -o 'hash = "[0-9a-f]*"' > %t.plain
// RUN: tpuprof-opt %s --allow-unregistered-dialect --tpu-profile-instrument --mlir-elide-elementsattrs-if-larger=2 | grep -o 'hash = "[0-9a-f]*"' > %t.elided
// RUN: tpuprof-opt %s --allow-unregistered-dialect --tpu-profile-instrument --mlir-print-elementsattrs-with-hex-if-larger=2 | grep -o 'hash = "[0-9a-f]*"' > %t.hex
// RUN: diff %t.plain %t.elided
// RUN: diff %t.plain %t.hex
// The two ops differ in one weight, so their hashes must differ:
// RUN: sort -u %t.elided | count 2
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "top.Scale"(%a) {scale = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "top.Scale"(%0) {scale = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0]> : tensor<8xf32>} : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
