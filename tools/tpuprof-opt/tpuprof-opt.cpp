//===- tpuprof-opt.cpp - mlir-opt with the tpuprof passes -----------------===//
//
// MlirOptMain with every upstream dialect and pass plus tpuprof's passes and
// built-in pipelines, so that models can be instrumented and lowered with
// one tool.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/InitAllPasses.h"
#include "tpuprof/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  tpuprof::setVersionPrinter("tpuprof-opt");
  mlir::registerAllPasses();
  tpuprof::registerTpuProfPasses();
  tpuprof::registerTpuProfPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  tpuprof::registerTpuProfDialect(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tpuprof optimizer driver\n", registry));
}
