//===- unittests/Report/ExportJsonTest.cpp - The JSON export round trip ---===//
//
// A profile with every exported field set written as `export --format
// json` and read back: every key of ExportKeys.def appears where its part
// says, holds a value other than its default somewhere, and comes back as
// it went out.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/ExportKeys.h"
#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Export.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <set>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// Distinct values from one counter, so that two fields swapped on the way
/// back do not compare equal.
struct Values {
  uint64_t next = 11;
  uint64_t operator()() { return next += 7; }
};

DumpSummary dump(Values &v, uint32_t run, bool calibrated) {
  DumpSummary d;
  DumpInfo &i = d.info;
  d.path = "dumps/tpuprof_data_dev" + llvm::utostr(v()) + "-0";
  d.run = run;
  i.version = 5;
  i.headerSize = uint32_t(v());
  i.mode = calibrated ? 2 : 1;
  i.device = uint32_t(v());
  i.pid = uint32_t(v());
  i.callNum = uint32_t(v());
  i.clockSource = TPUPROF_CLOCK_MONOTONIC;
  i.flags = calibrated ? TPUPROF_DUMP_COMPLETE : 0;
  i.calibTicks0 = v();
  i.calibNs0 = v();
  i.calibTicks1 = i.calibTicks0 + v();
  i.calibNs1 = i.calibNs0 + v();
  i.windowBegin = v();
  i.windowEnd = i.windowBegin + v();
  i.drops = {v(), v(), v(), v(), v()};
  i.dropped = i.drops.total();
  i.unwound = v();
  i.numSections = uint32_t(v());
  d.threads = v();
  d.records = v();
  d.unfinished = v();
  d.coveredNs = v();
  d.windowNs = v();
  if (calibrated) {
    i.hasCalibration = true;
    i.calibSelfTicks = v();
    i.calibNestedTicks = 500; // Rows of a mean below 1000 ns are approx.
    i.calibPairs = uint32_t(v());
    i.calibReadTicks = v();
    i.calibCounts = {{v(), v()}, {v(), v()}};
    d.correction = OverheadCorrection::State::Applied;
    MemorySummary &m = d.memory;
    m.tracked = true;
    m.allocs = v();
    m.allocBytes = v();
    m.frees = v();
    m.freedBytes = v();
    m.untrackedFrees = v();
    m.peakBytes = v();
    m.peakNs = v();
    m.peakOp = "tosa.matmul [f32[2, 3]] at m.mlir:4:2";
    m.liveAtEnd = v();
  } else {
    d.correction = OverheadCorrection::State::Disabled;
  }
  return d;
}

Row row(Values &v, const std::string &name, uint8_t kind, uint32_t run,
        bool bucketed) {
  Row r;
  r.name = name;
  r.kind = kind;
  r.device = uint32_t(v());
  r.hash = 0xfedcba9876543210 + v();
  r.probeId = uint32_t(v());
  r.run = run;
  r.shapes = "f32[2, 3], f32[3, " + llvm::utostr(v()) + "]";
  r.numOuts = 1;
  r.outShapes = "f32[2, " + llvm::utostr(v()) + "]";
  r.locations = {"m.mlir:" + llvm::utostr(v()) + ":2", "m.mlir:9:4"};
  r.node = "layer" + llvm::utostr(v());
  r.function = "forward" + llvm::utostr(v());
  r.flops = v();
  r.bytes = v();
  r.unfinished = v();
  uint64_t base = bucketed ? 5000 : 100;
  for (unsigned n = 0; n != (bucketed ? 300 : 3); ++n)
    r.durations.add(base + n * 3);
  r.count = r.durations.count();
  r.durationNs = r.durations.total();
  r.selfNs = r.durationNs - v();
  r.counters = {v(), v()};
  r.counterFlags = {Row::CounterRecorded,
                    Row::CounterRecorded | Row::CounterScaled};
  r.cpuRecorded = true;
  r.migrations = v();
  r.memoryRecorded = true;
  r.allocBytes = v();
  r.selfAllocBytes = v();
  r.freedBytes = v();
  r.peakBytes = v();
  r.deviceNs = v();
  r.deviceSelfNs = v();
  r.deviceCommands = v();
  r.queueDelayNs = v();
  return r;
}

/// Two runs, a calibrated dump (approx rows) and one not, rows of every
/// kind, an unknown probe, exact and bucketed duration sketches.
Profile everyField(bool runsMerged) {
  Values v;
  Profile p;
  p.events = {"perf::TASK-CLOCK", "perf::PAGE-FAULTS"};
  p.runs = {{uint32_t(v()), v(), uint32_t(v())},
            {uint32_t(v()), v(), TPUPROF_RANK_UNKNOWN}};
  p.runsMerged = runsMerged;
  uint32_t second = runsMerged ? 0 : 1;
  p.dumps = {dump(v, 0, true), dump(v, second, false)};
  p.rows = {row(v, "tosa.matmul", TPUPROF_KIND_OP, 0, false),
            row(v, "cudaLaunchKernel", TPUPROF_KIND_LAUNCH, second, true),
            row(v, "preprocess", TPUPROF_KIND_USER, second, false)};
  Row unknown = row(v, "<unknown probe 7>", TPUPROF_KIND_OP, 0, false);
  unknown.unknownProbe = true;
  unknown.hash = 0;
  unknown.cpuRecorded = unknown.memoryRecorded = false;
  unknown.migrations = unknown.allocBytes = unknown.selfAllocBytes =
      unknown.freedBytes = unknown.peakBytes = 0;
  p.rows.push_back(unknown);
  p.coveredNs = v();
  p.totalNs = v();
  p.unfinished = v();
  p.drops = {v(), v(), v(), v(), v()};
  p.dropped = p.drops.total();
  p.unwound = v();
  p.threads = v();
  p.records = v();
  return p;
}

std::string exportOf(const Profile &p) {
  std::string json;
  llvm::raw_string_ostream os(json);
  writeProfileJson(p, os);
  return json;
}

Profile readBack(const std::string &json) {
  TempFile f(json, "json");
  llvm::Expected<Profile> back = readProfileJson(f.str());
  if (!back) {
    ADD_FAILURE() << llvm::toString(back.takeError());
    return Profile();
  }
  return std::move(*back);
}

/// Whether `v` is what a key holds when nothing was set.
bool isDefault(const llvm::json::Value &v) {
  if (std::optional<int64_t> i = v.getAsInteger())
    return *i == 0;
  if (std::optional<bool> b = v.getAsBoolean())
    return !*b;
  if (std::optional<llvm::StringRef> s = v.getAsString())
    return s->empty();
  if (const llvm::json::Array *a = v.getAsArray())
    return a->empty();
  if (const llvm::json::Object *o = v.getAsObject())
    return o->empty();
  return true;
}

/// The keys seen in objects of each part, and whether each held a value
/// other than its default, over the exports given.
struct Seen {
  std::map<ExportPart, std::set<std::string>> keys;
  std::set<std::pair<ExportPart, std::string>> set;

  /// The objects at `where` (a part's place: "dumps[].memory") below `v`.
  static void objectsAt(const llvm::json::Value &v, llvm::StringRef where,
                        std::vector<const llvm::json::Object *> &out) {
    if (where.empty()) {
      if (const llvm::json::Object *o = v.getAsObject())
        out.push_back(o);
      return;
    }
    auto [step, rest] = where.split('.');
    const llvm::json::Object *o = v.getAsObject();
    bool elements = step.consume_back("[]");
    const llvm::json::Value *at = o ? o->get(step) : nullptr;
    if (!at)
      return;
    if (!elements)
      return objectsAt(*at, rest, out);
    if (const llvm::json::Array *a = at->getAsArray())
      for (const llvm::json::Value &e : *a)
        objectsAt(e, rest, out);
  }

  void add(const llvm::json::Value &doc) {
    for (size_t part = 0; part != std::size(kExportPartWhere); ++part) {
      llvm::SmallVector<llvm::StringRef, 2> places;
      kExportPartWhere[part].split(places, ", ");
      for (llvm::StringRef where : places) {
        std::vector<const llvm::json::Object *> objects;
        objectsAt(doc, where, objects);
        EXPECT_FALSE(objects.empty()) << "no object at " << where.str();
        for (const llvm::json::Object *o : objects)
          for (const auto &[key, value] : *o) {
            keys[ExportPart(part)].insert(key.str());
            if (!isDefault(value))
              set.insert({ExportPart(part), key.str()});
          }
      }
    }
  }
};

TEST(ExportJson, EveryKeyIsWrittenWhereItsPartSays) {
  Seen seen;
  for (bool merged : {false, true}) {
    llvm::Expected<llvm::json::Value> doc =
        llvm::json::parse(exportOf(everyField(merged)));
    ASSERT_TRUE(bool(doc)) << llvm::toString(doc.takeError());
    seen.add(*doc);
  }
  std::map<ExportPart, std::set<std::string>> defined;
  for (size_t k = 0; k != kNumExportKeys; ++k) {
    ExportPart part = kExportKeyParts[k];
    std::string name = kExportKeyNames[k].str();
    defined[part].insert(name);
    // A key that only ever holds its default would come back right even
    // if nothing read it.
    EXPECT_TRUE(seen.set.count({part, name}))
        << exportPartWhere(part).str() << " '" << name
        << "' never holds a value but its default";
  }
  EXPECT_EQ(seen.keys, defined);
}

void expectSameDrops(const DropCounts &a, const DropCounts &b) {
  EXPECT_EQ(a.full, b.full);
  EXPECT_EQ(a.overwritten, b.overwritten);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.noSpace, b.noSpace);
  EXPECT_EQ(a.unknown, b.unknown);
}

void expectSameDump(const DumpSummary &a, const DumpSummary &b) {
  const DumpInfo &i = a.info, &j = b.info;
  EXPECT_EQ(a.path, b.path);
  EXPECT_EQ(a.run, b.run);
  EXPECT_EQ(i.version, j.version);
  EXPECT_EQ(i.headerSize, j.headerSize);
  EXPECT_EQ(i.mode, j.mode);
  EXPECT_EQ(i.device, j.device);
  EXPECT_EQ(i.pid, j.pid);
  EXPECT_EQ(i.callNum, j.callNum);
  EXPECT_EQ(i.clockSource, j.clockSource);
  EXPECT_EQ(i.flags, j.flags);
  EXPECT_EQ(i.calibTicks0, j.calibTicks0);
  EXPECT_EQ(i.calibNs0, j.calibNs0);
  EXPECT_EQ(i.calibTicks1, j.calibTicks1);
  EXPECT_EQ(i.calibNs1, j.calibNs1);
  EXPECT_EQ(i.windowBegin, j.windowBegin);
  EXPECT_EQ(i.windowEnd, j.windowEnd);
  EXPECT_EQ(i.dropped, j.dropped);
  expectSameDrops(i.drops, j.drops);
  EXPECT_EQ(i.unwound, j.unwound);
  EXPECT_EQ(i.numSections, j.numSections);
  EXPECT_EQ(i.hasCalibration, j.hasCalibration);
  EXPECT_EQ(i.calibSelfTicks, j.calibSelfTicks);
  EXPECT_EQ(i.calibNestedTicks, j.calibNestedTicks);
  EXPECT_EQ(i.calibPairs, j.calibPairs);
  EXPECT_EQ(i.calibReadTicks, j.calibReadTicks);
  ASSERT_EQ(i.calibCounts.size(), j.calibCounts.size());
  for (size_t k = 0; k != i.calibCounts.size(); ++k) {
    EXPECT_EQ(i.calibCounts[k].self, j.calibCounts[k].self);
    EXPECT_EQ(i.calibCounts[k].nested, j.calibCounts[k].nested);
  }
  EXPECT_EQ(a.correction, b.correction);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.records, b.records);
  EXPECT_EQ(a.unfinished, b.unfinished);
  EXPECT_EQ(a.coveredNs, b.coveredNs);
  EXPECT_EQ(a.windowNs, b.windowNs);
  const MemorySummary &m = a.memory, &n = b.memory;
  EXPECT_EQ(m.tracked, n.tracked);
  EXPECT_EQ(m.allocs, n.allocs);
  EXPECT_EQ(m.allocBytes, n.allocBytes);
  EXPECT_EQ(m.frees, n.frees);
  EXPECT_EQ(m.freedBytes, n.freedBytes);
  EXPECT_EQ(m.untrackedFrees, n.untrackedFrees);
  EXPECT_EQ(m.peakBytes, n.peakBytes);
  EXPECT_EQ(m.peakNs, n.peakNs);
  EXPECT_EQ(m.peakOp, n.peakOp);
  EXPECT_EQ(m.liveAtEnd, n.liveAtEnd);
}

void expectSameRow(const Row &a, const Row &b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.hash, b.hash);
  EXPECT_EQ(a.unknownProbe, b.unknownProbe);
  EXPECT_EQ(a.probeId, b.probeId);
  EXPECT_EQ(a.run, b.run);
  EXPECT_EQ(a.shapes, b.shapes);
  EXPECT_EQ(a.numOuts, b.numOuts);
  EXPECT_EQ(a.outShapes, b.outShapes);
  EXPECT_EQ(a.node, b.node);
  EXPECT_EQ(a.cpuRecorded, b.cpuRecorded);
  EXPECT_EQ(a.migrations, b.migrations);
  EXPECT_EQ(a.memoryRecorded, b.memoryRecorded);
  EXPECT_EQ(a.allocBytes, b.allocBytes);
  EXPECT_EQ(a.selfAllocBytes, b.selfAllocBytes);
  EXPECT_EQ(a.freedBytes, b.freedBytes);
  EXPECT_EQ(a.peakBytes, b.peakBytes);
  EXPECT_EQ(a.locations, b.locations);
  EXPECT_EQ(a.function, b.function);
  EXPECT_EQ(a.flops, b.flops);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.unfinished, b.unfinished);
  EXPECT_EQ(a.durationNs, b.durationNs);
  EXPECT_EQ(a.selfNs, b.selfNs);
  EXPECT_EQ(a.counters, b.counters);
  EXPECT_EQ(a.counterFlags, b.counterFlags);
  const DurationSketch &d = a.durations, &e = b.durations;
  EXPECT_EQ(d.count(), e.count());
  EXPECT_EQ(d.total(), e.total());
  EXPECT_EQ(d.min(), e.min());
  EXPECT_EQ(d.max(), e.max());
  EXPECT_EQ(d.isExact(), e.isExact());
  EXPECT_EQ(d.exactSamples(), e.exactSamples());
  EXPECT_EQ(d.firstBucket(), e.firstBucket());
  EXPECT_EQ(d.bucketCounts(), e.bucketCounts());
}

TEST(ExportJson, EveryFieldRoundTrips) {
  for (bool merged : {false, true}) {
    SCOPED_TRACE(merged ? "runs merged" : "runs apart");
    Profile p = everyField(merged);
    std::string json = exportOf(p);
    Profile back = readBack(json);
    EXPECT_EQ(back.events, p.events);
    ASSERT_EQ(back.runs.size(), p.runs.size());
    for (size_t n = 0; n != p.runs.size(); ++n) {
      EXPECT_EQ(back.runs[n].pid, p.runs[n].pid);
      EXPECT_EQ(back.runs[n].startNs, p.runs[n].startNs);
      EXPECT_EQ(back.runs[n].rank, p.runs[n].rank);
    }
    EXPECT_EQ(back.runsMerged, p.runsMerged);
    EXPECT_EQ(back.coveredNs, p.coveredNs);
    EXPECT_EQ(back.totalNs, p.totalNs);
    EXPECT_EQ(back.unfinished, p.unfinished);
    EXPECT_EQ(back.dropped, p.dropped);
    expectSameDrops(back.drops, p.drops);
    EXPECT_EQ(back.unwound, p.unwound);
    EXPECT_EQ(back.threads, p.threads);
    EXPECT_EQ(back.records, p.records);
    ASSERT_EQ(back.dumps.size(), p.dumps.size());
    for (size_t n = 0; n != p.dumps.size(); ++n)
      expectSameDump(back.dumps[n], p.dumps[n]);
    ASSERT_EQ(back.rows.size(), p.rows.size());
    for (size_t n = 0; n != p.rows.size(); ++n)
      expectSameRow(back.rows[n], p.rows[n]);
    // And what the reader derives (totals, approx) is written again alike.
    EXPECT_EQ(exportOf(back), json);
  }
}

} // namespace
