//===- CompiledModel.h - Load a model tpuprof-compile built -----*- C++ -*-===//
//
// tpuprof-run MODEL.so: check the file (isSharedObject), dlopen the model,
// read the signature it embeds (tpuprof/model.h) and find an entry's packed
// function and MLIR type, so that RunInputs and RunSession call it as they
// call a JIT-compiled one.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_COMPILEDMODEL_H
#define TPUPROF_MODELRUNNER_COMPILEDMODEL_H

#include "tpuprof/ModelRunner/EntryShapes.h"
#include "tpuprof/ModelRunner/ModelJit.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

struct tpuprof_model_signature;

namespace tpuprof {
namespace run {

/// True if `path` is an ELF shared object (a compiled model to load), false
/// if it is anything else but an object file or archive (a .mlir to parse);
/// those are an error of one line. A shared object is checked from its
/// bytes before anything loads it: headers, segments and sections within
/// the file, and the model signature present with its magic. A FIFO or
/// device named *.so is an error too, found without blocking; other ones
/// are a .mlir to parse (a pipe).
llvm::Expected<bool> isSharedObject(llvm::StringRef path);

class CompiledModel {
public:
  /// Loads `path`. Errors are one line: the loader's message, or that the
  /// file was not made by tpuprof-compile, or was made by an incompatible
  /// one.
  static llvm::Expected<CompiledModel> load(llvm::StringRef path);

  /// The entry to call: `name` when given, else @main, else the only entry.
  /// Its type is parsed in `context`.
  struct Entry {
    std::string name;
    mlir::FunctionType type;
    PackedEntry packed = nullptr;
    /// What its arguments' shapes must meet (empty from a version 1
    /// signature).
    std::vector<DimEquality> dimEqualities;
  };
  llvm::Expected<Entry> findEntry(llvm::StringRef name,
                                  mlir::MLIRContext &context) const;

  /// Built with probes (not --no-instrument).
  bool instrumented() const;

private:
  std::string path;
  const tpuprof_model_signature *signature = nullptr;
  // The handle stays open for the rest of the process: the runtime keeps
  // pointers into the model's probe table.
};

} // namespace run
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_COMPILEDMODEL_H
