//===- ModelSource.cpp - Parse a model the way tpuprof's tools do ---------===//

#include "tpuprof/ModelRunner/ModelSource.h"

#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/InitAllPasses.h"
#ifdef TPUPROF_HAVE_ONNX_IMPORT
#include "tpuprof/Import/OnnxImport.h"
#endif

#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/Path.h"

using namespace mlir;

void tpuprof::run::registerModelPasses() {
  registerAllPasses();
  tpuprof::registerTpuProfPasses();
  tpuprof::registerTpuProfPipelines();
}

llvm::Expected<tpuprof::run::ModelSource>
tpuprof::run::loadModel(llvm::StringRef path,
                        llvm::ArrayRef<std::string> onnxInputShapes,
                        llvm::ArrayRef<std::string> inputValueFiles) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  tpuprof::registerTpuProfDialect(registry);

  ModelSource model;
  model.context = std::make_unique<MLIRContext>(registry);
  model.context->allowUnregisteredDialects();
  if (llvm::sys::path::extension(path).equals_insensitive(".onnx")) {
#ifdef TPUPROF_HAVE_ONNX_IMPORT
    tpuprof::import::ImportOptions options;
    for (const std::string &spec : onnxInputShapes)
      if (llvm::Error err = tpuprof::import::parseInputShape(spec, options))
        return std::move(err);
    options.inputValueFiles.assign(inputValueFiles.begin(),
                                   inputValueFiles.end());
    auto module = tpuprof::import::importOnnxFile(path, *model.context, options,
                                                  &model.foldedInputs);
    if (!module)
      return module.takeError();
    model.module = std::move(*module);
    return std::move(model);
#else
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        path + ": tpuprof was built without the ONNX importer (libonnx-dev)");
#endif
  }
  if (!onnxInputShapes.empty())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "--input-shape binds an ONNX model's inputs; " + path +
            " is MLIR (give its shapes with --input)");
  std::string errorMessage;
  auto file = openInputFile(path, &errorMessage);
  if (!file)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   errorMessage);
  model.sourceMgr = std::make_unique<llvm::SourceMgr>();
  model.sourceMgr->AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  model.diagnostics = std::make_unique<SourceMgrDiagnosticHandler>(
      *model.sourceMgr, model.context.get());
  model.module =
      parseSourceFile<ModuleOp>(*model.sourceMgr, model.context.get());
  if (!model.module)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot parse " + path);
  return std::move(model);
}

llvm::Error tpuprof::run::lowerModel(ModelSource &model, llvm::StringRef path,
                                     llvm::ArrayRef<llvm::StringRef> entries,
                                     const ModelPipelineOptions &options) {
  PassManager pm(model.context.get());
  if (llvm::Error err = tpuprof::buildModelPipeline(pm, options))
    return err;
  tpuprof::eraseUnreachableSymbols(*model.module, entries);
  if (llvm::Error err = tpuprof::runModelPipeline(pm, *model.module))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot lower " + path + ": " +
                                       llvm::toString(std::move(err)));
  return llvm::Error::success();
}
