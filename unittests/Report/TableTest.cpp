//===- unittests/Report/TableTest.cpp - Per-op table tests ----------------===//
//
// The exact layout of the table, sorting, --top, Sum <= Total and the errors
// of the public printTable() entry point.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/views/Counters.h"
#include "tpuprof/report/views/Table.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// matmul [0, 300) > add [100, 200); add [400, 500); relu [600, 650);
/// window 1 us at 2 GHz, device 0.
DumpBuilder smallDump() {
  DumpBuilder b;
  b.addModule(
      0, 0, "mlp",
      {probe("tosa.matmul", "f32[1, 784], f32[784, 128]", "mlp.mlir:4:8",
             0x1a2b3c4d5e6f7081ull),
       probe("tosa.add", "f32[1, 128], f32[1, 128]", "mlp.mlir:5:10", 0xbb),
       probe("tosa.relu", "f32[1, 128]", "mlp.mlir:6:10", 0xcc)});
  TestThread t;
  t.records = {{0, 0, ticksAt(0), ticksAt(300), {}, {}},
               {1, 1, ticksAt(100), ticksAt(200), {}, {}},
               {1, 0, ticksAt(400), ticksAt(500), {}, {}},
               {2, 0, ticksAt(600), ticksAt(650), {}, {}}};
  b.threads = {t};
  return b;
}

Profile profileOf(const std::string &image) {
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(image, "small");
  EXPECT_TRUE(bool(r));
  if (!r) {
    llvm::consumeError(r.takeError());
    return Profile();
  }
  Aggregator agg;
  agg.add(*r);
  return agg.take();
}

std::string table(const Profile &p, const TableOptions &opts = {}) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::Error err = printTable(p, opts, os);
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  return out;
}

/// The Name cell of each row line (between the title and the dashes).
std::vector<std::string> rowNames(const std::string &out) {
  llvm::SmallVector<llvm::StringRef, 16> lines;
  llvm::StringRef(out).split(lines, '\n');
  std::vector<std::string> names;
  for (size_t i = 1; i < lines.size() && !lines[i].starts_with("---"); ++i)
    names.push_back(lines[i].split(' ').first.str());
  return names;
}

TEST(Table, ExactLayout) {
  std::string expected =
      "Name         Duration (us)  Self (us)  Percent  Cum Self %  Device  "
      "Count  "
      "Argument Shapes             Hash              Location\n"
      // Cum Self % adds Self up: the rows so far, nested time once.
      "tosa.matmul           0.30       0.20    30.00       20.00       0      "
      "1  "
      "f32[1, 784], f32[784, 128]  1a2b3c4d5e6f7081  mlp.mlir:4:8\n"
      "tosa.add              0.20       0.20    20.00       40.00       0      "
      "2  "
      "f32[1, 128], f32[1, 128]    00000000000000bb  mlp.mlir:5:10\n"
      "tosa.relu             0.05       0.05     5.00       45.00       0      "
      "1  "
      "f32[1, 128]                 00000000000000cc  mlp.mlir:6:10\n" +
      std::string(134, '-') +
      "\n"
      "Sum                   0.45               45.00                          "
      "4\n"
      "Total                 1.00              100.00\n"
      "\n"
      "Configuration\n"
      "-------------\n"
      "Dumps: 1\n"
      "Mode: 0 (timing)\n"
      "Threads: 1\n"
      "Clock: tsc, 2.000 GHz (calibrated against CLOCK_MONOTONIC over 1.00 "
      "ms)\n"
      "Window: 1.00 us\n"
      "Dropped records: 0\n"
      "Unfinished probes: 0\n"
      "Probe overhead correction: off (dump has no calibration: "
      "TPUPROF_CALIBRATE=0 or an older runtime)\n";
  EXPECT_EQ(table(profileOf(smallDump().build())), expected);
}

TEST(Table, SumNeverExceedsTotal) {
  Profile p = profileOf(smallDump().build());
  EXPECT_EQ(p.coveredNs, 450u);
  EXPECT_LE(p.coveredNs, p.totalNs);
  uint64_t rowSum = 0;
  for (const Row &r : p.rows)
    rowSum += r.durationNs;
  EXPECT_EQ(rowSum, 550u);        // Row durations count nested time twice...
  EXPECT_GT(rowSum, p.coveredNs); // ...Sum does not.
}

TEST(Table, SortsByEachColumn) {
  Profile p = profileOf(smallDump().build());
  auto order = [&](llvm::StringRef spec) {
    TableOptions opts;
    llvm::Error err = parseSortSpec(spec, opts);
    EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
    return rowNames(table(p, opts));
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(order("duration"), (V{"tosa.matmul", "tosa.add", "tosa.relu"}));
  EXPECT_EQ(order("+duration"), (V{"tosa.relu", "tosa.add", "tosa.matmul"}));
  EXPECT_EQ(order("percent"), (V{"tosa.matmul", "tosa.add", "tosa.relu"}));
  // Self: matmul 0.20 (0.30 minus its nested add) ties add's 0.20; ties
  // fall back to duration, descending, whatever the direction.
  EXPECT_EQ(order("self"), (V{"tosa.matmul", "tosa.add", "tosa.relu"}));
  EXPECT_EQ(order("+self"), (V{"tosa.relu", "tosa.matmul", "tosa.add"}));
  EXPECT_EQ(order("name"), (V{"tosa.add", "tosa.matmul", "tosa.relu"}));
  EXPECT_EQ(order("-name"), (V{"tosa.relu", "tosa.matmul", "tosa.add"}));
  // Ties (count 1) fall back to duration, descending.
  EXPECT_EQ(order("count"), (V{"tosa.add", "tosa.matmul", "tosa.relu"}));
  EXPECT_EQ(order("+count"), (V{"tosa.matmul", "tosa.relu", "tosa.add"}));
  EXPECT_EQ(order("hash"), (V{"tosa.add", "tosa.relu", "tosa.matmul"}));
  EXPECT_EQ(order("location"), (V{"tosa.matmul", "tosa.add", "tosa.relu"}));
  // "f32[1, 128]" is a prefix of "f32[1, 128], f32[1, 128]".
  EXPECT_EQ(order("shapes"), (V{"tosa.relu", "tosa.add", "tosa.matmul"}));
  EXPECT_EQ(order("device"), (V{"tosa.matmul", "tosa.add", "tosa.relu"}));
}

TEST(Table, ParseSortSpecDefaultsAndErrors) {
  TableOptions o;
  ASSERT_FALSE(bool(parseSortSpec("name", o)));
  EXPECT_EQ(o.sortColumn, "name");
  EXPECT_TRUE(o.ascending);
  ASSERT_FALSE(bool(parseSortSpec("count", o)));
  EXPECT_FALSE(o.ascending);
  ASSERT_FALSE(bool(parseSortSpec("+count", o)));
  EXPECT_TRUE(o.ascending);
  ASSERT_FALSE(bool(parseSortSpec("-location", o)));
  EXPECT_FALSE(o.ascending);
  // Every column of Columns.h that sorts (Cum Self % does not: it follows the
  // order).
  EXPECT_EQ(sortColumnNames().size(), 35u);
  ASSERT_FALSE(bool(parseSortSpec("p99", o)));
  EXPECT_FALSE(o.ascending);
  ASSERT_FALSE(bool(parseSortSpec("bound", o)));
  EXPECT_TRUE(o.ascending);

  llvm::Error err = parseSortSpec("+speed", o);
  ASSERT_TRUE(bool(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            "unknown sort column 'speed' (expected one of: name, kind, "
            "duration, self, device_total, device_self, device_cmds, "
            "queue_delay, approx, percent, device, count, unfinished, "
            "shapes, outputs, hash, location, node, function, migrations, "
            "alloc, "
            "self_alloc, freed, peak, min, mean, median, p90, p99, max, "
            "flops, gflops, bytes, bandwidth, bound)");
  EXPECT_TRUE(bool(parseSortSpec("cum", o)));

  TableOptions bad;
  bad.sortColumn = "bogus";
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::Error err2 = printTable(Profile(), bad, os);
  ASSERT_TRUE(bool(err2));
  llvm::consumeError(std::move(err2));
  EXPECT_TRUE(out.empty());
}

TEST(Table, TopCutsRowsButNotTotals) {
  Profile p = profileOf(smallDump().build());
  TableOptions opts;
  opts.top = 1;
  std::string out = table(p, opts);
  EXPECT_EQ(rowNames(out), (std::vector<std::string>{"tosa.matmul", "(2"}));
  EXPECT_TRUE(contains(out, "\n(2 more rows not shown; --top 1)\n"));
  EXPECT_TRUE(
      contains(out, "\nSum                   0.45               45.00"));
  opts.top = 10;
  EXPECT_EQ(rowNames(table(p, opts)).size(), 3u);
}

TEST(Table, RowsOfAllKinds) {
  // Unknown probe, unfinished record, multiple locations, counters, two
  // devices: every optional line of the configuration block appears.
  DumpBuilder b = sampleDump();
  b.header.flags = 0; // Not closed by a clean flush.
  b.threads[0].records.push_back(
      {77, 0, ticksAt(700), ticksAt(710), {}, {0, 0}});
  DumpBuilder other = smallDump();
  other.header.device = 1;
  other.header.clock_source = TPUPROF_CLOCK_MONOTONIC; // Ticks are ns now.
  Aggregator agg;
  for (const std::string &image : {b.build(), other.build()}) {
    llvm::Expected<DumpReader> r = DumpReader::fromBytes(image);
    ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
    agg.add(*r);
  }
  std::string out = table(agg.profile());
  EXPECT_TRUE(contains(out, "\n<unknown probe 77>  ")) << out;
  // Hash and Location of the unknown probe (counter columns follow).
  EXPECT_TRUE(contains(out, "  -                 -   ")) << out;
  EXPECT_TRUE(contains(out, "\nDumps: 2\n"));
  EXPECT_TRUE(contains(out, "\nMode: 0 (timing), 1 (counters)\n"));
  EXPECT_TRUE(contains(out, "\nThreads: 3\n"));
  EXPECT_TRUE(
      contains(out, "\nClock: mixed (tsc in 1 dumps, monotonic in 1)\n"));
  EXPECT_TRUE(contains(out, "\nWindow: 3.00 us\n")); // 1 us + 2000 ticks.
  EXPECT_TRUE(contains(out, "\nDropped records: 1 (1 when a buffer was full "
                            "or more than 256 probes were open)\n"));
  EXPECT_TRUE(contains(out, "\nUnfinished probes: 1\n"));
  EXPECT_TRUE(contains(out, "\nEvents: perf::TASK-CLOCK, perf::PAGE-FAULTS\n"));
  EXPECT_TRUE(contains(out, "\nIncomplete dumps: 1 "));
  for (llvm::StringRef line : llvm::split(out, '\n')) {
    EXPECT_FALSE(line.ends_with(" "))
        << "trailing blank: '" << line.str() << "'";
  }
}

TEST(Table, MergedLocationsShowACount) {
  DumpBuilder b;
  b.addModule(0, 0, "m",
              {probe("op", "f32[1]", "a.mlir:1:1", 0xaa),
               probe("op", "f32[1]", "a.mlir:2:1", 0xaa),
               probe("op", "f32[1]", "a.mlir:3:1", 0xaa)});
  TestThread t;
  for (uint32_t i = 0; i != 3; ++i)
    t.records.push_back({i, 0, ticksAt(10 * i), ticksAt(10 * i + 5), {}, {}});
  b.threads = {t};
  std::string out = table(profileOf(b.build()));
  EXPECT_TRUE(contains(out, "  a.mlir:1:1 (+2 more)\n")) << out;
}

TEST(Table, EmptyProfile) {
  DumpBuilder b;
  std::string out = table(profileOf(b.build()));
  EXPECT_TRUE(contains(out, "\nSum             0.00                0.00        "
                            "                  0\n"))
      << out;
  EXPECT_TRUE(contains(out, "\nTotal           1.00              100.00\n"));
  EXPECT_TRUE(contains(out, "\nThreads: 0\n"));
  // No row at all: the table says why rather than nothing.
  EXPECT_TRUE(contains(out, "\n(no rows: no op has a probe")) << out;
}

TEST(Table, PrintTableFromFiles) {
  llvm::SmallString<128> good, bad;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tpuprof", "dump", good));
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tpuprof", "dump", bad));
  llvm::FileRemover r1(good), r2(bad);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(good, ec);
    os << smallDump().build();
    llvm::raw_fd_ostream os2(bad, ec);
    os2 << smallDump().build().substr(0, 200);
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printTable({std::string(good)}, TableOptions(), os)));
  EXPECT_TRUE(contains(out, "tosa.matmul"));
  EXPECT_TRUE(contains(out, "Dumps: 1"));

  // Two copies of one dump: durations and the window double, Percent stays.
  out.clear();
  ASSERT_FALSE(bool(
      printTable({std::string(good), std::string(good)}, TableOptions(), os)));
  EXPECT_TRUE(contains(out, "tosa.matmul           0.60       0.40    30.00    "
                            "   20.00       0      2"))
      << out;

  out.clear();
  llvm::Error err =
      printTable({std::string(good), std::string(bad)}, TableOptions(), os);
  ASSERT_TRUE(bool(err));
  std::string msg = llvm::toString(std::move(err));
  EXPECT_EQ(msg.rfind(std::string(bad) + ": ", 0), 0u) << msg;
  EXPECT_TRUE(contains(msg, " at offset "));
  EXPECT_TRUE(out.empty()) << "nothing is printed when a dump is bad";
}

} // namespace

TEST(Table, CounterColumnsRawDerivedAndScaled) {
  DumpBuilder b = smallDump();
  b.header.mode = 1;
  b.events = std::vector<std::string>{"perf::CYCLES",
                                      "perf::INSTRUCTIONS",
                                      "perf::CACHE-MISSES:u",
                                      "perf::TASK-CLOCK",
                                      TPUPROF_EVENT_TIME_ENABLED,
                                      TPUPROF_EVENT_TIME_RUNNING};
  std::vector<TestRecord> &r = b.threads[0].records;
  r[0].counters = {1000, 2000, 10, 150, 100, 100}; // matmul, 300 ns
  r[1].counters = {100, 100, 1, 50, 100, 100};     // add, 100 ns
  r[2].counters = {100, 100, 1, 50, 100, 50};      // add, half the time: x2
  r[3].counters = {7, 7, 7, 7, 100, 0};            // relu, never counted
  std::string out = table(profileOf(b.build()));
  auto tokens = [&](llvm::StringRef prefix) {
    std::vector<std::string> t;
    for (llvm::StringRef line : llvm::split(out, '\n'))
      if (line.starts_with(prefix)) {
        llvm::SmallVector<llvm::StringRef, 32> parts;
        line.split(parts, ' ', -1, /*KeepEmpty=*/false);
        for (size_t i = parts.size() - 6; i != parts.size(); ++i)
          t.push_back(parts[i].str());
      }
    return t;
  };
  using V = std::vector<std::string>;
  for (const char *title :
       {"  perf::CYCLES  ", "  perf::INSTRUCTIONS  ",
        "  perf::CACHE-MISSES:u  ", "  perf::TASK-CLOCK  ", "  IPC  ",
        "  cache-misses/1k instr  ", "  Task-clock %\n"})
    EXPECT_TRUE(contains(out, title)) << title << "\n" << out;
  // Raw counts, IPC = instr / cycles, misses per 1k instructions, and the
  // task clock as a share of the op's wall time.
  EXPECT_EQ(tokens("tosa.matmul"),
            (V{"2000", "10", "150", "2.00", "5.00", "50.00"}));
  EXPECT_EQ(tokens("tosa.add"),
            (V{"300*", "3*", "150*", "1.00*", "10.00*", "75.00*"}));
  EXPECT_EQ(tokens("tosa.relu"), (V{"-", "-", "-", "-", "-", "-"}));
  EXPECT_TRUE(contains(out, "\n* scaled for multiplexing: "));
  EXPECT_FALSE(contains(out, "tpuprof::TIME_ENABLED  ")) << out;
}

TEST(Table, CanonicalEventNames) {
  EXPECT_EQ(canonicalEvent("perf::CYCLES:u"), "cycles");
  EXPECT_EQ(canonicalEvent("PERF_COUNT_HW_CPU_CYCLES"), "cycles");
  EXPECT_EQ(canonicalEvent("instructions:k"), "instructions");
  EXPECT_EQ(canonicalEvent("perf::PERF_COUNT_SW_TASK_CLOCK"), "task-clock");
  EXPECT_EQ(canonicalEvent("perf::PAGE-FAULTS"), "");
  EXPECT_TRUE(isPseudoEvent(TPUPROF_EVENT_CPU));
}
