//===- report/model/Timeline.cpp - The HTML page's timeline ---------------===//
//
// Part of tpuprof's report library: see Timeline.h.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Timeline.h"
#include "tpuprof/report/model/Device.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/model/Memory.h"
#include "tpuprof/report/model/Ranks.h"
#include "tpuprof/report/model/Walk.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

/// Where a dump's times go on its run's axis: its rank's clock mapped onto
/// the job's (ClockAlignment::toAxis, offsets and drift, as the merge and
/// the trace align them), then counted from the axis's origin.
struct DumpAxis {
  const ClockAlignment *clock = nullptr; ///< None: the dump's own clock.
  uint64_t origin = 0;
  /// The axis time of absolute (monotonic) `ns`, before the origin.
  uint64_t aligned(uint64_t ns) const {
    return clock ? uint64_t(std::max<int64_t>(0, clock->toAxis(ns))) : ns;
  }
  /// ns from the origin of absolute `ns` (0 before it).
  uint64_t rel(uint64_t ns) const {
    uint64_t at = aligned(ns);
    return at - std::min(at, origin);
  }
};

/// The memory lane of one dump (none without memory records). At most
/// opts.maxEvents buffers (the largest) and points (the highest live bytes
/// per time bucket beyond that) keep the page's size bounded.
void addMemoryLane(const DumpReader &reader, const DumpSummary &d,
                   const DumpAxis &axis, const TimelineOptions &opts,
                   Timeline &data) {
  MemoryTimeline t(reader);
  if (t.empty())
    return;
  const DumpInfo &info = reader.info();
  auto rel = [&](uint64_t ticks) { return axis.rel(absoluteNs(info, ticks)); };
  MemoryLane m;
  m.run = d.run;
  m.device = info.device;
  m.pid = info.pid;
  m.peak = t.peakBytes;
  uint64_t bucket = 0;
  if (t.timeline().size() > opts.maxEvents)
    bucket = std::max<uint64_t>(1, data.spanNs / std::max(1u, opts.buckets));
  for (const MemoryPoint &p : t.timeline()) {
    uint64_t at = rel(p.ticks);
    if (bucket && !m.points.empty() &&
        m.points.back().first / bucket == at / bucket) {
      m.points.back().second = std::max(m.points.back().second, p.live);
      continue;
    }
    m.points.push_back({at, p.live});
  }
  // Each buffer sits on the live bytes below it when it was allocated.
  std::vector<size_t> order(t.buffers().size());
  for (size_t i = 0; i != order.size(); ++i)
    order[i] = i;
  if (order.size() > opts.maxEvents) {
    llvm::sort(order, [&](size_t a, size_t b) {
      return t.buffers()[a].size > t.buffers()[b].size;
    });
    m.buffersLeftOut = order.size() - opts.maxEvents;
    order.resize(opts.maxEvents);
    llvm::sort(order);
  }
  const uint64_t end = rel(info.windowEnd);
  auto point = t.timeline().begin();
  for (size_t i : order) {
    const AllocatedBuffer &b = t.buffers()[i];
    while (point != t.timeline().end() && point->ticks < b.allocTicks)
      ++point;
    // The point of the allocation itself: live after it, less its size.
    uint64_t after = point != t.timeline().end() ? point->live : b.size;
    std::string op = "outside every op";
    if (b.probe != kNoProbe) {
      const Probe *p = reader.findProbe(b.probe);
      op =
          p ? p->name.str() + (p->location.empty() ? std::string()
                                                   : " at " + p->location.str())
            : ("<unknown probe " + Twine(b.probe) + ">").str();
    }
    m.buffers.push_back(
        {rel(b.allocTicks), b.freeTicks ? rel(b.freeTicks) : end, b.size,
         b.address, after - std::min(after, b.size), std::move(op), b.source});
  }
  data.memory.push_back(std::move(m));
}

/// The dump's device queues as lanes (one per queue and process, merged
/// over the process's dumps through `laneOf`), commands clamped into the
/// timeline like records.
void addDeviceLanes(const DumpReader &reader, const DumpSummary &d,
                    const DumpAxis &axis, Timeline &data,
                    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>,
                             size_t> &laneOf,
                    StringMap<uint32_t> &nameOf) {
  const DumpInfo &info = reader.info();
  const DeviceData &device = info.deviceData;
  if (!device.present)
    return;
  std::map<uint32_t, uint64_t> hostTid;
  for (const ThreadInfo &t : reader.threads())
    hostTid.emplace(t.number, t.tid);
  auto rel = [&](uint64_t ticks) {
    return std::min(axis.rel(absoluteNs(info, ticks)), data.spanNs);
  };
  std::vector<size_t> laneOfQueue;
  for (uint32_t q = 0; q != device.queues.size(); ++q) {
    auto [it, inserted] = laneOf.try_emplace(
        {d.run, info.device, info.pid, device.queues[q].number},
        data.deviceLanes.size());
    if (inserted) {
      data.deviceLanes.emplace_back();
      DeviceLane &l = data.deviceLanes.back();
      l.run = d.run;
      l.device = info.device;
      l.pid = info.pid;
      l.label = deviceQueueLabel(device, q);
    }
    laneOfQueue.push_back(it->second);
  }
  for (const DeviceRecord &r : device.records) {
    DeviceLane &l = data.deviceLanes[laneOfQueue[r.queue]];
    auto [name, inserted] = nameOf.try_emplace(r.name, data.deviceNames.size());
    if (inserted)
      data.deviceNames.push_back(r.name);
    DeviceLane::Command c;
    c.begin = rel(r.start);
    c.dur = std::min(info.ticksToNs(r.end - r.start), data.spanNs - c.begin);
    c.name = name->second;
    c.op = uint8_t(r.op);
    auto host = hostTid.find(r.launchThread);
    c.launched = r.hasLaunch() && host != hostTid.end();
    c.launchTid = c.launched ? host->second : 0;
    c.launchAt = c.launched ? rel(r.launchBegin) : 0;
    l.commands.push_back(c);
  }
}

} // namespace

void NotRecorded::startThread(const DropCounts &threadDrops, uint64_t begin,
                              uint64_t end) {
  *this = NotRecorded();
  drops = threadDrops;
  windowBegin = begin;
  windowEnd = end;
}

void NotRecorded::record(uint64_t begin, uint64_t end, bool finished) {
  if (!any || begin < firstBegin)
    firstBegin = begin;
  if (!any || begin >= lastBegin) {
    lastBegin = begin;
    lastEnd = finished ? end : begin;
  }
  any = true;
}

void NotRecorded::finish(
    std::vector<std::pair<uint64_t, uint64_t>> &out) const {
  if (drops.full || drops.noSpace || drops.unknown) {
    uint64_t from = any ? std::max(lastEnd, windowBegin) : windowBegin;
    if (from < windowEnd)
      out.push_back({from, windowEnd});
  }
  if (drops.overwritten) {
    uint64_t to = any ? std::min(firstBegin, windowEnd) : windowEnd;
    if (windowBegin < to)
      out.push_back({windowBegin, to});
  }
}

Error tpuprof::report::buildTimeline(const Input &in,
                                     const TimelineOptions &opts,
                                     Timeline &data) {
  for (unsigned i = 0; i != in.profile.events.size(); ++i)
    if (!isPseudoEvent(in.profile.events[i]))
      data.shownEvents.push_back(i);
  // Each run on its own time axis: times are relative to the earliest
  // window begin of the record's run. A job's ranks share one axis instead
  // (docs/mpi.md): each rank's clock mapped onto the lowest rank's, all
  // counted from the earliest aligned window begin.
  size_t numRuns = std::max<size_t>(1, in.profile.runs.size());
  data.runOrigin.assign(numRuns, UINT64_MAX);
  data.runClock.assign(numRuns, std::nullopt);
  std::vector<const DumpInfo *> infos;
  for (const DumpSummary &d : in.profile.dumps)
    infos.push_back(&d.info);
  const std::map<uint32_t, ClockAlignment> clocks = alignRanks(infos);
  data.sharedAxis = in.profile.runsApart() &&
                    llvm::all_of(in.profile.dumps, [&](const DumpSummary &d) {
                      return d.info.hasProcess && d.info.process.ranked() &&
                             clocks.count(d.info.process.rank);
                    });
  if (data.sharedAxis)
    for (const DumpSummary &d : in.profile.dumps)
      data.runClock[d.run] = clocks.at(d.info.process.rank);
  auto axisOf = [&](const DumpSummary &d) {
    DumpAxis a;
    if (data.runClock[d.run])
      a.clock = &*data.runClock[d.run];
    return a;
  };
  std::vector<uint64_t> runLast(numRuns, 0);
  for (const DumpSummary &d : in.profile.dumps) {
    DumpAxis a = axisOf(d);
    uint64_t &origin = data.runOrigin[d.run];
    origin =
        std::min(origin, a.aligned(absoluteNs(d.info, d.info.windowBegin)));
    runLast[d.run] = std::max(runLast[d.run],
                              a.aligned(absoluteNs(d.info, d.info.windowEnd)));
    data.numEvents += d.records;
  }
  if (data.sharedAxis) {
    uint64_t origin = *llvm::min_element(data.runOrigin);
    uint64_t last = *llvm::max_element(runLast);
    std::fill(data.runOrigin.begin(), data.runOrigin.end(), origin);
    std::fill(runLast.begin(), runLast.end(), last);
  }
  if (in.profile.dumps.empty())
    return Error::success();
  data.spanNs = 1;
  for (size_t r = 0; r != numRuns; ++r)
    if (data.runOrigin[r] != UINT64_MAX && runLast[r] > data.runOrigin[r])
      data.spanNs = std::max(data.spanNs, runLast[r] - data.runOrigin[r]);
  data.bucketed = data.numEvents > opts.maxEvents;
  unsigned numBuckets = std::max(1u, opts.buckets);
  data.bucketNs =
      std::max<uint64_t>(1, (data.spanNs + numBuckets - 1) / numBuckets);

  const Profile &profile = in.profile;
  std::map<RowKey, uint32_t> rowOf;
  for (size_t i = 0; i != profile.rows.size(); ++i)
    rowOf[rowKey(profile.rows[i])] = i;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> siteOf;
  auto site = [&](uint32_t row, StringRef location) {
    const std::vector<std::string> &locs = profile.rows[row].locations;
    uint32_t loc = 0;
    for (size_t i = 0; i != locs.size(); ++i)
      if (locs[i] == location)
        loc = i;
    auto [it, inserted] = siteOf.try_emplace({row, loc}, 0);
    if (inserted) {
      it->second = data.sites.size();
      data.sites.push_back({row, loc});
    }
    return it->second;
  };

  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint64_t>, size_t> laneOf;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, size_t>
      deviceLaneOf;
  StringMap<uint32_t> deviceNameOf;
  Error err = in.forEachDump("html", [&](const DumpReader &reader,
                                         const DumpSummary &d) {
    const DumpInfo &info = reader.info();
    DumpAxis axis = axisOf(d);
    axis.origin = data.runOrigin[d.run];
    ArrayRef<std::string> events = reader.events();
    // This dump's counter words in the page's shown events (or none).
    const size_t numShown = data.shownEvents.size();
    SmallVector<unsigned, 8> eventColumn;
    for (const std::string &e : events) {
      unsigned column = numShown;
      for (unsigned c = 0; c != numShown; ++c)
        if (profile.events[data.shownEvents[c]] == e)
          column = c;
      eventColumn.push_back(column);
    }
    // Records whose probe has no dynamic dims map to one site per probe.
    DenseMap<const Probe *, uint32_t> staticSite;
    SmallVector<int64_t, 8> dims;
    TimelineLane *lane = nullptr;
    auto relative = [&](uint64_t ticks) {
      return std::min(axis.rel(absoluteNs(info, ticks)), data.spanNs);
    };
    NotRecorded notRecorded;
    walkDump(
        reader, in.overheadCorrection,
        [&](const WalkFrame &f, ArrayRef<WalkFrame> up) {
          const RecordView &r = f.record;
          ++lane->records;
          lane->unfinished += !f.finished;
          lane->maxDepth = std::max<unsigned>(lane->maxDepth, up.size());
          uint32_t s;
          auto cached = f.probe && r.numDims == 0 ? staticSite.find(f.probe)
                                                  : staticSite.end();
          if (cached != staticSite.end()) {
            s = cached->second;
          } else {
            RowKey key;
            if (f.probe) {
              dims.clear();
              for (unsigned i = 0; i != r.numDims; ++i)
                dims.push_back(r.dim(i));
              key = RowKey(true, f.probe->hash,
                           r.numDims ? substituteShapes(f.probe->shapes, dims)
                                     : f.probe->shapes.str(),
                           info.device, d.run, f.probe->node.str());
            } else {
              key = RowKey(false, r.probe, std::string(), info.device, d.run,
                           std::string());
            }
            auto row = rowOf.find(key);
            if (row == rowOf.end())
              return; // Cannot happen: the same dumps were aggregated.
            s = site(row->second, f.probe ? f.probe->location : "");
            if (f.probe && r.numDims == 0)
              staticSite[f.probe] = s;
          }
          // Clamped into the timeline (a record cannot start before its
          // window, but a hand-made or damaged dump may say so).
          // A rank's records begin where its clock maps them; their
          // lengths are its own clock's (drift changes them by ppm).
          uint64_t begin = std::min(axis.rel(f.beginNs), data.spanNs);
          uint64_t dur = std::min(f.endNs - f.beginNs, data.spanNs - begin);
          notRecorded.record(begin, begin + dur, f.finished);
          bool topLevel = f.topLevel();
          // What the table and summary count: the corrected duration.
          uint64_t correction =
              f.finished ? dur - std::min(dur, f.durationNs) : 0;
          if (topLevel) {
            unsigned k = f.probe ? tpuprof_kind_bucket(f.probe->kind)
                                 : TPUPROF_KIND_BUCKET_UNKNOWN;
            lane->byKind[k] += dur - correction;
          }
          if (!data.bucketed) {
            TimelineEvent e{
                begin, dur, correction, s, uint16_t(up.size()), !f.finished, 0};
            data.anyCorrected |= correction != 0;
            if (numShown) {
              e.counterIndex = lane->counters.size() / numShown;
              lane->counters.resize(lane->counters.size() + numShown);
              uint64_t *c = &lane->counters[e.counterIndex * numShown];
              for (unsigned i = 0; i != r.numCounters && i != events.size();
                   ++i)
                if (eventColumn[i] != numShown)
                  c[eventColumn[i]] = f.count(i).value;
            }
            lane->events.push_back(e);
            return;
          }
          uint64_t first = std::min<uint64_t>(begin / data.bucketNs,
                                              lane->buckets.size() - 1);
          ++lane->buckets[first].count;
          if (!topLevel)
            return;
          // Spread the record's (corrected) time over the buckets from its
          // begin on, so that buckets add up to the table's Sum.
          uint64_t end = begin + dur - correction;
          for (uint64_t b = first; b < lane->buckets.size(); ++b) {
            uint64_t lo = std::max(begin, b * data.bucketNs);
            uint64_t hi = std::min(end, (b + 1) * data.bucketNs);
            if (lo >= hi)
              break;
            lane->buckets[b].busy += hi - lo;
            lane->buckets[b].bySite[s] += hi - lo;
          }
        },
        [&](const ThreadInfo &t) {
          if (lane)
            notRecorded.finish(lane->notRecorded);
          notRecorded.startThread(t.drops, relative(info.windowBegin),
                                  relative(info.windowEnd));
          auto [it, inserted] = laneOf.try_emplace(
              {d.run, info.device, info.pid, t.tid}, data.lanes.size());
          if (inserted) {
            data.lanes.emplace_back();
            TimelineLane &l = data.lanes.back();
            l.run = d.run;
            l.device = info.device;
            l.pid = info.pid;
            l.tid = t.tid;
            if (data.bucketed)
              l.buckets.resize(numBuckets);
          }
          lane = &data.lanes[it->second];
          lane->windowNs += info.windowNs();
          lane->dropped += t.dropped;
        });
    if (lane)
      notRecorded.finish(lane->notRecorded);
    addMemoryLane(reader, d, axis, opts, data);
    addDeviceLanes(reader, d, axis, data, deviceLaneOf, deviceNameOf);
    return Error::success();
  });
  if (err)
    return err;
  // Lanes in (run, device, pid, tid) order; events by begin, parents first.
  std::vector<TimelineLane> ordered;
  for (auto &entry : laneOf)
    ordered.push_back(std::move(data.lanes[entry.second]));
  data.lanes = std::move(ordered);
  // A job's lane groups in rank order, as the trace lists its processes.
  if (data.sharedAxis)
    llvm::sort(data.lanes, [&](const TimelineLane &a, const TimelineLane &b) {
      return std::make_tuple(in.profile.runs[a.run].rank, a.run, a.device,
                             a.pid, a.tid) <
             std::make_tuple(in.profile.runs[b.run].rank, b.run, b.device,
                             b.pid, b.tid);
    });
  for (TimelineLane &l : data.lanes)
    llvm::sort(l.events, [](const TimelineEvent &a, const TimelineEvent &b) {
      return std::tie(a.begin, a.depth, a.counterIndex) <
             std::tie(b.begin, b.depth, b.counterIndex);
    });
  std::vector<DeviceLane> devices;
  for (auto &entry : deviceLaneOf)
    devices.push_back(std::move(data.deviceLanes[entry.second]));
  data.deviceLanes = std::move(devices);
  for (DeviceLane &l : data.deviceLanes)
    llvm::sort(l.commands,
               [](const DeviceLane::Command &a, const DeviceLane::Command &b) {
                 return std::tie(a.begin, a.dur, a.name, a.launchAt) <
                        std::tie(b.begin, b.dur, b.name, b.launchAt);
               });
  return Error::success();
}
