//===- FlagGuard.h - Flag-guarded runtime calls -----------------*- C++ -*-===//
//
// The probes (Lower.cpp) and the memory wrappers (Memory.cpp) call the
// runtime through small internal, always-inlined functions that test a flag
// of the runtime first, so that with profiling off the flag's load is the
// only cost:
//
//   llvm.func internal @guard(args...) attributes {always_inline} {
//     [prologue]
//     %on = llvm.load @flag atomic monotonic
//     llvm.cond_br (%on != 0), ^call, ^done
//   ^call:
//     [body]
//     llvm.br ^done
//   ^done:
//     llvm.return
//   }
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_PASSES_MLIR_FLAGGUARD_H
#define TPUPROF_PASSES_MLIR_FLAGGUARD_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tpuprof {

/// Creates the guard `name` of `argTypes` at the end of `module`'s body.
/// `prologue` runs in the entry block before the flag's load (for static
/// allocas, which stay in the caller's frame once inlined); `body` runs
/// under the check, given the guard's arguments. The i32 `flag` must be
/// declared.
mlir::LLVM::LLVMFuncOp buildFlagGuard(
    mlir::ModuleOp module, llvm::StringRef name,
    llvm::ArrayRef<mlir::Type> argTypes, llvm::StringRef flag,
    llvm::function_ref<void(mlir::OpBuilder &)> prologue,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Block::BlockArgListType)>
        body);

} // namespace tpuprof

#endif // TPUPROF_PASSES_MLIR_FLAGGUARD_H
