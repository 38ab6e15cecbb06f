//===- Passes.h - The CPU pipelines' own passes -----------------*- C++ -*-===//
//
// The passes the built-in CPU pipelines (Pipelines.h) add to upstream's.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_CPUCOMPILER_PASSES_H
#define TPUPROF_CPUCOMPILER_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tpuprof {

#define GEN_PASS_DECL
#include "tpuprof/CpuCompiler/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpuprof/CpuCompiler/Passes.h.inc"

} // namespace tpuprof

#endif // TPUPROF_CPUCOMPILER_PASSES_H
