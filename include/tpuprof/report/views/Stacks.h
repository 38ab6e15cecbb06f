//===- tpuprof/report/views/Stacks.h - Flame graph stacks -------*- C++ -*-===//
//
// `tpuprof-report stacks`: the record nesting as folded stacks for
// flamegraph.pl and speedscope.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_STACKS_H
#define TPUPROF_REPORT_VIEWS_STACKS_H

#include "tpuprof/report/model/Load.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tpuprof {
namespace report {

struct StacksOptions {
  bool perThread = false; ///< Root frames "dev D" and "tid T".
  bool shapes = false;    ///< Frame names carry the actual shapes.
};

/// Folded stacks "a;b;c <self ns>" of `in`'s dumps.
llvm::Error writeStacks(const Input &in, const StacksOptions &opts,
                        llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_STACKS_H
