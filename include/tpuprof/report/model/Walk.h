//===- tpuprof/report/model/Walk.h - The record nesting walk ----*- C++ -*-===//
//
// The one place that replays a thread's record stream with its nesting and
// applies the overhead correction (Correction.h): the aggregator (table,
// diff, exports, annotate) and every record view (summary, trace, stacks,
// graph, SQLite, HTML) go through walkDump().
//
// A stream is in begin order and each record carries its depth, so a stack
// of open records gives every record its parent. A record is handed to the
// visitor twice: open() when it is pushed (its parent known), close() when
// it is popped (post-order, its ancestors still on the stack), because only
// then are the records nested inside it, which the correction needs, known.
// Popping while depth >= the new depth (rather than requiring exact depths)
// tolerates gaps, e.g. a parent lost to a full buffer: the nearest shallower
// record is then the parent. Memory: one stack per thread.
//
// With `timeline`, records also get positions on one absolute clock:
// unfinished records close at the begin of the next record that cannot
// nest in them, or at the window end, and every interval is clamped into
// its parent's, so intervals nest strictly. Durations are corrected;
// positions are not (the correction shortens, it does not move).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_WALK_H
#define TPUPROF_REPORT_MODEL_WALK_H

#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/model/CounterWords.h"
#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tpuprof {
namespace report {

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
  bool finished = false;
  /// A finished record encloses this one: its time is already part of its
  /// ancestor's, so it is not top level (the table's "Sum", the summary's
  /// busy time and the counter totals count it once, there).
  bool coveredAbove = false;
  /// OverheadCorrection::pairTicks(): what its probe pair adds to every
  /// enclosing record.
  uint64_t pairTicks = 0;
  /// pairTicks of the records nested inside, at any depth: what the
  /// correction subtracts for them. Complete when the record closes.
  uint64_t nestedTicks = 0;
  uint64_t descendants = 0; ///< Records nested inside, at any depth.
  uint64_t childrenNs = 0;  ///< Durations of finished direct children.
  /// end - begin of a finished record less the probe overhead where the
  /// dump is corrected, else 0. Set when the record closes.
  uint64_t durationNs = 0;
  /// Free for the visitor's open() to fill (the aggregator's row).
  size_t user = 0;
  /// Timeline only: where the record lies, as recorded (absolute ns).
  uint64_t beginNs = 0;
  uint64_t endNs = 0;         ///< For unfinished records: when closed.
  uint64_t rawDurationNs = 0; ///< end - begin, uncorrected.
  const OverheadCorrection *correction = nullptr; ///< The dump's.
  const CounterWords *words = nullptr;            ///< The dump's layout.

  uint64_t selfNs() const {
    return durationNs - std::min(childrenNs, durationNs);
  }
  /// Finished and with no finished record around it.
  bool topLevel() const { return finished && !coveredAbove; }

  /// Counter word `i` as recorded, less the probes' own counts where the
  /// dump is corrected (Correction.h); valid once the record has closed.
  /// `value` replaces the recorded word (e.g. scaled for multiplexing).
  uint64_t counter(unsigned i) const { return counter(i, record.counter(i)); }
  uint64_t counter(unsigned i, uint64_t value) const {
    return finished && correction
               ? correction->correctedCount(i, value, descendants, nestedTicks,
                                            durationNs)
               : value;
  }
  /// Counter word `i` as every view shows it (valid once the record has
  /// closed): a PMU event scaled for multiplexing (CounterWords), then less
  /// the probes' own counts; `counted` is false for an event the record
  /// never had scheduled.
  CounterValue count(unsigned i) const {
    CounterValue v = words ? words->value(record, i)
                           : CounterValue{record.counter(i), true, false};
    if (v.counted)
      v.value = counter(i, v.value);
    return v;
  }
};

/// Defaults for walkDump()'s visitor; a visitor defines close() and
/// overrides (hides) what else it needs.
struct WalkVisitor {
  /// Before each thread's records.
  void thread(const ThreadInfo &) {}
  /// When `f` is pushed; `parent` is the record it nests in, or null.
  void open(WalkFrame &f, const WalkFrame *parent) {}
  /// A memory record (format.h, version 5) in its place in the stream;
  /// `open` holds the records open around it, innermost last.
  void memory(const MemoryEventView &, llvm::ArrayRef<WalkFrame> open) {}
  // void close(const WalkFrame &f, llvm::ArrayRef<WalkFrame> ancestors);
};

/// Walks every record of every thread of `dump` (see the file comment).
/// `timeline` fills WalkFrame's positions (absolute ns), which the row
/// views do not need; `overheadCorrection` (LoadOptions) subtracts the
/// probes' cost where the dump has a calibration.
template <typename Visitor>
void walkDump(const DumpReader &dump, Visitor &visitor, bool timeline,
              bool overheadCorrection) {
  const DumpInfo &info = dump.info();
  OverheadCorrection correction =
      OverheadCorrection::forDump(info, overheadCorrection, dump.events());
  const CounterWords words(dump.events());
  const uint64_t windowEndNs = timeline ? absoluteNs(info, info.windowEnd) : 0;

  // Probes of the common small ids without a search: known[id] says
  // whether probes[id] was looked up.
  constexpr uint32_t kDenseIds = 1u << 16;
  std::vector<const Probe *> probes;
  std::vector<bool> known;
  auto findProbe = [&](uint32_t id) {
    if (id >= kDenseIds)
      return dump.findProbe(id);
    if (probes.size() <= id) {
      probes.resize(id + 1);
      known.resize(id + 1);
    }
    if (!known[id]) {
      probes[id] = dump.findProbe(id);
      known[id] = true;
    }
    return probes[id];
  };

  // Frames are built and closed in place: a walk touches every record, and
  // copying frames showed in the aggregation rate.
  llvm::SmallVector<WalkFrame, 32> stack;
  auto pop = [&](uint64_t closeAtNs) {
    WalkFrame &f = stack.back();
    if (f.finished)
      f.durationNs =
          correction.correctedNs(f.record.end - f.record.begin, f.nestedTicks);
    else if (timeline)
      f.endNs = std::max(f.beginNs, closeAtNs);
    llvm::ArrayRef<WalkFrame> ancestors =
        llvm::ArrayRef<WalkFrame>(stack).drop_back();
    if (!ancestors.empty()) {
      WalkFrame &parent = stack[stack.size() - 2];
      parent.nestedTicks = addTicksSaturating(
          parent.nestedTicks, addTicksSaturating(f.pairTicks, f.nestedTicks));
      parent.descendants += 1 + f.descendants;
      if (parent.finished) {
        if (timeline) {
          f.endNs = std::min(f.endNs, parent.endNs);
          f.beginNs = std::min(f.beginNs, f.endNs);
        }
        if (f.finished)
          parent.childrenNs += f.durationNs;
      }
    }
    visitor.close(static_cast<const WalkFrame &>(f), ancestors);
    stack.pop_back();
  };

  for (const ThreadInfo &thread : dump.threads()) {
    visitor.thread(thread);
    uint64_t seq = 0;
    auto onMemory = [&](const MemoryEventView &m) {
      // Only `depth` probes are open: deeper records have ended.
      while (!stack.empty() && stack.back().record.depth >= m.depth)
        pop(timeline ? absoluteNs(info, m.time) : 0);
      visitor.memory(m, llvm::ArrayRef<WalkFrame>(stack));
    };
    dump.forEachEvent(
        thread,
        [&](const RecordView &r) {
          bool finished = r.isFinished();
          uint64_t beginNs = 0, rawNs = 0;
          if (timeline) {
            beginNs = absoluteNs(info, r.begin);
            if (finished)
              rawNs = info.ticksToNs(r.end - r.begin);
          }
          while (!stack.empty() && stack.back().record.depth >= r.depth)
            pop(beginNs);
          WalkFrame &f = stack.emplace_back();
          const WalkFrame *parent =
              stack.size() > 1 ? &stack[stack.size() - 2] : nullptr;
          f.record = r;
          f.probe = findProbe(r.probe);
          f.seq = seq++;
          f.finished = finished;
          f.pairTicks = correction.pairTicks(r);
          f.correction = &correction;
          f.words = &words;
          if (timeline) {
            f.beginNs = beginNs;
            f.rawDurationNs = rawNs;
            f.endNs = finished ? beginNs + rawNs : 0;
          }
          if (parent) {
            f.coveredAbove = parent->finished || parent->coveredAbove;
            if (timeline && parent->finished)
              f.beginNs = std::max(f.beginNs, parent->beginNs);
          }
          visitor.open(f, parent);
        },
        onMemory);
    while (!stack.empty())
      pop(windowEndNs);
  }
}

/// walkDump() with callbacks: `onRecord(frame, ancestors)` when a record
/// closes (ancestors root first), `onThread` (optional) before each
/// thread's records; positions included.
inline void
walkDump(const DumpReader &dump, bool overheadCorrection,
         llvm::function_ref<void(const WalkFrame &, llvm::ArrayRef<WalkFrame>)>
             onRecord,
         llvm::function_ref<void(const ThreadInfo &)> onThread = nullptr) {
  struct Callbacks : WalkVisitor {
    llvm::function_ref<void(const WalkFrame &, llvm::ArrayRef<WalkFrame>)>
        onRecord;
    llvm::function_ref<void(const ThreadInfo &)> onThread;
    void thread(const ThreadInfo &t) {
      if (onThread)
        onThread(t);
    }
    void close(const WalkFrame &f, llvm::ArrayRef<WalkFrame> up) {
      onRecord(f, up);
    }
  } callbacks;
  callbacks.onRecord = onRecord;
  callbacks.onThread = onThread;
  walkDump(dump, callbacks, /*timeline=*/true, overheadCorrection);
}

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_WALK_H
