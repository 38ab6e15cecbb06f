//===- report/views/Workbook.cpp - The .xlsx workbook ---------------------===//
//
// libxlsxwriter in constant-memory mode: each sheet is written row by row
// to a temporary file, so a workbook of a million records stays small in
// memory. docs/report.md ("bundle") lists the sheets and their columns.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Workbook.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/model/Walk.h"
#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/views/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#ifdef TPUPROF_HAVE_XLSXWRITER
#include <xlsxwriter.h>

#include <cerrno>
#include <cstdio>

#include <fcntl.h>
#include <unistd.h>
#endif

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

#ifdef TPUPROF_HAVE_XLSXWRITER
namespace {

/// One sheet, written row by row (constant-memory mode needs that order).
class Sheet {
public:
  Sheet(lxw_workbook *book, const char *name, lxw_format *bold)
      : ws(workbook_add_worksheet(book, name)), bold(bold) {}

  /// A bold header row; columns as wide as `widths` says.
  void header(ArrayRef<std::string> titles, ArrayRef<double> widths = {}) {
    for (size_t c = 0; c != titles.size(); ++c) {
      check(worksheet_write_string(ws, row, c, titles[c].c_str(), bold));
      if (c < widths.size())
        worksheet_set_column(ws, c, c, widths[c], nullptr);
    }
    worksheet_freeze_panes(ws, 1, 0);
    ++row;
  }
  void text(lxw_col_t col, StringRef s) {
    // A cell holds at most 32 767 characters.
    std::string t = s.take_front(32767).str();
    check(worksheet_write_string(ws, row, col, t.c_str(), nullptr));
  }
  void number(lxw_col_t col, double v) {
    check(worksheet_write_number(ws, row, col, v, nullptr));
  }
  void cell(lxw_col_t col, const ExportCell &c) {
    if (c.kind == ExportCell::Text) {
      if (!c.text.empty())
        text(col, c.text);
    } else {
      number(col, c.kind == ExportCell::Real ? c.real : double(c.integer));
    }
  }
  /// Row by row; false once the sheet is full.
  bool next() { return ++row < LXW_ROW_MAX; }
  bool full() const { return row >= LXW_ROW_MAX; }
  lxw_error error = LXW_NO_ERROR;

private:
  void check(lxw_error e) {
    if (e != LXW_NO_ERROR && error == LXW_NO_ERROR)
      error = e;
  }
  lxw_worksheet *ws;
  lxw_format *bold;
  lxw_row_t row = 0;
};

} // namespace

bool tpuprof::report::workbookAvailable() { return true; }

namespace {

/// libxlsxwriter prints its own "[ERROR] ..." lines to stderr when it
/// cannot write; the error this file returns says the same in one line.
class StderrMuted {
public:
  StderrMuted() {
    std::fflush(stderr);
    int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    saved = null >= 0 ? ::fcntl(2, F_DUPFD_CLOEXEC, 3) : -1;
    if (saved >= 0)
      ::dup2(null, 2);
    if (null >= 0)
      ::close(null);
  }
  ~StderrMuted() {
    std::fflush(stderr);
    if (saved >= 0) {
      ::dup2(saved, 2);
      ::close(saved);
    }
  }

private:
  int saved = -1;
};

lxw_error closeQuietly(lxw_workbook *book) {
  StderrMuted muted;
  return workbook_close(book);
}

/// Writes the workbook to `file` (a new, empty file or a device); errors
/// name `path`.
Error writeBook(const Input &in, StringRef file, StringRef path) {
  const Profile &p = in.profile;
  lxw_workbook_options options = {};
  options.constant_memory = LXW_TRUE;
  lxw_workbook *book;
  {
    StderrMuted muted;
    book = workbook_new_opt(file.str().c_str(), &options);
  }
  if (!book)
    return createStringError(path + ": cannot create the workbook");
  lxw_format *bold = workbook_add_format(book);
  format_set_bold(bold);
  auto fail = [&](const Twine &what) {
    closeQuietly(book);
    return createStringError(path + ": " + what);
  };

  // Records first: their count decides what the summary says of them.
  // Sheets appear in the order they are added, so add them all up front.
  Sheet summary(book, "Summary", bold), ops(book, "Ops", bold),
      records(book, "Records", bold), threads(book, "Threads", bold);

  records.header({"run", "dump", "device", "tid", "seq", "name", "kind",
                  "depth", "parent_seq", "begin_ns", "duration_ns", "self_ns",
                  "shapes", "unfinished"},
                 {5, 5, 7, 10, 8, 28, 7, 6, 10, 14, 12, 12, 40, 10});
  uint64_t written = 0, total = 0;
  int64_t dumpIndex = -1;
  Error err = in.forEachDump("workbook", [&](const DumpReader &dump,
                                             const DumpSummary &d) {
    ++dumpIndex;
    const DumpInfo &info = dump.info();
    uint64_t origin = absoluteNs(info, info.windowBegin);
    uint64_t tid = 0;
    SmallVector<int64_t, 8> dims;
    walkDump(
        dump, in.overheadCorrection,
        [&](const WalkFrame &f, ArrayRef<WalkFrame> up) {
          ++total;
          if (records.full())
            return;
          records.number(0, double(runNumber(p, d.run)));
          records.number(1, double(dumpIndex));
          records.number(2, info.device);
          records.number(3, double(tid));
          records.number(4, double(f.seq));
          records.text(
              5, f.probe
                     ? f.probe->name.str()
                     : ("<unknown probe " + Twine(f.record.probe) + ">").str());
          records.text(6, f.probe ? kindName(f.probe->kind) : "unknown");
          records.number(7, f.record.depth);
          if (!up.empty())
            records.number(8, double(up.back().seq));
          records.number(9, double(f.beginNs - std::min(f.beginNs, origin)));
          if (f.finished) {
            records.number(10, double(f.durationNs));
            records.number(11, double(f.selfNs()));
          }
          if (f.probe) {
            dims.clear();
            for (unsigned i = 0; i != f.record.numDims; ++i)
              dims.push_back(f.record.dim(i));
            records.text(12, substituteShapes(f.probe->shapes, dims));
          }
          if (!f.finished)
            records.number(13, 1);
          records.next();
          ++written;
        },
        [&](const ThreadInfo &t) { tid = t.tid; });
    return Error::success();
  });
  if (err) {
    closeQuietly(book);
    return err;
  }

  // Summary: what the table's configuration block and the summary say.
  summary.header({"item", "value"}, {28, 90});
  auto line = [&](StringRef key, const Twine &value) {
    summary.text(0, key);
    summary.text(1, value.str());
    summary.next();
  };
  auto numberLine = [&](StringRef key, double value) {
    summary.text(0, key);
    summary.number(1, value);
    summary.next();
  };
  line("inputs", join(in.args, " "));
  numberLine("runs", double(p.runs.size()));
  if (p.runs.size() > 1)
    line("runs are", p.runsMerged ? "added up (--merge-runs)"
                                  : "kept apart (the Run column)");
  numberLine("dumps", double(p.dumps.size()));
  numberLine("threads", double(p.threads));
  numberLine("records", double(p.records));
  numberLine("window_ns", double(p.totalNs));
  numberLine("covered_ns (Sum)", double(p.coveredNs));
  numberLine("covered_percent",
             p.totalNs ? 100.0 * double(p.coveredNs) / double(p.totalNs) : 0);
  numberLine("dropped_records", double(p.dropped));
  numberLine("unfinished_probes", double(p.unfinished));
  numberLine("resolution_ns", double(resolutionNs(p)));
  for (const DumpSummary &d : p.dumps)
    line("overhead correction",
         describeCorrection(d.correction, d.info) + " (" + d.path + ")");
  if (written < total)
    line("records sheet", formatv("the first {0} of {1} records (a sheet "
                                  "holds {2} rows; the SQLite export has all)",
                                  written, total, LXW_ROW_MAX - 1));

  // Ops: the exports' columns (Columns.h), then the PMU events.
  std::vector<const Column *> columns = exportColumns();
  std::vector<std::string> titles;
  std::vector<size_t> events;
  for (const Column *c : columns)
    titles.push_back(c->exportName.str());
  for (size_t e = 0; e != p.events.size(); ++e)
    if (!isPseudoEvent(p.events[e])) {
      events.push_back(e);
      titles.push_back(p.events[e]);
    }
  ops.header(titles, {28});
  std::vector<uint64_t> runTotal = runTotals(p);
  ColumnContext ctx{p};
  for (const Row &r : p.rows) {
    ctx.totalNs = runTotal[std::min<size_t>(r.run, runTotal.size() - 1)];
    lxw_col_t c = 0;
    for (const Column *col : columns)
      ops.cell(c++, col->exportCell(r, ctx));
    for (size_t e : events)
      ops.number(c++, e < r.counters.size() ? double(r.counters[e]) : 0);
    if (!ops.next())
      break;
  }

  // Threads: the summary's per-thread lines.
  std::vector<std::string> threadTitles = {
      "run", "device", "pid", "tid", "window_ns", "busy_ns", "busy_percent"};
  for (const KindColumn &k : kKindColumns)
    threadTitles.push_back(k.exportName);
  for (const char *title : {"records", "unfinished", "dropped"})
    threadTitles.push_back(title);
  threads.header(threadTitles);
  for (const DumpSummary &d : p.dumps)
    for (const ThreadSummary &t : d.threadStats) {
      uint64_t busy = t.totalBusyNs();
      auto share = [&](uint64_t ns) {
        return d.windowNs ? 100.0 * double(ns) / double(d.windowNs) : 0.0;
      };
      std::vector<double> cells = {double(runNumber(p, d.run)),
                                   double(d.info.device),
                                   double(d.info.pid),
                                   double(t.tid),
                                   double(d.windowNs),
                                   double(busy),
                                   share(busy)};
      for (uint64_t ns : t.busyNs)
        cells.push_back(share(ns));
      for (uint64_t n : {t.records, t.unfinished, t.dropped})
        cells.push_back(double(n));
      for (lxw_col_t c = 0; c != cells.size(); ++c)
        threads.number(c, cells[c]);
      threads.next();
    }

  for (const Sheet *s : {&summary, &ops, &records, &threads})
    if (s->error != LXW_NO_ERROR)
      return fail(Twine("cannot write a cell: ") + lxw_strerror(s->error));
  errno = 0;
  lxw_error closed = closeQuietly(book);
  if (closed != LXW_NO_ERROR) {
    // lxw_strerror() guesses ("usually a permissions error"); errno says
    // what the system refused (a full disk, a file size limit).
    int sys = errno;
    return createStringError(
        path + ": cannot write the workbook: " +
        (sys ? std::error_code(sys, std::generic_category()).message()
             : std::string(lxw_strerror(closed))));
  }
  return Error::success();
}

} // namespace

Error tpuprof::report::writeWorkbook(const Input &in, StringRef path,
                                     SpecialFiles special) {
  if (Error err = in.needDumps("the workbook"))
    return err;
  return writeFileAtomically(
      path, [&](StringRef tmp) { return writeBook(in, tmp, path); }, special);
}
#else
bool tpuprof::report::workbookAvailable() { return false; }

Error tpuprof::report::writeWorkbook(const Input &, StringRef, SpecialFiles) {
  return createStringError("this tpuprof-report was built without the .xlsx "
                           "workbook (install libxlsxwriter-dev and "
                           "reconfigure)");
}
#endif
