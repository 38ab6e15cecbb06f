//===- tpuprof/report/model/Timeline.h - HTML timeline ---------*- C++ -*-===//
//
// What the HTML report's timeline shows, computed from the dumps' records
// (walkDump) so that the view only prints it: one lane per (run, device,
// pid, thread) with its records (or, above a record limit, per-bucket busy
// time and top site), busy time by probe kind, counter values per record
// as every view decodes them (CounterWords), and the memory lanes.
// Times are integer ns relative to each run's earliest window begin, or, for
// a job's ranks, to the job's on one aligned axis.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_TIMELINE_H
#define TPUPROF_REPORT_MODEL_TIMELINE_H

#include "tpuprof/format.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/Ranks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tpuprof {
namespace report {

/// One timeline event, before it is written column by column.
struct TimelineEvent {
  uint64_t begin, dur;
  /// dur less the duration the views report: the probe overhead the walk
  /// subtracted (Correction.h); 0 for uncorrected dumps.
  uint64_t corrected;
  uint32_t site;
  uint16_t depth;
  bool unfinished;
  uint32_t counterIndex; ///< Into TimelineLane::counters (× shown events).
};

/// Per-lane aggregate of one bucket: busy (top-level) ns, records begun in
/// it, and ns per site of the top-level records overlapping it.
struct TimelineBucket {
  uint64_t busy = 0, count = 0;
  llvm::SmallDenseMap<uint32_t, uint64_t, 4> bySite;
};

/// Places the stretches in which a thread recorded nothing because its
/// records were dropped (the dump counts drops per thread and reason, and
/// the policy says where they fall): the stop policy, or no space, keeps a
/// thread's first records, so from the end of the last record it began to
/// the window's end; the ring keeps the newest, so from the window's begin
/// to its first record kept. Drops beyond 256 open probes are nested in
/// kept records and place nothing. Times in any one unit (ns).
class NotRecorded {
public:
  /// Starts a thread of the window [windowBegin, windowEnd].
  void startThread(const DropCounts &drops, uint64_t windowBegin,
                   uint64_t windowEnd);
  /// One kept record of it, in stream order.
  void record(uint64_t begin, uint64_t end, bool finished);
  /// Appends the thread's stretches [begin, end) to `out`.
  void finish(std::vector<std::pair<uint64_t, uint64_t>> &out) const;

private:
  DropCounts drops;
  uint64_t windowBegin = 0, windowEnd = 0;
  bool any = false;
  uint64_t firstBegin = 0, lastBegin = 0, lastEnd = 0;
};

/// One thread of one process window: its records, or its buckets.
struct TimelineLane {
  uint32_t run = 0, device = 0, pid = 0;
  uint64_t tid = 0;
  uint64_t windowNs = 0, records = 0, unfinished = 0, dropped = 0;
  /// Top-level ns by tpuprof_kind_bucket(): op, launch, user, unknown.
  uint64_t byKind[TPUPROF_KIND_BUCKETS] = {};
  unsigned maxDepth = 0;
  std::vector<TimelineEvent> events;
  /// Stretches [begin, end) in which the thread recorded nothing because
  /// its records were dropped: with the stop policy (or no space), from the
  /// end of its last record kept to the window's end; with the ring, from
  /// the window's begin to its first record kept. Not idle time: views draw
  /// them as "not recorded".
  std::vector<std::pair<uint64_t, uint64_t>> notRecorded;
  std::vector<uint64_t> counters; ///< Timeline::shownEvents per event.
  std::vector<TimelineBucket> buckets;
};

/// One process window's memory records (MemoryTimeline), for the memory
/// timeline and the buffer view under the op timeline. Times are ns from
/// the run's origin.
struct MemoryLane {
  uint32_t run = 0, device = 0, pid = 0;
  uint64_t peak = 0;
  std::vector<std::pair<uint64_t, uint64_t>> points; ///< (time, live bytes)
  struct Buffer {
    uint64_t begin, end, size, address, base; ///< base: live bytes below it
    std::string op;                           ///< The allocating probe.
    uint8_t source;
  };
  std::vector<Buffer> buffers;
  uint64_t buffersLeftOut = 0;
};

/// One device queue of one process (docs/device.md): its commands, times
/// in ns from the run's origin, each with the host thread and time of the
/// record that launched it (for the flow arrow), if known.
struct DeviceLane {
  uint32_t run = 0, device = 0, pid = 0;
  std::string label; ///< deviceQueueLabel()
  struct Command {
    uint64_t begin, dur;
    uint32_t name; ///< Into Timeline::deviceNames.
    uint8_t op;    ///< tpuprof_device_op
    bool launched; ///< The launch record is known: launchTid, launchAt.
    uint64_t launchTid, launchAt;
  };
  std::vector<Command> commands;
};

/// How much the timeline keeps.
struct TimelineOptions {
  /// Up to this many records the timeline carries every record; above it,
  /// per-lane time buckets instead.
  uint64_t maxEvents = 200000;
  /// Buckets per lane when the timeline is bucketed.
  unsigned buckets = 4096;
};

/// The timeline of one Input.
struct Timeline {
  std::vector<std::pair<uint32_t, uint32_t>> sites; ///< (row, location idx).
  /// In (run, device, pid, tid) order; events by begin, parents first.
  std::vector<TimelineLane> lanes;
  std::vector<MemoryLane> memory;
  /// Device queues, in (run, device, pid, queue) order, and the kernel
  /// names their commands point at.
  std::vector<DeviceLane> deviceLanes;
  std::vector<std::string> deviceNames;
  /// Per run, the earliest window begin (absolute ns): its time axis's 0.
  /// With a shared axis, the same for every run: the earliest window begin
  /// of all ranks, on the reference rank's clock.
  std::vector<uint64_t> runOrigin;
  /// A job's ranks on one axis (docs/mpi.md): set when every run is a rank
  /// of a job (dumps with a PROCESS section) and runs are kept apart. Each
  /// run's times then go through its rank's clock alignment (runClock, from
  /// alignRanks, as `ranks` and `trace` align them) onto the lowest rank's
  /// clock. Otherwise each run counts from its own first window begin.
  bool sharedAxis = false;
  std::vector<std::optional<ClockAlignment>> runClock; ///< Per run.
  uint64_t spanNs = 0; ///< The longest run's origin to its last window end.
  uint64_t numEvents = 0;
  bool bucketed = false;
  bool anyCorrected = false; ///< Some event's duration was corrected.
  uint64_t bucketNs = 1;
  /// Indexes into Profile::events of the PMU events the timeline carries
  /// (the runtime's own words are inputs to the figures, not counters).
  std::vector<unsigned> shownEvents;
};

/// Reads `in`'s dumps a second time, after aggregation, walking records
/// with their nesting, into `out` (sites point at `in.profile`'s rows).
llvm::Error buildTimeline(const Input &in, const TimelineOptions &opts,
                          Timeline &out);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_TIMELINE_H
