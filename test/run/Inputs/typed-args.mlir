// Arguments and results of the element types beyond f32/f64 and signed
// integers: unsigned integers (signless in the IR, marked unsigned as the
// ONNX importer marks them) and half floats.
func.func @main(%a: tensor<4xi8> {tpuprof.unsigned}, %b: tensor<4xi16> {tpuprof.unsigned},
                %h: tensor<4xf16>, %g: tensor<4xbf16>)
    -> (tensor<4xi8> {tpuprof.unsigned}, tensor<4xi16> {tpuprof.unsigned}, tensor<4xf16>, tensor<4xbf16>) {
  %0 = tosa.add %a, %a : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %1 = tosa.add %b, %b : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  %2 = tosa.add %h, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %3 = tosa.add %g, %g : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  return %0, %1, %2, %3 : tensor<4xi8>, tensor<4xi16>, tensor<4xf16>, tensor<4xbf16>
}
