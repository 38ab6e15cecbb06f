//===- OnnxModel.h - Load an ONNX model and infer its shapes ----*- C++ -*-===//
//
// The importer's first stage: the ModelProto read with libonnx's protobuf
// classes, graph inputs' symbolic dimensions bound, ONNX shape inference
// (with data propagation) run, and every value's inferred type by name.
// The only file that calls into libonnx's C++ API, which reports errors
// with exceptions: it is built with them and lets none escape.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_LIB_IMPORT_ONNXMODEL_H
#define TPUPROF_LIB_IMPORT_ONNXMODEL_H

#include "tpuprof/Import/OnnxImport.h"

#include "onnx/onnx_pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace tpuprof {
namespace import {

struct OnnxModel {
  onnx::ModelProto proto;
  /// The default domain's opset the model imports.
  int64_t opset = 0;
  /// Every value's type after shape inference: graph inputs, outputs and
  /// value_info.
  llvm::StringMap<const onnx::TypeProto *> types;
  /// The graph inputs that are not initializers in the file, in order: the
  /// positions ImportOptions::inputValueFiles refers to.
  std::vector<std::string> argumentNames;
};

/// Reads `path`, binds the graph inputs' dimensions (options.inputShapes,
/// else the model's static ones; an unbound symbolic dimension is an error
/// naming input and dimension) and infers every value's shape.
/// The inputs at positions `fold` (among the entry's arguments) become
/// initializers holding options.inputValueFiles' tensors.
llvm::Expected<std::unique_ptr<OnnxModel>>
loadOnnxModel(llvm::StringRef path, const ImportOptions &options,
              llvm::ArrayRef<unsigned> fold = {});

/// Runs ONNX shape inference (strict, with data propagation) on the model
/// and records every value's type in `types`.
llvm::Error inferShapes(OnnxModel &model);

/// The graph inputs that are not initializers: the entry's arguments.
std::vector<const onnx::ValueInfoProto *>
runtimeInputs(const onnx::GraphProto &graph);

/// The bytes of the input file `path`, read (not mapped: a file that
/// shrinks while read must not kill the tool); anything but a regular file
/// (a FIFO would block, a device never ends) is refused. Errors say what,
/// for the caller to prefix with the path.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path);

} // namespace import
} // namespace tpuprof

#endif // TPUPROF_LIB_IMPORT_ONNXMODEL_H
