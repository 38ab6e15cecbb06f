//===- OnnxData.h - Inputs and expected outputs in ONNX's layout -*- C++
//-*-===//
//
// `tpuprof-run MODEL --data DIR`: DIR/input_N.pb (TensorProto files, as
// ONNX's test data keeps them) are the entry's arguments in order; where
// DIR/output_N.pb exist, the results are compared with them as ONNX's
// backend tests compare (|got - want| <= atol + rtol * |want|).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_ONNXDATA_H
#define TPUPROF_MODELRUNNER_ONNXDATA_H

#include "tpuprof/ModelRunner/RunInputs.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace run {

struct OnnxData {
  /// --input specs ("2x3xf32=v,...") made from input_N.pb, in order.
  std::vector<std::string> inputSpecs;
  /// The files they were read from.
  std::vector<std::string> inputFiles;
  struct Expected {
    std::string file;
    std::vector<int64_t> shape;
    std::vector<double> values;
  };
  /// output_N.pb, in order (none: nothing to compare).
  std::vector<Expected> outputs;
};

/// True when tpuprof-run can read TensorProto files (built with the ONNX
/// importer).
bool onnxDataSupported();

/// Reads DIR/input_0.pb, input_1.pb, ... and DIR/output_0.pb, ...
llvm::Expected<OnnxData> readOnnxData(llvm::StringRef dir);

/// Compares `results` with `data.outputs`; prints one line per output
/// (`output N: ok|MISMATCH, worst |diff| ... at [index]`) and fails on a
/// mismatch in shape or values.
llvm::Error compareOnnxOutputs(const OnnxData &data,
                               const EntryResults &results, double rtol,
                               double atol, llvm::raw_ostream &os);

} // namespace run
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_ONNXDATA_H
