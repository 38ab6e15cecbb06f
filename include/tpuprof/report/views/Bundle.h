//===- tpuprof/report/views/Bundle.h - Every view at once -------*- C++ -*-===//
//
// `tpuprof-report bundle DUMP... -o OUT_DIR`: what the board tools'
// `bigTpuProfile IN_DIR OUT_DIR` gives, in one command: the web page, the
// spreadsheet, the trace and the summary, and every other view's output
// beside them (docs/report.md, "bundle", lists the files).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_BUNDLE_H
#define TPUPROF_REPORT_VIEWS_BUNDLE_H

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Html.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
namespace report {

struct BundleOptions {
  HtmlOptions html; ///< For report.html (the IR pane, a baseline, a title).
  bool progress = false; ///< One bar over the files on stderr.
};

/// Writes every view of `in` into the directory `outDir` (created when
/// missing). Each file is written whole or not at all; a view this build
/// lacks (SQLite, the workbook) is left out with one line on `notes`.
llvm::Error writeBundle(const Input &in, const BundleOptions &opts,
                        llvm::StringRef outDir, llvm::raw_ostream &notes);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_BUNDLE_H
