//===- ModelSource.h - Parse a model the way tpuprof's tools do -*- C++ -*-===//
//
// The context every front-end that compiles a model needs (all upstream
// dialects and extensions, tpuprof's dialect, the LLVM IR translations) and
// the parse of a .mlir file with its diagnostics on stderr, or the import
// of a .onnx one.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_MODELSOURCE_H
#define TPUPROF_MODELRUNNER_MODELSOURCE_H

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace tpuprof {
namespace run {

/// A parsed model with the context and source manager it lives in.
struct ModelSource {
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// An ONNX model's inputs taken as constants from `inputValueFiles` (a
  /// shape depends on them), by position; they are not arguments.
  std::vector<unsigned> foldedInputs;
};

/// Registers the passes and pipelines front-ends may name (upstream's and
/// tpuprof's) before the command line is parsed.
void registerModelPasses();

/// Parses `path` ("-" for stdin), or imports it when it is an ONNX model
/// (FILE.onnx; `onnxInputShapes` are NAME=DIMS specs binding its symbolic
/// input dimensions; `inputValueFiles` the TensorProto files of its inputs,
/// by position, taken where a shape depends on one, lib/Import). Errors (one
/// line, "cannot parse FILE" after the parser's own diagnostics, or the
/// importer's "FILE: ...") come back as an llvm::Error.
llvm::Expected<ModelSource>
loadModel(llvm::StringRef path,
          llvm::ArrayRef<std::string> onnxInputShapes = {},
          llvm::ArrayRef<std::string> inputValueFiles = {});

/// Keeps what the functions `entries` reach and lowers the rest to the LLVM
/// dialect as `options` say (Pipelines.h). Errors are one line: a bad
/// pipeline, or `cannot lower FILE: file:line:col: ...`.
llvm::Error lowerModel(ModelSource &model, llvm::StringRef path,
                       llvm::ArrayRef<llvm::StringRef> entries,
                       const ModelPipelineOptions &options);

} // namespace run
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_MODELSOURCE_H
