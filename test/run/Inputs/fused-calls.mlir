// Two small called kernels and a chain of four elementwise TOSA ops on
// 256x256 floats. The built-in pipeline fuses each function's elementwise
// ops into one kernel: at the kernel probe level each call and each fused
// kernel is a row (mul+add in @scale_shift, negate+exp in @gate,
// add+mul+sub+clamp in @main).
func.func @scale_shift(%x: tensor<256x256xf32>, %s: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = tosa.mul %x, %s {shift = 0 : i8} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = tosa.add %0, %s : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %1 : tensor<256x256xf32>
}
func.func @gate(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = tosa.negate %x : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = tosa.exp %0 : (tensor<256x256xf32>) -> tensor<256x256xf32>
  return %1 : tensor<256x256xf32>
}
func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %x = call @scale_shift(%a, %b) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %y = call @gate(%x) : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = tosa.add %y, %b : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = tosa.mul %0, %a {shift = 0 : i8} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %2 = tosa.sub %1, %x : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %3 = tosa.clamp %2 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<256x256xf32>) -> tensor<256x256xf32>
  return %3 : tensor<256x256xf32>
}
