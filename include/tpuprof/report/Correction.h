//===- tpuprof/report/Correction.h - Probe overhead correction --*- C++ -*-===//
//
// Every probe pair costs time that lands inside recorded intervals: part of
// it in the record's own interval (the clock read at begin is the last thing
// begin does, the one at end the first thing end does, but the return from
// begin and the call to end remain), and all of a nested pair's cost in the
// interval of every record enclosing it. The runtime measures both at window
// start (the dump's CALIBRATION section, docs/formats.md) and this is the one
// place that subtracts them: the aggregator (table, diff, exports, annotate)
// and the record walk (summary, trace, stacks, SQLite) both call
// OverheadCorrection::correctedNs(). Header-only, so that every tool and
// test that links the report library gets it without a build change.
//
//   corrected = raw - self - descendants * nested, clamped at 0
//
// where `descendants` counts the records nested inside this one on the same
// thread, at any depth (each of them is one probe pair's worth of runtime
// code inside this interval).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_CORRECTION_H
#define TPUPROF_REPORT_CORRECTION_H

#include "tpuprof/report/Dump.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace tpuprof {
namespace report {

namespace detail {
/// The process-wide switch behind setOverheadCorrection().
inline std::atomic<bool> correctionRequested{true};
} // namespace detail

/// Whether reports subtract the runtime's measured probe cost (default on).
/// Process-wide rather than an option of each view, so every path that turns
/// dumps into numbers (table, summary, trace, stacks, exports, diff,
/// annotate, tpuprof-run's table) follows the one `--no-overhead-correction`
/// switch the same way.
inline void setOverheadCorrection(bool enabled);
inline bool overheadCorrectionRequested();

/// The correction one dump gets.
struct OverheadCorrection {
  /// Why a dump's times are or are not corrected.
  enum class State {
    Applied,      ///< Calibration present and correction requested.
    Disabled,     ///< --no-overhead-correction.
    NoCalibration ///< The dump has no CALIBRATION section.
  };
  State state = State::NoCalibration;
  uint64_t selfTicks = 0;
  uint64_t nestedTicks = 0;
  const DumpInfo *info = nullptr; ///< For tick to ns conversion.

  /// The correction for `info` under the process-wide switch.
  static OverheadCorrection forDump(const DumpInfo &info);

  bool applied() const { return state == State::Applied; }

  /// Duration in ns of a finished record spanning `rawTicks` with
  /// `descendants` records nested inside it on its thread.
  uint64_t correctedNs(uint64_t rawTicks, uint64_t descendants) const;
};

/// One line for a view's configuration block, e.g.
///   "on (self 7.2 ns, nested 27.4 ns per probe pair)"
///   "off (--no-overhead-correction; measured self 7.2 ns, nested 27.4 ns
///        per probe pair)"
///   "off (dump has no calibration: TPUPROF_CALIBRATE=0 or an older runtime)"
inline std::string describeCorrection(const DumpInfo &info);
/// The same for a dump whose times were aggregated in `state` (a Profile
/// read back from a JSON export keeps the state it was exported with).
inline std::string describeCorrection(OverheadCorrection::State state,
                                      const DumpInfo &info);

/// "applied", "disabled" or "no calibration" (JSON export), and back.
inline llvm::StringRef correctionName(OverheadCorrection::State state);
inline std::optional<OverheadCorrection::State>
parseCorrectionName(llvm::StringRef name);

/// The calibration values of `info` in ns (0 without calibration).
inline double calibSelfNs(const DumpInfo &info);
inline double calibNestedNs(const DumpInfo &info);

//===----------------------------------------------------------------------===//
// Implementation
//===----------------------------------------------------------------------===//
inline void setOverheadCorrection(bool enabled) {
  detail::correctionRequested.store(enabled, std::memory_order_relaxed);
}

inline bool overheadCorrectionRequested() {
  return detail::correctionRequested.load(std::memory_order_relaxed);
}

inline OverheadCorrection OverheadCorrection::forDump(const DumpInfo &info) {
  OverheadCorrection c;
  c.info = &info;
  if (!info.hasCalibration) {
    c.state = State::NoCalibration;
  } else if (!overheadCorrectionRequested()) {
    c.state = State::Disabled;
  } else {
    c.state = State::Applied;
    c.selfTicks = info.calibSelfTicks;
    c.nestedTicks = info.calibNestedTicks;
  }
  return c;
}

inline uint64_t OverheadCorrection::correctedNs(uint64_t rawTicks,
                                                uint64_t descendants) const {
  uint64_t ticks = rawTicks;
  if (applied()) {
    // Saturating: a corrupt dump's huge calibration or a record with
    // millions of descendants must clamp to 0, not wrap.
    unsigned __int128 overhead =
        selfTicks + (unsigned __int128)descendants * nestedTicks;
    ticks = overhead >= rawTicks ? 0 : rawTicks - uint64_t(overhead);
  }
  return info ? info->ticksToNs(ticks) : ticks;
}

inline llvm::StringRef correctionName(OverheadCorrection::State state) {
  switch (state) {
  case OverheadCorrection::State::Applied:
    return "applied";
  case OverheadCorrection::State::Disabled:
    return "disabled";
  case OverheadCorrection::State::NoCalibration:
    break;
  }
  return "no calibration";
}

inline std::optional<OverheadCorrection::State>
parseCorrectionName(llvm::StringRef name) {
  for (OverheadCorrection::State s :
       {OverheadCorrection::State::Applied, OverheadCorrection::State::Disabled,
        OverheadCorrection::State::NoCalibration})
    if (correctionName(s) == name)
      return s;
  return std::nullopt;
}

inline double calibSelfNs(const DumpInfo &info) {
  if (!info.hasCalibration)
    return 0;
  double tpn = info.ticksPerNs();
  return tpn > 0 ? double(info.calibSelfTicks) / tpn : 0;
}

inline double calibNestedNs(const DumpInfo &info) {
  if (!info.hasCalibration)
    return 0;
  double tpn = info.ticksPerNs();
  return tpn > 0 ? double(info.calibNestedTicks) / tpn : 0;
}

inline std::string describeCorrection(const DumpInfo &info) {
  return describeCorrection(OverheadCorrection::forDump(info).state, info);
}

inline std::string describeCorrection(OverheadCorrection::State state,
                                      const DumpInfo &info) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (state == OverheadCorrection::State::NoCalibration ||
      !info.hasCalibration) {
    os << "off (dump has no calibration: TPUPROF_CALIBRATE=0 or an older "
          "runtime)";
    return out;
  }
  auto values = [&] {
    os << "self " << llvm::format("%.1f", calibSelfNs(info)) << " ns, nested "
       << llvm::format("%.1f", calibNestedNs(info)) << " ns per probe pair";
  };
  if (state == OverheadCorrection::State::Applied) {
    os << "on (";
    values();
    os << ")";
  } else {
    os << "off (--no-overhead-correction; measured ";
    values();
    os << ")";
  }
  return out;
}

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_CORRECTION_H
