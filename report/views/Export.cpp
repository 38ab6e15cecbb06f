//===- report/views/Export.cpp - JSON and CSV exports ---------------------===//
//
// JSON is the lossless one: it carries every field the row views use
// (including the duration sketches and the dumps' headers), so
// `tpuprof-report table report.json` prints the same table as the dumps
// (model/ProfileJson.cpp reads it back). CSV is one line per row for
// spreadsheets. docs/report.md documents both schemas.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Columns.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {
/// Dropped records by reason and unwound probes, as totals and each dump
/// carry them.
void writeDrops(const DropCounts &d, uint64_t unwound, json::OStream &j) {
  j.attributeObject("drops", [&] {
    j.attribute("full", d.full);
    j.attribute("overwritten", d.overwritten);
    j.attribute("depth", d.depth);
    j.attribute("no_space", d.noSpace);
    j.attribute("unknown", d.unknown);
  });
  j.attribute("unwound", unwound);
}
} // namespace

void tpuprof::report::writeTotalsJson(const Profile &p, json::OStream &j) {
  j.attribute("covered_ns", p.coveredNs);
  j.attribute("total_ns", p.totalNs);
  j.attribute("unfinished", p.unfinished);
  j.attribute("dropped", p.dropped);
  writeDrops(p.drops, p.unwound, j);
  j.attribute("threads", p.threads);
  j.attribute("records", p.records);
  j.attribute("dumps", uint64_t(p.dumps.size()));
  j.attribute("runs", uint64_t(p.runs.size()));
  j.attribute("incomplete_dumps",
              uint64_t(llvm::count_if(p.dumps, [](const DumpSummary &d) {
                return !d.info.isComplete();
              })));
  std::vector<uint32_t> modes;
  for (const DumpSummary &d : p.dumps)
    if (!llvm::is_contained(modes, d.info.mode))
      modes.push_back(d.info.mode);
  j.attributeArray("modes", [&] {
    for (uint32_t m : modes)
      j.value(m);
  });
}

void tpuprof::report::writeProfileJson(const Input &in, raw_ostream &os) {
  const Profile &p = in.profile;
  json::OStream j(os, 1);
  j.object([&] {
    j.attribute("format", "tpuprof-report");
    j.attribute("version", kProfileJsonVersion);
    j.attributeArray("events", [&] {
      for (const std::string &e : p.events)
        j.value(e);
    });
    j.attributeObject("totals", [&] { writeTotalsJson(p, j); });
    // Rows and dumps name their run by index into this list (in the order
    // the runs started); runs_merged: their rows were added up.
    j.attributeArray("runs", [&] {
      for (const RunId &r : p.runs)
        j.object([&] {
          j.attribute("pid", r.pid);
          j.attribute("start_ns", r.startNs);
        });
    });
    j.attribute("runs_merged", p.runsMerged);
    j.attributeArray("dumps", [&] {
      for (const DumpSummary &d : p.dumps)
        j.object([&] {
          const DumpInfo &i = d.info;
          j.attribute("path", d.path);
          j.attribute("run", d.run);
          j.attribute("version", i.version);
          j.attribute("header_size", i.headerSize);
          j.attribute("mode", i.mode);
          j.attribute("device", i.device);
          j.attribute("pid", i.pid);
          j.attribute("call_num", i.callNum);
          j.attribute("clock_source", i.clockSource);
          j.attribute("flags", i.flags);
          j.attribute("calib_ticks0", i.calibTicks0);
          j.attribute("calib_ns0", i.calibNs0);
          j.attribute("calib_ticks1", i.calibTicks1);
          j.attribute("calib_ns1", i.calibNs1);
          j.attribute("window_begin", i.windowBegin);
          j.attribute("window_end", i.windowEnd);
          j.attribute("dropped", i.dropped);
          writeDrops(i.drops, i.unwound, j);
          j.attribute("num_sections", i.numSections);
          if (i.hasCalibration)
            j.attributeObject("calibration", [&] {
              j.attribute("self_ticks", i.calibSelfTicks);
              j.attribute("nested_ticks", i.calibNestedTicks);
              j.attribute("pairs", i.calibPairs);
              j.attribute("read_ticks", i.calibReadTicks);
              // Per counter word (the dump's EVENTS order), version 3.
              if (!i.calibCounts.empty()) {
                j.attributeArray("self_counts", [&] {
                  for (const DumpInfo::CounterCalibration &k : i.calibCounts)
                    j.value(k.self);
                });
                j.attributeArray("nested_counts", [&] {
                  for (const DumpInfo::CounterCalibration &k : i.calibCounts)
                    j.value(k.nested);
                });
              }
            });
          // Whether this dump's duration_ns/self_ns/durations are corrected.
          j.attribute("overhead_correction", correctionName(d.correction));
          j.attribute("threads", d.threads);
          j.attribute("records", d.records);
          j.attribute("unfinished", d.unfinished);
          j.attribute("covered_ns", d.coveredNs);
          j.attribute("window_ns", d.windowNs);
          const MemorySummary &m = d.memory;
          if (m.tracked)
            j.attributeObject("memory", [&] {
              j.attribute("allocs", m.allocs);
              j.attribute("alloc_bytes", m.allocBytes);
              j.attribute("frees", m.frees);
              j.attribute("freed_bytes", m.freedBytes);
              j.attribute("untracked_frees", m.untrackedFrees);
              j.attribute("peak_bytes", m.peakBytes);
              j.attribute("peak_ns", m.peakNs);
              j.attribute("peak_op", m.peakOp);
              j.attribute("live_at_end", m.liveAtEnd);
            });
        });
    });
    uint64_t approxBelow = approxBelowNs(p);
    j.attributeArray("rows", [&] {
      for (const Row &r : p.rows)
        j.object([&] {
          j.attribute("name", r.name);
          j.attribute("kind", kindName(r.kind));
          j.attribute("device", r.device);
          j.attribute("hash", hashName(r.hash));
          j.attribute("unknown_probe", r.unknownProbe);
          j.attribute("probe_id", r.probeId);
          j.attribute("run", r.run);
          j.attribute("shapes", r.shapes);
          j.attribute("num_outs", r.numOuts);
          j.attribute("out_shapes", r.outShapes);
          if (r.cpuRecorded)
            j.attribute("migrations", r.migrations);
          if (r.memoryRecorded)
            j.attributeObject("memory", [&] {
              j.attribute("alloc_bytes", r.allocBytes);
              j.attribute("self_alloc_bytes", r.selfAllocBytes);
              j.attribute("freed_bytes", r.freedBytes);
              j.attribute("peak_bytes", r.peakBytes);
            });
          j.attributeArray("locations", [&] {
            for (const std::string &l : r.locations)
              j.value(l);
          });
          j.attribute("function", r.function);
          j.attribute("flops", r.flops);
          j.attribute("bytes", r.bytes);
          j.attribute("count", r.count);
          j.attribute("unfinished", r.unfinished);
          j.attribute("duration_ns", r.durationNs);
          j.attribute("self_ns", r.selfNs);
          // Too short to be measured to 5 % (docs/report.md).
          j.attribute("approx", isApprox(r, approxBelow));
          j.attributeArray("counters", [&] {
            for (uint64_t c : r.counters)
              j.value(c);
          });
          j.attributeArray("counter_flags", [&] {
            for (uint8_t c : r.counterFlags)
              j.value(c);
          });
          const DurationSketch &d = r.durations;
          j.attributeObject("durations", [&] {
            j.attribute("count", d.count());
            j.attribute("sum", d.total());
            j.attribute("min", d.min());
            j.attribute("max", d.max());
            j.attribute("exact", d.isExact());
            if (d.isExact()) {
              j.attributeArray("samples", [&] {
                for (uint64_t s : d.exactSamples())
                  j.value(s);
              });
            } else {
              j.attribute("first_bucket", d.firstBucket());
              j.attributeArray("buckets", [&] {
                for (uint64_t b : d.bucketCounts())
                  j.value(b);
              });
            }
          });
        });
    });
  });
  os << '\n';
}

//===----------------------------------------------------------------------===//
// CSV
//===----------------------------------------------------------------------===//

std::string tpuprof::report::csvField(StringRef s) {
  // A spreadsheet takes a cell that starts with = + - @ (or a tab or CR
  // before one) for a formula. As OWASP's CSV injection guidance says, such
  // a cell gets a leading ' and quotes, so it reads as the text it is.
  bool formula = !s.empty() && StringRef("=+-@\t\r").contains(s.front());
  if (!formula && s.find_first_of(",\"\r\n") == StringRef::npos)
    return s.str();
  std::string out = formula ? "\"'" : "\"";
  for (char c : s) {
    if (c == '"')
      out += '"';
    out += c;
  }
  out += '"';
  return out;
}

void tpuprof::report::writeCsv(const Input &in, raw_ostream &os) {
  const Profile &p = in.profile;
  std::vector<const Column *> columns = exportColumns();
  // The runtime's own words are inputs to the figures, not counters.
  std::vector<size_t> events;
  for (size_t i = 0; i != p.events.size(); ++i)
    if (!isPseudoEvent(p.events[i]))
      events.push_back(i);
  // Lines end in CRLF as RFC 4180 says; fields are separated by commas.
  ListSeparator sep(",");
  for (const Column *c : columns)
    os << sep << c->exportName;
  for (size_t e : events)
    os << ',' << csvField(p.events[e]);
  os << "\r\n";
  std::vector<uint64_t> runTotal = runTotals(p);
  ColumnContext ctx{p};
  for (const Row &r : p.rows) {
    ctx.totalNs = runTotal[std::min<size_t>(r.run, runTotal.size() - 1)];
    ListSeparator cells(",");
    for (const Column *c : columns) {
      ExportCell cell = c->exportCell(r, ctx);
      os << cells
         << (cell.kind == ExportCell::Text ? csvField(cell.text) : cell.str());
    }
    for (size_t e : events)
      os << ',' << (e < r.counters.size() ? r.counters[e] : 0);
    os << "\r\n";
  }
}
