//===- unittests/Report/RuntimeRoundTripTest.cpp - Runtime -> reader ------===//
//
// Records probes through the real runtime (tpuprof_rt_static) into a temp
// directory and reads the dump back: the writer and the reader agree on
// format.h, not just each with its own tests. Built only when the runtime
// target exists (unittests/Report/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/ProbeTable.h"
#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/model/Timeline.h"
#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/views/Trace.h"
#include "tpuprof/tpuprof.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <unistd.h>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// Keeps the compiler from folding the work between probes away.
volatile uint64_t sink;

void spin(unsigned n) {
  for (unsigned i = 0; i != n; ++i)
    sink = sink + i;
}

TEST(RuntimeRoundTrip, RecordsReadBack) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tpuprof-rt", dir));

  std::string table = serializeProbeTable(
      "roundtrip", {probe("tosa.fully_connected", "f32[?, 784], f32[128, 784]",
                          "rt.mlir:4:8", 0x1a2b3c4d5e6f7081ull, 1),
                    probe("tosa.relu", "f32[1, 128]", "rt.mlir:5:8", 0x22)});
  uint32_t first = UINT32_MAX;
  __tpuprof_register_module(table.data(), table.size(), &first);
  ASSERT_NE(first, UINT32_MAX);

  tpuprof_set_output(dir.c_str(), 5);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  ASSERT_TRUE(tpuprof_is_enabled());
  int64_t dims[] = {4};
  __tpuprof_begin_dims(first, dims, 1);
  spin(10000);
  __tpuprof_begin(first + 1);
  spin(10000);
  __tpuprof_end(first + 1);
  __tpuprof_end(first);
  __tpuprof_begin(first + 1);
  spin(1000);
  __tpuprof_end(first + 1);
  ASSERT_EQ(tpuprof_disable(), 0);

  std::string path = tpuprof_last_dump_path();
  EXPECT_EQ(llvm::sys::path::parent_path(path), dir.str());
  EXPECT_TRUE(llvm::sys::path::filename(path).starts_with("tpuprof_data_dev5-"))
      << path;

  llvm::Expected<Dump> dump = readDump(path);
  ASSERT_TRUE(bool(dump)) << llvm::toString(dump.takeError());
  EXPECT_EQ(dump->info.device, 5u);
  EXPECT_EQ(dump->info.pid, uint32_t(getpid()));
  EXPECT_EQ(dump->info.mode, 0u);
  EXPECT_TRUE(dump->info.isComplete());
  EXPECT_EQ(dump->info.dropped, 0u);
  EXPECT_GT(dump->info.windowEnd, dump->info.windowBegin);

  const Module *mod = nullptr;
  for (const Module &m : dump->modules)
    if (m.table.moduleName == "roundtrip")
      mod = &m;
  ASSERT_NE(mod, nullptr);
  EXPECT_EQ(mod->firstProbe, first);
  ASSERT_EQ(mod->table.probes.size(), 2u);
  EXPECT_EQ(mod->table.probes[0].shapes, "f32[?, 784], f32[128, 784]");
  EXPECT_EQ(mod->table.probes[1].location, "rt.mlir:5:8");

  ASSERT_EQ(dump->threads.size(), 1u);
  const std::vector<Record> &recs = dump->threads[0].records;
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].probe, first);
  EXPECT_EQ(recs[0].depth, 0u);
  EXPECT_EQ(recs[0].dims, (llvm::SmallVector<int64_t, 4>{4}));
  EXPECT_EQ(recs[1].probe, first + 1);
  EXPECT_EQ(recs[1].depth, 1u);
  EXPECT_EQ(recs[2].probe, first + 1);
  EXPECT_EQ(recs[2].depth, 0u);
  for (const Record &r : recs) {
    EXPECT_NE(r.end, 0u);
    EXPECT_GE(r.end, r.begin);
    EXPECT_GE(r.begin, dump->info.windowBegin);
    EXPECT_LE(r.end, dump->info.windowEnd);
  }
  // Nesting as recorded: the child lies inside its parent.
  EXPECT_GE(recs[1].begin, recs[0].begin);
  EXPECT_LE(recs[1].end, recs[0].end);

  llvm::Expected<Profile> p = aggregateDumps({path});
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  const Row *fc = nullptr, *relu = nullptr;
  for (const Row &r : p->rows) {
    if (r.name == "tosa.fully_connected")
      fc = &r;
    if (r.name == "tosa.relu")
      relu = &r;
  }
  ASSERT_TRUE(fc && relu);
  EXPECT_EQ(fc->shapes, "f32[4, 784], f32[128, 784]");
  EXPECT_EQ(fc->device, 5u);
  EXPECT_EQ(fc->count, 1u);
  EXPECT_EQ(relu->count, 2u);
  EXPECT_LE(fc->selfNs, fc->durationNs);
  EXPECT_LE(p->coveredNs, p->totalNs);

  // Directory arguments find the dump too.
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::Error err = printTable({std::string(dir)}, TableOptions(), os);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_TRUE(contains(out, "tosa.fully_connected")) << out;
  EXPECT_TRUE(contains(out, "f32[4, 784], f32[128, 784]")) << out;

  llvm::sys::fs::remove_directories(dir);
}

} // namespace

namespace {

/// A directory of its own, removed with what it holds at the end of scope.
struct ScratchDir {
  ScratchDir() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tpuprof-drop", path));
  }
  ~ScratchDir() { llvm::sys::fs::remove_directories(path); }
  llvm::SmallString<128> path;
};

/// A window of `calls` pairs of one probe on this thread, at most `limit`
/// records kept under `policy`, its dump in `dir`; returns the dump's path.
std::string droppingWindow(const ScratchDir &scratch, int policy,
                           uint64_t limit, unsigned calls) {
  std::string dir(scratch.path);
  std::string table = serializeProbeTable(
      "drops", {probe("tosa.add", "f32[4]", "drops.mlir:1:1", 0x42)});
  uint32_t first = UINT32_MAX;
  __tpuprof_register_module(table.data(), table.size(), &first);
  tpuprof_set_output(dir.c_str(), 0);
  EXPECT_EQ(tpuprof_set_buffer_policy(policy), 0);
  EXPECT_EQ(tpuprof_enable(limit, 0), 0);
  for (unsigned i = 0; i != calls; ++i) {
    __tpuprof_begin(first);
    spin(200);
    __tpuprof_end(first);
    spin(200);
  }
  EXPECT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(tpuprof_set_buffer_policy(TPUPROF_BUFFER_STOP), 0);
  return tpuprof_last_dump_path();
}

/// [begin, end] µs of the trace's events named `name` on any thread.
std::vector<std::pair<double, double>> traceSpans(const std::string &path,
                                                  llvm::StringRef name) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::Error err = writeTrace(input({path}), TraceOptions(), os);
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(out);
  EXPECT_TRUE(bool(v));
  std::vector<std::pair<double, double>> spans;
  if (!v)
    return spans;
  for (const llvm::json::Value &e :
       *v->getAsObject()->getArray("traceEvents")) {
    const llvm::json::Object *o = e.getAsObject();
    if (o->getString("ph") == llvm::StringRef("X") &&
        o->getString("name") == name)
      spans.push_back(
          {*o->getNumber("ts"), *o->getNumber("ts") + *o->getNumber("dur")});
  }
  return spans;
}

} // namespace

// A thread that reached its record limit (stop policy) kept its first
// records: from the end of its last one to the window's end the trace and
// the timeline mark the time "not recorded", not idle.
TEST(RuntimeRoundTrip, StopPolicyDropsAreMarkedNotRecorded) {
  ScratchDir dir;
  std::string path = droppingWindow(dir, TPUPROF_BUFFER_STOP, 100, 300);
  std::vector<std::pair<double, double>> ops = traceSpans(path, "tosa.add");
  std::vector<std::pair<double, double>> gaps =
      traceSpans(path, "not recorded");
  ASSERT_EQ(ops.size(), 100u);
  ASSERT_EQ(gaps.size(), 1u);
  double lastEnd = 0;
  for (auto [b, e] : ops)
    lastEnd = std::max(lastEnd, e);
  EXPECT_NEAR(gaps[0].first, lastEnd, 0.0011); // µs, 3 decimals.
  EXPECT_GT(gaps[0].second, gaps[0].first);

  Timeline tl;
  llvm::Error err = buildTimeline(input({path}), TimelineOptions(), tl);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  ASSERT_EQ(tl.lanes.size(), 1u);
  const TimelineLane &lane = tl.lanes[0];
  EXPECT_EQ(lane.dropped, 200u);
  ASSERT_EQ(lane.notRecorded.size(), 1u);
  const TimelineEvent &last = lane.events.back();
  EXPECT_EQ(lane.notRecorded[0].first, last.begin + last.dur);
  EXPECT_NEAR(double(lane.notRecorded[0].second), double(lane.windowNs), 1.0);
}

// A ring keeps the newest records: the stretch before its first kept record
// is the one not recorded.
TEST(RuntimeRoundTrip, RingDropsAreMarkedNotRecorded) {
  ScratchDir dir;
  std::string path = droppingWindow(dir, TPUPROF_BUFFER_RING, 1000, 6000);
  std::vector<std::pair<double, double>> ops = traceSpans(path, "tosa.add");
  std::vector<std::pair<double, double>> gaps =
      traceSpans(path, "not recorded");
  ASSERT_LT(ops.size(), 6000u);
  ASSERT_EQ(gaps.size(), 1u);
  double firstBegin = ops.front().first;
  for (auto [b, e] : ops)
    firstBegin = std::min(firstBegin, b);
  EXPECT_EQ(gaps[0].first, 0.0); // The window's begin.
  EXPECT_NEAR(gaps[0].second, firstBegin, 0.0011);
}
