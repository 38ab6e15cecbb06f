//===- tpuprof/report/views/Export.h - JSON and CSV exports -----*- C++ -*-===//
//
// `export --format json` (lossless: model/Load.h reads it back) and
// `export --format csv` (one line per row, for spreadsheets).
// docs/report.md documents both schemas.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_EXPORT_H
#define TPUPROF_REPORT_VIEWS_EXPORT_H

#include "tpuprof/report/model/Load.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tpuprof {
namespace report {

/// `export --format json`: `in`'s rows, readable by readProfileJson().
void writeProfileJson(const Input &in, llvm::raw_ostream &os);

/// The "totals" object of the JSON export, which the HTML report's data
/// carries too: one spelling of every total wherever JSON holds it
/// (docs/report.md, "export").
void writeTotalsJson(const Profile &profile, llvm::json::OStream &j);

/// `export --format csv`: one line per row, RFC 4180 quoting.
void writeCsv(const Input &in, llvm::raw_ostream &os);

/// RFC 4180 field: quoted (with '"' doubled) when it holds a comma, quote,
/// CR or LF, else as is.
std::string csvField(llvm::StringRef s);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_EXPORT_H
