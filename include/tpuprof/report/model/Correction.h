//===- tpuprof/report/model/Correction.h - Overhead correction --*- C++ -*-===//
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
//   corrected = raw - self - (sum over the records nested inside this one
//                             on its thread, at any depth, of pairTicks())
//
// clamped at 0. A nested record's pairTicks() is the calibrated cost of one
// probe pair (`nested`), or, where the record carries its own counter-read
// cost (the READ_TICKS pseudo-event, modes 1/2), `nested` with the
// calibrated mean of that part replaced by the record's own figure: the
// reads are most of a pair there, and their cost moves with the machine's
// state, which a calibration taken once per window cannot follow.
//
// Counter deltas get the same treatment where the dump says what the probes
// add to each event (version 3, tpuprof_calibration_counts): a finished
// record's value less `self` and `nested` per record nested inside it,
// clamped at 0. The task clock is a time: its nested part is the same
// time the duration correction takes off, and it is at most the record's
// corrected duration (one thread is on a CPU for at most the wall time;
// what a group read's system call takes beyond its usual cost, an
// interrupt say, lands in the task clock but not in the interval), so
// Task-clock % stays at or below 100.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_CORRECTION_H
#define TPUPROF_REPORT_MODEL_CORRECTION_H

#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/read/Dump.h"
#include "tpuprof/report/read/WideMath.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace tpuprof {
namespace report {

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
  /// Calibrated mean READ_TICKS, the part of nestedTicks that records
  /// measure themselves; used only with readWord >= 0.
  uint64_t readTicks = 0;
  /// Counter index of READ_TICKS where the per-record figure is used.
  int readWord = -1;
  /// Per counter word, what the probes add (zeros for pseudo-events); empty
  /// when counters are not corrected.
  llvm::SmallVector<DumpInfo::CounterCalibration, 8> counts;
  /// Counter index of the task clock (its nested part is a time), or -1.
  int taskClockWord = -1;
  const DumpInfo *info = nullptr; ///< For tick to ns conversion.

  /// The correction for a dump with header `info` and EVENTS `events`,
  /// applied when `requested` (LoadOptions::overheadCorrection, off under
  /// --no-overhead-correction) and the dump has a calibration. Records' own
  /// read costs are used when the events name READ_TICKS and the
  /// calibration measured its mean.
  static OverheadCorrection forDump(const DumpInfo &info, bool requested,
                                    llvm::ArrayRef<std::string> events = {});

  bool applied() const { return state == State::Applied; }

  /// Ticks that the nested record `r`'s probe pair adds to the interval of
  /// every record enclosing it (0 when the correction is not applied).
  uint64_t pairTicks(const RecordView &r) const;

  /// Duration in ns of a finished record spanning `rawTicks` whose nested
  /// records' pairTicks() sum to `nestedTicksSum`.
  uint64_t correctedNs(uint64_t rawTicks, uint64_t nestedTicksSum) const;

  /// Counter word `word` of a finished record, `value` as the view shows it
  /// (scaled for multiplexing, or raw), less what the probes added:
  /// self + descendants * nested, or for the task clock (ns) self + the ns
  /// that pairTicks() summed to (`nestedTicksSum`) and at most the record's
  /// corrected `durationNs`. Clamped at 0. Words without calibration
  /// (pseudo-events) keep `value`.
  uint64_t correctedCount(unsigned word, uint64_t value, uint64_t descendants,
                          uint64_t nestedTicksSum, uint64_t durationNs) const;
};

/// One line for a view's configuration block on a dump whose times were
/// aggregated in `state` (DumpSummary::correction; a Profile read back from
/// a JSON export keeps the state it was exported with), e.g.
///   "on (self 7.2 ns, nested 27.4 ns per probe pair)"
///   "off (--no-overhead-correction; measured self 7.2 ns, nested 27.4 ns
///        per probe pair)"
///   "off (dump has no calibration: TPUPROF_CALIBRATE=0 or an older runtime)"
inline std::string describeCorrection(OverheadCorrection::State state,
                                      const DumpInfo &info);

/// "applied", "disabled" or "no calibration" (JSON export), and back.
inline llvm::StringRef correctionName(OverheadCorrection::State state);
inline std::optional<OverheadCorrection::State>
parseCorrectionName(llvm::StringRef name);

/// The shortest duration of one of `info`'s records that means something
/// after a correction in `state`, in ns: one clock tick, and where the
/// correction was applied, the self cost it took off every record (a
/// corrected time below it is within the spread of what was subtracted).
inline uint64_t resolutionNs(const DumpInfo &info,
                             OverheadCorrection::State state);

/// The shortest mean duration of an op that the correction measures to
/// 5 %, in ns: twice the calibrated cost of a nested probe pair (`nested`),
/// the bound that bench/correction_truth holds ops to (docs/report.md,
/// "How sure a time is"). 0 without calibration: then nothing is known.
inline uint64_t approxBelowNs(const DumpInfo &info);

/// The calibration values of `info` in ns (0 without calibration).
inline double calibSelfNs(const DumpInfo &info);
inline double calibNestedNs(const DumpInfo &info);
inline double calibReadNs(const DumpInfo &info);

//===----------------------------------------------------------------------===//
// Implementation
//===----------------------------------------------------------------------===//
inline OverheadCorrection
OverheadCorrection::forDump(const DumpInfo &info, bool requested,
                            llvm::ArrayRef<std::string> events) {
  OverheadCorrection c;
  c.info = &info;
  if (!info.hasCalibration) {
    c.state = State::NoCalibration;
  } else if (!requested) {
    c.state = State::Disabled;
  } else {
    c.state = State::Applied;
    c.selfTicks = info.calibSelfTicks;
    c.nestedTicks = info.calibNestedTicks;
    // The reader guarantees calibReadTicks <= calibNestedTicks.
    if (info.calibReadTicks)
      for (size_t i = 0; i != events.size(); ++i)
        if (events[i] == TPUPROF_EVENT_READ_TICKS) {
          c.readWord = int(i);
          c.readTicks = info.calibReadTicks;
        }
    // The reader guarantees one entry per EVENTS name.
    if (info.calibCounts.size() == events.size()) {
      for (size_t i = 0; i != events.size(); ++i) {
        bool pseudo = isPseudoEvent(events[i]);
        c.counts.push_back(pseudo ? DumpInfo::CounterCalibration()
                                  : info.calibCounts[i]);
        if (!pseudo && c.taskClockWord < 0 &&
            canonicalEvent(events[i]) == "task-clock")
          c.taskClockWord = int(i);
      }
    }
  }
  return c;
}

inline uint64_t OverheadCorrection::correctedCount(unsigned word,
                                                   uint64_t value,
                                                   uint64_t descendants,
                                                   uint64_t nestedTicksSum,
                                                   uint64_t durationNs) const {
  if (word >= counts.size())
    return value;
  const DumpInfo::CounterCalibration &k = counts[word];
  bool taskClock = int(word) == taskClockWord && info;
  // Saturating: a corrupt dump's huge counts must clamp to 0, not wrap (a
  // sum clamped at UINT64_MAX compares with `value` as the exact one does).
  uint64_t nested = taskClock ? info->ticksToNs(nestedTicksSum)
                              : mulSaturating(descendants, k.nested);
  uint64_t probes = addSaturating(k.self, nested);
  uint64_t count = probes >= value ? 0 : value - probes;
  return taskClock ? std::min(count, durationNs) : count;
}

inline uint64_t OverheadCorrection::pairTicks(const RecordView &r) const {
  if (!applied())
    return 0;
  // An unfinished record's end read never ran: its word is 0 in the dump.
  if (readWord < 0 || !r.isFinished() || unsigned(readWord) >= r.numCounters)
    return nestedTicks;
  uint64_t base = nestedTicks - readTicks;
  uint64_t own = r.counter(unsigned(readWord));
  return own > UINT64_MAX - base ? UINT64_MAX : base + own; // Corrupt word.
}

inline uint64_t OverheadCorrection::correctedNs(uint64_t rawTicks,
                                                uint64_t nestedTicksSum) const {
  uint64_t ticks = rawTicks;
  if (applied()) {
    // Saturating: a corrupt dump's huge calibration or a sum that the
    // walkers saturated must clamp to 0, not wrap.
    uint64_t overhead = addSaturating(selfTicks, nestedTicksSum);
    ticks = overhead >= rawTicks ? 0 : rawTicks - overhead;
  }
  return info ? info->ticksToNs(ticks) : ticks;
}

/// a + b, clamped at UINT64_MAX (the walkers' sums of pairTicks()).
inline uint64_t addTicksSaturating(uint64_t a, uint64_t b) {
  return b > UINT64_MAX - a ? UINT64_MAX : a + b;
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

namespace detail {
/// A calibration value of `info` (ticks) in ns; 0 without calibration.
inline double calibTicksAsNs(const DumpInfo &info, uint64_t ticks) {
  if (!info.hasCalibration)
    return 0;
  double tpn = info.ticksPerNs();
  return tpn > 0 ? double(ticks) / tpn : 0;
}
} // namespace detail

inline double calibSelfNs(const DumpInfo &info) {
  return detail::calibTicksAsNs(info, info.calibSelfTicks);
}

inline double calibNestedNs(const DumpInfo &info) {
  return detail::calibTicksAsNs(info, info.calibNestedTicks);
}

inline double calibReadNs(const DumpInfo &info) {
  return detail::calibTicksAsNs(info, info.calibReadTicks);
}

namespace detail {
/// `ns` as an integer, clamped to [0, UINT64_MAX]: a corrupt calibration
/// can make it too large for one (or NaN, which is 0).
inline uint64_t clampNs(double ns) {
  if (!(ns > 0))
    return 0;
  return ns >= 0x1p64 ? UINT64_MAX : uint64_t(ns);
}
} // namespace detail

inline uint64_t resolutionNs(const DumpInfo &info,
                             OverheadCorrection::State state) {
  double tpn = info.ticksPerNs();
  uint64_t tick = tpn > 0 && tpn < 1 ? detail::clampNs(1 / tpn + 0.999) : 1;
  if (state != OverheadCorrection::State::Applied)
    return tick;
  return std::max(tick, detail::clampNs(calibSelfNs(info) + 0.5));
}

inline uint64_t approxBelowNs(const DumpInfo &info) {
  return detail::clampNs(2 * calibNestedNs(info) + 0.5);
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
    if (info.calibReadTicks)
      os << ", its " << llvm::format("%.1f", calibReadNs(info))
         << " ns of counter reads as each record measured them";
    if (llvm::any_of(info.calibCounts,
                     [](const DumpInfo::CounterCalibration &k) {
                       return k.self || k.nested;
                     }))
      os << "; counters less the probes' own counts";
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

#endif // TPUPROF_REPORT_MODEL_CORRECTION_H
