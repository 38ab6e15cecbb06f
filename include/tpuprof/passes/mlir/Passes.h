//===- Passes.h - tpuprof MLIR passes ---------------------------*- C++ -*-===//
//
// Entry points for compilers that embed the tpuprof passes.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_PASSES_MLIR_PASSES_H
#define TPUPROF_PASSES_MLIR_PASSES_H

#include "tpuprof/passes/mlir/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tpuprof {

#define GEN_PASS_DECL
#include "tpuprof/passes/mlir/Passes.h.inc"

/// Name of the probe table: the `tpuprof.probes` op, and the module
/// attribute that held the table in earlier builds (still read by
/// --tpu-profile-lower, never written).
inline constexpr llvm::StringLiteral kProbesAttrName = "tpuprof.probes";

/// The internal functions --tpu-profile-lower calls at the probes, which
/// check the runtime's enabled flag before calling it (docs/passes.md). The
/// begin guard of a probe with n dynamic dimensions is the dims prefix
/// followed by n.
inline constexpr llvm::StringLiteral kBeginGuardName = "__tpuprof_begin_guard";
inline constexpr llvm::StringLiteral kEndGuardName = "__tpuprof_end_guard";
inline constexpr llvm::StringLiteral kBeginDimsGuardPrefix =
    "__tpuprof_begin_dims_guard_";

/// Registers --tpu-profile-instrument and --tpu-profile-lower with the
/// global pass registry.
void registerTpuProfilePasses();

/// Wraps `module`'s memref.alloc/alloca/realloc/dealloc in guarded calls of
/// the runtime's memory entries (--tpu-profile-lower{memory}); idempotent.
void wrapMemoryOps(mlir::ModuleOp module);

/// Registers the tpuprof dialect with `registry`.
void registerTpuProfDialect(mlir::DialectRegistry &registry);

} // namespace tpuprof

#endif // TPUPROF_PASSES_MLIR_PASSES_H
