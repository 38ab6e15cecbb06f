//===- report/views/Html.cpp - Self-contained HTML report -----------------===//
//
// Writes the page of `tpuprof-report html`, its timeline computed by
// model/Timeline.h: the template, style and script compiled in from
// report/html/ (HtmlAssets.inc, generated at build time) around one JSON
// document:
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

#include "tpuprof/report/views/Html.h"
#include "tpuprof/report/model/Compare.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/Memory.h"
#include "tpuprof/report/model/Timeline.h"
#include "tpuprof/report/read/InputFile.h"
#include "tpuprof/report/views/Export.h"

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

/// Everything the page shows, gathered before anything is written: the
/// timeline (model/Timeline.h) and the IR pane's lines.
struct ReportData : Timeline {
  explicit ReportData(const Profile &profile) : profile(profile) {}
  const Profile &profile;
  std::vector<std::string> irLines;
  std::map<std::string, std::vector<unsigned>> irLinesByLocation;
  const Input *baseline = nullptr;
};

/// Reads the IR file and maps each row location to its lines in it
/// (locations in other files are left out; file names compare by base name,
/// as in the annotated source listing).
Error readIr(StringRef path, ReportData &data) {
  Expected<std::unique_ptr<MemoryBuffer>> buf = readInputFile(path);
  if (!buf)
    return buf.takeError();
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
        j.attribute("node", r.node);
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
        if (r.deviceCommands) { // docs/device.md
          j.attribute("deviceNs", r.deviceNs);
          j.attribute("deviceSelfNs", r.deviceSelfNs);
          j.attribute("deviceCommands", r.deviceCommands);
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

/// Device queues (docs/device.md): one lane each, columnar like the
/// timeline's; a command's launch is -1 when its launch record is unknown.
void writeDevice(json::OStream &j, const ReportData &data) {
  j.attributeArray("deviceNames", [&] {
    for (const std::string &n : data.deviceNames)
      j.value(n);
  });
  j.attributeArray("device", [&] {
    for (const DeviceLane &l : data.deviceLanes)
      j.object([&] {
        j.attribute("run", l.run);
        j.attribute("device", l.device);
        j.attribute("pid", l.pid);
        j.attribute("label", l.label);
        auto column = [&](StringRef name, auto get) {
          j.attributeArray(name, [&] {
            for (const DeviceLane::Command &c : l.commands)
              j.value(get(c));
          });
        };
        using C = DeviceLane::Command;
        column("begin", [](const C &c) { return c.begin; });
        column("dur", [](const C &c) { return c.dur; });
        column("name", [](const C &c) { return c.name; });
        column("op", [](const C &c) { return tpuprof_device_op_name(c.op); });
        column("launchTid", [](const C &c) {
          return c.launched ? int64_t(c.launchTid) : -1;
        });
        column("launchAt", [](const C &c) {
          return c.launched ? int64_t(c.launchAt) : -1;
        });
      });
  });
}

void writeTimeline(json::OStream &j, const ReportData &data) {
  j.attributeObject("timeline", [&] {
    j.attribute("spanNs", data.spanNs);
    // A job's ranks on one axis (every run's originNs is the same).
    j.attribute("sharedAxis", data.sharedAxis);
    j.attribute("events", data.numEvents);
    j.attribute("mode", data.bucketed ? "buckets" : "events");
    if (data.bucketed)
      j.attribute("bucketNs", data.bucketNs);
    j.attributeArray("lanes", [&] {
      for (const TimelineLane &l : data.lanes)
        j.object([&] {
          if (data.bucketed) {
            auto column = [&](StringRef name, auto get) {
              j.attributeArray(name, [&] {
                for (const TimelineBucket &b : l.buckets)
                  j.value(get(b));
              });
            };
            column("busy", [](const TimelineBucket &b) { return b.busy; });
            column("count", [](const TimelineBucket &b) { return b.count; });
            auto top = [](const TimelineBucket &b) {
              std::pair<uint32_t, uint64_t> best{0, 0};
              for (auto &[s, ns] : b.bySite)
                if (ns > best.second || (ns == best.second && s < best.first))
                  best = {s, ns};
              return best;
            };
            column("top", [&](const TimelineBucket &b) -> int64_t {
              return b.bySite.empty() ? -1 : int64_t(top(b).first);
            });
            column("topNs",
                   [&](const TimelineBucket &b) { return top(b).second; });
            return;
          }
          // Begin times as deltas from the previous event: small numbers.
          j.attributeArray("begin", [&] {
            uint64_t prev = 0;
            for (const TimelineEvent &e : l.events) {
              j.value(e.begin - prev);
              prev = e.begin;
            }
          });
          j.attributeArray("dur", [&] {
            for (const TimelineEvent &e : l.events)
              j.value(e.dur);
          });
          j.attributeArray("depth", [&] {
            for (const TimelineEvent &e : l.events)
              j.value(e.depth);
          });
          j.attributeArray("site", [&] {
            for (const TimelineEvent &e : l.events)
              j.value(e.site);
          });
          if (data.anyCorrected)
            j.attributeArray("corrected", [&] {
              for (const TimelineEvent &e : l.events)
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
              for (const TimelineEvent &e : l.events)
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
        const bool ranked =
            r < p.runs.size() && p.runs[r].rank != TPUPROF_RANK_UNKNOWN;
        j.attribute(
            "short",
            ranked
                ? formatv("rank {0} (pid {1})", p.runs[r].rank, p.runs[r].pid)
                      .str()
            : r < p.runs.size()
                ? formatv("run {0} (pid {1})", r + 1, p.runs[r].pid).str()
                : "run 1");
        if (ranked)
          j.attribute("rank", p.runs[r].rank);
        // How the rank's clock was put on the job's axis (mpi.md).
        if (r < data.runClock.size() && data.runClock[r]) {
          const ClockAlignment &c = *data.runClock[r];
          j.attribute("clock", clockMethodName(c.method));
          j.attribute("clockOffsetNs", c.offset0Ns);
          j.attribute("clockDriftPpm", c.drift * 1e6);
          j.attribute("clockErrorNs", c.errorNs);
        }
        // What a row's Percent is of: its run's window.
        j.attribute("totalNs",
                    runTotal[std::min<size_t>(r, runTotal.size() - 1)]);
        j.attribute("label",
                    p.runsMerged && p.runs.size() > 1
                        ? formatv("{0} runs added up", p.runs.size()).str()
                        : describeRun(p, r));
        j.attribute("originNs",
                    r < data.runOrigin.size() && data.runOrigin[r] != UINT64_MAX
                        ? data.runOrigin[r]
                        : 0);
      });
  });
  writeRows(j, data);
  writeMemory(j, data);
  writeDevice(j, data);
  j.attributeArray("sites", [&] {
    for (const std::pair<uint32_t, uint32_t> &s : data.sites)
      j.array([&] {
        j.value(s.first);
        j.value(s.second);
      });
  });
  j.attributeArray("lanes", [&] {
    for (const TimelineLane &l : data.lanes)
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
        // [begin, end, begin, end, ...] ns where dropped records leave the
        // lane empty: drawn as not recorded, not as idle time.
        j.attributeArray("notRecorded", [&] {
          for (auto [begin, end] : l.notRecorded) {
            j.value(begin);
            j.value(end);
          }
        });
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

Error tpuprof::report::writeHtmlReport(const Input &in, const HtmlOptions &opts,
                                       raw_ostream &os) {
  if (Error err = in.needDumps("html"))
    return err;
  ReportData data(in.profile);
  if (!opts.irPath.empty())
    if (Error err = readIr(opts.irPath, data))
      return err;
  data.baseline = opts.baseline;
  TimelineOptions timeline;
  timeline.maxEvents = opts.maxEvents;
  timeline.buckets = opts.buckets;
  if (Error err = buildTimeline(in, timeline, data))
    return err;

  // --title names the page in the browser's tab and in its heading alike;
  // the inputs stay on the line below the heading.
  std::string title = opts.title;
  if (title.empty())
    title = "tpuprof report: " + join(in.args, " ");
  std::string heading = opts.title.empty() ? "tpuprof report" : opts.title;
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
  emit("@HEADING@", [&] { os << escapeHtml(heading); });
  emit("@DATA@", [&] {
    ScriptJsonStream safe(os);
    writeData(safe, in.args, opts, data);
    safe.finish();
  });
  emit("@SCRIPT@", [&] { os << script; });
  os << page;
  return Error::success();
}
