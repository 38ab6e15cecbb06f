//===- report/model/ProfileJson.cpp - The JSON export, both ways ----------===//
//
// `export --format json` written from a Profile and read back into one, so
// that every row view takes an export as it takes dumps. Each part of the
// export (ExportKeys.def) is one table whose entries name a key, how to
// write it and how to read it, side by side (ExportFields.h); a
// static_assert holds every table to its part's keys in the .def's order,
// so a key is written and read or not at all. Every field is checked on
// reading; the first problem is the one error.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/ProfileJson.h"
#include "ExportFields.h"
#include "tpuprof/report/ExportKeys.h"
#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/model/Json.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/read/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

using namespace tpuprof::report::exportfields;
using K = ExportKey;

//===----------------------------------------------------------------------===//
// The parts, innermost first
//===----------------------------------------------------------------------===//

constexpr Field<DropCounts> kDropsFields[] = {
    plain<K::DropsFull, &DropCounts::full>(),
    plain<K::DropsOverwritten, &DropCounts::overwritten>(),
    plain<K::DropsDepth, &DropCounts::depth>(),
    plain<K::DropsNoSpace, &DropCounts::noSpace>(),
    plain<K::DropsUnknown, &DropCounts::unknown>(),
};
static_assert(coversPart(ExportPart::Drops, kDropsFields),
              "one entry per key of the part in ExportKeys.def, in order");

/// `drops` of a totals or dump object; exports from before the reasons lack
/// it: all `dropped` (read before) then has no known reason.
void readDrops(KeyIn &in, uint64_t dropped, DropCounts &drops) {
  if (in.present())
    in.object(kDropsFields, drops);
  else
    drops.unknown = dropped;
}

/// `unwound`, which comes with `drops`.
void readUnwound(KeyIn &in, ExportKey drops, uint64_t &unwound) {
  if (in.present(drops))
    unwound = in.u64();
}

constexpr Field<RunId> kRunFields[] = {
    plain<K::RunPid, &RunId::pid>(),
    plain<K::RunStartNs, &RunId::startNs>(),
    // null for a process without a rank; exports from before ranks lack it.
    {K::RunRank,
     [](KeyOut &out, const RunId &r) {
       if (r.rank == TPUPROF_RANK_UNKNOWN)
         out.value(nullptr);
       else
         out.value(r.rank);
     },
     [](KeyIn &in, RunId &r) {
       if (in.present() && !in.isNull())
         in.read(r.rank);
     }},
};
static_assert(coversPart(ExportPart::Run, kRunFields),
              "one entry per key of the part in ExportKeys.def, in order");

/// Optional as a whole: exports from before calibration lack it.
constexpr Field<DumpInfo> kCalibrationFields[] = {
    plain<K::CalibrationSelfTicks, &DumpInfo::calibSelfTicks>(),
    plain<K::CalibrationNestedTicks, &DumpInfo::calibNestedTicks>(),
    plain<K::CalibrationPairs, &DumpInfo::calibPairs>(),
    optionalPlain<K::CalibrationReadTicks, &DumpInfo::calibReadTicks>(),
    // Per counter word (the dump's EVENTS order), version 3: both lists or
    // neither.
    {K::CalibrationSelfCounts,
     [](KeyOut &out, const DumpInfo &i) {
       if (!i.calibCounts.empty())
         out.values(
             map_range(i.calibCounts, [](const auto &c) { return c.self; }));
     },
     [](KeyIn &in, DumpInfo &i) {
       if (in.present() || in.present(K::CalibrationNestedCounts))
         for (uint64_t self : in.u64s())
           i.calibCounts.push_back({self, 0});
     }},
    {K::CalibrationNestedCounts,
     [](KeyOut &out, const DumpInfo &i) {
       if (!i.calibCounts.empty())
         out.values(
             map_range(i.calibCounts, [](const auto &c) { return c.nested; }));
     },
     [](KeyIn &in, DumpInfo &i) {
       if (!in.present() && !in.present(K::CalibrationSelfCounts))
         return;
       std::vector<uint64_t> nested = in.u64s();
       if (nested.size() != i.calibCounts.size())
         in.fail("'self_counts' and 'nested_counts' differ in length");
       i.calibCounts.resize(std::min(nested.size(), i.calibCounts.size()));
       for (size_t k = 0; k != i.calibCounts.size(); ++k)
         i.calibCounts[k].nested = nested[k];
     }},
};
static_assert(coversPart(ExportPart::Calibration, kCalibrationFields),
              "one entry per key of the part in ExportKeys.def, in order");

constexpr Field<MemorySummary> kDumpMemoryFields[] = {
    plain<K::DumpMemoryAllocs, &MemorySummary::allocs>(),
    plain<K::DumpMemoryAllocBytes, &MemorySummary::allocBytes>(),
    plain<K::DumpMemoryFrees, &MemorySummary::frees>(),
    plain<K::DumpMemoryFreedBytes, &MemorySummary::freedBytes>(),
    plain<K::DumpMemoryUntrackedFrees, &MemorySummary::untrackedFrees>(),
    plain<K::DumpMemoryPeakBytes, &MemorySummary::peakBytes>(),
    plain<K::DumpMemoryPeakNs, &MemorySummary::peakNs>(),
    plain<K::DumpMemoryPeakOp, &MemorySummary::peakOp>(),
    plain<K::DumpMemoryLiveAtEnd, &MemorySummary::liveAtEnd>(),
};
static_assert(coversPart(ExportPart::DumpMemory, kDumpMemoryFields),
              "one entry per key of the part in ExportKeys.def, in order");

using D = DumpSummary;
constexpr auto kInfo = &DumpSummary::info;

constexpr Field<DumpSummary> kDumpFields[] = {
    plain<K::DumpPath, &D::path>(),
    // Rows and dumps name their run by index into the top level's runs;
    // exports from before runs lack it.
    optionalPlain<K::DumpRun, &D::run>(),
    plain<K::DumpVersion, kInfo, &DumpInfo::version>(),
    plain<K::DumpHeaderSize, kInfo, &DumpInfo::headerSize>(),
    plain<K::DumpMode, kInfo, &DumpInfo::mode>(),
    plain<K::DumpDevice, kInfo, &DumpInfo::device>(),
    plain<K::DumpPid, kInfo, &DumpInfo::pid>(),
    plain<K::DumpCallNum, kInfo, &DumpInfo::callNum>(),
    plain<K::DumpClockSource, kInfo, &DumpInfo::clockSource>(),
    plain<K::DumpFlags, kInfo, &DumpInfo::flags>(),
    plain<K::DumpCalibTicks0, kInfo, &DumpInfo::calibTicks0>(),
    plain<K::DumpCalibNs0, kInfo, &DumpInfo::calibNs0>(),
    plain<K::DumpCalibTicks1, kInfo, &DumpInfo::calibTicks1>(),
    plain<K::DumpCalibNs1, kInfo, &DumpInfo::calibNs1>(),
    plain<K::DumpWindowBegin, kInfo, &DumpInfo::windowBegin>(),
    plain<K::DumpWindowEnd, kInfo, &DumpInfo::windowEnd>(),
    plain<K::DumpDropped, kInfo, &DumpInfo::dropped>(),
    {K::DumpDrops,
     [](KeyOut &out, const D &d) { out.object(kDropsFields, d.info.drops); },
     [](KeyIn &in, D &d) { readDrops(in, d.info.dropped, d.info.drops); }},
    {K::DumpUnwound, [](KeyOut &out, const D &d) { out.value(d.info.unwound); },
     [](KeyIn &in, D &d) { readUnwound(in, K::DumpDrops, d.info.unwound); }},
    plain<K::DumpNumSections, kInfo, &DumpInfo::numSections>(),
    {K::DumpCalibration,
     [](KeyOut &out, const D &d) {
       if (d.info.hasCalibration)
         out.object(kCalibrationFields, d.info);
     },
     [](KeyIn &in, D &d) {
       if (!in.present())
         return;
       d.info.hasCalibration = true;
       in.object(kCalibrationFields, d.info);
     }},
    // Whether this dump's duration_ns/self_ns/durations are corrected.
    {K::DumpOverheadCorrection,
     [](KeyOut &out, const D &d) { out.value(correctionName(d.correction)); },
     [](KeyIn &in, D &d) {
       if (!in.present())
         return;
       std::string name = in.str();
       std::optional<OverheadCorrection::State> state =
           parseCorrectionName(name);
       if (!state)
         in.fail("unknown overhead_correction '" + name + "'");
       d.correction = state.value_or(OverheadCorrection::State::NoCalibration);
     }},
    plain<K::DumpThreads, &D::threads>(),
    plain<K::DumpRecords, &D::records>(),
    plain<K::DumpUnfinished, &D::unfinished>(),
    plain<K::DumpCoveredNs, &D::coveredNs>(),
    plain<K::DumpWindowNs, &D::windowNs>(),
    // Exports from before memory tracking lack it.
    {K::DumpMemory,
     [](KeyOut &out, const D &d) {
       if (d.memory.tracked)
         out.object(kDumpMemoryFields, d.memory);
     },
     [](KeyIn &in, D &d) {
       if (!in.present())
         return;
       d.memory.tracked = true;
       in.object(kDumpMemoryFields, d.memory);
     }},
};
static_assert(coversPart(ExportPart::Dump, kDumpFields),
              "one entry per key of the part in ExportKeys.def, in order");

/// A DurationSketch as the export spells it: exact samples, or the
/// histogram's first bucket and counts.
struct DurationParts {
  uint64_t count = 0, sum = 0, min = 0, max = 0;
  bool exact = false;
  std::vector<uint64_t> samples;
  int64_t firstBucket = 0;
  std::vector<uint64_t> buckets;

  static DurationParts of(const DurationSketch &d) {
    DurationParts p;
    p.count = d.count();
    p.sum = d.total();
    p.min = d.min();
    p.max = d.max();
    p.exact = d.isExact();
    if (p.exact) {
      p.samples = d.exactSamples();
    } else {
      p.firstBucket = d.firstBucket();
      p.buckets = d.bucketCounts();
    }
    return p;
  }
  DurationSketch sketch() && {
    return DurationSketch::fromParts(count, sum, min, max, std::move(samples),
                                     !exact, int32_t(firstBucket),
                                     std::move(buckets));
  }
};

using P = DurationParts;

constexpr Field<DurationParts> kDurationFields[] = {
    plain<K::DurationsCount, &P::count>(),
    plain<K::DurationsSum, &P::sum>(),
    plain<K::DurationsMin, &P::min>(),
    plain<K::DurationsMax, &P::max>(),
    plain<K::DurationsExact, &P::exact>(),
    {K::DurationsSamples,
     [](KeyOut &out, const P &p) {
       if (p.exact)
         out.values(p.samples);
     },
     [](KeyIn &in, P &p) {
       if (!p.exact)
         return;
       p.samples = in.u64s();
       if (in.ok() && p.samples.size() != p.count)
         in.fail("'samples' does not hold 'count' values");
     }},
    {K::DurationsFirstBucket,
     [](KeyOut &out, const P &p) {
       if (!p.exact)
         out.value(p.firstBucket);
     },
     [](KeyIn &in, P &p) {
       if (!p.exact)
         p.firstBucket = in.i64();
     }},
    {K::DurationsBuckets,
     [](KeyOut &out, const P &p) {
       if (!p.exact)
         out.values(p.buckets);
     },
     [](KeyIn &in, P &p) {
       if (!p.exact)
         p.buckets = in.u64s();
     }},
};
static_assert(coversPart(ExportPart::Durations, kDurationFields),
              "one entry per key of the part in ExportKeys.def, in order");

/// Optional as a whole: rows of windows that tracked memory only.
constexpr Field<Row> kRowMemoryFields[] = {
    plain<K::RowMemoryAllocBytes, &Row::allocBytes>(),
    plain<K::RowMemorySelfAllocBytes, &Row::selfAllocBytes>(),
    plain<K::RowMemoryFreedBytes, &Row::freedBytes>(),
    plain<K::RowMemoryPeakBytes, &Row::peakBytes>(),
};
static_assert(coversPart(ExportPart::RowMemory, kRowMemoryFields),
              "one entry per key of the part in ExportKeys.def, in order");

/// Optional as a whole: rows with device commands (docs/device.md).
constexpr Field<Row> kRowDeviceFields[] = {
    plain<K::RowDeviceTotalNs, &Row::deviceNs>(),
    plain<K::RowDeviceSelfNs, &Row::deviceSelfNs>(),
    plain<K::RowDeviceCommands, &Row::deviceCommands>(),
    plain<K::RowDeviceQueueDelayNs, &Row::queueDelayNs>(),
};
static_assert(coversPart(ExportPart::RowDevice, kRowDeviceFields),
              "one entry per key of the part in ExportKeys.def, in order");

constexpr Field<Row> kRowFields[] = {
    plain<K::RowName, &Row::name>(),
    {K::RowKind, [](KeyOut &out, const Row &r) { out.value(kindName(r.kind)); },
     [](KeyIn &in, Row &r) {
       // "unknown" (a row of an unknown probe) reads as an op, as before.
       r.kind = parseKindName(in.str()).value_or(TPUPROF_KIND_OP);
     }},
    plain<K::RowDevice, &Row::device>(),
    {K::RowHash, [](KeyOut &out, const Row &r) { out.value(hashName(r.hash)); },
     [](KeyIn &in, Row &r) {
       std::string hash = in.str();
       if (in.ok() && StringRef(hash).getAsInteger(16, r.hash))
         in.fail("'hash' is not hexadecimal");
     }},
    plain<K::RowUnknownProbe, &Row::unknownProbe>(),
    plain<K::RowProbeId, &Row::probeId>(),
    // Exports from before runs, output shapes or mode 2's migrations lack
    // them.
    optionalPlain<K::RowRun, &Row::run>(),
    plain<K::RowShapes, &Row::shapes>(),
    {K::RowNumOuts, [](KeyOut &out, const Row &r) { out.value(r.numOuts); },
     [](KeyIn &in, Row &r) {
       if (in.present())
         r.numOuts = uint8_t(std::min<uint64_t>(in.u64(), 255));
     }},
    optionalPlain<K::RowOutShapes, &Row::outShapes>(),
    {K::RowMigrations,
     [](KeyOut &out, const Row &r) {
       if (r.cpuRecorded)
         out.value(r.migrations);
     },
     [](KeyIn &in, Row &r) {
       if (!in.present())
         return;
       r.cpuRecorded = true;
       r.migrations = in.u64();
     }},
    {K::RowMemory,
     [](KeyOut &out, const Row &r) {
       if (r.memoryRecorded)
         out.object(kRowMemoryFields, r);
     },
     [](KeyIn &in, Row &r) {
       if (!in.present())
         return;
       r.memoryRecorded = true;
       in.object(kRowMemoryFields, r);
     }},
    {K::RowDeviceTime,
     [](KeyOut &out, const Row &r) {
       if (r.deviceCommands)
         out.object(kRowDeviceFields, r);
     },
     [](KeyIn &in, Row &r) {
       if (in.present())
         in.object(kRowDeviceFields, r);
     }},
    {K::RowLocations,
     [](KeyOut &out, const Row &r) { out.values(r.locations); },
     [](KeyIn &in, Row &r) { r.locations = in.strings(); }},
    // Rows of probes with a node only; exports from before lack it.
    {K::RowNode,
     [](KeyOut &out, const Row &r) {
       if (!r.node.empty())
         out.value(r.node);
     },
     [](KeyIn &in, Row &r) {
       if (in.present())
         in.read(r.node);
     }},
    plain<K::RowFunction, &Row::function>(),
    plain<K::RowFlops, &Row::flops>(),
    plain<K::RowBytes, &Row::bytes>(),
    plain<K::RowCount, &Row::count>(),
    plain<K::RowUnfinished, &Row::unfinished>(),
    plain<K::RowDurationNs, &Row::durationNs>(),
    plain<K::RowSelfNs, &Row::selfNs>(),
    // Too short to be measured to 5 % (docs/report.md).
    {K::RowApprox,
     [](KeyOut &out, const Row &r) {
       out.value(isApprox(r, out.ctx.approxBelowNs));
     },
     derivedFromTheRest<Row>},
    // Indexed like the top level's events (which pads them when read).
    {K::RowCounters, [](KeyOut &out, const Row &r) { out.values(r.counters); },
     [](KeyIn &in, Row &r) { r.counters = in.u64s(); }},
    {K::RowCounterFlags,
     [](KeyOut &out, const Row &r) { out.values(r.counterFlags); },
     [](KeyIn &in, Row &r) {
       for (uint64_t flags : in.u64s())
         r.counterFlags.push_back(uint8_t(flags));
     }},
    {K::RowDurations,
     [](KeyOut &out, const Row &r) {
       out.object(kDurationFields, DurationParts::of(r.durations));
     },
     [](KeyIn &in, Row &r) {
       DurationParts parts;
       in.object(kDurationFields, parts);
       r.durations = std::move(parts).sketch();
     }},
};
static_assert(coversPart(ExportPart::Row, kRowFields),
              "one entry per key of the part in ExportKeys.def, in order");

constexpr Field<Profile> kTotalsFields[] = {
    plain<K::TotalsCoveredNs, &Profile::coveredNs>(),
    plain<K::TotalsTotalNs, &Profile::totalNs>(),
    plain<K::TotalsUnfinished, &Profile::unfinished>(),
    plain<K::TotalsDropped, &Profile::dropped>(),
    {K::TotalsDrops,
     [](KeyOut &out, const Profile &p) { out.object(kDropsFields, p.drops); },
     [](KeyIn &in, Profile &p) { readDrops(in, p.dropped, p.drops); }},
    {K::TotalsUnwound,
     [](KeyOut &out, const Profile &p) { out.value(p.unwound); },
     [](KeyIn &in, Profile &p) { readUnwound(in, K::TotalsDrops, p.unwound); }},
    plain<K::TotalsThreads, &Profile::threads>(),
    plain<K::TotalsRecords, &Profile::records>(),
    {K::TotalsDumps,
     [](KeyOut &out, const Profile &p) { out.value(uint64_t(p.dumps.size())); },
     derivedFromTheRest<Profile>},
    {K::TotalsRuns,
     [](KeyOut &out, const Profile &p) { out.value(uint64_t(p.runs.size())); },
     derivedFromTheRest<Profile>},
    {K::TotalsIncompleteDumps,
     [](KeyOut &out, const Profile &p) {
       out.value(uint64_t(count_if(p.dumps, [](const DumpSummary &d) {
         return !d.info.isComplete();
       })));
     },
     derivedFromTheRest<Profile>},
    {K::TotalsModes,
     [](KeyOut &out, const Profile &p) {
       std::vector<uint32_t> modes;
       for (const DumpSummary &d : p.dumps)
         if (!is_contained(modes, d.info.mode))
           modes.push_back(d.info.mode);
       out.values(modes);
     },
     derivedFromTheRest<Profile>},
};
static_assert(coversPart(ExportPart::Totals, kTotalsFields),
              "one entry per key of the part in ExportKeys.def, in order");

/// The reader of a key that readProfileJson() checks before all others.
void checkedFirst(KeyIn &, Profile &) {}

constexpr Field<Profile> kTopFields[] = {
    {K::TopFormat,
     [](KeyOut &out, const Profile &) { out.value(kExportFormat); },
     checkedFirst},
    {K::TopVersion,
     [](KeyOut &out, const Profile &) { out.value(kProfileJsonVersion); },
     checkedFirst},
    {K::TopEvents, [](KeyOut &out, const Profile &p) { out.values(p.events); },
     [](KeyIn &in, Profile &p) { p.events = in.strings(); }},
    {K::TopTotals,
     [](KeyOut &out, const Profile &p) { out.object(kTotalsFields, p); },
     [](KeyIn &in, Profile &p) { in.object(kTotalsFields, p); }},
    // Rows and dumps name their run by index into this list (in the order
    // the runs started). Exports from before runs lack it and
    // runs_merged: readProfileJson() then makes the runs up from the dumps.
    {K::TopRuns,
     [](KeyOut &out, const Profile &p) { out.objects(kRunFields, p.runs); },
     [](KeyIn &in, Profile &p) {
       if (in.present())
         in.objects(kRunFields, p.runs);
     }},
    // The rows of all runs were added up.
    {K::TopRunsMerged,
     [](KeyOut &out, const Profile &p) { out.value(p.runsMerged); },
     [](KeyIn &in, Profile &p) {
       if (in.present(K::TopRuns))
         p.runsMerged = in.boolean();
     }},
    {K::TopDumps,
     [](KeyOut &out, const Profile &p) { out.objects(kDumpFields, p.dumps); },
     [](KeyIn &in, Profile &p) { in.objects(kDumpFields, p.dumps); }},
    {K::TopRows,
     [](KeyOut &out, const Profile &p) { out.objects(kRowFields, p.rows); },
     [](KeyIn &in, Profile &p) {
       in.objects(kRowFields, p.rows);
       for (Row &r : p.rows) {
         r.counters.resize(p.events.size(), 0);
         r.counterFlags.resize(p.events.size(), 0);
       }
     }},
};
static_assert(coversPart(ExportPart::Top, kTopFields),
              "one entry per key of the part in ExportKeys.def, in order");

/// Runs of an export from before runs: one per distinct (pid, start) among
/// the dumps, whose rows were then added up.
void runsFromDumps(Profile &p) {
  for (DumpSummary &d : p.dumps) {
    RunId id{d.info.pid, d.info.calibNs0};
    if (!is_contained(p.runs, id))
      p.runs.push_back(id);
  }
  p.runsMerged = p.runs.size() > 1;
}

/// Whether every row's and dump's run is an index into the runs.
std::string checkRunIndices(const Profile &p) {
  std::string error;
  if (p.runsMerged)
    return error;
  size_t numRuns = std::max<size_t>(p.runs.size(), 1);
  for (const Row &r : p.rows)
    if (r.run >= numRuns)
      error = "a row's 'run' is not an index into 'runs'";
  for (const DumpSummary &d : p.dumps)
    if (d.run >= numRuns)
      error = "a dump's 'run' is not an index into 'runs'";
  return error;
}

} // namespace

void tpuprof::report::writeExportJson(const Profile &p, json::OStream &j) {
  WriteContext ctx{approxBelowNs(p)};
  j.object([&] { writeFields(kTopFields, p, j, ctx); });
}

void tpuprof::report::writeExportTotals(const Profile &p, json::OStream &j) {
  writeFields(kTotalsFields, p, j, WriteContext());
}

Expected<Profile> tpuprof::report::readProfileJson(StringRef path) {
  auto bad = [&](const Twine &what) {
    return createStringError(path + ": not a tpuprof JSON export: " + what);
  };
  Expected<std::unique_ptr<MemoryBuffer>> buf = readInputFile(path);
  if (!buf)
    return buf.takeError();
  Expected<json::Value> root = parseJson((*buf)->getBuffer());
  if (!root)
    return bad(toString(root.takeError()));
  const json::Object *top = root->getAsObject();
  if (!top || top->getString(exportKeyName(K::TopFormat)) != kExportFormat)
    return bad("no \"" + exportKeyName(K::TopFormat) + "\": \"" +
               kExportFormat + "\"");
  std::string error;
  Fields in(top, "", &error);
  if (in.i64(exportKeyName(K::TopVersion)) != kProfileJsonVersion)
    return bad("unsupported version (this reader supports " +
               Twine(kProfileJsonVersion) + ")");
  Profile p;
  readFields(kTopFields, in, p);
  if (!in.has(exportKeyName(K::TopRuns)))
    runsFromDumps(p);
  if (error.empty())
    error = checkRunIndices(p);
  if (!error.empty())
    return bad(error);
  return p;
}
