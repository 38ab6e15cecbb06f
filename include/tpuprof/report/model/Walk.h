//===- tpuprof/report/model/Walk.h - Records with their nesting -*- C++ -*-===//
//
// The record views (trace, stacks, SQLite export, summary) need each record
// with its parent, its self time and times on one absolute clock. Durations
// are overhead-corrected here (Correction.h), positions are not. walkDump()
// replays each thread's stream with a stack of open records, exactly like the
// Aggregator, and calls back when a record is closed (post-order), with its
// ancestors still on the stack. Memory: one stack per thread.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_WALK_H
#define TPUPROF_REPORT_MODEL_WALK_H

#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>

namespace tpuprof {
namespace report {
namespace detail {

/// Absolute CLOCK_MONOTONIC nanoseconds of tick value `t`.
inline uint64_t absoluteNs(const DumpInfo &info, uint64_t t) {
  if (t >= info.calibTicks0)
    return info.calibNs0 + info.ticksToNs(t - info.calibTicks0);
  uint64_t back = info.ticksToNs(info.calibTicks0 - t);
  return back > info.calibNs0 ? 0 : info.calibNs0 - back;
}

/// One record as the walk sees it.
struct WalkFrame {
  RecordView record;
  const Probe *probe = nullptr; ///< Null for an unknown probe id.
  uint64_t seq = 0;             ///< Index in the thread's stream.
  /// Where the record lies on the timeline, as recorded (absolute): the
  /// overhead correction shortens durations, it does not move events.
  uint64_t beginNs = 0;
  uint64_t endNs = 0; ///< Absolute; for unfinished records: when closed.
  /// end - begin of finished records less the probe overhead where the dump
  /// is corrected (Correction.h), else 0. Set when the record closes.
  uint64_t durationNs = 0;
  uint64_t rawDurationNs = 0; ///< end - begin, uncorrected.
  uint64_t childrenNs = 0;    ///< Durations of finished direct children.
  /// OverheadCorrection::pairTicks() of the records nested inside, at any
  /// depth: what the correction subtracts for them.
  uint64_t nestedTicks = 0;
  uint64_t descendants = 0; ///< Records nested inside, at any depth.
  bool finished = false;
  const OverheadCorrection *correction = nullptr; ///< The dump's.

  uint64_t selfNs() const {
    return durationNs - std::min(childrenNs, durationNs);
  }

  /// Counter word `i` as recorded, less the probes' own counts where the
  /// dump is corrected (Correction.h); valid once the record has closed.
  uint64_t counter(unsigned i) const {
    uint64_t v = record.counter(i);
    return finished && correction
               ? correction->correctedCount(i, v, descendants, nestedTicks,
                                            durationNs)
               : v;
  }
};

/// Calls `onRecord(frame, ancestors)` for every record of every thread of
/// `dump` when it closes, ancestors root first. Unfinished records close at
/// the begin of the next record that cannot nest in them, or at the window
/// end; every end is clamped into the parent, so intervals nest strictly.
/// `onThread` (optional) is called before each thread's records.
inline void
walkDump(const DumpReader &dump,
         llvm::function_ref<void(const WalkFrame &, llvm::ArrayRef<WalkFrame>)>
             onRecord,
         llvm::function_ref<void(const ThreadInfo &)> onThread = nullptr) {
  const DumpInfo &info = dump.info();
  OverheadCorrection correction =
      OverheadCorrection::forDump(info, dump.events());
  uint64_t windowEndNs = absoluteNs(info, info.windowEnd);
  llvm::SmallVector<WalkFrame, 32> stack;
  auto pop = [&](uint64_t closeAt) {
    WalkFrame f = stack.pop_back_val();
    if (!f.finished)
      f.endNs = std::max(f.beginNs, closeAt);
    else
      f.durationNs =
          correction.correctedNs(f.record.end - f.record.begin, f.nestedTicks);
    if (!stack.empty()) {
      WalkFrame &parent = stack.back();
      parent.nestedTicks = addTicksSaturating(
          parent.nestedTicks,
          addTicksSaturating(correction.pairTicks(f.record), f.nestedTicks));
      parent.descendants += 1 + f.descendants;
      if (parent.finished) {
        f.endNs = std::min(f.endNs, parent.endNs);
        f.beginNs = std::min(f.beginNs, f.endNs);
        if (f.finished)
          parent.childrenNs += f.durationNs;
      }
    }
    onRecord(f, stack);
  };
  for (const ThreadInfo &thread : dump.threads()) {
    if (onThread)
      onThread(thread);
    uint64_t seq = 0;
    dump.forEachRecord(thread, [&](const RecordView &r) {
      WalkFrame f;
      f.record = r;
      f.probe = dump.findProbe(r.probe);
      f.seq = seq++;
      f.correction = &correction;
      f.beginNs = absoluteNs(info, r.begin);
      f.finished = r.isFinished();
      if (f.finished) {
        f.rawDurationNs = info.ticksToNs(r.end - r.begin);
        f.endNs = f.beginNs + f.rawDurationNs;
      }
      while (!stack.empty() && stack.back().record.depth >= r.depth)
        pop(f.beginNs);
      if (!stack.empty() && stack.back().finished)
        f.beginNs = std::max(f.beginNs, stack.back().beginNs);
      stack.push_back(f);
    });
    while (!stack.empty())
      pop(windowEndNs);
  }
}

} // namespace detail
} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_WALK_H
