//===- tpuprof/report/views/Table.h - The per-op table ----------*- C++ -*-===//
//
// The TVM-style table that `tpuprof-report table` and `tpuprof-run` print:
// one row per (op hash, actual shapes, device), then Sum, Total and a
// configuration block. docs/report.md describes every column and line.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_TABLE_H
#define TPUPROF_REPORT_VIEWS_TABLE_H

#include "tpuprof/report/model/Load.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace report {

/// How to order and cut the table.
struct TableOptions {
  /// One of sortColumnNames(): name, duration, percent, count, device,
  /// shapes, hash, location. No '+'/'-' prefix here; see parseSortSpec().
  std::string sortColumn = "duration";
  bool ascending = false;
  unsigned top = 0; ///< Rows to print; 0 prints all.
  /// Adds Min/Mean/Median/P90/P99/Max (us) columns.
  bool stats = false;
  /// Adds FLOPs, GFLOP/s, Bytes and GB/s columns (static estimates).
  bool work = false;
  /// Peak compute and bandwidth of the machine; when both are > 0 a Bound
  /// column classifies each row as compute- or memory-bound.
  double peakGflops = 0, peakGBps = 0;
  /// Rows shown (Sum and Total still cover all rows): name matches this
  /// llvm::Regex (empty: all), kind equals `kind` (-1: all), duration >=
  /// minTimeNs.
  std::string filter;
  int kind = -1;
  uint64_t minTimeNs = 0;
};

/// The accepted sort column names, in table order.
llvm::ArrayRef<llvm::StringRef> sortColumnNames();

/// Sets `opts.sortColumn` and `opts.ascending` from a command-line spec:
/// "COLUMN" sorts numbers (duration, percent, count, device) descending and
/// text (name, shapes, hash, location) ascending; "+COLUMN" forces
/// ascending and "-COLUMN" descending. Unknown columns are an error naming
/// the accepted ones.
llvm::Error parseSortSpec(llvm::StringRef spec, TableOptions &opts);

/// Orders `rows` as the table would (ties broken by duration descending,
/// then name, shapes, device and hash, so output is deterministic).
llvm::Error sortRows(std::vector<Row> &rows, const TableOptions &opts);

/// Prints the table of `in`'s rows.
llvm::Error printTable(const Input &in, const TableOptions &opts,
                       llvm::raw_ostream &os);

/// Reads `dumpPaths` (files, or directories of tpuprof_data_dev* dumps),
/// aggregates them and prints the table. Nothing is printed when a dump
/// fails to read; the error is "<file>: <what is wrong> at offset <N>".
llvm::Error printTable(llvm::ArrayRef<std::string> dumpPaths,
                       const TableOptions &opts, llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_TABLE_H
