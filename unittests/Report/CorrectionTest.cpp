//===- unittests/Report/CorrectionTest.cpp - Probe overhead correction ----===//
//
// Synthetic dumps with a known calibration (self, nested) and a known nesting
// give exact corrected times in every view that turns records into numbers:
// the aggregated rows (table, diff, exports), the record walk (stacks,
// summary, trace) and the JSON export's round trip. With the correction
// switched off, or without a CALIBRATION section, the raw times come back.
// The reader's handling of the section and of version 1 dumps is here too.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Diff.h"
#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Listing.h"
#include "tpuprof/report/views/Roofline.h"
#include "tpuprof/report/views/Sqlite.h"
#include "tpuprof/report/views/Stacks.h"
#include "tpuprof/report/views/Summary.h"
#include "tpuprof/report/views/Trace.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// describeCorrection() of a dump with header `info` loaded with the
/// correction `requested` or not.
std::string describe(const DumpInfo &info, bool requested = true) {
  return describeCorrection(OverheadCorrection::forDump(info, requested).state,
                            info);
}

/// a [0, 1000) > b [100, 600) > c [200, 300); a > d [700, 800), all in ns,
/// calibrated at self 10 ns and nested 30 ns per probe pair. Corrected:
///   c = 100 - 10 = 90, d = 90, b = 500 - 10 - 1 * 30 = 460,
///   a = 1000 - 10 - 3 * 30 = 900 (b, c and d are nested in it).
DumpBuilder nestedDump(bool calibrated = true) {
  DumpBuilder b;
  b.addModule(0, 0, "m",
              {probe("a", "", "", 1), probe("b", "", "", 2),
               probe("c", "", "", 3), probe("d", "", "", 4)});
  if (calibrated)
    b.calibrate(10, 30);
  TestThread t;
  t.records = {
      {0, 0, ticksAt(0), ticksAt(1000), {}, {}},
      {1, 1, ticksAt(100), ticksAt(600), {}, {}},
      {2, 2, ticksAt(200), ticksAt(300), {}, {}},
      {3, 1, ticksAt(700), ticksAt(800), {}, {}},
  };
  b.threads = {t};
  b.header.window_end = ticksAt(2000);
  return b;
}

Profile aggregate(const std::string &image, bool overheadCorrection = true) {
  Aggregator agg(overheadCorrection);
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(image, "t.dump");
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    return Profile();
  }
  agg.add(*r);
  return agg.take();
}

/// The folded stacks of one run and thread, without those root frames.
std::string stacks(const std::string &path, bool overheadCorrection = true) {
  std::string out;
  llvm::raw_string_ostream os(out);
  EXPECT_FALSE(bool(writeStacks(
      input({path}, /*rows=*/true, overheadCorrection), StacksOptions(), os)));
  std::string roots = "run 1 (pid 4242);dev 0, tid 1;", stripped;
  llvm::SmallVector<llvm::StringRef, 8> lines;
  llvm::StringRef(out).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef l : lines) {
    EXPECT_TRUE(l.consume_front(roots)) << l.str();
    stripped += l.str() + "\n";
  }
  return stripped;
}

TEST(Correction, SubtractsSelfAndNestedPerDescendant) {
  Profile p = aggregate(nestedDump().build());
  EXPECT_EQ(row(p, "a").durationNs, 900u);
  EXPECT_EQ(row(p, "b").durationNs, 460u);
  EXPECT_EQ(row(p, "c").durationNs, 90u);
  EXPECT_EQ(row(p, "d").durationNs, 90u);
  // Self time subtracts the children's corrected durations.
  EXPECT_EQ(row(p, "a").selfNs, 350u); // 900 - 460 - 90.
  EXPECT_EQ(row(p, "b").selfNs, 370u); // 460 - 90.
  EXPECT_EQ(row(p, "c").selfNs, 90u);
  EXPECT_EQ(row(p, "a").durations.min(), 900u);
  EXPECT_EQ(p.coveredNs, 900u); // Sum: the corrected top-level record.
  ASSERT_EQ(p.dumps.size(), 1u);
  EXPECT_EQ(p.dumps[0].correction, OverheadCorrection::State::Applied);
}

TEST(Correction, SwitchedOffGivesRawTimes) {
  Profile p = aggregate(nestedDump().build(), /*overheadCorrection=*/false);
  EXPECT_EQ(row(p, "a").durationNs, 1000u);
  EXPECT_EQ(row(p, "b").durationNs, 500u);
  EXPECT_EQ(row(p, "c").durationNs, 100u);
  EXPECT_EQ(row(p, "a").selfNs, 400u);
  EXPECT_EQ(p.coveredNs, 1000u);
  EXPECT_EQ(p.dumps[0].correction, OverheadCorrection::State::Disabled);
}

TEST(Correction, NoCalibrationGivesRawTimes) {
  Profile p = aggregate(nestedDump(/*calibrated=*/false).build());
  EXPECT_EQ(row(p, "a").durationNs, 1000u);
  EXPECT_EQ(row(p, "c").durationNs, 100u);
  EXPECT_EQ(p.dumps[0].correction, OverheadCorrection::State::NoCalibration);
}

TEST(Correction, ClampsAtZero) {
  // An empty op recorded shorter than the mean self cost.
  DumpBuilder b;
  b.addModule(0, 0, "m", {probe("empty", "", "", 1), probe("p", "", "", 2)});
  b.calibrate(10, 30);
  TestThread t;
  t.records = {{1, 0, ticksAt(0), ticksAt(50), {}, {}}, // 2 children: 70.
               {0, 1, ticksAt(5), ticksAt(10), {}, {}},
               {0, 1, ticksAt(20), ticksAt(40), {}, {}}};
  b.threads = {t};
  Profile p = aggregate(b.build());
  EXPECT_EQ(row(p, "empty").durationNs, 10u); // max(5 - 10, 0) + (20 - 10).
  EXPECT_EQ(row(p, "empty").durations.min(), 0u);
  EXPECT_EQ(row(p, "p").durationNs, 0u);
}

TEST(Correction, CountsUnfinishedAndDeepDescendants) {
  // a [0, 1000) > u (never ended) > c [200, 300) > e [210, 220): three
  // probe pairs ran inside a, whether or not their records finished.
  DumpBuilder b;
  b.addModule(0, 0, "m",
              {probe("a", "", "", 1), probe("u", "", "", 2),
               probe("c", "", "", 3), probe("e", "", "", 4)});
  b.calibrate(10, 30);
  TestThread t;
  t.records = {{0, 0, ticksAt(0), ticksAt(1000), {}, {}},
               {1, 1, ticksAt(100), 0, {}, {}},
               {2, 2, ticksAt(200), ticksAt(300), {}, {}},
               {3, 3, ticksAt(210), ticksAt(220), {}, {}}};
  b.threads = {t};
  b.header.window_end = ticksAt(2000);
  Profile p = aggregate(b.build());
  EXPECT_EQ(row(p, "a").durationNs, 1000u - 10 - 3 * 30);
  EXPECT_EQ(row(p, "c").durationNs, 100u - 10 - 30);
  EXPECT_EQ(row(p, "e").durationNs, 0u);
  EXPECT_EQ(row(p, "u").count, 0u);
  // Nesting is per thread: another thread's records are not descendants.
  TestThread other;
  other.tid = 2;
  other.records = {{2, 1, ticksAt(50), ticksAt(60), {}, {}}};
  b.threads.push_back(other);
  Profile q = aggregate(b.build());
  EXPECT_EQ(row(q, "a").durationNs, 1000u - 10 - 3 * 30);
}

/// Mode 1, three records: a [0, 10000) > b [1000, 2000), c [3000, 4000) in
/// ns, with `counters` each; calibrated self 10 ns, nested 600 ns per pair
/// of which 500 ns were reads.
DumpBuilder modeOneDump(std::vector<std::string> events,
                        std::vector<std::vector<uint64_t>> counters) {
  DumpBuilder b;
  b.header.mode = 1;
  b.addModule(
      0, 0, "m",
      {probe("a", "", "", 1), probe("b", "", "", 2), probe("c", "", "", 3)});
  b.events = std::move(events);
  b.calibrate(10, 600, 96, 500);
  TestThread t;
  t.records = {{0, 0, ticksAt(0), ticksAt(10000), {}, counters[0]},
               {1, 1, ticksAt(1000), ticksAt(2000), {}, counters[1]},
               {2, 1, ticksAt(3000), ticksAt(4000), {}, counters[2]}};
  b.threads = {t};
  b.header.window_end = ticksAt(20000);
  return b;
}

/// Records carry their own counter-read cost (READ_TICKS, ticks): b's reads
/// took 400 ns and c's 900 ns, so b adds 600 - 500 + 400 = 500 ns to a and
/// c 1000 ns: a = 10000 - 10 - 1500 = 8490, b = c = 990.
DumpBuilder readTicksDump(uint32_t calibReadNs = 500) {
  auto counters = [](uint64_t readNs) {
    // Multiplexed at half (running = enabled / 2): the PMU count is scaled
    // by 2, READ_TICKS is not a count and never is.
    return std::vector<uint64_t>{100, 200, 100, kTicksPerNs * readNs};
  };
  DumpBuilder b =
      modeOneDump({"perf::TASK-CLOCK", TPUPROF_EVENT_TIME_ENABLED,
                   TPUPROF_EVENT_TIME_RUNNING, TPUPROF_EVENT_READ_TICKS},
                  {counters(700), counters(400), counters(900)});
  b.calibration->read_ticks = uint32_t(kTicksPerNs * calibReadNs);
  return b;
}

TEST(Correction, UsesEachNestedRecordsOwnReadCost) {
  Profile p = aggregate(readTicksDump().build());
  EXPECT_EQ(row(p, "a").durationNs, 8490u);
  EXPECT_EQ(row(p, "b").durationNs, 990u);
  EXPECT_EQ(row(p, "c").durationNs, 990u);
  EXPECT_EQ(row(p, "a").selfNs, 8490u - 990 - 990);
  // READ_TICKS sums raw, unscaled; TASK-CLOCK is scaled for multiplexing.
  ASSERT_EQ(p.events.size(), 4u);
  EXPECT_EQ(p.events[3], TPUPROF_EVENT_READ_TICKS);
  EXPECT_EQ(row(p, "b").counters[3], kTicksPerNs * 400);
  EXPECT_EQ(row(p, "b").counters[0], 200u);

  // The record walk (stacks, summary, trace, SQLite) agrees.
  TempFile d(readTicksDump().build());
  EXPECT_EQ(stacks(d.str()), "a 6510\n"
                             "a;b 990\n"
                             "a;c 990\n");

  // Without the calibrated mean of the reads (a runtime from before
  // READ_TICKS measured none) every nested pair costs the calibrated 600.
  Profile old = aggregate(readTicksDump(/*calibReadNs=*/0).build());
  EXPECT_EQ(row(old, "a").durationNs, 10000u - 10 - 2 * 600);
  // Nor without the word, whatever the calibration says.
  DumpBuilder noWord = readTicksDump();
  noWord.events->back() = "perf::PAGE-FAULTS";
  Profile q = aggregate(noWord.build());
  EXPECT_EQ(row(q, "a").durationNs, 10000u - 10 - 2 * 600);
}

TEST(Correction, ReadCostWordingAndExport) {
  Profile p = aggregate(readTicksDump().build());
  EXPECT_EQ(describeCorrection(p.dumps[0].correction, p.dumps[0].info),
            "on (self 10.0 ns, nested 600.0 ns per probe pair, its 500.0 ns "
            "of counter reads as each record measured them)");
  std::string json;
  llvm::raw_string_ostream os(json);
  writeProfileJson(p, os);
  EXPECT_TRUE(contains(json, "\"read_ticks\": 1000"));
  TempFile f(json, "json");
  llvm::Expected<Profile> back = readProfileJson(f.str());
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->dumps[0].info.calibReadTicks, 1000u);
  EXPECT_EQ(row(*back, "a").durationNs, 8490u);
}

/// Version 3: the calibration also says what the probes add to each event.
/// Durations as in readTicksDump(): b adds 500 ns of probe time to a, c
/// 1000 ns. Per pair the probes add 200 ns of task clock to a record's own
/// count and 1 page fault, and 2 page faults per nested record (the task
/// clock's nested part is the 1500 ns the durations lose). Corrected:
///   a: task 9000 - 200 - 1500 = 7300, faults 10 - 1 - 2 * 2 = 5;
///   b: task 1300 - 200 = 1100 -> 990, its corrected duration (a thread is
///      on a CPU for at most the wall time), faults 3 - 1 = 2;
///   c: task 150 - 200 -> 0, faults 0 - 1 -> 0 (clamped).
DumpBuilder countsDump() {
  auto counters = [](uint64_t task, uint64_t faults, uint64_t readNs) {
    return std::vector<uint64_t>{task, faults, 100, 100, kTicksPerNs * readNs};
  };
  DumpBuilder b = modeOneDump(
      {"perf::TASK-CLOCK", "perf::PAGE-FAULTS", TPUPROF_EVENT_TIME_ENABLED,
       TPUPROF_EVENT_TIME_RUNNING, TPUPROF_EVENT_READ_TICKS},
      {counters(9000, 10, 700), counters(1300, 3, 400), counters(150, 0, 900)});
  // TIME_ENABLED's nonzero counts stand for a corrupt or future dump: the
  // pseudo-events are never corrected.
  b.calibrationCounts = {{200, 999}, {1, 2}, {5, 5}, {0, 0}, {0, 0}};
  return b;
}

TEST(Correction, SubtractsTheProbesOwnCounts) {
  Profile p = aggregate(countsDump().build());
  ASSERT_EQ(p.events.size(), 5u);
  EXPECT_EQ(row(p, "a").durationNs, 8490u);
  EXPECT_EQ(row(p, "a").counters[0], 7300u);
  EXPECT_EQ(row(p, "a").counters[1], 5u);
  EXPECT_EQ(row(p, "b").counters[0], 990u);
  EXPECT_EQ(row(p, "b").counters[1], 2u);
  EXPECT_EQ(row(p, "c").counters[0], 0u);
  EXPECT_EQ(row(p, "c").counters[1], 0u);
  EXPECT_EQ(row(p, "a").counters[2], 100u); // TIME_ENABLED, as recorded.
  EXPECT_TRUE(
      contains(describeCorrection(p.dumps[0].correction, p.dumps[0].info),
               "; counters less the probes' own counts)"));

  // The record walk gives each record the same values (trace args).
  TempFile d(countsDump().build());
  std::string trace;
  llvm::raw_string_ostream os(trace);
  ASSERT_FALSE(bool(writeTrace(input({d.str()}), TraceOptions(), os)));
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(trace);
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  std::map<std::string, int64_t> task;
  for (const llvm::json::Value &e :
       *v->getAsObject()->getArray("traceEvents")) {
    const llvm::json::Object *o = e.getAsObject();
    if (o->getString("ph") == "X")
      task[o->getString("name")->str()] =
          *o->getObject("args")->getInteger("perf::TASK-CLOCK");
  }
  EXPECT_EQ(task, (std::map<std::string, int64_t>{
                      {"a", 7300}, {"b", 990}, {"c", 0}}));

  // A JSON export keeps the corrected counts and the calibration's.
  std::string json;
  llvm::raw_string_ostream js(json);
  writeProfileJson(p, js);
  EXPECT_TRUE(contains(json, "\"self_counts\": [\n"));
  TempFile f(json, "json");
  llvm::Expected<Profile> back = readProfileJson(f.str());
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->dumps[0].info.calibCounts.size(), 5u);
  EXPECT_EQ(back->dumps[0].info.calibCounts[1].nested, 2u);
  EXPECT_EQ(row(*back, "a").counters[0], 7300u);
  // An export whose two count lists differ is refused, not half read.
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(json);
  ASSERT_TRUE(bool(doc)) << llvm::toString(doc.takeError());
  (*doc->getAsObject()->getArray("dumps"))[0]
      .getAsObject()
      ->getObject("calibration")
      ->getArray("nested_counts")
      ->pop_back();
  std::string broken;
  llvm::raw_string_ostream bs(broken);
  bs << *doc;
  TempFile bad(broken, "json");
  llvm::Expected<Profile> refused = readProfileJson(bad.str());
  ASSERT_FALSE(bool(refused));
  EXPECT_TRUE(contains(llvm::toString(refused.takeError()),
                       "dumps[0].calibration: 'self_counts' and "
                       "'nested_counts' differ in length"));

  // Switched off: the counts as recorded.
  Profile q = aggregate(countsDump().build(), /*overheadCorrection=*/false);
  EXPECT_EQ(row(q, "a").counters[0], 9000u);
  EXPECT_EQ(row(q, "c").counters[0], 150u);
}

TEST(Correction, CorruptCountsAndReadTicksClampAtZero) {
  // Huge calibration counts and a huge READ_TICKS word (a corrupt dump):
  // every figure clamps at 0 instead of wrapping around.
  DumpBuilder b = countsDump();
  b.calibrationCounts[1] = {UINT64_MAX, UINT64_MAX}; // Page faults.
  b.calibrationCounts[0].self = UINT64_MAX - 1;      // Task clock.
  b.threads[0].records[1].counters[4] = UINT64_MAX;  // b's READ_TICKS.
  Profile p = aggregate(b.build());
  EXPECT_EQ(row(p, "a").durationNs, 0u); // b's pair "cost" everything.
  EXPECT_EQ(row(p, "a").counters[0], 0u);
  EXPECT_EQ(row(p, "a").counters[1], 0u);
  EXPECT_EQ(row(p, "b").durationNs, 990u); // Its own interval is intact.
  EXPECT_EQ(row(p, "b").counters[1], 0u);
  EXPECT_EQ(row(p, "b").counters[4], UINT64_MAX); // READ_TICKS, raw.
}

TEST(CalibrationSection, CountsAreCheckedAgainstTheEvents) {
  DumpBuilder fewer = countsDump();
  fewer.calibrationCounts.pop_back();
  EXPECT_TRUE(contains(readError(fewer.build()),
                       "CALIBRATION section has counts for 4 counter words "
                       "but the EVENTS section names 5"));
  DumpBuilder v2 = countsDump();
  v2.header.version = 2;
  EXPECT_TRUE(contains(readError(v2.build()),
                       "CALIBRATION section 2 size 104 is not 24 bytes at"));
  // A version 2 dump (no counts) still corrects its times, not its counts.
  v2.calibrationCounts.clear();
  Profile old = aggregate(v2.build());
  EXPECT_EQ(row(old, "a").durationNs, 8490u);
  EXPECT_EQ(row(old, "a").counters[0], 9000u);
  // Counts without events to count.
  DumpBuilder none = countsDump();
  none.events->clear();
  for (TestRecord &r : none.threads[0].records)
    r.counters.clear();
  EXPECT_TRUE(contains(readError(none.build()),
                       "CALIBRATION section has counts for 5 counter words "
                       "but the EVENTS section names 0"));
}

TEST(Correction, RecordViewsUseTheSameCorrection) {
  TempFile d(nestedDump().build());
  EXPECT_EQ(stacks(d.str()), "a 350\n"
                             "a;b 370\n"
                             "a;b;c 90\n"
                             "a;d 90\n");
  {
    EXPECT_EQ(stacks(d.str(), /*overheadCorrection=*/false), "a 400\n"
                                                             "a;b 400\n"
                                                             "a;b;c 100\n"
                                                             "a;d 100\n");
  }
  // The trace keeps slices where they were recorded and adds the
  // corrected duration to the args.
  std::string trace;
  llvm::raw_string_ostream os(trace);
  ASSERT_FALSE(bool(writeTrace(input({d.str()}), TraceOptions(), os)));
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(trace);
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  const llvm::json::Object *top = v->getAsObject();
  bool sawA = false;
  for (const llvm::json::Value &e : *top->getArray("traceEvents")) {
    const llvm::json::Object *o = e.getAsObject();
    if (o->getString("ph") != "X" || o->getString("name") != "a")
      continue;
    sawA = true;
    EXPECT_DOUBLE_EQ(*o->getNumber("dur"), 1.0); // us, as recorded.
    EXPECT_EQ(o->getObject("args")->getInteger("corrected_dur_ns"), 900);
  }
  EXPECT_TRUE(sawA);
  const llvm::json::Array *notes =
      top->getObject("otherData")->getArray("overhead_correction");
  ASSERT_TRUE(notes && notes->size() == 1);
  EXPECT_TRUE(contains((*notes)[0].getAsString()->str(),
                       "on (self 10.0 ns, nested 30.0 ns per probe pair)"));
}

TEST(Correction, SummarySaysWhatItDid) {
  TempFile d(nestedDump().build());
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printSummary(input({d.str()}), 10, os)));
  EXPECT_TRUE(contains(out, "Probe overhead correction: on (self 10.0 ns, "
                            "nested 30.0 ns per probe pair)"));
  TempFile raw(nestedDump(false).build());
  out.clear();
  ASSERT_FALSE(bool(printSummary(input({raw.str()}), 10, os)));
  EXPECT_TRUE(contains(out, "Probe overhead correction: off (dump has no "
                            "calibration"));
}

TEST(Correction, JsonExportRecordsWhetherTimesAreCorrected) {
  Profile p = aggregate(nestedDump().build());
  std::string json;
  llvm::raw_string_ostream os(json);
  writeProfileJson(p, os);
  EXPECT_TRUE(contains(json, "\"overhead_correction\": \"applied\""));
  EXPECT_TRUE(contains(json, "\"self_ticks\": 20"));
  TempFile f(json, "json");
  llvm::Expected<Profile> back = readProfileJson(f.str());
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->dumps.size(), 1u);
  EXPECT_EQ(back->dumps[0].correction, OverheadCorrection::State::Applied);
  EXPECT_TRUE(back->dumps[0].info.hasCalibration);
  EXPECT_EQ(back->dumps[0].info.calibNestedTicks, 60u);
  EXPECT_EQ(row(*back, "a").durationNs, 900u);
  // The state is the export's, whatever the options of this load.
  EXPECT_EQ(describeCorrection(back->dumps[0].correction, back->dumps[0].info),
            "on (self 10.0 ns, nested 30.0 ns per probe pair)");
}

TEST(Correction, Wording) {
  DumpInfo info;
  EXPECT_EQ(describe(info), "off (dump has no calibration: "
                            "TPUPROF_CALIBRATE=0 or an older "
                            "runtime)");
  info.clockSource = TPUPROF_CLOCK_MONOTONIC;
  info.hasCalibration = true;
  info.calibSelfTicks = 7;
  info.calibNestedTicks = 27;
  info.calibPairs = 1024;
  EXPECT_EQ(describe(info), "on (self 7.0 ns, nested 27.0 ns per probe pair)");
  EXPECT_EQ(describe(info, /*requested=*/false),
            "off (--no-overhead-correction; "
            "measured self 7.0 ns, nested 27.0 ns "
            "per probe pair)");
}

TEST(CalibrationSection, ReaderChecksIt) {
  DumpBuilder b = nestedDump();
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(b.build(), "t.dump");
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_TRUE(r->info().hasCalibration);
  EXPECT_EQ(r->info().calibSelfTicks, 20u);
  EXPECT_EQ(r->info().calibNestedTicks, 60u);
  EXPECT_EQ(r->info().calibPairs, 1024u);

  DumpBuilder zero = nestedDump();
  zero.calibration->pairs = 0;
  EXPECT_TRUE(contains(readError(zero.build()), "measured no probe pairs"));

  // The reads are part of a nested pair: more than the whole is corrupt.
  DumpBuilder reads = nestedDump();
  reads.calibration->read_ticks = 61;
  EXPECT_TRUE(contains(readError(reads.build()),
                       "CALIBRATION section 1 read_ticks 61 exceeds "
                       "nested_ticks 60 (they are part of it)"));

  // A version 1 dump is read (without correction), but has no such section.
  DumpBuilder v1 = nestedDump(false);
  v1.header.version = 1;
  Profile p = aggregate(v1.build());
  EXPECT_EQ(row(p, "a").durationNs, 1000u);
  v1.calibrate(10, 30);
  EXPECT_TRUE(contains(readError(v1.build()),
                       "CALIBRATION section 1 in a version 1 dump"));

  DumpBuilder v3 = nestedDump();
  v3.header.version = TPUPROF_DUMP_VERSION + 1;
  EXPECT_TRUE(contains(readError(v3.build()), "unsupported dump version"));
}

TEST(CalibrationSection, AtMostOneOfTheRightSize) {
  DumpBuilder b = nestedDump();
  std::string image = b.build();
  // Splice a second copy of the section in after the first.
  std::vector<uint64_t> offsets;
  b.build(&offsets);
  ASSERT_EQ(offsets.size(), 3u); // module, calibration, thread.
  uint64_t len = offsets[2] - offsets[1];
  std::string twice = image.substr(0, offsets[2]) +
                      image.substr(offsets[1], len) + image.substr(offsets[2]);
  tpuprof_dump_header h;
  std::memcpy(&h, twice.data(), sizeof(h));
  h.num_sections += 1;
  std::memcpy(&twice[0], &h, sizeof(h));
  EXPECT_TRUE(contains(readError(twice), "second CALIBRATION section"));

  // A payload of the wrong size.
  std::string shortened = image;
  tpuprof_section_header sh;
  std::memcpy(&sh, shortened.data() + offsets[1], sizeof(sh));
  sh.size = 16;
  std::memcpy(&shortened[offsets[1]], &sh, sizeof(sh));
  EXPECT_TRUE(contains(readError(shortened), "is not 24 bytes"));
}

} // namespace
