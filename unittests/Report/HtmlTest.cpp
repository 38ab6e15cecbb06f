//===- HtmlTest.cpp - The HTML report's escaping and data -----------------===//
//
// ScriptJsonStream and escapeHtml on hostile text (including UTF-8 line
// separators split across writes), and writeHtmlReport on hand-built dumps:
// the JSON in the page parses back to the rows and records, hostile names
// cannot close the <script> element, and above maxEvents the timeline's
// buckets add up to the table's Sum.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Html.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// `text` written through a ScriptJsonStream in pieces of `chunk` bytes.
std::string scriptSafe(llvm::StringRef text, size_t chunk) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    ScriptJsonStream safe(os);
    safe.SetUnbuffered(); // Every write reaches write_impl as written.
    for (size_t i = 0; i < text.size(); i += chunk)
      safe << text.substr(i, chunk);
    safe.finish();
  }
  return out;
}

TEST(Html, ScriptJsonStreamEscapesWhatCouldEndTheScript) {
  std::string json = llvm::formatv(
      "{0}", llvm::json::Value(llvm::json::Object{
                 {"name", "</script><script>alert(1)</script><!-- & "
                          "\xE2\x80\xA8 \xE2\x80\xA9 \xE2\x80\x99"}}));
  for (size_t chunk : {1, 2, 3, 5, 1000}) {
    std::string out = scriptSafe(json, chunk);
    SCOPED_TRACE(chunk);
    EXPECT_EQ(out.find('<'), std::string::npos);
    EXPECT_EQ(out.find('>'), std::string::npos);
    EXPECT_EQ(out.find('&'), std::string::npos);
    EXPECT_EQ(out.find("\xE2\x80\xA8"), std::string::npos);
    EXPECT_EQ(out.find("\xE2\x80\xA9"), std::string::npos);
    EXPECT_TRUE(contains(out, "\\u003c/script\\u003e"));
    EXPECT_TRUE(contains(out, "\\u2028 \\u2029 \xE2\x80\x99")); // U+2019 stays.
    // Same value after parsing.
    llvm::Expected<llvm::json::Value> back = llvm::json::parse(out);
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    llvm::Expected<llvm::json::Value> orig = llvm::json::parse(json);
    ASSERT_TRUE(bool(orig));
    EXPECT_EQ(*back, *orig);
  }
  // A trailing E2 or E2 80 is held back, then written as it was.
  EXPECT_EQ(scriptSafe("a\xE2\x80", 1000), "a\xE2\x80");
  EXPECT_EQ(scriptSafe("a\xE2", 1), "a\xE2");
}

TEST(Html, EscapeHtml) {
  EXPECT_EQ(escapeHtml("<img src=x onerror='a(\"b\")'>&"),
            "&lt;img src=x onerror=&#39;a(&quot;b&quot;)&#39;&gt;&amp;");
  EXPECT_EQ(escapeHtml("plain"), "plain");
}

/// The page's JSON data, parsed.
llvm::json::Value pageData(const std::string &page) {
  llvm::StringRef start =
      "<script type=\"application/json\" id=\"tpuprof-data\">";
  size_t b = page.find(start.str());
  EXPECT_NE(b, std::string::npos);
  b += start.size();
  size_t e = page.find("</script>", b);
  llvm::Expected<llvm::json::Value> v =
      llvm::json::parse(llvm::StringRef(page).slice(b, e));
  if (!v) {
    ADD_FAILURE() << llvm::toString(v.takeError());
    return nullptr;
  }
  return std::move(*v);
}

std::string writePage(const std::vector<std::string> &dumps,
                      const HtmlOptions &opts) {
  std::string page;
  llvm::raw_string_ostream os(page);
  llvm::Error err = writeHtmlReport(input(dumps), opts, os);
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  return page;
}

size_t occurrences(llvm::StringRef haystack, llvm::StringRef needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != llvm::StringRef::npos;
       at = haystack.find(needle, at + 1))
    ++n;
  return n;
}

TEST(Html, HostileNamesStayData) {
  DumpBuilder b;
  std::string hostile = "</script><script>window.__pwned=1</script>";
  std::string hostileLoc = "<img src=x onerror=alert(1)>.mlir:2:1";
  b.addModule(0, 0, "m",
              {probe(hostile, "f32[1]", hostileLoc, 0x11),
               probe("inner", "", "", 0x12)});
  TestThread t;
  t.records = {{0, 0, ticksAt(100), ticksAt(400), {}, {}},
               {1, 1, ticksAt(150), ticksAt(250), {}, {}}};
  b.threads = {t};
  TempFile d(b.build(), "dump");
  HtmlOptions opts;
  opts.title = "<b>title</b>";
  std::string page = writePage({d.str()}, opts);
  // Only the page's own two script elements, and no raw hostile text.
  EXPECT_EQ(occurrences(llvm::StringRef(page).lower(), "</script"), 2u);
  EXPECT_EQ(occurrences(llvm::StringRef(page).lower(), "<script"), 2u);
  EXPECT_EQ(page.find(hostile), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_TRUE(contains(page, "<title>&lt;b&gt;title&lt;/b&gt;</title>"));
  // The heading says the title too, not the default.
  EXPECT_TRUE(contains(page, "<h1>&lt;b&gt;title&lt;/b&gt;</h1>"));
  EXPECT_FALSE(contains(page, "<h1>tpuprof report</h1>"));

  llvm::json::Value v = pageData(page);
  const llvm::json::Object *o = v.getAsObject();
  ASSERT_TRUE(o);
  const llvm::json::Array *rows = o->getArray("rows");
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 2u);
  const llvm::json::Object *first = (*rows)[0].getAsObject();
  EXPECT_EQ(first->getString("name"), llvm::StringRef(hostile));
  EXPECT_EQ((*first->getArray("locations"))[0].getAsString(),
            llvm::StringRef(hostileLoc));
  EXPECT_EQ(first->getInteger("durationNs"), 300);
  EXPECT_EQ(first->getInteger("selfNs"), 200);

  // Events: one lane, begin deltas from the window origin, nesting depth.
  const llvm::json::Object *tl = o->getObject("timeline");
  EXPECT_EQ(tl->getString("mode"), llvm::StringRef("events"));
  const llvm::json::Object *lane = (*tl->getArray("lanes"))[0].getAsObject();
  const llvm::json::Array *begin = lane->getArray("begin");
  const llvm::json::Array *dur = lane->getArray("dur");
  const llvm::json::Array *depth = lane->getArray("depth");
  ASSERT_EQ(begin->size(), 2u);
  EXPECT_EQ((*dur)[0].getAsInteger(), 300);
  EXPECT_EQ((*dur)[1].getAsInteger(), 100);
  EXPECT_EQ((*begin)[1].getAsInteger(), 50); // 150 - 100 ns.
  EXPECT_EQ((*depth)[0].getAsInteger(), 0);
  EXPECT_EQ((*depth)[1].getAsInteger(), 1);
}

TEST(Html, BucketsAddUpToTheSum) {
  DumpBuilder b;
  b.addModule(
      0, 0, "m",
      {probe("a", "", "a.mlir:1:1", 0x11), probe("b", "", "a.mlir:2:1", 0x12)});
  TestThread t;
  uint64_t covered = 0;
  for (uint64_t i = 0; i != 500; ++i) {
    uint64_t at = i * 1000;
    t.records.push_back(
        {uint32_t(i % 2), 0, ticksAt(at), ticksAt(at + 300 + i % 7), {}, {}});
    t.records.push_back({1, 1, ticksAt(at + 10), ticksAt(at + 20), {}, {}});
    covered += 300 + i % 7;
  }
  b.threads = {t};
  b.header.window_end = ticksAt(600000);
  TempFile d(b.build(), "dump");
  HtmlOptions opts;
  opts.maxEvents = 100;
  opts.buckets = 64;
  llvm::json::Value v = pageData(writePage({d.str()}, opts));
  const llvm::json::Object *o = v.getAsObject();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getObject("totals")->getInteger("covered_ns"), int64_t(covered));
  const llvm::json::Object *tl = o->getObject("timeline");
  EXPECT_EQ(tl->getString("mode"), llvm::StringRef("buckets"));
  const llvm::json::Object *lane = (*tl->getArray("lanes"))[0].getAsObject();
  const llvm::json::Array *busy = lane->getArray("busy");
  const llvm::json::Array *count = lane->getArray("count");
  const llvm::json::Array *top = lane->getArray("top");
  ASSERT_EQ(busy->size(), 64u);
  int64_t busySum = 0, countSum = 0;
  for (size_t i = 0; i != busy->size(); ++i) {
    busySum += *(*busy)[i].getAsInteger();
    countSum += *(*count)[i].getAsInteger();
    EXPECT_LE(*(*busy)[i].getAsInteger(), *tl->getInteger("bucketNs"));
  }
  EXPECT_EQ(busySum, int64_t(covered));
  EXPECT_EQ(countSum, 1000);
  // Each bucket's top op is a top-level record's site.
  const llvm::json::Array *sites = o->getArray("sites");
  EXPECT_GE(*(*top)[0].getAsInteger(), 0);
  EXPECT_LT(*(*top)[0].getAsInteger(), int64_t(sites->size()));
}

TEST(Html, CorrectedDurationsMatchTheTable) {
  // Probe cost 5 ns per record (self) and 20 ns per nested pair: the parent
  // (400 ns, one child) reports 400 - 5 - 20, the child 100 - 5.
  DumpBuilder b;
  b.calibrate(5, 20);
  b.addModule(0, 0, "m",
              {probe("outer", "", "", 0x11), probe("inner", "", "", 0x12)});
  TestThread t;
  t.records = {{0, 0, ticksAt(100), ticksAt(500), {}, {}},
               {1, 1, ticksAt(150), ticksAt(250), {}, {}}};
  b.threads = {t};
  TempFile d(b.build(), "dump");
  for (uint64_t maxEvents : {100, 1}) {
    HtmlOptions opts;
    opts.maxEvents = maxEvents;
    opts.buckets = 8;
    llvm::json::Value v = pageData(writePage({d.str()}, opts));
    const llvm::json::Object *o = v.getAsObject();
    ASSERT_TRUE(o);
    EXPECT_EQ(o->getObject("totals")->getInteger("covered_ns"), 375);
    const llvm::json::Object *lane = (*o->getArray("lanes"))[0].getAsObject();
    EXPECT_EQ((*lane->getArray("byKind"))[0].getAsInteger(), 375);
    const llvm::json::Object *tl = o->getObject("timeline");
    const llvm::json::Object *cols = (*tl->getArray("lanes"))[0].getAsObject();
    if (maxEvents == 100) {
      // Positions stay as recorded; the correction rides along per record.
      EXPECT_EQ((*cols->getArray("dur"))[0].getAsInteger(), 400);
      EXPECT_EQ((*cols->getArray("corrected"))[0].getAsInteger(), 25);
      EXPECT_EQ((*cols->getArray("corrected"))[1].getAsInteger(), 5);
    } else {
      int64_t busy = 0;
      for (const llvm::json::Value &x : *cols->getArray("busy"))
        busy += *x.getAsInteger();
      EXPECT_EQ(busy, 375);
    }
  }
}

TEST(Html, LanesCountersAndUnfinishedRecords) {
  // Two threads of device 3 (mode 1): a nested launch with counters, an
  // unfinished relu on the second thread, a dynamic shape.
  TempFile d(sampleDump().build(), "dump");
  llvm::json::Value v = pageData(writePage({d.str()}, HtmlOptions()));
  const llvm::json::Object *o = v.getAsObject();
  ASSERT_TRUE(o);
  const llvm::json::Array *events = o->getArray("events");
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[0].getAsString(), llvm::StringRef("perf::TASK-CLOCK"));
  const llvm::json::Array *lanes = o->getArray("lanes");
  ASSERT_EQ(lanes->size(), 2u);
  const llvm::json::Object *l7 = (*lanes)[0].getAsObject();
  EXPECT_EQ(l7->getInteger("device"), 3);
  EXPECT_EQ(l7->getInteger("tid"), 7);
  EXPECT_EQ(l7->getInteger("dropped"), 1);
  EXPECT_EQ(l7->getInteger("maxDepth"), 1);
  // Top-level time by kind: the op (200 ns) and the relu (50 ns).
  EXPECT_EQ((*l7->getArray("byKind"))[0].getAsInteger(), 250);
  EXPECT_EQ((*l7->getArray("byKind"))[1].getAsInteger(), 0);
  EXPECT_EQ((*lanes)[1].getAsObject()->getInteger("unfinished"), 1);
  // Counter totals over top-level records only: 10 + 2 task-clock.
  const llvm::json::Object *totals =
      o->getObject("counterTotals")->getObject("3");
  ASSERT_TRUE(totals);
  EXPECT_EQ(totals->getInteger("perf::TASK-CLOCK"), 12);
  EXPECT_EQ(totals->getInteger("perf::PAGE-FAULTS"), 1);
  // Per record, in begin order: counters (two per record), sites pointing
  // at the row with the actual shapes.
  const llvm::json::Array *tlLanes =
      o->getObject("timeline")->getArray("lanes");
  const llvm::json::Object *c7 = (*tlLanes)[0].getAsObject();
  const llvm::json::Array *counters = c7->getArray("counters");
  ASSERT_EQ(counters->size(), 6u);
  EXPECT_EQ((*counters)[0].getAsInteger(), 10);
  EXPECT_EQ((*counters)[1].getAsInteger(), 1);
  EXPECT_EQ((*counters)[2].getAsInteger(), 5);
  const llvm::json::Array *sites = o->getArray("sites");
  int64_t site0 = *(*c7->getArray("site"))[0].getAsInteger();
  int64_t row0 = *(*(*sites)[site0].getAsArray())[0].getAsInteger();
  const llvm::json::Object *row = (*o->getArray("rows"))[row0].getAsObject();
  EXPECT_EQ(row->getString("name"), llvm::StringRef("tosa.fully_connected"));
  EXPECT_EQ(row->getString("shapes"),
            llvm::StringRef("f32[4, 784], f32[128, 784]"));
  const llvm::json::Object *c8 = (*tlLanes)[1].getAsObject();
  ASSERT_EQ(c8->getArray("unfinished")->size(), 1u);
  EXPECT_EQ((*c8->getArray("unfinished"))[0].getAsInteger(), 0);
}

TEST(Html, InputErrorsComeBeforeOutput) {
  DumpBuilder b;
  b.addModule(0, 0, "m", {probe("a", "", "", 0x11)});
  TestThread t;
  t.records = {{0, 0, ticksAt(0), ticksAt(10), {}, {}}};
  b.threads = {t};
  TempFile d(b.build(), "dump");
  HtmlOptions opts;
  opts.irPath = "/nonexistent/model.mlir";
  std::string page;
  llvm::raw_string_ostream os(page);
  llvm::Error err = writeHtmlReport(input({d.str()}), opts, os);
  ASSERT_TRUE(bool(err));
  EXPECT_TRUE(contains(llvm::toString(std::move(err)),
                       "/nonexistent/model.mlir: cannot open"));
  EXPECT_TRUE(page.empty());
}

} // namespace
