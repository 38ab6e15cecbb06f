//===- Registration.cpp - Register tpuprof passes and dialect -------------===//

#include "tpuprof/passes/mlir/Passes.h"

namespace tpuprof {
#define GEN_PASS_REGISTRATION
#include "tpuprof/passes/mlir/Passes.h.inc"
} // namespace tpuprof

void tpuprof::registerTpuProfilePasses() { registerTpuProfPasses(); }

void tpuprof::registerTpuProfDialect(mlir::DialectRegistry &registry) {
  registry.insert<TpuProfDialect>();
}
