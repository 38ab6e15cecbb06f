//===- tpuprof/report/model/Load.h - Inputs into one Profile ----*- C++ -*-===//
//
// The front of every row view: command-line inputs (dump files, directories
// of dumps, JSON exports) aggregated into one Profile, rows merged and
// regrouped (--by). docs/report.md describes the inputs each view takes.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_LOAD_H
#define TPUPROF_REPORT_MODEL_LOAD_H

#include "tpuprof/report/model/Aggregate.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace report {

/// True when `path` names a JSON export (`export --format json`) rather than
/// a dump: its name ends in ".json".
bool isJsonExport(llvm::StringRef path);

/// What loadInput() does with the dumps it reads.
struct LoadOptions {
  /// Aggregate them into rows (every view but trace and stacks, which only
  /// walk records). JSON exports are read only for rows.
  bool rows = true;
  /// Draw progress bars on stderr (callers pass whether it is a terminal).
  bool progress = false;
  /// Runs (Profile::runs) are kept apart unless `mergeRuns` adds their rows
  /// up or `run` (1-based, in start order) keeps one alone.
  bool mergeRuns = false;
  unsigned run = 0;
  /// Subtract the probes' own cost that each dump's calibration measured
  /// (Correction.h); off under --no-overhead-correction.
  bool overheadCorrection = true;
  /// Keep only the dumps of these ranks (their PROCESS section's; a dump
  /// without a rank is kept by none): --rank, --ranks. Empty: every dump.
  std::vector<uint32_t> ranks;
};

/// What every view reads: the rows of all inputs and the dumps behind them.
/// Loading validates every dump (so a bad one fails before any output);
/// views that need records walk them with forEachDump(), which opens each
/// dump again, so that memory stays bounded by one dump at a time.
struct Input {
  Input() = default;
  /// Rows with no dumps behind them, e.g. built by hand.
  Input(Profile profile) : profile(std::move(profile)) {}

  std::vector<std::string> args; ///< The inputs as given.
  /// Rows (LoadOptions::rows), and one DumpSummary per dump either way.
  Profile profile;
  std::vector<std::string> exports; ///< JSON exports among the inputs.
  bool progress = false;
  /// LoadOptions::overheadCorrection: the record views walk the dumps with
  /// the correction the rows were aggregated with.
  bool overheadCorrection = true;

  /// Fails when an input is a JSON export, which has rows but no records:
  /// "<file>: <view> needs dumps (a JSON export has rows, not records)".
  llvm::Error needDumps(llvm::StringRef view) const;

  /// Opens each dump of `profile` again and calls `fn` with it and its
  /// summary (its run), drawing a bar labelled `view`. Fails before opening
  /// any as needDumps() does.
  llvm::Error forEachDump(
      llvm::StringRef view,
      llvm::function_ref<llvm::Error(const DumpReader &, const DumpSummary &)>
          fn) const;
};

/// Reads dumps (files or directories, expandDumpPaths) and JSON exports;
/// rows with the same (hash, shapes, device, run) merge.
llvm::Expected<Input> loadInput(llvm::ArrayRef<std::string> inputs,
                                const LoadOptions &opts = LoadOptions());

/// Folds `from` into `into`, merging rows with equal (hash, shapes, device).
void mergeProfile(Profile &into, const Profile &from);

/// The "version" of `export --format json` files that this library writes
/// and reads.
constexpr int kProfileJsonVersion = 1;

/// `p` with the rows of all runs added up (Profile::runsMerged).
Profile mergeRuns(const Profile &p);

/// The rows and dumps of run `run` (an index into `p.runs`) alone.
Profile selectRun(const Profile &p, uint32_t run);

/// Per run index (Profile::runs), the window time of its dumps: what a
/// row's Percent is of. One entry when runs are merged.
std::vector<uint64_t> runTotals(const Profile &p);

/// A row's or dump's run as the exports write it: 1-based, or 0 when the
/// runs were added up.
inline int64_t runNumber(const Profile &p, uint32_t run) {
  return p.runsMerged ? 0 : int64_t(run) + 1;
}

/// "run 2 (pid 4243, started 1.250 s after run 1)": how views name a run.
std::string describeRun(const Profile &p, uint32_t run);

/// An error for views that compare or annotate one set of rows when `p`
/// keeps several runs apart: it names them and the options that choose.
llvm::Error needOneRun(const Profile &p, llvm::StringRef view);

/// Reads an `export --format json` file back into a Profile.
llvm::Expected<Profile> readProfileJson(llvm::StringRef path);

/// Row keys of `table --by`.
enum class GroupBy { Op, Name, Function, Location, Shape, Node };

/// "op", "name", "function", "location", "shape" or "node".
llvm::Expected<GroupBy> parseGroupBy(llvm::StringRef name);

/// Merges rows with the same group key (and device): counts, times,
/// distributions and counters add up; FLOPs/Bytes become the per-call mean;
/// fields that differ inside a group are flagged (Row::mixed*). The Name of
/// a row is the key: op name (name, shape), function symbol (function),
/// first location (location) or node (node: the rows of one ONNX node's
/// ops become one; rows without a node share "-"). GroupBy::Op returns the
/// rows unchanged.
std::vector<Row> groupRows(llvm::ArrayRef<Row> rows, GroupBy by);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_LOAD_H
