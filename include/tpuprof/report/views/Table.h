//===- tpuprof/report/views/Table.h - The per-op table ----------*- C++ -*-===//
//
// The TVM-style table that `tpuprof-report table` and `tpuprof-run` print:
// one row per (op hash, actual shapes, device), then Sum, Total and a
// configuration block; one section per run when the inputs hold several.
// docs/report.md describes every column and line; the columns themselves
// are views/Columns.h.
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

/// How to order, cut and lay out the table.
struct TableOptions {
  /// A sortable column's id (Columns.h); no '+'/'-' here (parseSortSpec()).
  std::string sortColumn = "duration";
  bool ascending = false;
  unsigned top = 0; ///< Rows to print per run; 0 prints all.
  /// Adds Min/Mean/Median/P90/P99/Max (us) columns.
  bool stats = false;
  /// Adds FLOPs, GFLOP/s, Bytes and GB/s columns (static estimates).
  bool work = false;
  /// Peak compute and bandwidth of the machine; when both are > 0 a Bound
  /// column classifies each row as compute- or memory-bound, and GB/s above
  /// the peak is marked as cache-resident.
  double peakGflops = 0, peakGBps = 0;
  /// Rows shown (Sum and Total still cover all rows): the name matches
  /// `filter` (an llvm::Regex; empty: all), the op is one of `types`
  /// (matchesType(); empty: all), its probe kind's bit (1 << kind) is in
  /// `kinds` (0: all), and its duration is at least minTimeNs.
  std::string filter;
  std::vector<std::string> types;
  unsigned kinds = 0;
  uint64_t minTimeNs = 0;
  /// Column ids to show, in order (parseColumns()); empty: the default set
  /// (with --stats, --work, the peaks and mode 2 adding theirs) and every
  /// counter column.
  std::vector<std::string> columns;
  /// The width to fit the default set into (the terminal's); 0: no limit.
  /// Columns are left out (and said so) and long text is shortened.
  unsigned width = 0;
  /// ANSI colours (a terminal without NO_COLOR).
  bool colour = false;
  /// The row key (groupRows()) the dump-reading printTable() regroups by.
  GroupBy by = GroupBy::Op;
};

/// The sortable column ids, in table order.
std::vector<llvm::StringRef> sortColumnNames();

/// Sets `opts.sortColumn` and `opts.ascending` from a command-line spec:
/// "COLUMN" sorts numbers (duration, percent, count, ...) descending and
/// text (name, shapes, hash, ...) ascending; "+COLUMN" forces ascending and
/// "-COLUMN" descending. Unknown columns are an error naming the accepted
/// ones.
llvm::Error parseSortSpec(llvm::StringRef spec, TableOptions &opts);

/// Sets `opts.columns` from "id,id,...": column ids (Columns.h, any case),
/// "counters"
/// for every counter column, a counter column's title, or "default",
/// "stats", "work" for those sets.
llvm::Error parseColumns(llvm::StringRef spec, TableOptions &opts);

/// Sets `opts.kinds` from "op,launch,user" (any of them).
llvm::Error parseKinds(llvm::StringRef spec, TableOptions &opts);

/// Whether `row`'s op is one that `--type` names: its full name
/// ("tosa.matmul"), its name without the dialect ("matmul", which also
/// matches "linalg.matmul"), or its dialect ("tosa").
bool matchesType(const Row &row, llvm::ArrayRef<std::string> types);

/// Orders `rows` as the table would (ties broken by duration descending,
/// then name, shapes, device and hash, so output is deterministic).
llvm::Error sortRows(std::vector<Row> &rows, const TableOptions &opts);

/// Prints the table of `in`'s rows.
llvm::Error printTable(const Input &in, const TableOptions &opts,
                       llvm::raw_ostream &os);

/// Reads `dumpPaths` (files, or directories of tpuprof_data_dev* dumps),
/// aggregates them as `load` says (LoadOptions: the overhead correction,
/// runs) and prints the table. Nothing is printed when a dump fails to
/// read; the error is "<file>: <what is wrong> at offset <N>".
llvm::Error printTable(llvm::ArrayRef<std::string> dumpPaths,
                       const TableOptions &opts, llvm::raw_ostream &os,
                       const LoadOptions &load = LoadOptions());

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_TABLE_H
