// A graph op that lowers to a runtime call: @main calls the external
// @run_kernels (defined in a shared library compiled with the LLVM plugin),
// which launches kernels through launchKernel. The launches nest under the
// func.call op's probe.
func.func private @run_kernels(i64, i64)

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %launches = arith.constant 3 : i64
  %work = arith.constant 100000 : i64
  func.call @run_kernels(%launches, %work) : (i64, i64) -> ()
  %y = tosa.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
