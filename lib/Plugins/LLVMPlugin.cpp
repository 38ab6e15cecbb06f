//===- LLVMPlugin.cpp - TpuProfilePlugin.so for opt and clang -------------===//
//
// The new-pass-manager plugin entry point:
//   opt -load-pass-plugin=TpuProfilePlugin.so -passes=tpu-profile-instrument
//   clang -fpass-plugin=TpuProfilePlugin.so   (instruments at -O0..-O3)
// The pass also runs at the start of every default pipeline, before
// inlining, so that annotated functions are wrapped before their bodies are
// inlined elsewhere (the probes travel with the body).
//
//===----------------------------------------------------------------------===//

#include "tpuprof/LLVMPass/Instrument.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;
using namespace tpuprof::llvmpass;

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "TpuProfilePlugin", "0.1",
          [](PassBuilder &pb) {
            pb.registerPipelineParsingCallback(
                [](StringRef name, ModulePassManager &mpm,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (name != "tpu-profile-instrument")
                    return false;
                  mpm.addPass(TpuProfileInstrumentPass());
                  return true;
                });
            // Checked when the pipeline is built: clang parses -mllvm
            // options after it loads the plugin.
            pb.registerPipelineStartEPCallback(
                [](ModulePassManager &mpm, OptimizationLevel) {
                  if (autoInstrumentEnabled())
                    mpm.addPass(TpuProfileInstrumentPass());
                });
          }};
}
