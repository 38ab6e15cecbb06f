//===- unittests/Report/AggregateTest.cpp - Row aggregation tests ---------===//
//
// Rows keyed by (hash, actual shapes, device), self vs total time for nested
// records, unknown probes, unfinished records and merging of dumps.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/model/Aggregate.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// Aggregates the given images, failing the test on read errors.
Profile aggregate(std::initializer_list<std::string> images) {
  Aggregator agg;
  int n = 0;
  for (const std::string &image : images) {
    llvm::Expected<DumpReader> r =
        DumpReader::fromBytes(image, "d" + std::to_string(n++));
    if (!r) {
      ADD_FAILURE() << llvm::toString(r.takeError());
      continue;
    }
    agg.add(*r);
  }
  return agg.take();
}

const Row *findRow(const Profile &p, llvm::StringRef name,
                   llvm::StringRef shapes = "", int device = -1) {
  for (const Row &r : p.rows)
    if (r.name == name && (shapes.empty() || r.shapes == shapes) &&
        (device < 0 || r.device == unsigned(device)))
      return &r;
  return nullptr;
}

TEST(Shapes, SubstitutesDynamicDimsInOrder) {
  EXPECT_EQ(substituteShapes("f32[?, 784]", {4}), "f32[4, 784]");
  EXPECT_EQ(substituteShapes("f32[?, ?], i8[?]", {2, 3, -1}),
            "f32[2, 3], i8[-1]");
  EXPECT_EQ(substituteShapes("f32[1, 784]", {}), "f32[1, 784]");
  // Mismatches stay visible rather than failing.
  EXPECT_EQ(substituteShapes("f32[?, ?]", {5}), "f32[5, ?]");
  EXPECT_EQ(substituteShapes("f32[?]", {5, 6}), "f32[5]");
  EXPECT_EQ(substituteShapes("", {}), "");
}

TEST(Aggregate, SampleDump) {
  Profile p = aggregate({sampleDump().build()});
  ASSERT_EQ(p.rows.size(), 3u);

  const Row *fc = findRow(p, "tosa.fully_connected");
  ASSERT_NE(fc, nullptr);
  EXPECT_EQ(fc->shapes, "f32[4, 784], f32[128, 784]");
  EXPECT_EQ(fc->hash, 0x1a2b3c4d5e6f7081ull);
  EXPECT_EQ(fc->device, 3u);
  EXPECT_EQ(fc->location(), "mlp.mlir:4:8");
  EXPECT_EQ(fc->function, "main");
  EXPECT_EQ(fc->flops, 100u);
  EXPECT_EQ(fc->bytes, 200u);
  EXPECT_EQ(fc->count, 1u);
  EXPECT_EQ(fc->durationNs, 200u);
  EXPECT_EQ(fc->selfNs, 100u); // Its launch child took 100 ns.
  EXPECT_EQ(fc->counters, (std::vector<uint64_t>{10, 1}));

  const Row *launch = findRow(p, "cudaLaunchKernel");
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->kind, TPUPROF_KIND_LAUNCH);
  EXPECT_EQ(launch->durationNs, 100u);
  EXPECT_EQ(launch->selfNs, 100u);
  EXPECT_EQ(launch->location(), "");

  const Row *relu = findRow(p, "tosa.relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->count, 1u);
  EXPECT_EQ(relu->unfinished, 1u); // Thread 8's record never ended.
  EXPECT_EQ(relu->durationNs, 50u);

  EXPECT_EQ(p.events, (std::vector<std::string>{"perf::TASK-CLOCK",
                                                "perf::PAGE-FAULTS"}));
  EXPECT_EQ(p.coveredNs, 250u); // fc (with its child) + relu.
  EXPECT_EQ(p.totalNs, 1000u);
  EXPECT_LE(p.coveredNs, p.totalNs);
  EXPECT_EQ(p.unfinished, 1u);
  EXPECT_EQ(p.dropped, 1u);
  EXPECT_EQ(lossSummary(p),
            "1 record was dropped (1 when a buffer was full or more than 256 "
            "probes were open); the figures leave it out");
  EXPECT_EQ(p.threads, 2u);
  EXPECT_EQ(p.records, 4u);
  ASSERT_EQ(p.dumps.size(), 1u);
  EXPECT_EQ(p.dumps[0].path, "d0");
  EXPECT_EQ(p.dumps[0].coveredNs, 250u);
}

TEST(Aggregate, KeysByHashAndActualShapes) {
  DumpBuilder b;
  // Probes 0 and 1: the same op (same hash) at two places in the IR.
  // Probe 2: another op.
  b.addModule(0, 0, "m",
              {probe("tosa.matmul", "f32[?, 8]", "a.mlir:1:1", 0xaa, 1),
               probe("tosa.matmul", "f32[?, 8]", "a.mlir:9:1", 0xaa, 1),
               probe("tosa.add", "f32[?]", "a.mlir:2:1", 0xbb, 1)});
  TestThread t;
  t.records = {
      {0, 0, ticksAt(0), ticksAt(10), {4}, {}},
      {1, 0, ticksAt(10), ticksAt(30), {4}, {}},  // Same key as above.
      {0, 0, ticksAt(30), ticksAt(60), {16}, {}}, // Other shapes.
      {2, 0, ticksAt(60), ticksAt(100), {4}, {}},
  };
  b.threads = {t};
  Profile p = aggregate({b.build()});
  ASSERT_EQ(p.rows.size(), 3u);

  const Row *m4 = findRow(p, "tosa.matmul", "f32[4, 8]");
  ASSERT_NE(m4, nullptr);
  EXPECT_EQ(m4->count, 2u);
  EXPECT_EQ(m4->durationNs, 30u);
  EXPECT_EQ(m4->locations,
            (std::vector<std::string>{"a.mlir:1:1", "a.mlir:9:1"}));
  const Row *m16 = findRow(p, "tosa.matmul", "f32[16, 8]");
  ASSERT_NE(m16, nullptr);
  EXPECT_EQ(m16->count, 1u);
  EXPECT_EQ(m16->durationNs, 30u);
  const Row *add = findRow(p, "tosa.add", "f32[4]");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->durationNs, 40u);
  EXPECT_EQ(p.coveredNs, 100u);
}

TEST(Aggregate, KeepsDevicesApartWhenMergingDumps) {
  auto dumpFor = [](uint32_t device, uint64_t ns) {
    DumpBuilder b;
    b.header.device = device;
    b.addModule(0, 0, "m", {probe("op", "f32[1]", "", 0xcc)});
    TestThread t;
    t.records = {{0, 0, ticksAt(0), ticksAt(ns), {}, {}}};
    b.threads = {t};
    return b.build();
  };
  Profile p = aggregate({dumpFor(0, 100), dumpFor(1, 200), dumpFor(0, 50)});
  ASSERT_EQ(p.rows.size(), 2u);
  const Row *d0 = findRow(p, "op", "", 0);
  const Row *d1 = findRow(p, "op", "", 1);
  ASSERT_TRUE(d0 && d1);
  EXPECT_EQ(d0->count, 2u);
  EXPECT_EQ(d0->durationNs, 150u);
  EXPECT_EQ(d1->durationNs, 200u);
  EXPECT_EQ(p.dumps.size(), 3u);
  EXPECT_EQ(p.totalNs, 3000u); // Three 1 us windows.
  EXPECT_EQ(p.coveredNs, 350u);
  EXPECT_EQ(p.threads, 3u);
}

TEST(Aggregate, SelfTimeSubtractsDirectChildrenOnly) {
  // a [0, 100) > b [10, 60) > c [20, 40); a > d [70, 90).
  DumpBuilder b;
  b.addModule(0, 0, "m",
              {probe("a", "", "", 1), probe("b", "", "", 2),
               probe("c", "", "", 3), probe("d", "", "", 4)});
  TestThread t;
  t.records = {
      {0, 0, ticksAt(0), ticksAt(100), {}, {}},
      {1, 1, ticksAt(10), ticksAt(60), {}, {}},
      {2, 2, ticksAt(20), ticksAt(40), {}, {}},
      {3, 1, ticksAt(70), ticksAt(90), {}, {}},
  };
  b.threads = {t};
  Profile p = aggregate({b.build()});
  EXPECT_EQ(findRow(p, "a")->durationNs, 100u);
  EXPECT_EQ(findRow(p, "a")->selfNs, 30u); // 100 - 50 - 20.
  EXPECT_EQ(findRow(p, "b")->selfNs, 30u); // 50 - 20.
  EXPECT_EQ(findRow(p, "c")->selfNs, 20u);
  EXPECT_EQ(findRow(p, "d")->selfNs, 20u);
  EXPECT_EQ(p.coveredNs, 100u); // Nested time counted once.
}

TEST(Aggregate, NestingIsPerThread) {
  // A depth-1 record on another thread is not a child of thread 1's record.
  DumpBuilder b;
  b.addModule(0, 0, "m", {probe("a", "", "", 1), probe("b", "", "", 2)});
  TestThread t1, t2;
  t1.tid = 1;
  t1.records = {{0, 0, ticksAt(0), ticksAt(100), {}, {}}};
  t2.tid = 2;
  t2.records = {{1, 1, ticksAt(10), ticksAt(30), {}, {}}};
  b.threads = {t1, t2};
  Profile p = aggregate({b.build()});
  EXPECT_EQ(findRow(p, "a")->selfNs, 100u);
  // With no enclosing record on its thread, b counts toward Sum.
  EXPECT_EQ(p.coveredNs, 120u);
}

TEST(Aggregate, DepthGapsAttachToNearestShallowerRecord) {
  // The depth-1 parent of c was lost (e.g. dropped): a is its parent now.
  DumpBuilder b;
  b.addModule(0, 0, "m", {probe("a", "", "", 1), probe("c", "", "", 3)});
  TestThread t;
  t.records = {{0, 0, ticksAt(0), ticksAt(100), {}, {}},
               {1, 2, ticksAt(20), ticksAt(40), {}, {}}};
  b.threads = {t};
  Profile p = aggregate({b.build()});
  EXPECT_EQ(findRow(p, "a")->selfNs, 80u);
  EXPECT_EQ(p.coveredNs, 100u);
}

TEST(Aggregate, UnfinishedParentDoesNotHideChildren) {
  DumpBuilder b;
  b.addModule(0, 0, "m", {probe("a", "", "", 1), probe("b", "", "", 2)});
  TestThread t;
  t.records = {{0, 0, ticksAt(0), 0, {}, {}},
               {1, 1, ticksAt(20), ticksAt(40), {}, {}}};
  b.threads = {t};
  Profile p = aggregate({b.build()});
  EXPECT_EQ(findRow(p, "a")->count, 0u);
  EXPECT_EQ(findRow(p, "a")->unfinished, 1u);
  EXPECT_EQ(findRow(p, "a")->durationNs, 0u);
  EXPECT_EQ(findRow(p, "b")->durationNs, 20u);
  EXPECT_EQ(p.coveredNs, 20u);
  EXPECT_EQ(p.unfinished, 1u);
}

TEST(Aggregate, UnknownProbeIdsGetTheirOwnRow) {
  DumpBuilder b;
  b.addModule(0, 0, "m", {probe("a", "", "", 1)});
  TestThread t;
  t.records = {{0, 0, ticksAt(0), ticksAt(10), {}, {}},
               {99, 0, ticksAt(10), ticksAt(30), {}, {}},
               {99, 0, ticksAt(30), ticksAt(60), {7}, {}},
               {1, 0, ticksAt(60), ticksAt(61), {}, {}}};
  b.threads = {t};
  Profile p = aggregate({b.build()});
  ASSERT_EQ(p.rows.size(), 3u);
  const Row *u99 = findRow(p, "<unknown probe 99>");
  ASSERT_NE(u99, nullptr);
  EXPECT_TRUE(u99->unknownProbe);
  EXPECT_EQ(u99->probeId, 99u);
  EXPECT_EQ(u99->count, 2u);
  EXPECT_EQ(u99->durationNs, 50u);
  const Row *u1 = findRow(p, "<unknown probe 1>");
  ASSERT_NE(u1, nullptr);
  EXPECT_EQ(u1->durationNs, 1u);
}

TEST(Aggregate, ExtremeProbeIds) {
  // Ids that are DenseMap's reserved keys for uint32_t (fuzzer finding).
  DumpBuilder b;
  b.addModule(0, UINT32_MAX, "m", {probe("last", "", "", 1)});
  TestThread t;
  t.records = {{UINT32_MAX, 0, ticksAt(0), ticksAt(10), {}, {}},
               {UINT32_MAX - 1, 0, ticksAt(10), ticksAt(30), {}, {}},
               {UINT32_MAX, 0, ticksAt(30), ticksAt(60), {}, {}}};
  b.threads = {t};
  Profile p = aggregate({b.build()});
  ASSERT_EQ(p.rows.size(), 2u);
  EXPECT_EQ(findRow(p, "last")->count, 2u);
  EXPECT_EQ(findRow(p, "<unknown probe 4294967294>")->count, 1u);
}

TEST(Aggregate, UnionsEventsAcrossDumps) {
  auto dumpWith = [](std::vector<std::string> events,
                     std::vector<uint64_t> counters) {
    DumpBuilder b;
    b.header.mode = 1;
    b.events = events;
    b.addModule(0, 0, "m", {probe("a", "", "", 1)});
    TestThread t;
    t.records = {{0, 0, ticksAt(0), ticksAt(10), {}, counters}};
    b.threads = {t};
    return b.build();
  };
  Profile p =
      aggregate({dumpWith({"x", "y"}, {1, 2}), dumpWith({"y", "z"}, {10, 20})});
  EXPECT_EQ(p.events, (std::vector<std::string>{"x", "y", "z"}));
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0].counters, (std::vector<uint64_t>{1, 12, 20}));
}

TEST(Aggregate, ConvertsTicksWithTheCalibration) {
  // 3 ticks per ns in this dump.
  DumpBuilder b;
  b.header.calib_ticks0 = 0;
  b.header.calib_ns0 = 0;
  b.header.calib_ticks1 = 3000000;
  b.header.calib_ns1 = 1000000;
  b.header.window_begin = 0;
  b.header.window_end = 30000;
  b.addModule(0, 0, "m", {probe("a", "", "", 1)});
  TestThread t;
  t.records = {{0, 0, 300, 3300, {}, {}}};
  b.threads = {t};
  Profile p = aggregate({b.build()});
  EXPECT_EQ(p.rows[0].durationNs, 1000u);
  EXPECT_EQ(p.totalNs, 10000u);
}

TEST(Aggregate, ExpandsDirectories) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tpuprof-agg", dir));
  auto write = [&](llvm::StringRef name, const std::string &bytes) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << bytes;
  };
  write("tpuprof_data_dev0-1", sampleDump().build());
  write("tpuprof_data_dev0-0", sampleDump().build());
  write("unrelated.txt", "not a dump");

  llvm::Expected<std::vector<std::string>> files =
      expandDumpPaths({std::string(dir)});
  ASSERT_TRUE(bool(files)) << llvm::toString(files.takeError());
  ASSERT_EQ(files->size(), 2u);
  EXPECT_TRUE(llvm::StringRef((*files)[0]).ends_with("tpuprof_data_dev0-0"));
  EXPECT_TRUE(llvm::StringRef((*files)[1]).ends_with("tpuprof_data_dev0-1"));

  llvm::Expected<Profile> p = aggregateDumps({std::string(dir)});
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  EXPECT_EQ(p->dumps.size(), 2u);
  EXPECT_EQ(p->totalNs, 2000u);

  llvm::SmallString<128> empty;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tpuprof-empty", empty));
  llvm::Expected<std::vector<std::string>> none =
      expandDumpPaths({std::string(empty)});
  ASSERT_FALSE(bool(none));
  EXPECT_TRUE(contains(llvm::toString(none.takeError()),
                       "no tpuprof_data_dev* dumps in directory"));
  llvm::sys::fs::remove_directories(dir);
  llvm::sys::fs::remove_directories(empty);
}

} // namespace

TEST(Aggregate, LossSummaryIsEmptyUnlessRecordsWereDropped) {
  Profile p;
  p.unfinished = 3; // Unfinished probes have their own column everywhere.
  EXPECT_EQ(lossSummary(p), "");
  p.dropped = 25;
  p.drops.full = 20;
  p.drops.depth = 5;
  EXPECT_EQ(lossSummary(p), "25 records were dropped (20 at the thread's "
                            "record limit (TPUPROF_RECORD_SIZE), 5 begun with "
                            "more than 256 probes open); the figures leave "
                            "them out");
}
