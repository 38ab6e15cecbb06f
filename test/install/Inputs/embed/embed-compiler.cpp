//===- embed-compiler.cpp - a compiler that embeds the tpuprof passes -----===//
//
// Parses a module, runs a module pipeline that contains
// tpu-profile-instrument (registered by registerTpuProfilePasses()), and
// prints the result:
//   embed-compiler MODEL.mlir 'tpu-profile-instrument{mode=0}'
//
//===----------------------------------------------------------------------===//

#include "tpuprof/passes/mlir/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: embed-compiler MODEL.mlir PIPELINE\n";
    return 2;
  }
  tpuprof::registerTpuProfilePasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect>();
  tpuprof::registerTpuProfDialect(registry);
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  if (mlir::failed(mlir::parsePassPipeline(argv[2], pm, llvm::errs())) ||
      mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
