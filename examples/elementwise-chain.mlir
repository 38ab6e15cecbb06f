// A chain of four elementwise TOSA ops on 256x256 floats, which the built-in
// pipeline fuses into one kernel: at the default (kernel) probe level
// tpuprof-run prints one row, add+mul+sub+clamp, with the four source lines;
// at --probe-level=graph one row per op, of an unfused program.
//
//   tpuprof-run examples/elementwise-chain.mlir
func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %sum = tosa.add %a, %b : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %product = tosa.mul %sum, %b {shift = 0 : i8} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %difference = tosa.sub %product, %a : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %relu6 = tosa.clamp %difference {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<256x256xf32>) -> tensor<256x256xf32>
  return %relu6 : tensor<256x256xf32>
}
