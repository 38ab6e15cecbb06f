//===- OnnxImport.h - ONNX models to TOSA -----------------------*- C++ -*-===//
//
// tpuprof's ONNX front end: reads a ModelProto with libonnx's protobuf
// classes, binds symbolic input dimensions, runs ONNX shape inference and
// emits `func.func @main` in TOSA (tensor and arith where TOSA has no form).
// Every op carries its ONNX node's name and op type as its location
// (`loc("conv1"("Conv"))`), so the profile's rows name ONNX nodes. Weights
// become dense_resource blobs. docs/import.md lists the ops it converts.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_IMPORT_ONNXIMPORT_H
#define TPUPROF_IMPORT_ONNXIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tpuprof {
namespace import {

struct ImportOptions {
  /// Shapes of graph inputs by name (--input-shape NAME=1x3x224x224); they
  /// bind the inputs' symbolic dimensions.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// The name of the function the graph becomes.
  std::string entryName = "main";
  /// Values of the graph inputs, by position among the entry's arguments
  /// (tpuprof-run --data's input_N.pb files; "" where none). Each gives its
  /// input's shape where --input-shape does not; its value is taken only
  /// where a shape depends on it (Slice's starts, Pad's pads, Resize's
  /// scales, Range's bounds): that input becomes a constant and leaves the
  /// entry's arguments.
  std::vector<std::string> inputValueFiles;
};

/// Parses "NAME=1x3x224x224" into `options.inputShapes`.
llvm::Error parseInputShape(llvm::StringRef spec, ImportOptions &options);

/// True if `path` names an ONNX model (by its .onnx extension).
bool isOnnxPath(llvm::StringRef path);

/// The ONNX op types (default domain) the importer converts, sorted.
std::vector<std::string> supportedOnnxOps();

/// The dialects the imported module uses, loaded into `context`.
void loadImportDialects(mlir::MLIRContext &context);

/// Imports the ONNX model in `path` into a new module in `context`. Errors
/// are one line: "FILE: ..." (not an ONNX model, an unbound symbolic
/// dimension, `node 'NAME' (OpType, opset N) is not supported`).
/// `foldedInputs`, when given, receives the positions of the inputs taken
/// as constants from `options.inputValueFiles`, in increasing order.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxFile(llvm::StringRef path, mlir::MLIRContext &context,
               const ImportOptions &options = {},
               std::vector<unsigned> *foldedInputs = nullptr);

} // namespace import
} // namespace tpuprof

#endif // TPUPROF_IMPORT_ONNXIMPORT_H
