//===- InitAllPasses.h - Register the profiler's MLIR passes ----*- C++ -*-===//
//
// Entry points for compilers that embed the tpuprof passes (the library
// tpuprof::mlir_passes): the probe dialect, --tpu-profile-instrument and
// --tpu-profile-lower. The built-in CPU pipelines register on their own
// (tpuprof/CpuCompiler/Pipelines.h).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_INITALLPASSES_H
#define TPUPROF_INITALLPASSES_H

#include "tpuprof/Conversion/Passes.h"
#include "tpuprof/Dialect/Probe/ProbeDialect.h"
#include "tpuprof/Transforms/Passes.h"

namespace tpuprof {

/// Registers --tpu-profile-instrument and --tpu-profile-lower with the
/// global pass registry.
inline void registerTpuProfPasses() {
  registerTpuProfTransformsPasses();
  registerTpuProfConversionPasses();
}

/// Old name of registerTpuProfPasses().
inline void registerTpuProfilePasses() { registerTpuProfPasses(); }

} // namespace tpuprof

#endif // TPUPROF_INITALLPASSES_H
