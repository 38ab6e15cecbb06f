//===- tpuprof/report/views/Diff.h - Compare two runs -----------*- C++ -*-===//
//
// `tpuprof-report diff A B`: rows of both runs keyed by (op hash, actual
// shapes) over all devices, compared on total time.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_DIFF_H
#define TPUPROF_REPORT_VIEWS_DIFF_H

#include "tpuprof/report/model/Load.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace tpuprof {
namespace report {

struct DiffOptions {
  /// Exit non-zero (return true) when a row present in both runs got slower
  /// by more than this percentage; < 0 disables.
  double failAbovePct = -1;
  /// Rows whose time is below this in both runs are shown but never fail.
  uint64_t minTimeNs = 0;
  unsigned top = 0; ///< Rows to print; 0 prints all.
};

/// Prints the diff of `a`'s rows and `b`'s. Returns whether the
/// --fail-above threshold was crossed.
llvm::Expected<bool> printDiff(const Input &a, const Input &b,
                               const DiffOptions &opts, llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_DIFF_H
