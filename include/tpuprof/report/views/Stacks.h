//===- tpuprof/report/views/Stacks.h - Flame graph stacks -------*- C++ -*-===//
//
// `tpuprof-report stacks`: the record nesting as stacks for flame graphs,
// folded ("a;b;c <self ns>", for flamegraph.pl) or as a speedscope file
// (its native JSON, whose values carry their unit). Every stack starts with
// a root frame for its run and one for its thread, so runs and threads stay
// apart in the graph.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_STACKS_H
#define TPUPROF_REPORT_VIEWS_STACKS_H

#include "tpuprof/report/model/Load.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>

namespace tpuprof {
namespace report {

struct StacksOptions {
  enum class Format { Folded, Speedscope };
  Format format = Format::Folded;
  bool shapes = false; ///< Frame names carry the actual shapes.
};

/// "folded" or "speedscope".
llvm::Expected<StacksOptions::Format> parseStacksFormat(llvm::StringRef name);

/// The stacks of `in`'s dumps, weighted by self time in nanoseconds.
llvm::Error writeStacks(const Input &in, const StacksOptions &opts,
                        llvm::raw_ostream &os);

/// The stacks of `in`'s dumps, folded once: path ("a;b;c") -> self ns.
/// Lost records are said on stderr.
llvm::Expected<std::map<std::string, uint64_t>> foldStacks(const Input &in,
                                                           bool shapes);
/// Writes folded stacks in `format`.
void writeFoldedStacks(const std::map<std::string, uint64_t> &folded,
                       StacksOptions::Format format, const Input &in,
                       llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_STACKS_H
