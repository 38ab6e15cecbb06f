//===- tpuprof/report/views/Workbook.h - The .xlsx workbook -----*- C++ -*-===//
//
// `export --format xlsx` and the bundle's report.xlsx (the board tools'
// PerfDoc spreadsheet): sheets Summary (the run's figures), Ops (every
// exported column of every row, numbers as numbers), Records (every record,
// up to a sheet's 1 048 575 rows) and Threads (the summary's per-thread
// lines). Written with Debian's libxlsxwriter; strings are cells of text,
// never formulas.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_WORKBOOK_H
#define TPUPROF_REPORT_VIEWS_WORKBOOK_H

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/OutputFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tpuprof {
namespace report {

/// Whether this build has the workbook (libxlsxwriter was found).
bool workbookAvailable();

/// Writes the workbook of `in` to `path` (replacing it as OutputFile.h
/// says).
llvm::Error writeWorkbook(const Input &in, llvm::StringRef path,
                          SpecialFiles special = SpecialFiles::WriteInPlace);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_WORKBOOK_H
