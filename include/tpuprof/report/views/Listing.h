//===- tpuprof/report/views/Listing.h - Source listing ----------*- C++ -*-===//
//
// What `annotate` writes for source files (C, C++, .ll): stats of LLVM-level
// probes keyed by their file:line.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_LISTING_H
#define TPUPROF_REPORT_VIEWS_LISTING_H

#include "tpuprof/report/model/Load.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
namespace report {

/// Annotated source listing for `sourcePath`: each line whose file:line is
/// a probe location gets that line's stats in a left margin. With an empty
/// `sourcePath`, lists every location of launch/user probes (file:line →
/// stats) without source text. Times are shown as the table shows them.
/// Fails when no probe is located in `sourcePath`: "<file>: no probe of the
/// dumps is located in it (their locations are in: ...)".
llvm::Error printSourceListing(const Input &in, llvm::StringRef sourcePath,
                               llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_LISTING_H
