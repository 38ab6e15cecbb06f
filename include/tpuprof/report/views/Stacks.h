//===- tpuprof/report/views/Stacks.h - Flame graph stacks -------*- C++ -*-===//
//
// `tpuprof-report stacks`: the record nesting as folded stacks for
// flamegraph.pl and speedscope.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_STACKS_H
#define TPUPROF_REPORT_VIEWS_STACKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tpuprof {
namespace report {

struct StacksOptions {
  bool perThread = false; ///< Root frames "dev D" and "tid T".
  bool shapes = false;    ///< Frame names carry the actual shapes.
};

/// Folded stacks "a;b;c <self ns>" of the dumps `dumpPaths` name.
llvm::Error writeStacks(llvm::ArrayRef<std::string> dumpPaths,
                        const StacksOptions &opts, llvm::raw_ostream &os,
                        bool progress = false);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_STACKS_H
