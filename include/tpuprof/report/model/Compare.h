//===- tpuprof/report/model/Compare.h - Two runs side by side ---*- C++ -*-===//
//
// What `diff` and the HTML report's diff pane compare: rows of two profiles
// keyed by (op hash, actual shapes), summed over devices, with what each
// side's clock and correction resolve, so that a time below resolution is
// never called -100 % or "new".
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_COMPARE_H
#define TPUPROF_REPORT_MODEL_COMPARE_H

#include "tpuprof/report/model/Aggregate.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tpuprof {
namespace report {

/// One op in one of the two profiles.
struct DiffSide {
  bool present = false;
  uint64_t ns = 0, count = 0;
  /// The shortest time the side resolves for its records: count times its
  /// profile's resolutionNs(). Below it, `ns` is "< floorNs".
  uint64_t floorNs = 0;
  std::map<std::string, uint64_t> counters; ///< By event name.
  bool resolved() const { return ns >= floorNs; }
};

struct DiffRow {
  std::string name, shapes, hash; ///< hash "-" for an unknown probe.
  DiffSide a, b;

  enum class Status { New, Missing, Slower, Faster, Same, Unresolved };
  /// New/Missing: only in B/A. Unresolved: a side is below resolution and
  /// the other does not tell a change either way.
  Status status() const;
  int64_t delta() const { return int64_t(b.ns) - int64_t(a.ns); }
  /// B over A in percent where it means something: exact when both sides
  /// resolve; with one side below resolution, the bound its floor gives
  /// (`*bound`: +1 "at least", -1 "at most"); none for New, Missing and
  /// Unresolved.
  std::optional<double> deltaPct(int *bound = nullptr) const;
};

/// "new", "missing", "slower", "faster", "same" or "unresolved".
llvm::StringRef statusName(DiffRow::Status s);

/// The rows of `a` and `b` side by side, regressions (largest delta) first.
std::vector<DiffRow> compareProfiles(const Profile &a, const Profile &b);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_COMPARE_H
