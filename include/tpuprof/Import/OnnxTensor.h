//===- OnnxTensor.h - ONNX TensorProto files --------------------*- C++ -*-===//
//
// The files ONNX's test data keeps inputs and expected outputs in
// (test_data_set_N/input_0.pb): one serialized TensorProto each.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_IMPORT_ONNXTENSOR_H
#define TPUPROF_IMPORT_ONNXTENSOR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tpuprof {
namespace import {

struct TensorData {
  std::string name;
  std::vector<int64_t> shape;
  /// tpuprof-run's element type names (model.h's tpuprof_elem_type_name):
  /// f32, f64, f16, bf16, i1, i8 ... i64, ui8 ... ui64.
  std::string elemType;
  std::vector<double> values;
};

/// Reads the TensorProto in `path`. Errors are one line naming the file.
llvm::Expected<TensorData> readTensorFile(llvm::StringRef path);

} // namespace import
} // namespace tpuprof

#endif // TPUPROF_IMPORT_ONNXTENSOR_H
