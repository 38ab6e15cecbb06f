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
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace report {

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

/// The "version" of `export --format json` files that this library writes
/// and reads.
constexpr int kProfileJsonVersion = 1;

/// Reads an `export --format json` file back into a Profile.
llvm::Expected<Profile> readProfileJson(llvm::StringRef path);

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

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_LOAD_H
