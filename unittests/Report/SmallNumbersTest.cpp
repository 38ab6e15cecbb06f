//===- unittests/Report/SmallNumbersTest.cpp - Times below resolution -----===//
//
// A record's corrected time below what its clock and the correction resolve
// (Correction.h resolutionNs: here the calibrated self cost, 10 ns) shows as
// "< N ns" in the table and the summary, and diff never calls it -100 % or
// new; the HTML report carries each row's floor for its page.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/model/Compare.h"
#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/views/Diff.h"
#include "tpuprof/report/views/Table.h"

#include "llvm/Support/raw_ostream.h"

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// "tiny" takes `tinyNs` raw per call (3 calls), "big" 500 ns; calibrated
/// at self 10 ns, nested 30 ns.
std::string dumpWith(uint64_t tinyNs, uint32_t pid = 4242) {
  DumpBuilder b;
  b.header.pid = pid;
  b.addModule(0, 0, "m",
              {probe("tiny", "f32[10]", "m.mlir:1:1", 0x1),
               probe("big", "f32[1000]", "m.mlir:2:1", 0x2)});
  b.calibrate(10, 30);
  TestThread t;
  for (uint64_t i = 0; i != 3; ++i)
    t.records.push_back(
        {0, 0, ticksAt(1000 * i), ticksAt(1000 * i + tinyNs), {}, {}});
  t.records.push_back({1, 0, ticksAt(4000), ticksAt(4500), {}, {}});
  b.threads = {t};
  b.header.window_end = ticksAt(5000);
  return b.build();
}

std::string tableOf(const Profile &p) {
  std::string out;
  llvm::raw_string_ostream os(out);
  TableOptions opts;
  opts.stats = true;
  EXPECT_FALSE(bool(printTable(p, opts, os)));
  return out;
}

const DiffRow &diffRow(const std::vector<DiffRow> &rows, llvm::StringRef name) {
  for (const DiffRow &r : rows)
    if (r.name == name)
      return r;
  ADD_FAILURE() << "no row " << name.str();
  return rows.front();
}

TEST(SmallNumbers, TableShowsABoundBelowResolution) {
  TempFile d(dumpWith(/*tinyNs=*/15)); // 15 - 10 = 5 ns each, below 10.
  Profile p = input({d.str()}).profile;
  EXPECT_EQ(resolutionNs(p), 10u);
  std::string out = tableOf(p);
  // Duration and Self: below 3 calls x 10 ns, said per call, so that the
  // bound does not grow with Count; Min/Mean/...: one call's 10 ns.
  EXPECT_TRUE(
      contains(out, "\ntiny    < 10 ns/call  < 10 ns/call  ~          0.30"))
      << out;
  EXPECT_TRUE(contains(out, "m.mlir:1:1   < 10 ns    < 10 ns      < 10 ns"))
      << out;
  EXPECT_TRUE(contains(out, "\nbig             0.49          0.49")) << out;
  EXPECT_TRUE(contains(out, "Resolution: 10 ns per record")) << out;
  EXPECT_FALSE(contains(out, "< 30 ns")) << out;
  // At the resolution it is a number again.
  TempFile e(dumpWith(/*tinyNs=*/20));
  EXPECT_TRUE(contains(tableOf(input({e.str()}).profile),
                       "\ntiny            0.03       0.03  ~          0.60"));
}

TEST(SmallNumbers, DiffNeverCallsThemNewOrMinus100) {
  TempFile a(dumpWith(15)), b(dumpWith(12)), c(dumpWith(200)),
      d(dumpWith(1000));
  Profile pa = input({a.str()}).profile, pb = input({b.str()}).profile,
          pc = input({c.str()}).profile, pd = input({d.str()}).profile;
  // Both below resolution: unresolved, no percentage, never a failure.
  DiffRow both = diffRow(compareProfiles(pa, pb), "tiny");
  EXPECT_EQ(both.status(), DiffRow::Status::Unresolved);
  EXPECT_FALSE(both.deltaPct().has_value());
  // Below it, then 190 ns a call: slower by at least (570 - 30) / 30.
  int bound = 0;
  DiffRow up = diffRow(compareProfiles(pa, pc), "tiny");
  EXPECT_EQ(up.status(), DiffRow::Status::Slower);
  ASSERT_TRUE(up.deltaPct(&bound).has_value());
  EXPECT_DOUBLE_EQ(*up.deltaPct(), 100.0 * (570 - 30) / 30);
  EXPECT_EQ(bound, +1);
  // The other way round: faster, by at most what the floor allows; never
  // -100 %.
  DiffRow down = diffRow(compareProfiles(pd, pa), "tiny");
  EXPECT_EQ(down.status(), DiffRow::Status::Faster);
  ASSERT_TRUE(down.deltaPct(&bound).has_value());
  EXPECT_GT(*down.deltaPct(), -100.0);
  EXPECT_EQ(bound, -1);

  std::string out;
  llvm::raw_string_ostream os(out);
  DiffOptions opts;
  opts.failAbovePct = 0;
  llvm::Expected<bool> failed = printDiff(pa, pb, opts, os);
  ASSERT_TRUE(bool(failed));
  EXPECT_FALSE(*failed) << out; // Nothing resolved got slower.
  EXPECT_TRUE(contains(out, "\ntiny  < 10 ns/call  < 10 ns/call           -  "
                            "      -        3        3  unresolved"))
      << out;
  EXPECT_TRUE(contains(out, "unresolved")) << out;
  EXPECT_FALSE(contains(out, "-100").operator bool()) << out;
  out.clear();
  failed = printDiff(pa, pc, opts, os);
  ASSERT_TRUE(bool(failed));
  EXPECT_TRUE(*failed);
  EXPECT_TRUE(contains(out, "> +1800.00")) << out;
}

TEST(SmallNumbers, TimeCells) {
  // A row's total: the bound is per call, whatever the count.
  EXPECT_EQ(totalTimeCell(29, 3, 10), "< 10 ns/call");
  EXPECT_EQ(totalTimeCell(2999, 300, 10), "< 10 ns/call");
  EXPECT_EQ(totalTimeCell(30, 3, 10), "0.03");
  EXPECT_EQ(totalTimeCell(0, 0, 10), "0.00");
  EXPECT_EQ(timeCell(5, 10), "< 10 ns");
  EXPECT_EQ(timeCell(5, 2500), "< 2.50 us");
  EXPECT_EQ(timeCell(10, 10), "0.01");
  EXPECT_EQ(timeCell(0, 0), "0.00");
}

} // namespace

TEST(SmallNumbers, ResolutionOfACorruptCalibrationSaturates) {
  // A tick of 2^64 ns, or a self cost of 2^64 ns, is no uint64_t; the dump
  // fuzzer found the conversion (UBSan). Such a dump reads, saturated.
  DumpInfo info;
  info.clockSource = TPUPROF_CLOCK_TSC;
  info.calibTicks0 = 0;
  info.calibTicks1 = 1;
  info.calibNs0 = 0;
  info.calibNs1 = UINT64_MAX;
  EXPECT_EQ(resolutionNs(info, OverheadCorrection::State::Disabled),
            UINT64_MAX);
  info.calibNs1 = 1;
  info.calibTicks1 = 1;
  info.hasCalibration = true;
  info.calibSelfTicks = UINT64_MAX;
  info.calibPairs = 1;
  EXPECT_EQ(resolutionNs(info, OverheadCorrection::State::Applied), UINT64_MAX);
}
