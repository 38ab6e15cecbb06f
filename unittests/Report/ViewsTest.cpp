//===- ViewsTest.cpp - Analysis views on hand-built dumps -----------------===//
//
// Exact numbers for the duration sketch, the --stats/--work/--by table, the
// JSON round trip, CSV quoting, diff, trace, stacks and summary, on dumps
// built by DumpBuilder (2 ticks per ns).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/model/Json.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Diff.h"
#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Listing.h"
#include "tpuprof/report/views/Roofline.h"
#include "tpuprof/report/views/Sqlite.h"
#include "tpuprof/report/views/Stacks.h"
#include "tpuprof/report/views/Summary.h"
#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/views/Trace.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <memory>

#include "gtest/gtest.h"

#include <map>
#include <random>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// matmul [0, 300) > add [100, 200); add [400, 500); relu [600, 650); plus
/// `extraAdds` more adds of 10..10*N ns after 1000 ns. `scale` multiplies
/// the matmul's duration.
DumpBuilder opsDump(unsigned scale = 1, unsigned extraAdds = 0) {
  DumpBuilder b;
  ProbeInfo mm =
      probe("tosa.matmul", "f32[1, 784], f32[784, 128]", "mlp.mlir:4:8", 0xaa);
  mm.flops = 200000;
  mm.bytes = 400000;
  ProbeInfo add =
      probe("tosa.add", "f32[1, 128], f32[1, 128]", "mlp.mlir:5:10", 0xbb);
  add.flops = 128;
  add.bytes = 1536;
  b.addModule(
      0, 0, "mlp",
      {mm, add, probe("tosa.relu", "f32[1, 128]", "mlp.mlir:6:10", 0xcc)});
  TestThread t;
  t.tid = 7;
  t.records = {{0, 0, ticksAt(0), ticksAt(300 * scale), {}, {}},
               {1, 1, ticksAt(100), ticksAt(200), {}, {}}};
  uint64_t at = 300 * scale + 100;
  t.records.push_back({1, 0, ticksAt(at), ticksAt(at + 100), {}, {}});
  t.records.push_back({2, 0, ticksAt(at + 200), ticksAt(at + 250), {}, {}});
  at += 1000;
  for (unsigned i = 1; i <= extraAdds; ++i, at += 20 * i)
    t.records.push_back({1, 0, ticksAt(at), ticksAt(at + 10 * i), {}, {}});
  b.header.window_end = ticksAt(at + 100);
  b.threads = {t};
  return b;
}

Profile load(const std::vector<std::string> &paths) {
  return input(paths).profile;
}

std::string tableOf(const Profile &p, const TableOptions &opts = {}) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::Error err = printTable(p, opts, os);
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  return out;
}

const Row *findRow(const Profile &p, llvm::StringRef name) {
  for (const Row &r : p.rows)
    if (r.name == name)
      return &r;
  return nullptr;
}

} // namespace

TEST(Sketch, ExactWhileSmall) {
  DurationSketch s;
  for (uint64_t v : {50, 10, 40, 30, 20})
    s.add(v);
  EXPECT_TRUE(s.isExact());
  EXPECT_EQ(s.min(), 10u);
  EXPECT_EQ(s.max(), 50u);
  EXPECT_DOUBLE_EQ(s.mean(), 30.0);
  EXPECT_EQ(s.quantile(0.5), 30u);  // Nearest rank: ceil(2.5) = 3rd.
  EXPECT_EQ(s.quantile(0.9), 50u);  // ceil(4.5) = 5th.
  EXPECT_EQ(s.quantile(0.2), 10u);  // ceil(1.0) = 1st.
  EXPECT_EQ(s.quantile(0.21), 20u); // ceil(1.05) = 2nd.
  EXPECT_EQ(DurationSketch().quantile(0.5), 0u);
}

TEST(Sketch, BucketedWithinStatedError) {
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> dist(10.0, 1.5);
  std::vector<uint64_t> values;
  DurationSketch s;
  for (int i = 0; i != 100000; ++i) {
    uint64_t v = uint64_t(dist(rng));
    values.push_back(v);
    s.add(v);
  }
  EXPECT_FALSE(s.isExact());
  llvm::sort(values);
  for (double q : {0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0}) {
    uint64_t exact = values[size_t(std::ceil(q * values.size())) - 1];
    double got = double(s.quantile(q));
    EXPECT_LE(std::abs(got - double(exact)),
              DurationSketch::kRelativeError * double(exact) + 1.0)
        << "q=" << q << " exact=" << exact << " got=" << got;
  }
  EXPECT_EQ(s.min(), values.front());
  EXPECT_EQ(s.max(), values.back());
  // Memory: buckets, not samples.
  EXPECT_LT(s.bucketCounts().size(), 64u * 30);
  EXPECT_TRUE(s.exactSamples().empty());
}

TEST(Sketch, MergeEqualsAddingAll) {
  DurationSketch a, b, all;
  for (uint64_t i = 1; i <= 300; ++i) {
    ((i % 3) ? a : b).add(i * 17);
    all.add(i * 17);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.total(), all.total());
  for (double q : {0.1, 0.5, 0.9, 0.99}) {
    EXPECT_EQ(a.quantile(q), all.quantile(q));
  }
  // Two small exact sketches stay exact.
  DurationSketch x, y;
  x.add(5);
  y.add(7);
  x.merge(y);
  EXPECT_TRUE(x.isExact());
  EXPECT_EQ(x.quantile(1.0), 7u);
}

TEST(Views, StatsAndWorkColumns) {
  TempFile d(opsDump(1, 3).build());
  Profile p = load({d.str()});
  const Row *add = findRow(p, "tosa.add");
  ASSERT_TRUE(add);
  // adds: 100, 100, 10, 20, 30 ns.
  EXPECT_EQ(add->count, 5u);
  EXPECT_EQ(add->durations.min(), 10u);
  EXPECT_EQ(add->durations.quantile(0.5), 30u);
  EXPECT_EQ(add->durations.max(), 100u);
  TableOptions opts;
  opts.stats = true;
  opts.work = true;
  opts.peakGflops = 100;
  opts.peakGBps = 10; // Ridge: 10 FLOP/byte.
  std::string out = tableOf(p, opts);
  EXPECT_TRUE(contains(out, "Min (us)  Mean (us)  Median (us)  P90 (us)  "
                            "P99 (us)  Max (us)   FLOPs  GFLOP/s   Bytes      "
                            "GB/s  Bound"));
  // matmul: 200000 FLOPs in 300 ns = 666.67 GFLOP/s, 0.5 FLOP/byte: memory;
  // its 1333.33 GB/s are above the 10 GB/s peak: the data was in cache.
  EXPECT_TRUE(contains(out, "0.30       0.30         0.30      0.30      "
                            "0.30      0.30  200000   666.67  400000  "
                            "1333.33^  memory (cache)"));
  // add: 128 FLOPs x 5 / 260 ns.
  EXPECT_TRUE(contains(out, "0.01       0.05         0.03      0.10      "
                            "0.10      0.10     128     2.46    1536    "
                            "29.54^  memory (cache)"));
  EXPECT_TRUE(contains(out, "^ above the measured peak of 10.00 GB/s: the "
                            "data was cache-resident"));
  opts.peakGBps = 2000; // Ridge 0.05: matmul (0.5) becomes compute-bound.
  out = tableOf(p, opts);
  EXPECT_TRUE(contains(out, "400000  1333.33  compute"));
  EXPECT_FALSE(contains(out, "^ above").operator bool());
}

TEST(Views, FiltersKeepTotals) {
  TempFile d(opsDump().build());
  Profile p = load({d.str()});
  TableOptions opts;
  opts.filter = "^tosa\\.(add|relu)$";
  std::string out = tableOf(p, opts);
  EXPECT_FALSE(contains(out, "tosa.matmul").operator bool());
  EXPECT_TRUE(contains(out, "(1 row filtered out)"));
  EXPECT_TRUE(contains(out, "Sum  "));
  opts.filter = "";
  opts.minTimeNs = 250;
  out = tableOf(p, opts);
  EXPECT_TRUE(contains(out, "tosa.matmul"));
  EXPECT_TRUE(contains(out, "(2 rows filtered out)"));
  opts.minTimeNs = 0;
  opts.kinds = 1u << TPUPROF_KIND_LAUNCH;
  EXPECT_TRUE(contains(tableOf(p, opts), "(3 rows filtered out)"));
  opts.kinds = 0;
  opts.filter = "(";
  llvm::raw_null_ostream null;
  llvm::Error err = printTable(p, opts, null);
  ASSERT_TRUE(bool(err));
  EXPECT_TRUE(
      contains(llvm::toString(std::move(err)), "--filter: bad regular"));
}

TEST(Views, GroupByNameFunctionLocationShape) {
  // Two dumps on devices 0 and 1, plus a second add with other shapes.
  DumpBuilder b0 = opsDump();
  DumpBuilder b1 = opsDump(2);
  b1.header.device = 1;
  TempFile d0(b0.build()), d1(b1.build());
  Profile p = load({d0.str(), d1.str()});
  EXPECT_EQ(p.rows.size(), 6u); // 3 ops x 2 devices, each keeps its device.
  std::vector<Row> byName = groupRows(p.rows, GroupBy::Name);
  EXPECT_EQ(byName.size(), 6u); // Still per device.
  std::vector<Row> byFunction = groupRows(p.rows, GroupBy::Function);
  ASSERT_EQ(byFunction.size(), 2u);
  EXPECT_EQ(byFunction[0].name, "main");
  EXPECT_EQ(byFunction[0].count, 4u);
  EXPECT_EQ(byFunction[0].durationNs, 300u + 100 + 100 + 50);
  EXPECT_TRUE(byFunction[0].mixedHash);
  EXPECT_TRUE(byFunction[0].mixedShapes);
  EXPECT_EQ(byFunction[0].shapes, "*");
  // FLOPs per call become the mean: (200000 + 2 x 128 + 0) / 4.
  EXPECT_EQ(byFunction[0].flops, (200000u + 256u + 2) / 4);
  std::vector<Row> byLocation = groupRows(p.rows, GroupBy::Location);
  EXPECT_EQ(byLocation.size(), 6u);
  EXPECT_EQ(byLocation[0].name, "mlp.mlir:4:8");
  EXPECT_EQ(groupRows(p.rows, GroupBy::Shape).size(), 6u);
  EXPECT_FALSE(bool(parseGroupBy("op").takeError()));
  llvm::Expected<GroupBy> bad = parseGroupBy("thread");
  ASSERT_FALSE(bool(bad));
  EXPECT_TRUE(contains(llvm::toString(bad.takeError()), "unknown grouping"));
}

TEST(Views, JsonRoundTripGivesTheSameTable) {
  DumpBuilder b = sampleDump(); // Counters, dims, unknown-free, unfinished.
  TempFile d(b.build()), d2(opsDump(1, 200).build()); // >128: bucketed.
  Profile p = load({d.str(), d2.str()});
  std::string json;
  llvm::raw_string_ostream os(json);
  writeProfileJson(p, os);
  TempFile j(json, "json");
  Profile back = load({j.str()});
  TableOptions opts;
  opts.stats = true;
  opts.work = true;
  EXPECT_EQ(tableOf(back, opts), tableOf(p, opts));
  // An export merges with its own dumps like a second copy of them.
  Profile twice = load({d.str(), d2.str(), j.str()});
  EXPECT_EQ(twice.rows.size(), p.rows.size());
  EXPECT_EQ(twice.totalNs, 2 * p.totalNs);

  TempFile broken("{\"format\": \"tpuprof-report\", \"version\": 1}", "json");
  llvm::Expected<Input> e = loadInput({broken.str()});
  ASSERT_FALSE(bool(e));
  EXPECT_TRUE(contains(llvm::toString(e.takeError()),
                       "not a tpuprof JSON export: top level: missing "
                       "'events'"));
}

/// Splits RFC 4180 text into records of fields.
std::vector<std::vector<std::string>> parseCsv(llvm::StringRef text) {
  std::vector<std::vector<std::string>> out(1);
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.back().push_back(field);
      field.clear();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      out.back().push_back(field);
      field.clear();
      out.emplace_back();
      ++i;
    } else {
      field += c;
    }
  }
  if (out.back().empty())
    out.pop_back();
  return out;
}

TEST(Views, CsvQuotesHostileNames) {
  DumpBuilder b;
  std::string hostile = "my,\"op\"\nname";
  b.addModule(0, 0, "m",
              {probe(hostile, "f32[1, 2]", "a,b.mlir:1:1", 0x11),
               probe("plain", "", "", 0x12)});
  TestThread t;
  t.records = {{0, 0, ticksAt(0), ticksAt(100), {}, {}},
               {1, 0, ticksAt(200), ticksAt(250), {}, {}}};
  b.threads = {t};
  TempFile d(b.build());
  Profile p = load({d.str()});
  std::string csv;
  llvm::raw_string_ostream os(csv);
  writeCsv(p, os);
  auto records = parseCsv(csv);
  ASSERT_EQ(records.size(), 3u);
  ASSERT_EQ(records[0][0], "name");
  for (const auto &r : records) {
    EXPECT_EQ(r.size(), records[0].size());
  }
  std::map<std::string, std::vector<std::string>> byName;
  for (size_t i = 1; i != records.size(); ++i)
    byName[records[i][0]] = records[i];
  ASSERT_TRUE(byName.count(hostile));
  EXPECT_EQ(byName[hostile][4], "f32[1, 2]");
  EXPECT_EQ(byName[hostile][5], "a,b.mlir:1:1");
  EXPECT_EQ(byName[hostile][9], "100"); // duration_ns
  EXPECT_EQ(byName["plain"][9], "50");
  EXPECT_EQ(csvField("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(csvField("ab"), "ab");
}

TEST(Views, DiffFindsExactlyTheSlowerOp) {
  TempFile a(opsDump(1).build()), b(opsDump(3).build()); // matmul 3x.
  Profile pa = load({a.str()}), pb = load({b.str()});
  DiffOptions opts;
  opts.failAbovePct = 50;
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::Expected<bool> failed = printDiff(pa, pb, opts, os);
  ASSERT_TRUE(bool(failed));
  EXPECT_TRUE(*failed);
  llvm::SmallVector<llvm::StringRef, 8> lines;
  llvm::StringRef(out).split(lines, '\n');
  // First data line: the regression, +600 ns = +200%.
  EXPECT_TRUE(lines[1].starts_with("tosa.matmul")) << out;
  EXPECT_TRUE(contains(lines[1].str(), "0.30    0.90       +0.60  +200.00"));
  EXPECT_TRUE(contains(out, "FAIL: 1 op(s) slower by more than 50.00%: "
                            "tosa.matmul [f32[1, 784], f32[784, 128]] "
                            "(200.00%)"));
  // Same run: nothing fails; the threshold is a strict bound.
  out.clear();
  failed = printDiff(pa, pa, opts, os);
  ASSERT_TRUE(bool(failed));
  EXPECT_FALSE(*failed);
  EXPECT_TRUE(contains(out, "OK: no op slower by more than 50.00%"));
  // New and missing rows: a relu only in A.
  DumpBuilder c = opsDump(1);
  c.threads[0].records.pop_back();
  TempFile cd(c.build());
  out.clear();
  failed = printDiff(pa, load({cd.str()}), DiffOptions(), os);
  EXPECT_TRUE(contains(out, "missing")) << out;
  out.clear();
  failed = printDiff(load({cd.str()}), pa, DiffOptions(), os);
  EXPECT_TRUE(contains(out, "new")) << out;
}

TEST(Views, TraceIsNestedRelativeJson) {
  DumpBuilder b = opsDump();
  b.header.window_begin = ticksAt(0);
  // An unfinished record followed by a sibling: closed at its begin.
  b.threads[0].records.push_back({2, 0, ticksAt(700), 0, {}, {}});
  b.threads[0].records.push_back({2, 0, ticksAt(800), ticksAt(850), {}, {}});
  TempFile d(b.build());
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(writeTrace(input({d.str()}), TraceOptions(), os)));
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(out);
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  const llvm::json::Array *events = v->getAsObject()->getArray("traceEvents");
  ASSERT_TRUE(events);
  std::map<std::string, std::pair<double, double>> spans; // name#n -> ts,end
  std::vector<std::pair<double, double>> xs;
  for (const llvm::json::Value &e : *events) {
    const llvm::json::Object *o = e.getAsObject();
    if (o->getString("ph") != "X")
      continue;
    double ts = *o->getNumber("ts"), dur = *o->getNumber("dur");
    xs.push_back({ts, ts + dur});
  }
  ASSERT_EQ(xs.size(), 6u);
  llvm::sort(xs);
  // Relative to the window begin (the dump's ns0 = 5000 ns is removed).
  EXPECT_DOUBLE_EQ(xs[0].first, 0.0);
  EXPECT_DOUBLE_EQ(xs[0].second, 0.3);
  EXPECT_DOUBLE_EQ(xs[1].first, 0.1);
  EXPECT_DOUBLE_EQ(xs[1].second, 0.2);
  EXPECT_DOUBLE_EQ(xs[4].first, 0.7);  // Unfinished...
  EXPECT_DOUBLE_EQ(xs[4].second, 0.8); // ...closed by its sibling.
}

TEST(Views, StacksFoldSelfTime) {
  TempFile d(opsDump().build());
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(writeStacks(input({d.str()}), StacksOptions(), os)));
  // Every stack starts at its run and its thread.
  EXPECT_EQ(out, "run 1 (pid 4242);dev 0, tid 7;tosa.add 100\n"
                 "run 1 (pid 4242);dev 0, tid 7;tosa.matmul 200\n"
                 "run 1 (pid 4242);dev 0, tid 7;tosa.matmul;tosa.add 100\n"
                 "run 1 (pid 4242);dev 0, tid 7;tosa.relu 50\n");
}

TEST(Views, SummaryBusyAndShares) {
  DumpBuilder b = opsDump();
  ProbeInfo launch = probe("cudaLaunchKernel", "", "", 0x33);
  launch.kind = TPUPROF_KIND_LAUNCH;
  b.addModule(1, 3, "k", {launch});
  b.threads[0].records.push_back({3, 0, ticksAt(800), ticksAt(900), {}, {}});
  b.header.window_end = ticksAt(1000);
  TempFile d(b.build());
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printSummary(input({d.str()}), 2, os)));
  // Window 1 us; ops 0.45 us top level, launch 0.1 us; idle 0.45 us.
  EXPECT_TRUE(contains(out,
                       "7              1.00       0.55   55.00  45.00       "
                       "10.00    0.00       0.00           45.00        "
                       "5           0        0"))
      << out;
  EXPECT_TRUE(contains(out, "Top ops on device 0:"));
  EXPECT_TRUE(contains(out, "1           0.30    30.00      1  tosa.matmul"));
  EXPECT_FALSE(contains(out, "  3  ").operator bool()); // --top 2
}

TEST(Views, SourceListing) {
  DumpBuilder b;
  ProbeInfo user = probe("my_range", "", "", 0x44);
  user.kind = TPUPROF_KIND_USER;
  user.location = "kernels.c:2:3";
  b.addModule(0, 0, "m", {user});
  TestThread t;
  t.records = {{0, 0, ticksAt(0), ticksAt(250), {}, {}}};
  b.threads = {t};
  TempFile d(b.build());
  Profile p = load({d.str()});
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printSourceListing(p, "", os)));
  EXPECT_TRUE(contains(out, "0.25   25.00        1  kernels.c:2  my_range"))
      << out;
  TempFile src("int a;\nvoid f() {\n}\n", "c");
  // Rename the probe's file to the temp file's name.
  b.modules.clear();
  user.location = (llvm::sys::path::filename(src.path) + ":2:3").str();
  b.addModule(0, 0, "m", {user});
  TempFile d2(b.build());
  Profile p2 = load({d2.str()});
  out.clear();
  ASSERT_FALSE(bool(printSourceListing(p2, src.str(), os)));
  EXPECT_TRUE(contains(out, "        0.25   25.00        1      2  void f() {"))
      << out;
  EXPECT_TRUE(contains(out, "      1  int a;"));
}

TEST(Views, JsonDepthBound) {
  // At the bound it parses; one level more is refused with where.
  std::string ok(kMaxJsonDepth, '['), deep(kMaxJsonDepth + 1, '[');
  ok += std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(bool(parseJson(ok)));
  llvm::Expected<llvm::json::Value> v = parseJson(deep);
  ASSERT_FALSE(bool(v));
  EXPECT_EQ(llvm::toString(v.takeError()),
            "nested deeper than 512 levels at offset 512");
  // Brackets in strings, escaped quotes included, do not nest.
  std::string s = "[\"" + std::string(1000, '[') + "\\\"[[\"]";
  EXPECT_TRUE(bool(parseJson(s)));
  // A backslash that ends the text (a fuzzer's find) stays in bounds: an
  // exact-size buffer, so that ASan sees a read past it.
  auto text = std::make_unique<char[]>(7);
  std::memcpy(text.get(), "-\0\"9 [\\", 7);
  llvm::consumeError(parseJson(llvm::StringRef(text.get(), 7)).takeError());
  // 60 000 levels: refused, not a stack overflow.
  EXPECT_FALSE(bool(parseJson(std::string(60000, '{'))));
  llvm::consumeError(parseJson(std::string(60000, '{')).takeError());
}

TEST(Views, CsvCellsNeverStartAFormula) {
  // OWASP's CSV injection guidance: a leading = + - @ (or a tab or CR) is
  // quoted behind a ' so that a spreadsheet shows it as text.
  EXPECT_EQ(csvField("=HYPERLINK(\"http://x\")"),
            "\"'=HYPERLINK(\"\"http://x\"\")\"");
  EXPECT_EQ(csvField("+1"), "\"'+1\"");
  EXPECT_EQ(csvField("-cmd|' /C calc'!A0"), "\"'-cmd|' /C calc'!A0\"");
  EXPECT_EQ(csvField("@SUM(A1)"), "\"'@SUM(A1)\"");
  EXPECT_EQ(csvField("\t=1"), "\"'\t=1\"");
  EXPECT_EQ(csvField("tosa.add"), "tosa.add");
  EXPECT_EQ(csvField("a=b"), "a=b");
  EXPECT_EQ(csvField("f32[1, 2]"), "\"f32[1, 2]\"");
}

/// An imported model's ops (TPUPROF_PROBE_NODE): conv [0, 100) and its bias
/// add [100, 130) from node /conv/Conv, an equal conv [200, 260) from
/// /conv2/Conv, a clamp [300, 310) from /relu/Relu, and a negate [400, 405)
/// without a node.
static DumpBuilder nodesDump() {
  DumpBuilder b;
  ProbeInfo conv = probe("tosa.conv2d", "f32[1, 8, 8, 3]", "/conv/Conv", 0xaa);
  conv.node = "/conv/Conv";
  ProbeInfo add = probe("tosa.add", "f32[1, 8, 8, 8]", "/conv/Conv", 0xbb);
  add.node = "/conv/Conv";
  ProbeInfo conv2 = conv;
  conv2.location = conv2.node = "/conv2/Conv";
  ProbeInfo clamp = probe("tosa.clamp", "f32[1, 8, 8, 8]", "m.py:3:1", 0xcc);
  clamp.node = "/relu/Relu";
  b.addModule(0, 0, "model",
              {conv, add, conv2, clamp,
               probe("tosa.negate", "f32[1, 8, 8, 8]", "m.py:4:1", 0xdd)});
  TestThread t;
  t.tid = 7;
  t.records = {{0, 0, ticksAt(0), ticksAt(100), {}, {}},
               {1, 0, ticksAt(100), ticksAt(130), {}, {}},
               {2, 0, ticksAt(200), ticksAt(260), {}, {}},
               {3, 0, ticksAt(300), ticksAt(310), {}, {}},
               {4, 0, ticksAt(400), ticksAt(405), {}, {}}};
  b.header.window_end = ticksAt(500);
  b.threads = {t};
  return b;
}

TEST(Views, NodesAreRowsAColumnAndAGrouping) {
  TempFile d(nodesDump().build());
  Profile p = load({d.str()});
  // Equal convs of two nodes are two rows, each with its node.
  ASSERT_EQ(p.rows.size(), 5u);
  const Row *conv = nullptr, *conv2 = nullptr;
  for (const Row &r : p.rows) {
    if (r.name == "tosa.conv2d" && r.node == "/conv/Conv")
      conv = &r;
    if (r.name == "tosa.conv2d" && r.node == "/conv2/Conv")
      conv2 = &r;
  }
  ASSERT_TRUE(conv && conv2);
  EXPECT_EQ(conv->durationNs, 100u);
  EXPECT_EQ(conv2->durationNs, 60u);
  EXPECT_EQ(row(p, "tosa.negate").node, "");
  EXPECT_EQ(row(p, "tosa.clamp").node, "/relu/Relu");
  EXPECT_EQ(row(p, "tosa.clamp").location(), "m.py:3:1");

  // The table shows a Node column when some row has a node ...
  std::string table = tableOf(p);
  EXPECT_TRUE(contains(table, "Node"));
  EXPECT_TRUE(contains(table, "/relu/Relu"));
  // ... and none when no row does.
  TempFile plain(opsDump().build());
  EXPECT_FALSE(contains(tableOf(load({plain.str()})), "Node").operator bool());

  // --by node: one row per node, named by it; rows without one share "-".
  std::vector<Row> byNode = groupRows(p.rows, GroupBy::Node);
  ASSERT_EQ(byNode.size(), 4u);
  std::map<std::string, const Row *> rows;
  for (const Row &r : byNode)
    rows[r.name] = &r;
  ASSERT_TRUE(rows.count("/conv/Conv") && rows.count("/conv2/Conv") &&
              rows.count("/relu/Relu") && rows.count("-"));
  EXPECT_EQ(rows["/conv/Conv"]->count, 2u);
  EXPECT_EQ(rows["/conv/Conv"]->durationNs, 130u);
  EXPECT_EQ(rows["/conv/Conv"]->node, "/conv/Conv");
  EXPECT_TRUE(rows["/conv/Conv"]->mixedHash);
  EXPECT_EQ(rows["/conv2/Conv"]->durationNs, 60u);
  EXPECT_EQ(rows["-"]->durationNs, 5u);
  llvm::Expected<GroupBy> by = parseGroupBy("node");
  ASSERT_TRUE(bool(by));
  EXPECT_EQ(*by, GroupBy::Node);
  // Grouping by anything else marks a group of several nodes "*".
  std::vector<Row> byFunction = groupRows(p.rows, GroupBy::Function);
  ASSERT_EQ(byFunction.size(), 1u);
  EXPECT_EQ(byFunction[0].node, "*");

  // The exports carry it: CSV's last column, JSON's "node" (read back).
  std::string csv;
  llvm::raw_string_ostream os(csv);
  writeCsv(p, os);
  auto records = parseCsv(csv);
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records[0].back(), "node");
  std::string json;
  llvm::raw_string_ostream js(json);
  writeProfileJson(p, js);
  EXPECT_TRUE(contains(json, "\"node\""));
  EXPECT_TRUE(contains(json, "/conv2/Conv"));
  TempFile j(json, "json");
  Profile back = load({j.str()});
  ASSERT_EQ(back.rows.size(), 5u);
  EXPECT_EQ(tableOf(back), table);
}
