//===- tpuprof/report/views/Graph.h - Call graph in DOT ---------*- C++ -*-===//
//
// `tpuprof-report graph`: which op runs inside which, as a Graphviz DOT call
// graph like llvm-xray's `graph`: a vertex per op (its self and total time),
// an edge per caller-callee pair (calls and the callee's time under that
// caller), a root vertex per run, and vertices shaded by self time.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_GRAPH_H
#define TPUPROF_REPORT_VIEWS_GRAPH_H

#include "tpuprof/report/model/Load.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
namespace report {

struct GraphOptions {
  bool shapes = false; ///< One vertex per (op, actual shapes).
};

/// The call graph of `in`'s dumps in DOT.
llvm::Error writeGraph(const Input &in, const GraphOptions &opts,
                       llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_GRAPH_H
