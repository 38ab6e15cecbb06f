//===- ProbeToLLVM.h - Probes to guarded runtime calls ----------*- C++ -*-===//
//
// --tpu-profile-lower: the probes become calls of guard functions in the
// LLVM dialect that check the runtime's enabled flag (docs/passes.md), and
// memref allocations are wrapped for memory tracking.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_CONVERSION_PROBETOLLVM_PROBETOLLVM_H
#define TPUPROF_CONVERSION_PROBETOLLVM_PROBETOLLVM_H

#include "tpuprof/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tpuprof {

#define GEN_PASS_DECL_TPUPROFILELOWER
#include "tpuprof/Conversion/Passes.h.inc"

/// The internal functions --tpu-profile-lower calls at the probes, which
/// check the runtime's enabled flag before calling it (docs/passes.md). The
/// begin guard of a probe with n dynamic dimensions is the dims prefix
/// followed by n.
inline constexpr llvm::StringLiteral kBeginGuardName = "__tpuprof_begin_guard";
inline constexpr llvm::StringLiteral kEndGuardName = "__tpuprof_end_guard";
inline constexpr llvm::StringLiteral kBeginDimsGuardPrefix =
    "__tpuprof_begin_dims_guard_";

/// Wraps `module`'s memref.alloc/alloca/realloc/dealloc in guarded calls of
/// the runtime's memory entries (--tpu-profile-lower{memory}); idempotent.
void wrapMemoryOps(mlir::ModuleOp module);

} // namespace tpuprof

#endif // TPUPROF_CONVERSION_PROBETOLLVM_PROBETOLLVM_H
