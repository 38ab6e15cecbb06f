//===- MLIRPlugin.cpp - tpuprof as an mlir-opt pass and dialect plugin ----===//
//
//   mlir-opt --load-pass-plugin=TpuProfileMLIRPlugin.so \
//            --pass-pipeline='builtin.module(tpu-profile-instrument,tpu-profile-cpu)'
//   mlir-opt --load-dialect-plugin=TpuProfileMLIRPlugin.so  (to read probes)
//
// MLIR itself comes from the host tool, which exports its symbols.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/InitAllPasses.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TpuProfile", LLVM_VERSION_STRING, []() {
            tpuprof::registerTpuProfPasses();
            tpuprof::registerTpuProfPipelines();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TpuProf", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            tpuprof::registerTpuProfDialect(*registry);
          }};
}
