//===- Passes.h - tpuprof MLIR conversions ----------------------*- C++ -*-===//
//
// Registration of tpuprof's conversion passes (--tpu-profile-lower).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_CONVERSION_PASSES_H
#define TPUPROF_CONVERSION_PASSES_H

#include "tpuprof/Conversion/ProbeToLLVM/ProbeToLLVM.h"

namespace tpuprof {

#define GEN_PASS_REGISTRATION
#include "tpuprof/Conversion/Passes.h.inc"

} // namespace tpuprof

#endif // TPUPROF_CONVERSION_PASSES_H
