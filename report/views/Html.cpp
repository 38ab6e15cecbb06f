//===- report/views/Html.cpp - Self-contained HTML report -----------------===//
//
// Builds the data of `tpuprof-report html` and writes the page: the template,
// style and script compiled in from report/html/ (HtmlAssets.inc, generated
// at build time) around one JSON document:
//
//   rows      the `table` view's rows (loadInput), with the IR lines of
//             their locations when --ir is given;
//   sites     (row, location) pairs: what a timeline event points at;
//   lanes     one per (device, pid, thread): busy time by probe kind;
//   timeline  either every record (columnar, begin times delta-coded) or,
//             above HtmlOptions::maxEvents, per-lane buckets holding busy
//             time, record count and the op that took most of the bucket;
//   ir        the IR file's lines;
//   diff      rows keyed like `diff` (hash, shapes) against --baseline.
//
// All times are integer ns; timeline times are relative to the earliest
// window begin (as in `trace`). The JSON goes through ScriptJsonStream so no
// string in it can end its <script> element.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Walk.h"

#include "tpuprof/report/views/Html.h"
#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/model/Compare.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/Memory.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <map>
#include <tuple>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

#include "HtmlAssets.inc"

/// The line of a "file:line[:col]" location and its file; false without a
/// line number.
bool splitLocation(StringRef loc, StringRef &file, unsigned &line) {
  auto [head, last] = loc.rsplit(':');
  unsigned n = 0;
  if (head.empty() || last.getAsInteger(10, n))
    return false;
  auto [file2, middle] = head.rsplit(':');
  unsigned m = 0;
  if (!file2.empty() && !middle.getAsInteger(10, m)) {
    file = file2;
    line = m;
  } else {
    file = head;
    line = n;
  }
  return true;
}


/// One timeline event, before it is written column by column.
struct Event {
  uint64_t begin, dur;
  /// dur less the duration the views report: the probe overhead the walk
  /// subtracted (Correction.h); 0 for uncorrected dumps.
  uint64_t corrected;
  uint32_t site;
  uint16_t depth;
  bool unfinished;
  uint32_t counterIndex; ///< Into Lane::counters (events × numEvents).
};

/// Per-lane aggregate of one bucket: busy (top-level) ns, records begun in
/// it, and ns per site of the top-level records overlapping it.
struct Bucket {
  uint64_t busy = 0, count = 0;
  SmallDenseMap<uint32_t, uint64_t, 4> bySite;
};

struct Lane {
  uint32_t run = 0, device = 0, pid = 0;
  uint64_t tid = 0;
  uint64_t windowNs = 0, records = 0, unfinished = 0, dropped = 0;
  /// Top-level ns by tpuprof_kind_bucket(): op, launch, user, unknown.
  uint64_t byKind[TPUPROF_KIND_BUCKETS] = {};
  unsigned maxDepth = 0;
  std::vector<Event> events;
  std::vector<uint64_t> counters; ///< numEvents values per event.
  std::vector<Bucket> buckets;
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

/// Everything the page shows, gathered before anything is written.
struct ReportData {
  explicit ReportData(const Profile &profile) : profile(profile) {}
  const Profile &profile;
  std::vector<std::pair<uint32_t, uint32_t>> sites; ///< (row, location idx).
  std::vector<Lane> lanes;
  std::vector<MemoryLane> memory;
  /// Per run, the earliest window begin (absolute ns): its time axis's 0.
  std::vector<uint64_t> runOrigin;
  uint64_t spanNs = 0; ///< The longest run's origin to its last window end.
  uint64_t numEvents = 0;
  bool bucketed = false;
  bool anyCorrected = false; ///< Some event's duration was corrected.
  uint64_t bucketNs = 1;
  /// Indexes into profile.events of the PMU events the page shows (the
  /// runtime's own words are inputs to the figures, not counters).
  std::vector<unsigned> shownEvents;
  std::vector<std::string> irLines;
  std::map<std::string, std::vector<unsigned>> irLinesByLocation;
  const Input *baseline = nullptr;
};

/// The memory lane of one dump (none without memory records). At most
/// opts.maxEvents buffers (the largest) and points (the highest live bytes
/// per time bucket beyond that) keep the page's size bounded.
void addMemoryLane(const DumpReader &reader, const DumpSummary &d,
                   uint64_t origin, const HtmlOptions &opts,
                   ReportData &data) {
  MemoryTimeline t(reader);
  if (t.empty())
    return;
  const DumpInfo &info = reader.info();
  auto rel = [&](uint64_t ticks) {
    uint64_t ns = absoluteNs(info, ticks);
    return ns > origin ? ns - origin : 0;
  };
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
      op = p ? p->name.str() + (p->location.empty()
                                    ? std::string()
                                    : " at " + p->location.str())
             : ("<unknown probe " + Twine(b.probe) + ">").str();
    }
    m.buffers.push_back({rel(b.allocTicks),
                         b.freeTicks ? rel(b.freeTicks) : end, b.size,
                         b.address, after - std::min(after, b.size),
                         std::move(op), b.source});
  }
  data.memory.push_back(std::move(m));
}

/// Reads dumps a second time, after aggregation, walking records with their
/// nesting to build lanes and the timeline.
Error walkRecords(const Input &in, const HtmlOptions &opts, ReportData &data) {
  // Each run on its own time axis: times are relative to the earliest
  // window begin of the record's run.
  size_t numRuns = std::max<size_t>(1, in.profile.runs.size());
  data.runOrigin.assign(numRuns, UINT64_MAX);
  std::vector<uint64_t> runLast(numRuns, 0);
  for (const DumpSummary &d : in.profile.dumps) {
    uint64_t &origin = data.runOrigin[d.run];
    origin = std::min(origin, absoluteNs(d.info, d.info.windowBegin));
    runLast[d.run] =
        std::max(runLast[d.run], absoluteNs(d.info, d.info.windowEnd));
    data.numEvents += d.records;
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

  const Profile &profile = data.profile;
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
  Error err = in.forEachDump("html", [&](const DumpReader &reader,
                                         const DumpSummary &d) {
    const DumpInfo &info = reader.info();
    const uint64_t origin = data.runOrigin[d.run];
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
    Lane *lane = nullptr;
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
                           info.device, d.run);
            } else {
              key = RowKey(false, r.probe, std::string(), info.device, d.run);
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
          uint64_t begin =
              std::min(f.beginNs - std::min(f.beginNs, origin), data.spanNs);
          uint64_t dur = std::min(f.endNs - f.beginNs, data.spanNs - begin);
          bool topLevel = f.topLevel();
          // What the table and summary count: the corrected duration.
          uint64_t correction =
              f.finished ? dur - std::min(dur, f.durationNs) : 0;
          if (topLevel) {
            unsigned k = f.probe ? tpuprof_kind_bucket(f.probe->kind)
                                 : TPUPROF_KIND_COUNT;
            lane->byKind[k] += dur - correction;
          }
          if (!data.bucketed) {
            Event e{begin,       dur, correction, s, uint16_t(up.size()),
                    !f.finished, 0};
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
          auto [it, inserted] = laneOf.try_emplace(
              {d.run, info.device, info.pid, t.tid}, data.lanes.size());
          if (inserted) {
            data.lanes.emplace_back();
            Lane &l = data.lanes.back();
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
    addMemoryLane(reader, d, origin, opts, data);
    return Error::success();
  });
  if (err)
    return err;
  // Lanes in (run, device, pid, tid) order; events by begin, parents first.
  std::vector<Lane> ordered;
  for (auto &entry : laneOf)
    ordered.push_back(std::move(data.lanes[entry.second]));
  data.lanes = std::move(ordered);
  for (Lane &l : data.lanes)
    llvm::sort(l.events, [](const Event &a, const Event &b) {
      return std::tie(a.begin, a.depth, a.counterIndex) <
             std::tie(b.begin, b.depth, b.counterIndex);
    });
  return Error::success();
}

/// Reads the IR file and maps each row location to its lines in it
/// (locations in other files are left out; file names compare by base name,
/// as in the annotated source listing).
Error readIr(StringRef path, ReportData &data) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buf = MemoryBuffer::getFile(path);
  if (!buf)
    return createStringError(path +
                             ": cannot open: " + buf.getError().message());
  SmallVector<StringRef, 0> lines;
  (*buf)->getBuffer().split(lines, '\n');
  if (!lines.empty() && lines.back().empty())
    lines.pop_back();
  for (StringRef l : lines)
    data.irLines.push_back(l.rtrim('\r').str());
  StringRef base = sys::path::filename(path);
  for (const Row &row : data.profile.rows)
    for (const std::string &loc : row.locations) {
      StringRef file;
      unsigned line;
      if (!splitLocation(loc, file, line) || line == 0 ||
          line > data.irLines.size())
        continue;
      if (file != path && sys::path::filename(file) != base)
        continue;
      data.irLinesByLocation[loc] = {line};
    }
  return Error::success();
}

void writeRows(json::OStream &j, const ReportData &data) {
  const Profile &p = data.profile;
  const uint64_t resolution = resolutionNs(p);
  const uint64_t approxBelow = approxBelowNs(p);
  j.attributeArray("rows", [&] {
    for (const Row &r : p.rows)
      j.object([&] {
        j.attribute("name", r.name);
        j.attribute("kind", r.unknownProbe ? "unknown" : kindName(r.kind));
        j.attribute("device", r.device);
        j.attribute("run", r.run);
        j.attribute("hash", r.unknownProbe ? "-" : hashName(r.hash));
        j.attribute("shapes", r.shapes);
        j.attribute("argumentShapes", argumentShapes(r));
        j.attribute("outputShapes", outputShapes(r));
        j.attributeArray("locations", [&] {
          for (const std::string &l : r.locations)
            j.value(l);
        });
        j.attributeArray("lines", [&] {
          for (const std::string &l : r.locations) {
            auto it = data.irLinesByLocation.find(l);
            if (it != data.irLinesByLocation.end())
              for (unsigned line : it->second)
                j.value(line);
          }
        });
        j.attribute("function", r.function);
        j.attribute("count", r.count);
        j.attribute("unfinished", r.unfinished);
        j.attribute("durationNs", r.durationNs);
        j.attribute("selfNs", r.selfNs);
        j.attribute("minNs", r.durations.min());
        j.attribute("meanNs", uint64_t(r.durations.mean() + 0.5));
        j.attribute("medianNs", r.durations.quantile(0.5));
        j.attribute("p90Ns", r.durations.quantile(0.9));
        j.attribute("maxNs", r.durations.max());
        j.attribute("flops", r.flops);
        j.attribute("bytes", r.bytes);
        j.attribute("floorNs", r.count * resolution);
        if (isApprox(r, approxBelow))
          j.attribute("approx", true);
        if (r.cpuRecorded)
          j.attribute("migrations", r.migrations);
        if (r.memoryRecorded) {
          j.attribute("allocBytes", r.allocBytes);
          j.attribute("selfAllocBytes", r.selfAllocBytes);
          j.attribute("freedBytes", r.freedBytes);
          j.attribute("peakBytes", r.peakBytes);
        }
        j.attributeArray("counters", [&] {
          for (unsigned i : data.shownEvents)
            if (i < r.counters.size() &&
                (r.counterFlags[i] & Row::CounterRecorded))
              j.value(r.counters[i]);
            else
              j.value(nullptr);
        });
      });
  });
}

void writeMemory(json::OStream &j, const ReportData &data) {
  j.attributeArray("memory", [&] {
    for (const MemoryLane &m : data.memory)
      j.object([&] {
        j.attribute("run", m.run);
        j.attribute("device", m.device);
        j.attribute("pid", m.pid);
        j.attribute("peak", m.peak);
        j.attribute("buffersLeftOut", m.buffersLeftOut);
        j.attributeArray("t", [&] {
          for (auto &p : m.points)
            j.value(p.first);
        });
        j.attributeArray("live", [&] {
          for (auto &p : m.points)
            j.value(p.second);
        });
        j.attributeArray("buffers", [&] {
          for (const MemoryLane::Buffer &b : m.buffers)
            j.array([&] {
              j.value(b.begin);
              j.value(b.end);
              j.value(b.size);
              j.value(b.base);
              j.value(b.op);
              j.value(memorySourceName(b.source));
              j.value(formatv("{0:x}", b.address).str());
            });
        });
      });
  });
}

void writeTimeline(json::OStream &j, const ReportData &data) {
  j.attributeObject("timeline", [&] {
    j.attribute("spanNs", data.spanNs);
    j.attribute("events", data.numEvents);
    j.attribute("mode", data.bucketed ? "buckets" : "events");
    if (data.bucketed)
      j.attribute("bucketNs", data.bucketNs);
    j.attributeArray("lanes", [&] {
      for (const Lane &l : data.lanes)
        j.object([&] {
          if (data.bucketed) {
            auto column = [&](StringRef name, auto get) {
              j.attributeArray(name, [&] {
                for (const Bucket &b : l.buckets)
                  j.value(get(b));
              });
            };
            column("busy", [](const Bucket &b) { return b.busy; });
            column("count", [](const Bucket &b) { return b.count; });
            auto top = [](const Bucket &b) {
              std::pair<uint32_t, uint64_t> best{0, 0};
              for (auto &[s, ns] : b.bySite)
                if (ns > best.second || (ns == best.second && s < best.first))
                  best = {s, ns};
              return best;
            };
            column("top", [&](const Bucket &b) -> int64_t {
              return b.bySite.empty() ? -1 : int64_t(top(b).first);
            });
            column("topNs", [&](const Bucket &b) { return top(b).second; });
            return;
          }
          // Begin times as deltas from the previous event: small numbers.
          j.attributeArray("begin", [&] {
            uint64_t prev = 0;
            for (const Event &e : l.events) {
              j.value(e.begin - prev);
              prev = e.begin;
            }
          });
          j.attributeArray("dur", [&] {
            for (const Event &e : l.events)
              j.value(e.dur);
          });
          j.attributeArray("depth", [&] {
            for (const Event &e : l.events)
              j.value(e.depth);
          });
          j.attributeArray("site", [&] {
            for (const Event &e : l.events)
              j.value(e.site);
          });
          if (data.anyCorrected)
            j.attributeArray("corrected", [&] {
              for (const Event &e : l.events)
                j.value(e.corrected);
            });
          j.attributeArray("unfinished", [&] {
            for (size_t i = 0; i != l.events.size(); ++i)
              if (l.events[i].unfinished)
                j.value(uint64_t(i));
          });
          size_t n = data.shownEvents.size();
          if (n)
            j.attributeArray("counters", [&] {
              for (const Event &e : l.events)
                for (size_t c = 0; c != n; ++c)
                  j.value(l.counters[e.counterIndex * n + c]);
            });
        });
    });
  });
}

/// The diff pane's rows: `diff`'s comparison (model/Compare.h).
void writeDiff(json::OStream &j, const Profile &a, const Profile &b) {
  j.attributeObject("diff", [&] {
    j.attribute("baselineCoveredNs", a.coveredNs);
    j.attribute("coveredNs", b.coveredNs);
    // Rows are summed over runs where a side holds several.
    j.attribute("baselineRuns", uint64_t(a.runs.size()));
    j.attribute("runs", uint64_t(b.runs.size()));
    j.attributeArray("rows", [&] {
      for (const DiffRow &d : compareProfiles(a, b))
        j.object([&] {
          j.attribute("name", d.name);
          j.attribute("shapes", d.shapes);
          j.attribute("hash", d.hash);
          if (d.a.present) {
            j.attribute("baselineNs", d.a.ns);
            j.attribute("baselineFloorNs", d.a.floorNs);
          }
          if (d.b.present) {
            j.attribute("ns", d.b.ns);
            j.attribute("floorNs", d.b.floorNs);
          }
          j.attribute("baselineCount", d.a.count);
          j.attribute("count", d.b.count);
          j.attribute("status", statusName(d.status()));
          int bound = 0;
          if (std::optional<double> pct = d.deltaPct(&bound)) {
            j.attribute("deltaPct", *pct);
            if (bound)
              j.attribute("deltaBound", bound);
          }
        });
    });
  });
}

void writeData(raw_ostream &os, ArrayRef<std::string> inputs,
               const HtmlOptions &opts, const ReportData &data) {
  const Profile &p = data.profile;
  json::OStream j(os);
  j.objectBegin();
  j.attribute("format", "tpuprof-html");
  j.attribute("version", 1);
  j.attributeArray("inputs", [&] {
    for (const std::string &in : inputs)
      j.value(in);
  });
  j.attributeArray("events", [&] {
    for (unsigned i : data.shownEvents)
      j.value(p.events[i]);
  });
  j.attribute("resolutionNs", resolutionNs(p));
  j.attribute("approxBelowNs", approxBelowNs(p));
  j.attributeObject("totals", [&] { writeTotalsJson(p, j); });
  // Runs apart (more than one, not merged): rows and lanes name theirs.
  j.attribute("runsApart", p.runsApart());
  std::vector<uint64_t> runTotal = runTotals(p);
  j.attributeArray("runs", [&] {
    for (uint32_t r = 0; r != std::max<size_t>(1, p.runs.size()); ++r)
      j.object([&] {
        j.attribute("short", r < p.runs.size()
                                 ? formatv("run {0} (pid {1})", r + 1,
                                           p.runs[r].pid)
                                       .str()
                                 : "run 1");
        // What a row's Percent is of: its run's window.
        j.attribute("totalNs", runTotal[std::min<size_t>(r, runTotal.size() - 1)]);
        j.attribute("label", p.runsMerged && p.runs.size() > 1
                                 ? formatv("{0} runs added up", p.runs.size())
                                       .str()
                                 : describeRun(p, r));
        j.attribute("originNs", r < data.runOrigin.size() &&
                                        data.runOrigin[r] != UINT64_MAX
                                    ? data.runOrigin[r]
                                    : 0);
      });
  });
  writeRows(j, data);
  writeMemory(j, data);
  j.attributeArray("sites", [&] {
    for (const std::pair<uint32_t, uint32_t> &s : data.sites)
      j.array([&] {
        j.value(s.first);
        j.value(s.second);
      });
  });
  j.attributeArray("lanes", [&] {
    for (const Lane &l : data.lanes)
      j.object([&] {
        j.attribute("run", l.run);
        j.attribute("device", l.device);
        j.attribute("pid", l.pid);
        j.attribute("tid", l.tid);
        j.attribute("windowNs", l.windowNs);
        j.attributeArray("byKind", [&] {
          for (uint64_t ns : l.byKind)
            j.value(ns);
        });
        j.attribute("records", l.records);
        j.attribute("unfinished", l.unfinished);
        j.attribute("dropped", l.dropped);
        j.attribute("maxDepth", l.maxDepth);
      });
  });
  // Per device, the PMU events over top-level records as the table counts
  // them (the summary's totals).
  std::map<uint32_t, std::map<std::string, uint64_t>> counterTotals;
  for (const DumpSummary &d : p.dumps)
    for (size_t i = 0; i != d.events.size(); ++i)
      if (!isPseudoEvent(d.events[i]))
        counterTotals[d.info.device][d.events[i]] += d.topLevelCounters[i];
  j.attributeObject("counterTotals", [&] {
    for (auto &[device, totals] : counterTotals)
      j.attributeObject(utostr(device), [&, &totals = totals] {
        for (auto &[event, value] : totals)
          j.attribute(event, value);
      });
  });
  writeTimeline(j, data);
  if (!opts.irPath.empty())
    j.attributeObject("ir", [&] {
      j.attribute("path", opts.irPath);
      j.attributeArray("lines", [&] {
        for (const std::string &l : data.irLines)
          j.value(l);
      });
    });
  if (data.baseline) {
    j.attributeArray("baselineInputs", [&] {
      for (const std::string &in : data.baseline->args)
        j.value(in);
    });
    writeDiff(j, data.baseline->profile, p);
  }
  j.objectEnd();
}

} // namespace

Error tpuprof::report::writeHtmlReport(const Input &in,
                                       const HtmlOptions &opts,
                                       raw_ostream &os) {
  if (Error err = in.needDumps("html"))
    return err;
  ReportData data(in.profile);
  for (unsigned i = 0; i != in.profile.events.size(); ++i)
    if (!isPseudoEvent(in.profile.events[i]))
      data.shownEvents.push_back(i);
  if (!opts.irPath.empty())
    if (Error err = readIr(opts.irPath, data))
      return err;
  data.baseline = opts.baseline;
  if (Error err = walkRecords(in, opts, data))
    return err;

  std::string title = opts.title;
  if (title.empty())
    title = "tpuprof report: " + join(in.args, " ");
  // The template's @MARKERS@ stand alone, so splitting at them is exact.
  StringRef page(reinterpret_cast<const char *>(kReportHtml),
                 sizeof(kReportHtml) - 1);
  auto emit = [&](StringRef marker, function_ref<void()> fill) {
    auto [before, after] = page.split(marker);
    os << before;
    fill();
    page = after;
  };
  StringRef script(reinterpret_cast<const char *>(kReportJs),
                   sizeof(kReportJs) - 1);
  // The page allows exactly its own script (by hash), no other script or
  // inline event handler, and no network: defence in depth beside escaping.
  emit("@CSP@", [&] {
    std::array<uint8_t, 32> digest = SHA256::hash(
        ArrayRef<uint8_t>((const uint8_t *)script.data(), script.size()));
    os << "'sha256-" << encodeBase64(digest) << "'";
  });
  emit("@TITLE@", [&] { os << escapeHtml(title); });
  emit("@STYLE@", [&] {
    os << StringRef(reinterpret_cast<const char *>(kReportCss),
                    sizeof(kReportCss) - 1);
  });
  emit("@DATA@", [&] {
    ScriptJsonStream safe(os);
    writeData(safe, in.args, opts, data);
    safe.finish();
  });
  emit("@SCRIPT@", [&] { os << script; });
  os << page;
  return Error::success();
}
