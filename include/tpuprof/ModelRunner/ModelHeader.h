//===- ModelHeader.h - tpuprof-compile --header -----------------*- C++ -*-===//
//
// A C header declaring a compiled model's entry points with their argument
// layout: MLIR's memref descriptors as structs, results through a pointer
// in first place where MLIR's C interface puts them.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_MODELHEADER_H
#define TPUPROF_MODELRUNNER_MODELHEADER_H

#include "tpuprof/ModelRunner/ModelExports.h"

#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
namespace compile {

/// Writes the header of the model compiled from `source` into `artifact`.
/// Fails (one line, naming the function and type) on a type C cannot take:
/// unranked memrefs, element types other than f32, f64 and iN/index.
llvm::Error writeHeader(llvm::raw_ostream &os,
                        llvm::ArrayRef<ExportedFunction> functions,
                        llvm::StringRef source, llvm::StringRef artifact,
                        llvm::StringRef guard);

} // namespace compile
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_MODELHEADER_H
