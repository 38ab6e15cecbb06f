//===- unittests/Report/TerminalTest.cpp - What reaches a terminal --------===//
//
// The terminal's width as every table fits it (COLUMNS, else the terminal
// itself), the one escaping of dump text in the text views, and what the
// table and summary say about themselves: why a table has no row, what
// Cum Self % and the summary's busy share are of, incomplete dumps.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/views/Diff.h"
#include "tpuprof/report/views/Listing.h"
#include "tpuprof/report/views/Stacks.h"
#include "tpuprof/report/views/Summary.h"
#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/views/Terminal.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <pty.h>
#include <sys/ioctl.h>
#include <unistd.h>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// Sets or clears COLUMNS for one test, then puts it back.
class ColumnsVariable {
public:
  explicit ColumnsVariable(const char *value) {
    if (const char *old = std::getenv("COLUMNS"))
      saved = old;
    if (value)
      setenv("COLUMNS", value, 1);
    else
      unsetenv("COLUMNS");
  }
  ~ColumnsVariable() {
    if (saved)
      setenv("COLUMNS", saved->c_str(), 1);
    else
      unsetenv("COLUMNS");
  }

private:
  std::optional<std::string> saved;
};

TEST(Terminal, WidthComesFromTheTerminalWhenColumnsIsUnset) {
  int master = -1, slave = -1;
  struct winsize ws = {};
  ws.ws_row = 40;
  ws.ws_col = 100;
  ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, &ws), 0);
  {
    ColumnsVariable unset(nullptr);
    EXPECT_EQ(terminalColumns(slave), 100u);
  }
  {
    ColumnsVariable given("73");
    EXPECT_EQ(terminalColumns(slave), 73u);
  }
  {
    ColumnsVariable bad("wide");
    EXPECT_EQ(terminalColumns(slave), 100u);
  }
  close(master);
  close(slave);
}

TEST(Terminal, NoWidthWhenNotATerminal) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ColumnsVariable given("80");
  EXPECT_EQ(terminalColumns(fds[1]), 0u);
  close(fds[0]);
  close(fds[1]);
}

TEST(Terminal, PrintableEscapesControlCharacters) {
  EXPECT_EQ(printable("tosa.matmul"), "tosa.matmul");
  EXPECT_EQ(printable("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(printable("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(printable(llvm::StringRef("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(printable("del\x7f"), "del\\x7f");
  // UTF-8 stays; C1 controls and stray bytes do not.
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x86\x92"), "caf\xc3\xa9 \xe2\x86\x92");
  EXPECT_EQ(printable("csi\xc2\x9b"), "csi\\u009b");
  EXPECT_EQ(printable("bad\x9b\xff"), "bad\\x9b\\xff");
  EXPECT_EQ(printable("cut\xe2\x86"), "cut\\xe2\\x86");
}

/// A dump whose op names and location carry control characters.
std::string hostileDump() {
  DumpBuilder b;
  b.addModule(0, 0, "m",
              {probe("evil\x1b[31m\n", "f32[1]", "m.mlir:1:1\x07", 0x1),
               probe("fine", "f32[2]", "m.mlir:2:1", 0x2)});
  TestThread t;
  t.records = {{0, 0, ticksAt(100), ticksAt(400), {}, {}},
               {1, 0, ticksAt(500), ticksAt(900), {}, {}}};
  b.threads = {t};
  b.header.window_end = ticksAt(1000);
  return b.build();
}

TEST(Terminal, TextViewsEscapeNamesFromTheDump) {
  TempFile d(hostileDump());
  Input in = input({d.str()});
  std::string table, summary, listing, stacks;
  llvm::raw_string_ostream t(table), s(summary), l(listing), f(stacks);
  ASSERT_FALSE(bool(printTable(in, TableOptions(), t)));
  ASSERT_FALSE(bool(printSummary(in, 0, s)));
  ASSERT_FALSE(bool(printSourceListing(in, "", l)));
  llvm::Expected<std::map<std::string, uint64_t>> folded =
      foldStacks(in, /*shapes=*/false);
  ASSERT_TRUE(bool(folded));
  writeFoldedStacks(*folded, StacksOptions::Format::Folded, in, f);
  for (const std::string *out : {&table, &summary, &stacks}) {
    EXPECT_EQ(out->find('\x1b'), std::string::npos) << *out;
    EXPECT_EQ(out->find("evil\n"), std::string::npos) << *out;
    EXPECT_TRUE(contains(*out, "evil\\x1b[31m")) << *out;
  }
  EXPECT_TRUE(contains(table, "evil\\x1b[31m\\n")) << table;
  EXPECT_TRUE(contains(table, "m.mlir:1:1\\x07")) << table;
  EXPECT_EQ(table.find('\x07'), std::string::npos);
  EXPECT_EQ(listing.find('\x07'), std::string::npos) << listing;

  std::string diff;
  llvm::raw_string_ostream o(diff);
  DiffOptions opts;
  opts.failAbovePct = -1;
  ASSERT_TRUE(bool(printDiff(in, in, opts, o)));
  EXPECT_EQ(diff.find('\x1b'), std::string::npos) << diff;
  EXPECT_TRUE(contains(diff, "evil\\x1b[31m\\n")) << diff;
}

TEST(Terminal, EmptyTableSaysWhy) {
  // A module with no probe: nothing was instrumented.
  DumpBuilder none;
  none.addModule(0, 0, "m", {});
  none.header.window_end = ticksAt(1000);
  TempFile a(none.build());
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printTable(input({a.str()}), TableOptions(), os)));
  EXPECT_TRUE(contains(out, "(no rows: no op has a probe")) << out;

  // Probes, but none ran in the window.
  DumpBuilder idle;
  idle.addModule(0, 0, "m", {probe("op", "", "", 0x1), probe("b", "", "", 2)});
  idle.header.window_end = ticksAt(1000);
  TempFile b(idle.build());
  out.clear();
  ASSERT_FALSE(bool(printTable(input({b.str()}), TableOptions(), os)));
  EXPECT_TRUE(contains(out, "(no rows: 2 ops have probes, but none ran"))
      << out;
}

TEST(Terminal, SummaryBusyShareIsOfThreadsTimesWindow) {
  // Eight threads each busy for 90 % of the window: 90 %, never 720 %.
  DumpBuilder b;
  b.addModule(0, 0, "m", {probe("op", "", "m.mlir:1:1", 0x1)});
  for (uint64_t tid = 1; tid <= 8; ++tid) {
    TestThread t;
    t.tid = tid;
    t.records = {{0, 0, ticksAt(0), ticksAt(900), {}, {}}};
    b.threads.push_back(t);
  }
  b.header.window_end = ticksAt(1000);
  b.header.flags = 0; // Not closed by a clean flush.
  TempFile d(b.build());
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printSummary(input({d.str()}, true, false), 0, os)));
  EXPECT_TRUE(contains(out, "(90.00% of threads x window)")) << out;
  EXPECT_FALSE(contains(out, "(720.00%")) << out;
  EXPECT_TRUE(contains(out, "Incomplete dumps: 1 (not closed by a clean "
                            "flush; records may be missing)"))
      << out;
  EXPECT_TRUE(contains(out, "incomplete: not closed by a clean flush")) << out;
}

TEST(Terminal, CumulativeColumnSaysWhatItAdds) {
  TempFile d(hostileDump());
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printTable(input({d.str()}), TableOptions(), os)));
  EXPECT_TRUE(contains(out, "Cum Self %")) << out;
}

} // namespace
