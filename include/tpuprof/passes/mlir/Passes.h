//===- Passes.h - tpuprof MLIR passes (old include path) --------*- C++ -*-===//
//
// What this header declared before the passes moved: the probe dialect,
// --tpu-profile-instrument, --tpu-profile-lower and their registration.
// New code includes tpuprof/InitAllPasses.h or the headers it includes.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_PASSES_MLIR_PASSES_H
#define TPUPROF_PASSES_MLIR_PASSES_H

#include "tpuprof/InitAllPasses.h"

#endif // TPUPROF_PASSES_MLIR_PASSES_H
