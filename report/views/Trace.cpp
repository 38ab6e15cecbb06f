//===- report/views/Trace.cpp - Chrome trace JSON for Perfetto ------------===//
//
// One Chrome "process" per (device, OS pid) and one track per thread; every
// record is a complete ("X") event, timestamps in µs relative to the run
// start (the earliest window begin over all dumps) with nanosecond precision.
// Nesting is strict per thread (Walk.h clamps children into parents).
// Counter tracks ("C") carry each PMU event's running total over the
// thread's top-level records, and (memory tracking) the live bytes of the
// process after every allocation and free.
//
// An external Chrome trace merges on the same clock: its timestamps (plus
// --trace-offset) are taken to be CLOCK_MONOTONIC microseconds (what the
// dumps' calibration maps to) when they fall within an hour of the dumps'
// windows, else CLOCK_REALTIME microseconds (PyTorch's Kineto traces) when
// the dumps' clock pairs put them there, else relative to the trace's own
// start (PyTorch's legacy profiler): then its first event is placed at the
// first window's begin and a warning says so. All are shifted by the same
// origin.
//
// A job's ranks (dumps with a PROCESS section) share one axis: each rank's
// clock is mapped onto the lowest rank's as `tpuprof-report ranks` aligns
// them (model/Ranks.h; exact on one host), and its process is named and
// sorted by its rank.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Walk.h"

#include "tpuprof/report/model/Device.h"

#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/model/Json.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/Memory.h"
#include "tpuprof/report/model/Ranks.h"
#include "tpuprof/report/model/Timeline.h"
#include "tpuprof/report/read/InputFile.h"
#include "tpuprof/report/views/Trace.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <map>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

/// "12.345": ns as µs with three decimals, exactly.
void writeUs(raw_ostream &os, uint64_t ns) {
  char buf[32];
  int n =
      snprintf(buf, sizeof buf, "%llu.%03llu", (unsigned long long)(ns / 1000),
               (unsigned long long)(ns % 1000));
  os.write(buf, n);
}

/// What maps the external trace's timestamps (plus the offset) onto the
/// dumps' CLOCK_MONOTONIC, in µs: 0 when they are on it, the dumps'
/// monotonic - realtime when they are on CLOCK_REALTIME, and otherwise what
/// puts the first one at the first window's begin (with a warning).
double externalShiftUs(const Profile &p, const json::Value &events,
                       const TraceOptions &opts, uint64_t originNs) {
  double first = INFINITY;
  for (const json::Value &e : *events.getAsArray())
    if (const json::Object *o = e.getAsObject())
      if (std::optional<double> ts = o->getNumber("ts"))
        first = std::min(first, *ts + opts.externalOffsetUs);
  if (!std::isfinite(first))
    return 0;
  uint64_t lastNs = originNs;
  std::optional<double> realtimeMinusMonotonicUs;
  for (const DumpSummary &d : p.dumps) {
    lastNs = std::max(lastNs, absoluteNs(d.info, d.info.windowEnd));
    const DumpInfo::ProcessInfo &pi = d.info.process;
    if (!realtimeMinusMonotonicUs && d.info.hasProcess && pi.realtimeNs0)
      realtimeMinusMonotonicUs =
          (double(pi.realtimeNs0) - double(pi.monotonicNs0)) / 1000.0;
  }
  const double hourUs = 3600e6;
  double beginUs = double(originNs) / 1000.0, endUs = double(lastNs) / 1000.0;
  auto nearWindows = [&](double us) {
    return us >= beginUs - hourUs && us <= endUs + hourUs;
  };
  if (nearWindows(first))
    return 0;
  if (realtimeMinusMonotonicUs &&
      nearWindows(first - *realtimeMinusMonotonicUs))
    return -*realtimeMinusMonotonicUs;
  if (opts.notes)
    *opts.notes << formatv(
        "tpuprof-report: warning: {0}: its first timestamp, {1:F0} us, is on "
        "none of the "
        "dumps' clocks (CLOCK_MONOTONIC {2:F0} to {3:F0} us, or "
        "CLOCK_REALTIME by their clock pairs): taken as relative to its own "
        "start and placed at the first window's begin; --trace-offset moves "
        "it\n",
        opts.externalTrace, first, beginUs, endUs);
  return beginUs - first;
}

/// Device queue tracks get tids no OS thread has, in queue order, sorted
/// after the host threads.
constexpr uint64_t kDeviceTidBase = uint64_t(1) << 40;

/// One track per device queue of `reader`'s dump, one slice per command,
/// and a flow arrow from each launch record to its command (docs/device.md).
void writeDeviceTracks(json::OStream &j, const DumpReader &reader, int64_t pid,
                       uint64_t origin, uint64_t &nextFlowId) {
  const DumpInfo &info = reader.info();
  const DeviceData &device = info.deviceData;
  if (!device.present)
    return;
  std::map<uint32_t, uint64_t> hostTid; // Thread number -> OS tid.
  for (const ThreadInfo &t : reader.threads())
    hostTid.emplace(t.number, t.tid);
  for (uint32_t q = 0; q != device.queues.size(); ++q) {
    uint64_t tid = kDeviceTidBase + q;
    j.object([&] {
      j.attribute("ph", "M");
      j.attribute("name", "thread_name");
      j.attribute("pid", pid);
      j.attribute("tid", tid);
      j.attributeObject(
          "args", [&] { j.attribute("name", deviceQueueLabel(device, q)); });
    });
    j.object([&] {
      j.attribute("ph", "M");
      j.attribute("name", "thread_sort_index");
      j.attribute("pid", pid);
      j.attribute("tid", tid);
      j.attributeObject("args", [&] { j.attribute("sort_index", tid); });
    });
  }
  auto ts = [&](StringRef key, uint64_t ticks) {
    j.attributeBegin(key);
    j.rawValue([&](raw_ostream &o) {
      uint64_t ns = absoluteNs(info, ticks);
      writeUs(o, ns > origin ? ns - origin : 0);
    });
    j.attributeEnd();
  };
  for (const DeviceRecord &r : device.records) {
    uint64_t tid = kDeviceTidBase + r.queue;
    const Probe *launch =
        r.hasLaunch() ? reader.findProbe(r.launchProbe) : nullptr;
    j.object([&] {
      j.attribute("ph", "X");
      j.attribute("pid", pid);
      j.attribute("tid", tid);
      j.attribute("name", r.name);
      j.attribute("cat", "device");
      ts("ts", r.start);
      j.attributeBegin("dur");
      j.rawValue(
          [&](raw_ostream &o) { writeUs(o, info.ticksToNs(r.end - r.start)); });
      j.attributeEnd();
      j.attributeObject("args", [&] {
        j.attribute("op", tpuprof_device_op_name(r.op));
        j.attribute("device_ns", info.ticksToNs(r.end - r.start));
        j.attribute("queue_delay_ns", r.start > r.queued
                                          ? info.ticksToNs(r.start - r.queued)
                                          : 0);
        if (r.bytes)
          j.attribute("bytes", r.bytes);
        if (launch)
          j.attribute("launch", launch->name);
        uint32_t clock = device.queues[r.queue].clock;
        if (clock < device.clocks.size())
          j.attribute("clock_error_ns", device.clocks[clock].errorNs);
      });
    });
    auto host = hostTid.find(r.launchThread);
    if (!r.hasLaunch() || host == hostTid.end())
      continue;
    uint64_t id = nextFlowId++;
    j.object([&] {
      j.attribute("ph", "s");
      j.attribute("id", id);
      j.attribute("pid", pid);
      j.attribute("tid", host->second);
      j.attribute("name", "launch");
      j.attribute("cat", "launch");
      ts("ts", r.launchBegin);
    });
    j.object([&] {
      j.attribute("ph", "f");
      j.attribute("bp", "e");
      j.attribute("id", id);
      j.attribute("pid", pid);
      j.attribute("tid", tid);
      j.attribute("name", "launch");
      j.attribute("cat", "launch");
      ts("ts", r.start);
    });
  }
}

} // namespace

Error tpuprof::report::writeTrace(const Input &in, const TraceOptions &opts,
                                  raw_ostream &os) {
  if (Error err = in.needDumps("trace"))
    return err;
  ArrayRef<DumpSummary> dumps = in.profile.dumps;
  std::vector<const DumpInfo *> infos;
  for (const DumpSummary &d : dumps)
    infos.push_back(&d.info);
  const std::map<uint32_t, ClockAlignment> clocks = alignRanks(infos);
  // What a dump's times gain on the job's axis: its rank's offset at its
  // window's begin (the drift within one window is below a microsecond).
  auto shiftOf = [&](const DumpInfo &info) -> int64_t {
    auto it =
        info.process.ranked() ? clocks.find(info.process.rank) : clocks.end();
    if (!info.hasProcess || it == clocks.end())
      return 0;
    uint64_t begin = absoluteNs(info, info.windowBegin);
    return it->second.toAxis(begin) - int64_t(begin);
  };
  uint64_t axisOrigin = UINT64_MAX;
  for (const DumpSummary &d : dumps) {
    int64_t begin =
        int64_t(absoluteNs(d.info, d.info.windowBegin)) + shiftOf(d.info);
    axisOrigin = std::min(axisOrigin, uint64_t(std::max<int64_t>(0, begin)));
  }

  // The external trace is parsed before anything is written, so a bad file
  // leaves no half-written output.
  std::optional<json::Value> external;
  if (!opts.externalTrace.empty()) {
    Expected<std::unique_ptr<MemoryBuffer>> buf =
        readInputFile(opts.externalTrace);
    if (!buf)
      return buf.takeError();
    Expected<json::Value> v = parseJson((*buf)->getBuffer());
    if (!v)
      return createStringError(opts.externalTrace + ": not a Chrome trace: " +
                               toString(v.takeError()));
    json::Array *events = v->getAsArray();
    if (json::Object *o = v->getAsObject())
      events = o->getArray("traceEvents");
    if (!events)
      return createStringError(opts.externalTrace +
                               ": not a Chrome trace (expected an array "
                               "or an object with \"traceEvents\")");
    // Shifted timestamps must stay numbers JSON can spell (not inf) and
    // keep their microseconds: beyond 1e18 us (30,000 years) neither holds.
    for (const json::Value &e : *events)
      if (const json::Object *o = e.getAsObject())
        if (std::optional<double> ts = o->getNumber("ts");
            ts && !(std::fabs(*ts + opts.externalOffsetUs) <= 1e18))
          return createStringError(
              opts.externalTrace + ": a timestamp is out of range (" +
              formatv("{0}", format("%g", *ts)).str() + " us plus the offset)");
    external = json::Value(std::move(*events));
  }

  // Chrome pids: one per (run, device), numbered from 1 in dump order, so
  // that runs stay apart even when an OS pid was reused.
  std::map<std::pair<uint32_t, uint32_t>, int64_t> pids;
  for (const DumpSummary &d : dumps)
    pids.try_emplace({d.run, d.info.device}, int64_t(pids.size()) + 1);
  const Profile &profile = in.profile;
  // Viewers list processes by sort index: a job's ranks in rank order, then
  // the processes without a rank in start order.
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> order;
  for (auto &entry : pids) {
    uint32_t run = entry.first.first;
    order.emplace_back(run < profile.runs.size() ? profile.runs[run].rank
                                                 : TPUPROF_RANK_UNKNOWN,
                       run, entry.first.second);
  }
  llvm::sort(order);
  std::map<std::pair<uint32_t, uint32_t>, int64_t> sortIndex;
  for (const auto &[rank, run, device] : order)
    sortIndex[{run, device}] = int64_t(sortIndex.size()) + 1;

  json::OStream j(os);
  j.objectBegin();
  j.attribute("displayTimeUnit", "ns");
  j.attributeObject("otherData", [&] {
    j.attribute("generator", "tpuprof-report trace");
    j.attribute("clock", "CLOCK_MONOTONIC");
    j.attribute("origin_ns", axisOrigin);
    // Records full buffers dropped (never silent), and dumps cut short.
    uint64_t dropped = 0, incomplete = 0;
    for (const DumpSummary &d : dumps) {
      dropped += d.info.dropped;
      incomplete += !d.info.isComplete();
    }
    j.attribute("dropped_records", dropped);
    j.attribute("incomplete_dumps", incomplete);
    // Slices sit where they were recorded; with the correction on, each
    // finished slice's args carry its overhead-corrected duration.
    j.attributeArray("overhead_correction", [&] {
      for (const DumpSummary &d : dumps)
        j.value(describeCorrection(d.correction, d.info));
    });
    j.attributeArray("runs", [&] {
      for (uint32_t r = 0; r != profile.runs.size(); ++r)
        j.object([&] {
          j.attribute("run", r + 1);
          j.attribute("pid", profile.runs[r].pid);
          j.attribute("start_ns", profile.runs[r].startNs);
        });
    });
  });
  j.attributeBegin("traceEvents");
  j.arrayBegin();
  for (auto &entry : pids) {
    uint32_t run = entry.first.first, device = entry.first.second;
    int64_t pid = entry.second;
    j.object([&] {
      j.attribute("ph", "M");
      j.attribute("name", "process_name");
      j.attribute("pid", pid);
      j.attributeObject("args", [&] {
        std::string name =
            formatv("device {0} (pid {1})", device,
                    run < profile.runs.size() ? profile.runs[run].pid : 0)
                .str();
        // A job's processes are its ranks (docs/mpi.md).
        for (const DumpSummary &d : profile.dumps)
          if (d.run == run && d.info.hasProcess && d.info.process.ranked()) {
            name = formatv("rank {0}, {1}", d.info.process.rank, name).str();
            break;
          }
        if (profile.runsApart())
          name = formatv("run {0}: {1}", run + 1, name).str();
        else if (profile.runs.size() > 1)
          name = formatv("device {0} ({1} runs added up)", device,
                         profile.runs.size())
                     .str();
        j.attribute("name", name);
      });
    });
    j.object([&] {
      j.attribute("ph", "M");
      j.attribute("name", "process_sort_index");
      j.attribute("pid", pid);
      j.attributeObject(
          "args", [&] { j.attribute("sort_index", sortIndex[entry.first]); });
    });
  }
  DenseSet<std::pair<int64_t, uint64_t>> namedThreads;
  uint64_t nextFlowId = 1;
  Error err = in.forEachDump("trace", [&](const DumpReader &reader,
                                          const DumpSummary &d) {
    const DumpInfo &info = reader.info();
    // This dump's times less `origin` are its times on the job's axis.
    const uint64_t origin = uint64_t(int64_t(axisOrigin) - shiftOf(info));
    int64_t pid = pids[{d.run, info.device}];
    ArrayRef<std::string> events = reader.events();
    uint64_t tid = 0;
    std::vector<uint64_t> running;
    std::string shapes;
    SmallVector<int64_t, 8> dims;
    // Stretches the thread's dropped records leave empty: events of their
    // own, "not recorded", so that no viewer shows them as idle time.
    NotRecorded notRecorded;
    uint64_t threadDropped = 0;
    bool inThread = false;
    auto writeNotRecorded = [&] {
      if (!inThread)
        return;
      std::vector<std::pair<uint64_t, uint64_t>> stretches;
      notRecorded.finish(stretches);
      for (const std::pair<uint64_t, uint64_t> &stretch : stretches)
        j.object([&] {
          uint64_t begin = stretch.first, end = stretch.second;
          j.attribute("ph", "X");
          j.attribute("pid", pid);
          j.attribute("tid", tid);
          j.attribute("name", "not recorded");
          j.attribute("cat", "not_recorded");
          j.attributeBegin("ts");
          j.rawValue([&](raw_ostream &o) { writeUs(o, begin - origin); });
          j.attributeEnd();
          j.attributeBegin("dur");
          j.rawValue([&](raw_ostream &o) { writeUs(o, end - begin); });
          j.attributeEnd();
          j.attributeObject("args", [&] {
            j.attribute("dropped", threadDropped);
            j.attribute("why", "the thread's records were dropped here "
                               "(record limit or ring buffer): not idle");
          });
        });
    };
    walkDump(
        reader, in.overheadCorrection,
        [&](const WalkFrame &f, ArrayRef<WalkFrame> up) {
          const RecordView &r = f.record;
          notRecorded.record(f.beginNs, f.endNs, f.finished);
          j.objectBegin();
          j.attribute("ph", "X");
          j.attribute("pid", pid);
          j.attribute("tid", tid);
          if (f.probe) {
            j.attribute("name", f.probe->name);
            j.attribute("cat", kindName(f.probe->kind));
          } else {
            j.attribute("name",
                        ("<unknown probe " + Twine(r.probe) + ">").str());
            j.attribute("cat", "unknown");
          }
          j.attributeBegin("ts");
          j.rawValue([&](raw_ostream &o) { writeUs(o, f.beginNs - origin); });
          j.attributeEnd();
          j.attributeBegin("dur");
          j.rawValue([&](raw_ostream &o) { writeUs(o, f.endNs - f.beginNs); });
          j.attributeEnd();
          j.attributeObject("args", [&] {
            if (f.probe) {
              j.attribute("hash", hashName(f.probe->hash));
              dims.clear();
              for (unsigned i = 0; i != r.numDims; ++i)
                dims.push_back(r.dim(i));
              shapes = substituteShapes(f.probe->shapes, dims);
              if (!shapes.empty())
                j.attribute("shapes", shapes);
              if (!f.probe->location.empty())
                j.attribute("location", f.probe->location);
              if (!f.probe->node.empty())
                j.attribute("node", f.probe->node);
              if (!f.probe->function.empty())
                j.attribute("function", f.probe->function);
            }
            j.attribute("device", info.device);
            j.attribute("depth", r.depth);
            if (!f.finished)
              j.attribute("unfinished", true);
            else if (f.durationNs != f.rawDurationNs)
              j.attribute("corrected_dur_ns", f.durationNs);
            for (unsigned i = 0; i != r.numCounters && i != events.size();
                 ++i) {
              // Mode 2's CPU word: where the probe began and ended. The
              // runtime's other words are inputs to the figures.
              if (events[i] == TPUPROF_EVENT_CPU) {
                uint64_t v = r.counter(i);
                uint32_t from = uint32_t(v), to = uint32_t(v >> 32);
                if (from != UINT32_MAX)
                  j.attribute("cpu", from == to || to == UINT32_MAX
                                         ? utostr(from)
                                         : utostr(from) + " -> " + utostr(to));
              } else if (!isPseudoEvent(events[i])) {
                // An event never scheduled in the record has no value.
                CounterValue v = f.count(i);
                if (v.counted)
                  j.attribute(events[i], v.value);
              }
            }
          });
          j.objectEnd();
          // Counter tracks: running totals over top-level records.
          if (r.numCounters && f.finished && up.empty()) {
            running.resize(events.size(), 0);
            for (unsigned i = 0; i != r.numCounters && i != events.size();
                 ++i) {
              if (isPseudoEvent(events[i]))
                continue;
              running[i] += f.count(i).value;
              j.object([&] {
                j.attribute("ph", "C");
                j.attribute("pid", pid);
                j.attribute("tid", tid);
                j.attribute("name",
                            (events[i] + " (tid " + Twine(tid) + ")").str());
                j.attributeBegin("ts");
                j.rawValue(
                    [&](raw_ostream &o) { writeUs(o, f.endNs - origin); });
                j.attributeEnd();
                j.attributeObject("args",
                                  [&] { j.attribute("value", running[i]); });
              });
            }
          }
        },
        [&](const ThreadInfo &t) {
          writeNotRecorded();
          tid = t.tid;
          inThread = true;
          threadDropped = t.dropped;
          notRecorded.startThread(t.drops, absoluteNs(info, info.windowBegin),
                                  absoluteNs(info, info.windowEnd));
          running.clear();
          if (!namedThreads.insert({pid, tid}).second)
            return;
          j.object([&] {
            j.attribute("ph", "M");
            j.attribute("name", "thread_name");
            j.attribute("pid", pid);
            j.attribute("tid", tid);
            j.attributeObject("args", [&] {
              j.attribute("name", formatv("thread {0}", tid).str());
            });
          });
        });
    writeNotRecorded();
    writeDeviceTracks(j, reader, pid, origin, nextFlowId);
    MemoryTimeline memory(reader);
    for (const MemoryPoint &p : memory.timeline())
      j.object([&] {
        j.attribute("ph", "C");
        j.attribute("pid", pid);
        j.attribute("name", "Live bytes");
        j.attributeBegin("ts");
        j.rawValue([&](raw_ostream &o) {
          writeUs(o, absoluteNs(info, p.ticks) - origin);
        });
        j.attributeEnd();
        j.attributeObject("args", [&] { j.attribute("bytes", p.live); });
      });
    return Error::success();
  });
  if (err)
    return err;

  if (external) {
    // Keep external pids apart from ours.
    int64_t pidShift = 0;
    for (const json::Value &e : *external->getAsArray())
      if (const json::Object *o = e.getAsObject())
        if (std::optional<int64_t> p = o->getInteger("pid"))
          if (*p >= 1 && *p <= int64_t(pids.size()))
            pidShift = 1000000;
    double originUs = double(axisOrigin) / 1000.0;
    double shiftUs = externalShiftUs(in.profile, *external, opts, axisOrigin);
    for (json::Value &e : *external->getAsArray()) {
      if (json::Object *o = e.getAsObject()) {
        if (std::optional<double> ts = o->getNumber("ts"))
          (*o)["ts"] = *ts + opts.externalOffsetUs + shiftUs - originUs;
        if (std::optional<int64_t> p = o->getInteger("pid"))
          (*o)["pid"] = *p + pidShift;
      }
      j.value(e);
    }
  }
  j.arrayEnd();
  j.attributeEnd();
  j.objectEnd();
  os << '\n';
  return Error::success();
}
