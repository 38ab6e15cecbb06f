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

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

std::string hexHash(uint64_t h) {
  return utohexstr(h, /*LowerCase=*/true, /*Width=*/16);
}

} // namespace

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

void tpuprof::report::writeTotalsJson(const Profile &p, json::OStream &j) {
  j.attribute("covered_ns", p.coveredNs);
  j.attribute("total_ns", p.totalNs);
  j.attribute("unfinished", p.unfinished);
  j.attribute("dropped", p.dropped);
  j.attributeObject("drops", [&] {
    j.attribute("full", p.drops.full);
    j.attribute("overwritten", p.drops.overwritten);
    j.attribute("depth", p.drops.depth);
    j.attribute("no_space", p.drops.noSpace);
    j.attribute("unknown", p.drops.unknown);
  });
  j.attribute("unwound", p.unwound);
  j.attribute("threads", p.threads);
  j.attribute("records", p.records);
  j.attribute("dumps", uint64_t(p.dumps.size()));
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
    j.attributeArray("dumps", [&] {
      for (const DumpSummary &d : p.dumps)
        j.object([&] {
          const DumpInfo &i = d.info;
          j.attribute("path", d.path);
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
        });
    });
    j.attributeArray("rows", [&] {
      for (const Row &r : p.rows)
        j.object([&] {
          j.attribute("name", r.name);
          j.attribute("kind", kindName(r.kind));
          j.attribute("device", r.device);
          j.attribute("hash", hexHash(r.hash));
          j.attribute("unknown_probe", r.unknownProbe);
          j.attribute("probe_id", r.probeId);
          j.attribute("shapes", r.shapes);
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
  if (s.find_first_of(",\"\r\n") == StringRef::npos)
    return s.str();
  std::string out = "\"";
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
  // Lines end in CRLF as RFC 4180 says; fields are separated by commas.
  static const char *const header[] = {
      "name",        "kind",     "device", "hash",       "shapes",
      "location",    "function", "count",  "unfinished", "duration_ns",
      "self_ns",     "percent",  "min_ns", "mean_ns",    "median_ns",
      "p90_ns",      "p99_ns",   "max_ns", "flops",      "bytes",
      "gflop_per_s", "gb_per_s"};
  ListSeparator sep(",");
  for (const char *h : header)
    os << sep << h;
  for (const std::string &e : p.events)
    os << ',' << csvField(e);
  os << "\r\n";
  for (const Row &r : p.rows) {
    const DurationSketch &d = r.durations;
    double pct =
        p.totalNs ? 100.0 * double(r.durationNs) / double(p.totalNs) : 0.0;
    double secs = double(r.durationNs);
    os << csvField(r.name) << ',' << kindName(r.kind) << ',' << r.device << ','
       << (r.unknownProbe ? "" : hexHash(r.hash)) << ',' << csvField(r.shapes)
       << ',' << csvField(r.location()) << ',' << csvField(r.function) << ','
       << r.count << ',' << r.unfinished << ',' << r.durationNs << ','
       << r.selfNs << ',' << formatv("{0:F4}", pct) << ',' << d.min() << ','
       << formatv("{0:F1}", d.mean()) << ',' << d.quantile(0.5) << ','
       << d.quantile(0.9) << ',' << d.quantile(0.99) << ',' << d.max() << ','
       << r.flops << ',' << r.bytes << ','
       << formatv("{0:F4}", secs ? double(r.flops) * r.count / secs : 0.0)
       << ','
       << formatv("{0:F4}", secs ? double(r.bytes) * r.count / secs : 0.0);
    for (uint64_t c : r.counters)
      os << ',' << c;
    os << "\r\n";
  }
}
