//===- ModelJit.h - JIT-compile a lowered model -----------------*- C++ -*-===//
//
// Turns a module in the LLVM dialect into native code for the host CPU with
// MLIR's ExecutionEngine, and finds its entry's packed wrapper: the calling
// convention RunSession uses, whatever compiled the model.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_MODELJIT_H
#define TPUPROF_MODELRUNNER_MODELJIT_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace tpuprof {
namespace run {

/// An entry called with packed arguments: a pointer to each flattened LLVM
/// argument, then one to the results' storage (ExecutionEngine's
/// `_mlir_<name>` wrappers).
using PackedEntry = void (*)(void **);

/// A JIT-compiled model.
struct JitModel {
  std::unique_ptr<mlir::ExecutionEngine> engine;
  PackedEntry entry = nullptr;
};

/// Compiles `module` (LLVM dialect) for the host CPU at LLVM -O`optLevel`
/// (0-3) and looks up `entry`. MLIR's C runner utilities (memrefCopy,
/// printMemref*, ...) and `sharedLibs` (which must exist) are loaded first so
/// that the model can call what they define.
llvm::Expected<JitModel> jitCompile(mlir::ModuleOp module,
                                    llvm::StringRef entry,
                                    llvm::ArrayRef<std::string> sharedLibs,
                                    unsigned optLevel = 2);

} // namespace run
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_MODELJIT_H
