//===- unittests/Report/CounterWordsTest.cpp - Multiplexed counters -------===//
//
// One dump whose PMU events were multiplexed (TIME_RUNNING < TIME_ENABLED):
// the table's rows and the summary's totals, the trace's counter events,
// the SQLite export and the HTML page's data must all show the same scaled
// counts (CounterWords.h).
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/CounterWords.h"
#include "TestUtil.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Html.h"
#include "tpuprof/report/views/Sqlite.h"
#include "tpuprof/report/views/Trace.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#ifdef TPUPROF_TEST_SQLITE
#include <sqlite3.h>
#endif

#include <map>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

const char *const kCycles = "perf::CYCLES";
const char *const kInstructions = "perf::INSTRUCTIONS";

/// Words: cycles, instructions, TIME_ENABLED, TIME_RUNNING.
///   outer  [100, 300]  {100, 50, 200, 100}  scaled x2: 200, 100
///   inner  [150, 250]  {40, 10, 100, 100}   not multiplexed: 40, 10
///   idle   [400, 450]  {30, 30, 100, 0}     never scheduled: no value
///   last   [500, 600]  {10, 6, 90, 30}      scaled x3: 30, 18
/// Top level: cycles 200 + 30 = 230, instructions 100 + 18 = 118; every
/// record: cycles 270, instructions 128.
DumpBuilder multiplexedDump() {
  DumpBuilder b;
  b.header.mode = 1;
  b.header.window_begin = ticksAt(0);
  b.header.window_end = ticksAt(1000);
  b.addModule(0, 0, "m",
              {probe("outer", "", "m.mlir:1:1", 0x11),
               probe("inner", "", "m.mlir:2:1", 0x12),
               probe("idle", "", "m.mlir:3:1", 0x13),
               probe("last", "", "m.mlir:4:1", 0x14)});
  b.events = std::vector<std::string>{kCycles, kInstructions,
                                      TPUPROF_EVENT_TIME_ENABLED,
                                      TPUPROF_EVENT_TIME_RUNNING};
  TestThread t;
  t.tid = 7;
  t.records = {
      {0, 0, ticksAt(100), ticksAt(300), {}, {100, 50, 200, 100}},
      {1, 1, ticksAt(150), ticksAt(250), {}, {40, 10, 100, 100}},
      {2, 0, ticksAt(400), ticksAt(450), {}, {30, 30, 100, 0}},
      {3, 0, ticksAt(500), ticksAt(600), {}, {10, 6, 90, 30}},
  };
  b.threads = {t};
  return b;
}

/// Per PMU event, the counts of `p`'s rows added up.
std::map<std::string, uint64_t> rowTotals(const Profile &p) {
  std::map<std::string, uint64_t> out;
  for (const Row &r : p.rows)
    for (size_t i = 0; i != p.events.size(); ++i)
      if (!isPseudoEvent(p.events[i]) &&
          (r.counterFlags[i] & Row::CounterRecorded))
        out[p.events[i]] += r.counters[i];
  return out;
}

TEST(CounterWords, DecodesPseudoWordsAndScales) {
  CounterWords words({kCycles, TPUPROF_EVENT_TIME_ENABLED,
                      TPUPROF_EVENT_TIME_RUNNING, TPUPROF_EVENT_CPU});
  EXPECT_TRUE(words.isEvent(0));
  EXPECT_FALSE(words.isEvent(1));
  EXPECT_FALSE(words.isEvent(3));
  EXPECT_EQ(words.cpuWord(), 3);
}

TEST(CounterWords, EveryViewScalesMultiplexedCounts) {
  TempFile d(multiplexedDump().build());
  Input in = input({d.str()});
  const Profile &p = in.profile;

  // The table's rows: scaled, and the never-scheduled record left out.
  EXPECT_EQ(row(p, "outer").counters[0], 200u);
  EXPECT_EQ(row(p, "outer").counters[1], 100u);
  EXPECT_TRUE(row(p, "outer").counterFlags[0] & Row::CounterScaled);
  EXPECT_EQ(row(p, "inner").counters[0], 40u);
  EXPECT_FALSE(row(p, "inner").counterFlags[0] & Row::CounterScaled);
  EXPECT_FALSE(row(p, "idle").counterFlags[0] & Row::CounterRecorded);
  EXPECT_EQ(row(p, "last").counters[1], 18u);
  std::map<std::string, uint64_t> all = rowTotals(p);
  EXPECT_EQ(all[kCycles], 270u);
  EXPECT_EQ(all[kInstructions], 128u);

  // The summary's totals over top-level records.
  ASSERT_EQ(p.dumps.size(), 1u);
  std::map<std::string, uint64_t> top;
  for (size_t i = 0; i != p.dumps[0].events.size(); ++i)
    if (!isPseudoEvent(p.dumps[0].events[i]))
      top[p.dumps[0].events[i]] = p.dumps[0].topLevelCounters[i];
  EXPECT_EQ(top[kCycles], 230u);
  EXPECT_EQ(top[kInstructions], 118u);

  // The trace: each record's counts, and the counter tracks' running
  // totals over top-level records end at the summary's totals.
  {
    std::string out;
    llvm::raw_string_ostream os(out);
    ASSERT_FALSE(bool(writeTrace(in, TraceOptions(), os)));
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(out);
    ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
    std::map<std::string, uint64_t> perRecord, lastRunning;
    for (const llvm::json::Value &e :
         *v->getAsObject()->getArray("traceEvents")) {
      const llvm::json::Object *o = e.getAsObject();
      const llvm::json::Object *args = o->getObject("args");
      if (o->getString("ph") == "X") {
        for (const char *event : {kCycles, kInstructions})
          if (std::optional<int64_t> n = args->getInteger(event))
            perRecord[event] += uint64_t(*n);
      } else if (o->getString("ph") == "C") {
        std::string name = o->getString("name")->str();
        lastRunning[name.substr(0, name.find(" ("))] =
            uint64_t(*args->getInteger("value"));
      }
    }
    EXPECT_EQ(perRecord, all);
    EXPECT_EQ(lastRunning, top);
  }

  // The HTML page: its rows, its per-device totals and its timeline's
  // per-record counts.
  {
    std::string page;
    llvm::raw_string_ostream os(page);
    ASSERT_FALSE(bool(writeHtmlReport(in, HtmlOptions(), os)));
    llvm::StringRef start =
        "<script type=\"application/json\" id=\"tpuprof-data\">";
    size_t b = page.find(start.str());
    ASSERT_NE(b, std::string::npos);
    b += start.size();
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(
        llvm::StringRef(page).slice(b, page.find("</script>", b)));
    ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
    const llvm::json::Object &data = *v->getAsObject();
    std::vector<std::string> shown;
    for (const llvm::json::Value &e : *data.getArray("events"))
      shown.push_back(e.getAsString()->str());
    ASSERT_EQ(shown, (std::vector<std::string>{kCycles, kInstructions}));
    std::map<std::string, uint64_t> rows, lanes, totals;
    for (const llvm::json::Value &r : *data.getArray("rows")) {
      const llvm::json::Array &c = *r.getAsObject()->getArray("counters");
      for (size_t i = 0; i != c.size(); ++i)
        if (std::optional<int64_t> n = c[i].getAsInteger())
          rows[shown[i]] += uint64_t(*n);
    }
    for (const llvm::json::Value &l :
         *data.getObject("timeline")->getArray("lanes")) {
      const llvm::json::Array &c = *l.getAsObject()->getArray("counters");
      for (size_t i = 0; i != c.size(); ++i)
        lanes[shown[i % shown.size()]] += uint64_t(*c[i].getAsInteger());
    }
    for (const auto &[event, n] :
         *data.getObject("counterTotals")->getObject("0"))
      totals[event.str()] = uint64_t(*n.getAsInteger());
    EXPECT_EQ(rows, all);
    EXPECT_EQ(lanes, all);
    EXPECT_EQ(totals, top);
  }

#ifdef TPUPROF_TEST_SQLITE
  // The SQLite export: one counters row per record and event it counted.
  if (sqliteAvailable()) {
    TempFile db("", "sqlite");
    ASSERT_FALSE(bool(exportSqlite(in, db.str())));
    sqlite3 *h = nullptr;
    ASSERT_EQ(sqlite3_open(db.str().c_str(), &h), SQLITE_OK);
    sqlite3_stmt *st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(h,
                                 "SELECT event, SUM(value), COUNT(*) FROM "
                                 "counters GROUP BY event",
                                 -1, &st, nullptr),
              SQLITE_OK);
    std::map<std::string, uint64_t> sums;
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::string event =
          reinterpret_cast<const char *>(sqlite3_column_text(st, 0));
      sums[event] = uint64_t(sqlite3_column_int64(st, 1));
      EXPECT_EQ(sqlite3_column_int64(st, 2), 3) << event;
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    EXPECT_EQ(sums, all);
  }
#endif
}

} // namespace
