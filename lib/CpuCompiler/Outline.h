//===- Outline.h - Ops moved into a function of their own -------*- C++ -*-===//
//
// What tpu-profile-outline-ops and tpu-profile-page-align-loops share.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_CPUCOMPILER_OUTLINE_H
#define TPUPROF_CPUCOMPILER_OUTLINE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tpuprof {

/// Moves `ops` (in order, from one block) into a new private, never-inlined
/// function named `name` (numbered by `symbols` when the name is taken:
/// NAME_0, NAME_1, ...) placed after `after`, and calls it where the last
/// one was. What the ops use from elsewhere is an argument, but for ops
/// `clonedHere` accepts, which are cloned into the callee; what later ops
/// use of theirs is returned.
mlir::func::FuncOp
outlineOps(llvm::ArrayRef<mlir::Operation *> ops, llvm::StringRef name,
           mlir::Operation *after, mlir::SymbolTable &symbols,
           llvm::function_ref<bool(mlir::Operation *)> clonedHere);

} // namespace tpuprof

#endif // TPUPROF_CPUCOMPILER_OUTLINE_H
