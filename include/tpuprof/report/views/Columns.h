//===- tpuprof/report/views/Columns.h - Every column of a row ---*- C++ -*-===//
//
// The one list of a row's columns: what the table titles and prints, how it
// sorts, and what the exports (CSV, the SQLite ops table, the spreadsheet's
// ops sheet) call it and write. A new column (a new Row field) is one entry
// here; the table, `--columns`, `--sort` and every export pick it up.
// PMU counter columns are not here: their number depends on the events the
// dumps recorded (views/Counters.h).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_COLUMNS_H
#define TPUPROF_REPORT_VIEWS_COLUMNS_H

#include "tpuprof/report/model/Aggregate.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tpuprof {
namespace report {

/// What a row's cells depend on besides the row.
struct ColumnContext {
  explicit ColumnContext(const Profile &p)
      : profile(p), resolutionNs(tpuprof::report::resolutionNs(p)),
        approxBelowNs(tpuprof::report::approxBelowNs(p)) {}
  const Profile &profile;
  uint64_t totalNs = 0;      ///< What Percent is of: the row's run's window.
  uint64_t resolutionNs = 1; ///< Per record (resolutionNs(Profile)).
  /// Mean per-record time below which a row is approximate
  /// (approxBelowNs(Profile)).
  uint64_t approxBelowNs = 0;
  /// Self time of this row and those above it (the Cum Self % column):
  /// what the rows so far account for, nested time counted once, so it
  /// never passes the Sum.
  uint64_t cumulativeNs = 0;
  double peakGflops = 0, peakGBps = 0; ///< The roofline, when known.
};

/// An export cell: an integer, a real (written with `decimals` places) or
/// text.
struct ExportCell {
  enum Kind : uint8_t { Integer, Real, Text } kind = Integer;
  uint64_t integer = 0;
  double real = 0;
  unsigned decimals = 0;
  std::string text;
  static ExportCell ofInteger(uint64_t v) {
    ExportCell c;
    c.integer = v;
    return c;
  }
  static ExportCell ofReal(double v, unsigned decimals) {
    ExportCell c;
    c.kind = Real;
    c.real = v;
    c.decimals = decimals;
    return c;
  }
  static ExportCell ofText(std::string s) {
    ExportCell c;
    c.kind = Text;
    c.text = std::move(s);
    return c;
  }
  /// The cell as CSV and SQLite's text columns write it.
  std::string str() const;
};

struct Column {
  enum Group : uint8_t {
    Default,   ///< In the table by default.
    Stats,     ///< With --stats.
    Work,      ///< With --work.
    Roofline,  ///< With the machine's peaks (--peak-*, --machine).
    Extra,     ///< Only when --columns names it.
    ExportOnly ///< Not a table column.
  };
  llvm::StringRef id;    ///< For --columns and --sort: "duration".
  llvm::StringRef title; ///< The table's title: "Duration (us)".
  bool numeric;          ///< Right-aligned; sorts descending by default.
  Group group;
  /// The table's cell.
  std::string (*cell)(const Row &, const ColumnContext &);
  /// Three-way comparison, smallest first; null when it does not sort.
  int (*compare)(const Row &, const Row &);
  /// The exports' name ("duration_ns") and cell; empty: not exported.
  llvm::StringRef exportName;
  ExportCell (*exportCell)(const Row &, const ColumnContext &);
  /// A Default column with this is in the table by default only when some
  /// row has a value for it (Output Shapes, mode 2's Migrations, Approx).
  bool (*present)(const Row &, const ColumnContext &) = nullptr;
};

/// Every column, in the table's order.
llvm::ArrayRef<Column> allColumns();
/// The column `id` names, or null.
const Column *findColumn(llvm::StringRef id);
/// The exported columns in the exports' order (CSV's header).
std::vector<const Column *> exportColumns();

/// Static work per call over the measured time: GFLOP/s and GB/s (0 when
/// unknown).
double gflopsOf(const Row &row);
double gbpsOf(const Row &row);

/// A time cell in microseconds with two decimals, or, when `ns` is below
/// `floorNs` (what the clock and the correction resolve for it), "< N ns"
/// (or "< N.NN us").
std::string timeCell(uint64_t ns, uint64_t floorNs);

/// A row's total time over `count` calls: as timeCell(), but below
/// `count` x `resolutionNs` the bound is given per call, "< N ns/call", so
/// that it does not grow with the count.
std::string totalTimeCell(uint64_t ns, uint64_t count, uint64_t resolutionNs);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_COLUMNS_H
