//===- report/views/Columns.cpp - Every column of a row -------------------===//
//
// docs/report.md ("Columns") describes each entry; keep the two in step.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/model/Load.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

double tpuprof::report::gflopsOf(const Row &row) {
  return row.durationNs
             ? double(row.flops) * double(row.count) / double(row.durationNs)
             : 0.0;
}

double tpuprof::report::gbpsOf(const Row &row) {
  return row.durationNs
             ? double(row.bytes) * double(row.count) / double(row.durationNs)
             : 0.0;
}

std::string ExportCell::str() const {
  switch (kind) {
  case Integer:
    return utostr(integer);
  case Real: {
    std::string out;
    raw_string_ostream(out) << format("%.*f", int(decimals), real);
    return out;
  }
  case Text:
    break;
  }
  return text;
}

std::string tpuprof::report::timeCell(uint64_t ns, uint64_t floorNs) {
  if (ns < floorNs)
    return floorNs < 1000 ? ("< " + Twine(floorNs) + " ns").str()
                          : formatv("< {0:F2} us", double(floorNs) / 1e3).str();
  return formatv("{0:F2}", double(ns) / 1000.0).str();
}

std::string tpuprof::report::totalTimeCell(uint64_t ns, uint64_t count,
                                           uint64_t resolutionNs) {
  if (!count || ns >= count * resolutionNs)
    return timeCell(ns, 0);
  return timeCell(0, resolutionNs) + "/call";
}

namespace {

using Ctx = ColumnContext;

template <typename T> int cmp(const T &a, const T &b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

std::string pct(uint64_t part, uint64_t whole) {
  return formatv("{0:F2}", whole ? 100.0 * double(part) / double(whole) : 0.0)
      .str();
}

/// What a row's total time is resolved to: its count times one record's.
uint64_t rowFloor(const Row &r, const Ctx &c) {
  return r.count * c.resolutionNs;
}
bool resolved(const Row &r, const Ctx &c) {
  return r.durationNs >= rowFloor(r, c);
}

/// Arithmetic intensity (FLOPs per byte); -1 when unknown.
double intensityOf(const Row &row) {
  return row.flops && row.bytes ? double(row.flops) / double(row.bytes) : -1.0;
}

std::string hashCell(const Row &row) {
  if (row.unknownProbe)
    return "-";
  if (row.mixedHash)
    return "*";
  return hashName(row.hash);
}

std::string orDash(std::string s) { return s.empty() ? "-" : s; }

ExportCell text(std::string s) { return ExportCell::ofText(std::move(s)); }
ExportCell num(uint64_t v) { return ExportCell::ofInteger(v); }

/// A duration statistic of one call: resolved per record.
template <uint64_t (*Get)(const DurationSketch &)>
std::string statCell(const Row &r, const Ctx &c) {
  return timeCell(Get(r.durations), r.count ? c.resolutionNs : 0);
}
template <uint64_t (*Get)(const DurationSketch &)>
int statCompare(const Row &a, const Row &b) {
  return cmp(Get(a.durations), Get(b.durations));
}
template <uint64_t (*Get)(const DurationSketch &)>
ExportCell statExport(const Row &r, const Ctx &) {
  return num(Get(r.durations));
}
/// A memory column (Row's bytes): "-" / empty where no dump of the row
/// tracked memory, and in the table by default only where some row's did.
template <uint64_t Row::*Field>
std::string bytesCell(const Row &r, const Ctx &) {
  return r.memoryRecorded ? utostr(r.*Field) : std::string("-");
}
template <uint64_t Row::*Field> int bytesCompare(const Row &a, const Row &b) {
  return cmp(a.*Field, b.*Field);
}
template <uint64_t Row::*Field>
ExportCell bytesExport(const Row &r, const Ctx &) {
  return r.memoryRecorded ? num(r.*Field) : text("");
}
bool hasMemory(const Row &r, const Ctx &) { return r.memoryRecorded; }
bool hasDevice(const Row &r, const Ctx &) { return r.deviceCommands != 0; }

uint64_t minOf(const DurationSketch &d) { return d.min(); }
uint64_t medianOf(const DurationSketch &d) { return d.quantile(0.5); }
uint64_t p90Of(const DurationSketch &d) { return d.quantile(0.9); }
uint64_t p99Of(const DurationSketch &d) { return d.quantile(0.99); }
uint64_t maxOf(const DurationSketch &d) { return d.max(); }

const Column kColumns[] = {
    {"name", "Name", false, Column::Default,
     [](const Row &r, const Ctx &) { return r.name; },
     [](const Row &a, const Row &b) { return a.name.compare(b.name); }, "name",
     [](const Row &r, const Ctx &) { return text(r.name); }},
    {"kind", "Kind", false, Column::Extra,
     [](const Row &r, const Ctx &) {
       return (r.unknownProbe ? StringRef("unknown") : kindName(r.kind)).str();
     },
     [](const Row &a, const Row &b) { return cmp(a.kind, b.kind); }, "kind",
     [](const Row &r, const Ctx &) { return text(kindName(r.kind).str()); }},
    {"duration", "Duration (us)", true, Column::Default,
     [](const Row &r, const Ctx &c) {
       return totalTimeCell(r.durationNs, r.count, c.resolutionNs);
     },
     [](const Row &a, const Row &b) { return cmp(a.durationNs, b.durationNs); },
     "duration_ns",
     [](const Row &r, const Ctx &) { return num(r.durationNs); }},
    {"self", "Self (us)", true, Column::Default,
     // Without the direct children's time: PyTorch's "Self CPU".
     [](const Row &r, const Ctx &c) {
       return totalTimeCell(r.selfNs, r.count, c.resolutionNs);
     },
     [](const Row &a, const Row &b) { return cmp(a.selfNs, b.selfNs); },
     "self_ns", [](const Row &r, const Ctx &) { return num(r.selfNs); }},
    // Device time (docs/device.md): in the table only when some row had
    // device commands joined to it; "-" in the others.
    {"device_total", "Device Total (us)", true, Column::Default,
     [](const Row &r, const Ctx &) {
       return r.deviceCommands ? timeCell(r.deviceNs, 0) : std::string("-");
     },
     [](const Row &a, const Row &b) { return cmp(a.deviceNs, b.deviceNs); }, "",
     nullptr, hasDevice},
    {"device_self", "Device Self (us)", true, Column::Default,
     [](const Row &r, const Ctx &) {
       return r.deviceCommands ? timeCell(r.deviceSelfNs, 0) : std::string("-");
     },
     [](const Row &a, const Row &b) {
       return cmp(a.deviceSelfNs, b.deviceSelfNs);
     },
     "", nullptr, hasDevice},
    {"device_cmds", "Device Cmds", true, Column::Default,
     [](const Row &r, const Ctx &) {
       return r.deviceCommands ? utostr(r.deviceCommands) : std::string("-");
     },
     [](const Row &a, const Row &b) {
       return cmp(a.deviceCommands, b.deviceCommands);
     },
     "", nullptr, hasDevice},
    // Mean per command: how long commands waited between the host's
    // enqueue and their start on the device.
    {"queue_delay", "Queue Delay (us)", true, Column::Default,
     [](const Row &r, const Ctx &) {
       return r.deviceCommands ? timeCell(r.queueDelayNs / r.deviceCommands, 0)
                               : std::string("-");
     },
     [](const Row &a, const Row &b) {
       return cmp(a.deviceCommands ? a.queueDelayNs / a.deviceCommands : 0,
                  b.deviceCommands ? b.queueDelayNs / b.deviceCommands : 0);
     },
     "", nullptr, hasDevice},
    // Ops too short for the correction to measure to 5 %: shown in the
    // table only when some row is; "-" in the others, so that no cell is
    // empty (scripts split rows on blanks).
    {"approx", "Approx", false, Column::Default,
     [](const Row &r, const Ctx &c) {
       return std::string(isApprox(r, c.approxBelowNs) ? "~" : "-");
     },
     [](const Row &a, const Row &b) {
       return cmp(a.durations.mean(), b.durations.mean());
     },
     "approx",
     [](const Row &r, const Ctx &c) {
       return num(isApprox(r, c.approxBelowNs) ? 1 : 0);
     },
     [](const Row &r, const Ctx &c) { return isApprox(r, c.approxBelowNs); }},
    {"percent", "Percent", true, Column::Default,
     [](const Row &r, const Ctx &c) { return pct(r.durationNs, c.totalNs); },
     [](const Row &a, const Row &b) { return cmp(a.durationNs, b.durationNs); },
     "percent",
     [](const Row &r, const Ctx &c) {
       return ExportCell::ofReal(
           c.totalNs ? 100.0 * double(r.durationNs) / double(c.totalNs) : 0.0,
           4);
     }},
    // Self, not Duration: nested time counts once, so it ends at Sum's
    // percent whatever the sort; the title says what it adds up.
    {"cum", "Cum Self %", true, Column::Default,
     [](const Row &, const Ctx &c) { return pct(c.cumulativeNs, c.totalNs); },
     nullptr, "", nullptr},
    {"device", "Device", true, Column::Default,
     [](const Row &r, const Ctx &) { return utostr(r.device); },
     [](const Row &a, const Row &b) { return cmp(a.device, b.device); },
     "device", [](const Row &r, const Ctx &) { return num(r.device); }},
    {"run", "Run", true, Column::ExportOnly, nullptr,
     [](const Row &a, const Row &b) { return cmp(a.run, b.run); }, "run",
     [](const Row &r, const Ctx &c) {
       return c.profile.runsMerged ? text("")
                                   : num(runNumber(c.profile, r.run));
     }},
    // The run's rank in its job: empty without one, or with runs merged.
    {"rank", "Rank", true, Column::ExportOnly, nullptr,
     [](const Row &a, const Row &b) { return cmp(a.run, b.run); }, "rank",
     [](const Row &r, const Ctx &c) {
       if (c.profile.runsMerged || r.run >= c.profile.runs.size() ||
           c.profile.runs[r.run].rank == TPUPROF_RANK_UNKNOWN)
         return text("");
       return num(c.profile.runs[r.run].rank);
     }},
    {"count", "Count", true, Column::Default,
     [](const Row &r, const Ctx &) { return utostr(r.count); },
     [](const Row &a, const Row &b) { return cmp(a.count, b.count); }, "count",
     [](const Row &r, const Ctx &) { return num(r.count); }},
    {"unfinished", "Unfinished", true, Column::Extra,
     [](const Row &r, const Ctx &) { return utostr(r.unfinished); },
     [](const Row &a, const Row &b) { return cmp(a.unfinished, b.unfinished); },
     "unfinished", [](const Row &r, const Ctx &) { return num(r.unfinished); }},
    // The table shows the operands that are not outputs; the exports keep
    // every operand, the row's key (diff, JSON), and the outputs apart.
    {"shapes", "Argument Shapes", false, Column::Default,
     [](const Row &r, const Ctx &) { return orDash(argumentShapes(r)); },
     [](const Row &a, const Row &b) { return a.shapes.compare(b.shapes); },
     "shapes", [](const Row &r, const Ctx &) { return text(r.shapes); }},
    {"outputs", "Output Shapes", false, Column::Default,
     [](const Row &r, const Ctx &) { return orDash(outputShapes(r)); },
     [](const Row &a, const Row &b) {
       return outputShapes(a).compare(outputShapes(b));
     },
     "output_shapes",
     [](const Row &r, const Ctx &) { return text(outputShapes(r)); },
     [](const Row &r, const Ctx &) { return !outputShapes(r).empty(); }},
    {"hash", "Hash", false, Column::Default,
     [](const Row &r, const Ctx &) { return hashCell(r); },
     // As the cells compare: "-" (unknown probe) before any hex digits.
     [](const Row &a, const Row &b) {
       return cmp(std::make_pair(!a.unknownProbe, a.hash),
                  std::make_pair(!b.unknownProbe, b.hash));
     },
     "hash",
     [](const Row &r, const Ctx &) {
       return text(r.unknownProbe ? "" : hashName(r.hash));
     }},
    {"location", "Location", false, Column::Default,
     [](const Row &r, const Ctx &) {
       if (r.locations.empty())
         return std::string("-");
       std::string s = r.locations.front();
       if (r.locations.size() > 1)
         s += (" (+" + Twine(r.locations.size() - 1) + " more)").str();
       return s;
     },
     [](const Row &a, const Row &b) {
       return a.location().compare(b.location());
     },
     "location",
     [](const Row &r, const Ctx &) { return text(r.location().str()); }},
    // The name part of the location (an ONNX node, a layer): shown when
    // some row has one.
    {"node", "Node", false, Column::Default,
     [](const Row &r, const Ctx &) { return orDash(r.node); },
     [](const Row &a, const Row &b) { return a.node.compare(b.node); }, "node",
     [](const Row &r, const Ctx &) { return text(r.node); },
     [](const Row &r, const Ctx &) { return !r.node.empty(); }},
    {"function", "Function", false, Column::Extra,
     [](const Row &r, const Ctx &) { return orDash(r.function); },
     [](const Row &a, const Row &b) { return a.function.compare(b.function); },
     "function", [](const Row &r, const Ctx &) { return text(r.function); }},
    // Mode 2 records the CPU a probe began and ended on.
    {"migrations", "Migrations", true, Column::Default,
     [](const Row &r, const Ctx &) {
       return r.cpuRecorded ? utostr(r.migrations) : std::string("-");
     },
     [](const Row &a, const Row &b) { return cmp(a.migrations, b.migrations); },
     "migrations",
     [](const Row &r, const Ctx &) {
       return r.cpuRecorded ? num(r.migrations) : text("");
     },
     [](const Row &r, const Ctx &) { return r.cpuRecorded; }},
    // Memory tracking (TPUPROF_MEMORY=1, mode 2): PyTorch's "CPU Mem" and
    // "Self CPU Mem" as allocated bytes, what was freed, the live peak.
    {"alloc", "Alloc (B)", true, Column::Default, bytesCell<&Row::allocBytes>,
     bytesCompare<&Row::allocBytes>, "alloc_bytes",
     bytesExport<&Row::allocBytes>, hasMemory},
    {"self_alloc", "Self Alloc (B)", true, Column::Default,
     bytesCell<&Row::selfAllocBytes>, bytesCompare<&Row::selfAllocBytes>,
     "self_alloc_bytes", bytesExport<&Row::selfAllocBytes>, hasMemory},
    {"freed", "Freed (B)", true, Column::Default, bytesCell<&Row::freedBytes>,
     bytesCompare<&Row::freedBytes>, "freed_bytes",
     bytesExport<&Row::freedBytes>, hasMemory},
    {"peak", "Peak (B)", true, Column::Default, bytesCell<&Row::peakBytes>,
     bytesCompare<&Row::peakBytes>, "peak_bytes", bytesExport<&Row::peakBytes>,
     hasMemory},
    {"min", "Min (us)", true, Column::Stats, statCell<minOf>,
     statCompare<minOf>, "min_ns", statExport<minOf>},
    {"mean", "Mean (us)", true, Column::Stats,
     [](const Row &r, const Ctx &c) {
       if (r.count && r.durations.mean() < double(c.resolutionNs))
         return timeCell(0, c.resolutionNs);
       return formatv("{0:F2}", r.durations.mean() / 1000.0).str();
     },
     [](const Row &a, const Row &b) {
       return cmp(a.durations.mean(), b.durations.mean());
     },
     "mean_ns",
     [](const Row &r, const Ctx &) {
       return ExportCell::ofReal(r.durations.mean(), 1);
     }},
    {"median", "Median (us)", true, Column::Stats, statCell<medianOf>,
     statCompare<medianOf>, "median_ns", statExport<medianOf>},
    {"p90", "P90 (us)", true, Column::Stats, statCell<p90Of>,
     statCompare<p90Of>, "p90_ns", statExport<p90Of>},
    {"p99", "P99 (us)", true, Column::Stats, statCell<p99Of>,
     statCompare<p99Of>, "p99_ns", statExport<p99Of>},
    {"max", "Max (us)", true, Column::Stats, statCell<maxOf>,
     statCompare<maxOf>, "max_ns", statExport<maxOf>},
    {"flops", "FLOPs", true, Column::Work,
     [](const Row &r, const Ctx &) {
       return r.flops ? utostr(r.flops) : std::string("-");
     },
     [](const Row &a, const Row &b) { return cmp(a.flops, b.flops); }, "flops",
     [](const Row &r, const Ctx &) { return num(r.flops); }},
    {"gflops", "GFLOP/s", true, Column::Work,
     [](const Row &r, const Ctx &c) {
       // A time below resolution makes any rate meaningless.
       return r.flops && resolved(r, c) ? formatv("{0:F2}", gflopsOf(r)).str()
                                        : std::string("-");
     },
     [](const Row &a, const Row &b) { return cmp(gflopsOf(a), gflopsOf(b)); },
     "gflop_per_s",
     [](const Row &r, const Ctx &) {
       return ExportCell::ofReal(gflopsOf(r), 4);
     }},
    {"bytes", "Bytes", true, Column::Work,
     [](const Row &r, const Ctx &) {
       return r.bytes ? utostr(r.bytes) : std::string("-");
     },
     [](const Row &a, const Row &b) { return cmp(a.bytes, b.bytes); }, "bytes",
     [](const Row &r, const Ctx &) { return num(r.bytes); }},
    {"bandwidth", "GB/s", true, Column::Work,
     [](const Row &r, const Ctx &c) {
       if (!r.bytes || !resolved(r, c))
         return std::string("-");
       double gbps = gbpsOf(r);
       // Above the measured (DRAM) peak, the data came from cache.
       return formatv("{0:F2}", gbps).str() +
              (c.peakGBps > 0 && gbps > c.peakGBps ? "^" : "");
     },
     [](const Row &a, const Row &b) { return cmp(gbpsOf(a), gbpsOf(b)); },
     "gb_per_s",
     [](const Row &r, const Ctx &) {
       return ExportCell::ofReal(gbpsOf(r), 4);
     }},
    {"bound", "Bound", false, Column::Roofline,
     [](const Row &r, const Ctx &c) {
       double intensity = intensityOf(r);
       if (intensity < 0 || c.peakGBps <= 0)
         return std::string("-");
       if (intensity >= c.peakGflops / c.peakGBps)
         return std::string("compute");
       return std::string(resolved(r, c) && gbpsOf(r) > c.peakGBps
                              ? "memory (cache)"
                              : "memory");
     },
     [](const Row &a, const Row &b) {
       return cmp(intensityOf(a), intensityOf(b));
     },
     "", nullptr},
    {"resolution", "Resolution (ns)", true, Column::ExportOnly, nullptr,
     nullptr, "resolution_ns",
     [](const Row &r, const Ctx &c) { return num(rowFloor(r, c)); }},
};

/// The exports' order: CSV's header as it has always been, then the
/// columns added since.
const char *const kExportOrder[] = {
    "name",       "kind",      "device", "hash",       "shapes",
    "location",   "function",  "count",  "unfinished", "duration",
    "self",       "percent",   "min",    "mean",       "median",
    "p90",        "p99",       "max",    "flops",      "bytes",
    "gflops",     "bandwidth", "run",    "outputs",    "migrations",
    "resolution", "approx",    "alloc",  "self_alloc", "freed",
    "peak",       "rank",      "node"};

} // namespace

ArrayRef<Column> tpuprof::report::allColumns() { return kColumns; }

const Column *tpuprof::report::findColumn(StringRef id) {
  for (const Column &c : kColumns)
    if (c.id == id)
      return &c;
  return nullptr;
}

std::vector<const Column *> tpuprof::report::exportColumns() {
  std::vector<const Column *> out;
  for (const char *id : kExportOrder)
    out.push_back(findColumn(id));
  return out;
}
