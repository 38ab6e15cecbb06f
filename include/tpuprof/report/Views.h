//===- tpuprof/report/Views.h - Analysis views and exports ------*- C++ -*-===//
//
// Everything `tpuprof-report` does beyond the plain table: loading dumps and
// JSON exports into one Profile, regrouping rows (--by), the roofline
// machine file, and the summary, trace, export, diff, stacks and
// source-listing views. docs/report.md is the user guide for each.
//
// Views that only need rows (table, diff, CSV/JSON export) work on a Profile,
// whose memory is bounded by distinct rows. Views that need every record
// (trace, stacks, SQLite export, summary) stream through the dumps one at a
// time and keep per-thread stacks and per-key state only.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_H
#define TPUPROF_REPORT_VIEWS_H

#include "tpuprof/report/Aggregate.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace report {

//===----------------------------------------------------------------------===//
// Loading and regrouping
//===----------------------------------------------------------------------===//

/// True when `path` names a JSON export (`export --format json`) rather than
/// a dump: its name ends in ".json".
bool isJsonExport(llvm::StringRef path);

/// Aggregates dumps (files or directories) and JSON exports into one
/// Profile; rows with the same (hash, shapes, device) merge. `progress`
/// draws a bar on stderr (callers pass whether stderr is a terminal).
llvm::Expected<Profile> loadProfile(llvm::ArrayRef<std::string> inputs,
                                    bool progress = false);

/// The dump files `inputs` name (directories expanded, as expandDumpPaths),
/// or an error naming the first JSON export among them: `view` (summary,
/// trace, stacks, SQLite export, html) needs records, which only dumps have.
llvm::Expected<std::vector<std::string>>
dumpFilesFor(llvm::ArrayRef<std::string> inputs, llvm::StringRef view);

/// Folds `from` into `into`, merging rows with equal (hash, shapes, device).
void mergeProfile(Profile &into, const Profile &from);

/// Row keys of `table --by`.
enum class GroupBy { Op, Name, Function, Location, Shape };

/// "op", "name", "function", "location" or "shape".
llvm::Expected<GroupBy> parseGroupBy(llvm::StringRef name);

/// Merges rows with the same group key (and device): counts, times,
/// distributions and counters add up; FLOPs/Bytes become the per-call mean;
/// fields that differ inside a group are flagged (Row::mixed*). The Name of
/// a row is the key: op name (name, shape), function symbol (function) or
/// first location (location). GroupBy::Op returns the rows unchanged.
std::vector<Row> groupRows(llvm::ArrayRef<Row> rows, GroupBy by);

//===----------------------------------------------------------------------===//
// Roofline
//===----------------------------------------------------------------------===//

/// Peak compute and memory bandwidth of a machine.
struct Roofline {
  double peakGflops = 0; ///< GFLOP/s (FMA counted as 2 FLOPs).
  double peakGBps = 0;   ///< GB/s (10^9 bytes per second).
  unsigned threads = 0;  ///< Threads the measurement used.
};

/// Measures peaks with an FMA loop and a STREAM-like triad on `threads`
/// threads (0: all hardware threads), each for about `seconds`.
Roofline measureRoofline(unsigned threads, double seconds = 0.3);

/// The roofline file: {"peak_gflops": G, "peak_gbps": B, "threads": T}.
llvm::Error writeRoofline(const Roofline &r, llvm::StringRef path);
llvm::Expected<Roofline> readRoofline(llvm::StringRef path);

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// `summary`: per device and thread, busy vs idle, time shares by probe kind,
/// top ops, dropped records and counter totals.
llvm::Error printSummary(llvm::ArrayRef<std::string> dumpPaths, unsigned top,
                         llvm::raw_ostream &os, bool progress = false);

struct TraceOptions {
  /// A Chrome trace (JSON object with "traceEvents", or a bare array) to
  /// merge; its timestamps are CLOCK_MONOTONIC microseconds.
  std::string externalTrace;
  /// Added to the external trace's timestamps before alignment (µs).
  double externalOffsetUs = 0;
};

/// `trace`: Chrome trace JSON (docs/report.md, "Trace layout").
llvm::Error writeTrace(llvm::ArrayRef<std::string> dumpPaths,
                       const TraceOptions &opts, llvm::raw_ostream &os,
                       bool progress = false);

/// `export --format json`: the Profile, readable by loadProfile().
void writeProfileJson(const Profile &profile, llvm::raw_ostream &os);
llvm::Expected<Profile> readProfileJson(llvm::StringRef path);

/// `export --format csv`: one line per row, RFC 4180 quoting.
void writeCsv(const Profile &profile, llvm::raw_ostream &os);

/// RFC 4180 field: quoted (with '"' doubled) when it holds a comma, quote,
/// CR or LF, else as is.
std::string csvField(llvm::StringRef s);

/// `export --format sqlite`: writes the database `outPath` (replacing it).
/// Tables: dumps, modules, probes, records, counters, ops.
llvm::Error exportSqlite(llvm::ArrayRef<std::string> dumpPaths,
                         llvm::StringRef outPath, bool progress = false);

struct DiffOptions {
  /// Exit non-zero (return true) when a row present in both runs got slower
  /// by more than this percentage; < 0 disables.
  double failAbovePct = -1;
  /// Rows whose time is below this in both runs are shown but never fail.
  uint64_t minTimeNs = 0;
  unsigned top = 0; ///< Rows to print; 0 prints all.
};

/// `diff A B`: rows keyed by (hash, shapes) over all devices. Returns
/// whether the --fail-above threshold was crossed.
llvm::Expected<bool> printDiff(const Profile &a, const Profile &b,
                               const DiffOptions &opts, llvm::raw_ostream &os);

struct StacksOptions {
  bool perThread = false; ///< Root frames "dev D" and "tid T".
  bool shapes = false;    ///< Frame names carry the actual shapes.
};

/// `stacks`: folded stacks "a;b;c <self ns>" for flamegraph.pl/speedscope.
llvm::Error writeStacks(llvm::ArrayRef<std::string> dumpPaths,
                        const StacksOptions &opts, llvm::raw_ostream &os,
                        bool progress = false);

/// Annotated source listing for `sourcePath`: each line whose file:line is
/// a probe location gets that line's stats in a left margin. With an empty
/// `sourcePath`, lists every location of launch/user probes (file:line →
/// stats) without source text.
llvm::Error printSourceListing(const Profile &profile,
                               llvm::StringRef sourcePath,
                               llvm::raw_ostream &os);

/// A progress bar on stderr, drawn only when enabled (stderr is a tty).
class Progress {
public:
  Progress(bool enabled, llvm::StringRef what, uint64_t total);
  ~Progress();
  void advance(uint64_t n);

private:
  void draw();
  bool enabled;
  std::string what;
  uint64_t total, done = 0, lastDrawn = 0;
};

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_H
