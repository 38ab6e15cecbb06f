//===- tpuprof/report/views/Sqlite.h - SQLite export ------------*- C++ -*-===//
//
// `export --format sqlite`: every record of every dump in one database, for
// ad-hoc SQL (docs/report.md lists the tables).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_SQLITE_H
#define TPUPROF_REPORT_VIEWS_SQLITE_H

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/OutputFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tpuprof {
namespace report {

/// Whether this build has the SQLite export (libsqlite3 was found).
bool sqliteAvailable();

/// Writes the database `outPath` (replacing it as OutputFile.h
/// says) of `in`'s dumps. Tables:
/// dumps, modules, probes, records, counters, ops.
llvm::Error exportSqlite(const Input &in, llvm::StringRef outPath,
                         SpecialFiles special = SpecialFiles::WriteInPlace);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_SQLITE_H
