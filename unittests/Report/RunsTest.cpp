//===- unittests/Report/RunsTest.cpp - Runs kept apart; output shapes -----===//
//
// Two processes' dumps in one directory are two runs (pid and runtime
// start), never added up unless asked: rows and dumps keep their run, the
// table prints a section each, JSON exports keep them, and diff refuses a
// side of two. Probes that say where their outputs are get Output Shapes.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/views/Diff.h"
#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Table.h"

#include "llvm/Support/raw_ostream.h"

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// One "op" record of `ns` in a process `pid` whose runtime started at
/// `startNs`.
std::string runDump(uint32_t pid, uint64_t startNs, uint64_t ns,
                    uint32_t device = 0) {
  DumpBuilder b;
  b.header.pid = pid;
  b.header.device = device;
  b.header.calib_ns0 = startNs;
  b.header.calib_ns1 = startNs + 1000000;
  b.addModule(0, 0, "m", {probe("op", "f32[4]", "m.mlir:1:1", 0x7)});
  TestThread t;
  t.records = {{0, 0, ticksAt(100), ticksAt(100 + ns), {}, {}}};
  b.threads = {t};
  return b.build();
}

TEST(Runs, TwoProcessesAreTwoRunsInStartOrder) {
  // The later run's dump comes first: runs are numbered by start.
  TempFile late(runDump(20, 9000, 300)), early(runDump(10, 5000, 100)),
      early2(runDump(10, 5000, 50, /*device=*/1));
  Profile p = input({late.str(), early.str(), early2.str()}).profile;
  ASSERT_EQ(p.runs.size(), 2u);
  EXPECT_EQ(p.runs[0].pid, 10u);
  EXPECT_EQ(p.runs[1].pid, 20u);
  EXPECT_TRUE(p.runsApart());
  ASSERT_EQ(p.rows.size(), 3u); // op on run 1 dev 0 and 1, op on run 2.
  EXPECT_EQ(p.dumps[0].run, 1u);
  EXPECT_EQ(p.dumps[1].run, 0u);
  for (const Row &r : p.rows) {
    EXPECT_EQ(r.count, 1u) << "rows of two runs were added up";
  }

  Profile second = selectRun(p, 1);
  ASSERT_EQ(second.rows.size(), 1u);
  EXPECT_EQ(second.rows[0].durationNs, 300u);
  EXPECT_EQ(second.dumps.size(), 1u);
  EXPECT_EQ(second.totalNs, p.dumps[0].windowNs);

  Profile merged = mergeRuns(p);
  EXPECT_TRUE(merged.runsMerged);
  EXPECT_FALSE(merged.runsApart());
  ASSERT_EQ(merged.rows.size(), 2u); // op on device 0 (both runs), device 1.
  EXPECT_EQ(merged.rows[0].count + merged.rows[1].count, 3u);
  EXPECT_EQ(merged.coveredNs, p.coveredNs);

  EXPECT_EQ(describeRun(p, 1), "run 2 (pid 20, started 0.000 s after run 1)");
  llvm::Error err = needOneRun(p, "diff (A)");
  ASSERT_TRUE(bool(err));
  EXPECT_TRUE(contains(llvm::toString(std::move(err)),
                       "diff (A) needs one set of rows, but the inputs hold 2 "
                       "runs (run 1 (pid 10); run 2 (pid 20, started"));
}

TEST(Runs, TableSectionsAndLoadOptions) {
  TempFile a(runDump(10, 5000, 100)), b(runDump(20, 9000, 300));
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printTable(input({a.str(), b.str()}), TableOptions(), os)));
  EXPECT_TRUE(contains(out, "Run 1 (pid 10)\nName"));
  EXPECT_TRUE(contains(out, "\nRun 2 (pid 20, started 0.000 s after run 1)\n"));
  EXPECT_TRUE(contains(out, "Runs: 2 (kept apart"));

  LoadOptions one;
  one.run = 2;
  llvm::Expected<Input> in = loadInput({a.str(), b.str()}, one);
  ASSERT_TRUE(bool(in));
  ASSERT_EQ(in->profile.rows.size(), 1u);
  EXPECT_EQ(in->profile.rows[0].durationNs, 300u);
  one.run = 3;
  llvm::Expected<Input> none = loadInput({a.str(), b.str()}, one);
  ASSERT_FALSE(bool(none));
  EXPECT_EQ(llvm::toString(none.takeError()),
            "--run 3: the inputs hold 2 runs");
}

TEST(Runs, JsonExportKeepsThem) {
  TempFile a(runDump(10, 5000, 100)), b(runDump(20, 9000, 300));
  Input in = input({a.str(), b.str()});
  std::string json;
  llvm::raw_string_ostream os(json);
  writeProfileJson(in, os);
  TempFile j(json, "json");
  Profile back = input({j.str()}).profile;
  ASSERT_EQ(back.runs.size(), 2u);
  EXPECT_TRUE(back.runsApart());
  ASSERT_EQ(back.rows.size(), 2u);
  EXPECT_NE(back.rows[0].run, back.rows[1].run);
  // An export of merged runs stays merged, and merges what it meets.
  Input merged = in;
  merged.profile = mergeRuns(in.profile);
  json.clear();
  writeProfileJson(merged, os);
  TempFile m(json, "json");
  Profile both = input({m.str(), a.str()}).profile;
  EXPECT_TRUE(both.runsMerged);
  ASSERT_EQ(both.rows.size(), 1u);
  EXPECT_EQ(both.rows[0].count, 3u);
}

TEST(Runs, DiffRefusesASideOfTwoRuns) {
  TempFile a(runDump(10, 5000, 100)), b(runDump(20, 9000, 300));
  Input two = input({a.str(), b.str()}), one = input({a.str()});
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::Expected<bool> r = printDiff(one, two, DiffOptions(), os);
  ASSERT_FALSE(bool(r));
  EXPECT_TRUE(contains(llvm::toString(r.takeError()),
                       "diff (B) needs one set of rows"));
  Input added = two;
  added.profile = mergeRuns(two.profile);
  r = printDiff(one, added, DiffOptions(), os);
  ASSERT_TRUE(bool(r));
}

TEST(OutputShapes, SplitFromTheArguments) {
  DumpBuilder b;
  // A destination-style op: its last operand is its output; a tosa-style op
  // with a result of its own; an old probe that says nothing.
  ProbeInfo mm = probe("linalg.matmul", "f32[?, 8], f32[8, 4], f32[?, 4]",
                       "m.mlir:1:1", 0x1, /*numDynDims=*/2);
  mm.numOuts = 1;
  ProbeInfo add = probe("tosa.add", "f32[4], f32[4]", "m.mlir:2:1", 0x2);
  add.outShapes = "f32[4]";
  add.hasOutShapes = true;
  b.addModule(0, 0, "m", {mm, add, probe("old", "f32[2]", "m.mlir:3:1", 0x3)});
  TestThread t;
  t.records = {{0, 0, ticksAt(0), ticksAt(100), {2, 2}, {}},
               {1, 0, ticksAt(200), ticksAt(300), {}, {}},
               {2, 0, ticksAt(400), ticksAt(500), {}, {}}};
  b.threads = {t};
  TempFile d(b.build());
  Profile p = input({d.str()}).profile;
  ASSERT_EQ(p.rows.size(), 3u);
  EXPECT_EQ(p.rows[0].shapes, "f32[2, 8], f32[8, 4], f32[2, 4]");
  EXPECT_EQ(argumentShapes(p.rows[0]), "f32[2, 8], f32[8, 4]");
  EXPECT_EQ(outputShapes(p.rows[0]), "f32[2, 4]");
  EXPECT_EQ(argumentShapes(p.rows[1]), "f32[4], f32[4]");
  EXPECT_EQ(outputShapes(p.rows[1]), "f32[4]");
  EXPECT_EQ(outputShapes(p.rows[2]), "");
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printTable(p, TableOptions(), os)));
  EXPECT_TRUE(contains(out, "Argument Shapes       Output Shapes")) << out;
  EXPECT_TRUE(contains(out, "f32[2, 8], f32[8, 4]  f32[2, 4]")) << out;
  EXPECT_TRUE(contains(out, "f32[2]                -")) << out;
}

} // namespace
