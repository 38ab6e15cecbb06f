//===- Passes.h - tpuprof MLIR transforms -----------------------*- C++ -*-===//
//
// --tpu-profile-instrument, which puts probes around graph-level ops, and
// what other passes need to know of its output.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TRANSFORMS_PASSES_H
#define TPUPROF_TRANSFORMS_PASSES_H

#include "tpuprof/Dialect/Probe/ProbeDialect.h"
#include "tpuprof/format.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tpuprof {

#define GEN_PASS_DECL
#include "tpuprof/Transforms/Passes.h.inc"

/// Name of the probe table: the `tpuprof.probes` op, and the module
/// attribute that held the table in earlier builds (still read by
/// --tpu-profile-lower, never written).
inline constexpr llvm::StringLiteral kProbesAttrName = "tpuprof.probes";

#define GEN_PASS_REGISTRATION
#include "tpuprof/Transforms/Passes.h.inc"

} // namespace tpuprof

#endif // TPUPROF_TRANSFORMS_PASSES_H
