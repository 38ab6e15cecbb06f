//===- ModelExports.h - A compiled model's C entry points -------*- C++ -*-===//
//
// What tpuprof-compile adds to the translated model (LLVM IR) so that it can
// be linked anywhere and called without its .mlir: each public function's
// C interface under a name of its own (`<prefix>_<name>`, never `main`), a
// packed-argument wrapper, the signature of tpuprof/model.h, and internal
// linkage for everything else (two models in one program do not clash).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_MODELEXPORTS_H
#define TPUPROF_MODELRUNNER_MODELEXPORTS_H

#include "tpuprof/ModelRunner/EntryShapes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace compile {

/// One public function of the model, as the signature and header show it.
struct ExportedFunction {
  std::string name;        ///< The MLIR function (`main`).
  std::string symbol;      ///< The exported C function (`mnist_main`).
  mlir::FunctionType type; ///< Before lowering (tensors, memrefs, scalars).
  std::string typeText;    ///< `type` printed.
  std::string location;    ///< `file:line` of the function.
  /// The equalities its arguments' dimensions must meet (EntryShapes.h).
  std::vector<run::DimEquality> dimEqualities;
};

/// A C identifier for `name` ([A-Za-z0-9_], not starting with a digit).
std::string cIdentifier(llvm::StringRef name);

/// Rewrites `module` (translated from a model lowered with every function
/// in `functions` marked llvm.emit_c_interface) as the file comment says.
/// Fails (one line) when a function or its C interface is missing or an
/// exported name is taken.
llvm::Error exportModel(llvm::Module &module,
                        llvm::ArrayRef<ExportedFunction> functions,
                        bool instrumented, llvm::StringRef source);

} // namespace compile
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_MODELEXPORTS_H
