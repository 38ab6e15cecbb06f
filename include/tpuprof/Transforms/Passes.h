//===- Passes.h - tpuprof MLIR transforms -----------------------*- C++ -*-===//
//
// --tpu-profile-instrument, which puts probes around graph-level ops or
// kernels, --tpu-profile-tag-sources, and what other passes need to know of
// their output.
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

/// Key of the dictionary that --tpu-profile-tag-sources puts on a source
/// op's location (`fused<{tpuprof.op = "tosa.add"}>[loc]`), and that
/// kernel-level probes read their source ops from.
inline constexpr llvm::StringLiteral kSourceTagKey = "tpuprof.op";

/// Attribute of a function that the built-in pipeline split off a larger
/// one (--tpu-profile-outline-ops): the larger one's name. Calls of it are
/// not the model's calls, and its ops belong to that function.
inline constexpr llvm::StringLiteral kOutlinedAttrName = "tpuprof.outlined";

#define GEN_PASS_REGISTRATION
#include "tpuprof/Transforms/Passes.h.inc"

} // namespace tpuprof

#endif // TPUPROF_TRANSFORMS_PASSES_H
