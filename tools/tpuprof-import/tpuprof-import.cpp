//===- tpuprof-import.cpp - ONNX model to MLIR in TOSA --------------------===//
//
// `tpuprof-import model.onnx -o model.mlir [--input-shape NAME=1x3x224x224]`
// writes the model as `func.func @main` in TOSA (lib/Import), what
// tpuprof-run and tpuprof-compile take; they also read .onnx directly.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/Import/OnnxImport.h"
#include "tpuprof/Version.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("tpuprof-import options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.onnx>"),
                               cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("FILE"), cl::init("-"),
                                cl::cat(category));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Shape of a graph input, binding its symbolic dimensions "
             "(repeatable): NAME=1x3x224x224"),
    cl::value_desc("NAME=DIMS"), cl::cat(category));
cl::opt<std::string> entryName("entry",
                               cl::desc("Name of the function (default: main)"),
                               cl::value_desc("FUNC"), cl::init("main"),
                               cl::cat(category));
cl::opt<bool> listOps("list-ops",
                      cl::desc("Print the ONNX op types it converts and exit"),
                      cl::cat(category));
cl::opt<bool> elideWeights(
    "elide-weights",
    cl::desc("Print weights as dense_resource<__elided__> (for reading the "
             "IR; the output cannot run)"),
    cl::cat(category));

int fail(const llvm::Twine &msg) {
  llvm::WithColor::error(llvm::errs(), "tpuprof-import") << msg << '\n';
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  tpuprof::setVersionPrinter("tpuprof-import");
  cl::ParseCommandLineOptions(
      argc, argv,
      "tpuprof-import: convert an ONNX model to MLIR (func.func in TOSA) for "
      "tpuprof-run and tpuprof-compile\n");
  if (listOps) {
    for (const std::string &op : tpuprof::import::supportedOnnxOps())
      llvm::outs() << op << '\n';
    return 0;
  }
  if (inputFile.empty())
    return fail("no model given (tpuprof-import model.onnx -o model.mlir)");
  tpuprof::import::ImportOptions options;
  options.entryName = entryName;
  for (const std::string &spec : inputShapes)
    if (llvm::Error err = tpuprof::import::parseInputShape(spec, options))
      return fail(llvm::toString(std::move(err)));

  mlir::MLIRContext context;
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
      tpuprof::import::importOnnxFile(inputFile, context, options);
  if (!module)
    return fail(llvm::toString(module.takeError()));

  std::string errorMessage;
  auto out = mlir::openOutputFile(outputFile, &errorMessage);
  if (!out)
    return fail(errorMessage);
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  if (elideWeights)
    flags.elideLargeResourceString(0);
  (**module)->print(out->os(), flags);
  out->os() << '\n';
  out->os().close();
  if (out->os().has_error()) {
    // A full disk is one line, and no partial file stays behind (the
    // ToolOutputFile removes it unless kept).
    std::string why = out->os().error().message();
    out->os().clear_error();
    return fail(outputFile + ": cannot write: " + why);
  }
  out->keep();
  return 0;
}
