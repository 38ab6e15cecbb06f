//===- unittests/Report/ApproxTest.cpp - How sure a corrected time is -----===//
//
// A parent of many short children, calibrated at self 10 ns and nested
// 30 ns per probe pair: exact corrected times, and the mark on ops whose
// mean corrected time is below twice the pair's cost (60 ns), in the table,
// the CSV and JSON exports and the HTML report's data; none without a
// calibration.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Html.h"
#include "tpuprof/report/views/Table.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// "parent" [0, 100 * (childNs + 40) + 10) around 100 "child" records of
/// `childNs` raw each, 40 ns apart (the probe pair between them); and one
/// "edge" record of `edgeNs` raw after it. Calibrated at self 10 ns and
/// nested 30 ns unless `calibrated` is false.
std::string parentDump(uint64_t childNs, uint64_t edgeNs,
                       bool calibrated = true) {
  DumpBuilder b;
  b.addModule(0, 0, "m",
              {probe("parent", "", "m.c:1", 1), probe("child", "", "m.c:2", 2),
               probe("edge", "", "m.c:3", 3)});
  if (calibrated)
    b.calibrate(10, 30);
  TestThread t;
  uint64_t step = childNs + 40, end = 100 * step + 10;
  t.records.push_back({0, 0, ticksAt(0), ticksAt(end), {}, {}});
  for (uint64_t i = 0; i != 100; ++i)
    t.records.push_back(
        {1, 1, ticksAt(5 + i * step), ticksAt(5 + i * step + childNs), {}, {}});
  t.records.push_back(
      {2, 0, ticksAt(end + 100), ticksAt(end + 100 + edgeNs), {}, {}});
  b.threads = {t};
  b.header.window_end = ticksAt(end + 1000);
  return b.build();
}

std::string tableOf(const Profile &p, std::vector<std::string> columns = {}) {
  std::string out;
  llvm::raw_string_ostream os(out);
  TableOptions opts;
  opts.columns = std::move(columns);
  EXPECT_FALSE(bool(printTable(p, opts, os)));
  return out;
}

TEST(Approx, ParentOfManyShortChildrenIsCorrectedExactly) {
  // Children of 55 ns raw: 45 ns corrected each. The parent spans
  // 100 * 95 + 10 = 9510 ns raw; less self (10) and 100 nested pairs
  // (3000): 6500 ns, the children's 4500 and its own 20 ns per step.
  TempFile d(parentDump(/*childNs=*/55, /*edgeNs=*/70));
  Profile p = input({d.str()}).profile;
  EXPECT_EQ(row(p, "child").durationNs, 4500u);
  EXPECT_EQ(row(p, "child").durations.min(), 45u);
  EXPECT_EQ(row(p, "parent").durationNs, 6500u);
  EXPECT_EQ(row(p, "parent").selfNs, 2000u);
  EXPECT_EQ(row(p, "edge").durationNs, 60u);
  // Twice the 30 ns pair: 60 ns a call.
  EXPECT_EQ(approxBelowNs(p.dumps.at(0).info), 60u);
  EXPECT_EQ(approxBelowNs(p), 60u);
  // The children's 45 ns mean is below it; the edge's 60 ns is at it, and
  // the parent of marked children is not marked itself.
  EXPECT_TRUE(isApprox(row(p, "child"), approxBelowNs(p)));
  EXPECT_FALSE(isApprox(row(p, "edge"), approxBelowNs(p)));
  EXPECT_FALSE(isApprox(row(p, "parent"), approxBelowNs(p)));
}

TEST(Approx, TableMarksShortOpsAndSaysTheBound) {
  TempFile d(parentDump(55, 70));
  std::string out = tableOf(input({d.str()}).profile);
  EXPECT_TRUE(contains(out, "Self (us)  Approx  Percent")) << out;
  EXPECT_TRUE(
      contains(out, "\nchild            4.50       4.50  ~         42.82"))
      << out;
  EXPECT_TRUE(
      contains(out, "\nedge             0.06       0.06  -          0.57"))
      << out;
  EXPECT_TRUE(contains(out, "Approx: ~ marks ops shorter than 60 ns a call "
                            "(two probe pairs): not measured to 5 %\n"))
      << out;
  // Sorting by it sorts by the mean.
  std::string sorted;
  llvm::raw_string_ostream os(sorted);
  TableOptions opts;
  opts.sortColumn = "approx";
  opts.ascending = true;
  ASSERT_FALSE(bool(printTable(input({d.str()}).profile, opts, os)));
  EXPECT_LT(sorted.find("\nchild"), sorted.find("\nedge")) << sorted;
  EXPECT_LT(sorted.find("\nedge"), sorted.find("\nparent")) << sorted;
}

TEST(Approx, NoColumnWhenNothingIsShortOrNothingIsKnown) {
  // Children of 80 ns corrected: nothing below 60 ns.
  TempFile longer(parentDump(90, 70));
  std::string out = tableOf(input({longer.str()}).profile);
  EXPECT_FALSE(contains(out, "Approx").operator bool()) << out;
  // Without calibration the pair's cost is unknown: nothing is marked.
  TempFile raw(parentDump(55, 70, /*calibrated=*/false));
  Profile p = input({raw.str()}).profile;
  EXPECT_EQ(approxBelowNs(p), 0u);
  EXPECT_FALSE(isApprox(row(p, "child"), approxBelowNs(p)));
  EXPECT_FALSE(contains(tableOf(p), "Approx").operator bool());
  // Asked for, the column is there, unmarked.
  EXPECT_TRUE(
      contains(tableOf(p, {"name", "approx"}), "Name    Approx\nparent  -\n"));
}

TEST(Approx, ExportsCarryTheMark) {
  TempFile d(parentDump(55, 70));
  Input in = input({d.str()});
  std::string csv;
  llvm::raw_string_ostream cs(csv);
  writeCsv(in, cs);
  llvm::StringRef header =
      llvm::StringRef(csv).take_until([](char c) { return c == '\r'; });
  // The memory columns follow, empty without memory tracking, then the
  // rank and the node, empty without them.
  EXPECT_TRUE(header.ends_with(",resolution_ns,approx,alloc_bytes,"
                               "self_alloc_bytes,freed_bytes,peak_bytes,rank,"
                               "node"))
      << header.str();
  EXPECT_TRUE(contains(csv, "\nchild,op,0,")) << csv;
  llvm::StringRef child = llvm::StringRef(csv).substr(csv.find("\nchild,"));
  EXPECT_TRUE(
      child.take_until([](char c) { return c == '\r'; }).ends_with(",1,,,,,,"))
      << csv;
  llvm::StringRef edge = llvm::StringRef(csv).substr(csv.find("\nedge,"));
  EXPECT_TRUE(
      edge.take_until([](char c) { return c == '\r'; }).ends_with(",0,,,,,,"))
      << csv;

  std::string json;
  llvm::raw_string_ostream js(json);
  writeProfileJson(in, js);
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(json);
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  std::map<std::string, bool> marks;
  for (const llvm::json::Value &r : *v->getAsObject()->getArray("rows")) {
    const llvm::json::Object *o = r.getAsObject();
    marks[o->getString("name")->str()] = *o->getBoolean("approx");
  }
  EXPECT_EQ(marks, (std::map<std::string, bool>{
                       {"child", true}, {"edge", false}, {"parent", false}}));
  // Read back, the export marks the same rows (the calibration travels).
  TempFile exported(json, "json");
  Profile back = input({exported.str()}).profile;
  EXPECT_EQ(approxBelowNs(back), 60u);
  EXPECT_TRUE(isApprox(row(back, "child"), approxBelowNs(back)));
}

TEST(Approx, HtmlDataCarriesTheMark) {
  TempFile d(parentDump(55, 70));
  std::string html;
  llvm::raw_string_ostream os(html);
  HtmlOptions opts;
  ASSERT_FALSE(bool(writeHtmlReport(input({d.str()}), opts, os)));
  EXPECT_TRUE(contains(html, "\"approxBelowNs\":60")) << html.substr(0, 200);
  // Only the child's row has the field.
  size_t first = html.find("\"approx\":true");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(html.find("\"approx\":true", first + 1), std::string::npos);
  EXPECT_NE(html.rfind("\"name\":\"child\"", first), std::string::npos);
}

} // namespace
