//===- report/views/Bundle.cpp - Every view at once -----------------------===//
//
// One Input, read once, then each view into its own file. A file is written
// to a new temporary beside it (OutputFile.h: O_EXCL, so nothing planted in
// the directory is followed) and renamed when the view succeeded, so an
// error leaves no half-written file (and no file that was not named).
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Bundle.h"
#include "tpuprof/report/model/Progress.h"
#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Graph.h"
#include "tpuprof/report/views/OutputFile.h"
#include "tpuprof/report/views/Sqlite.h"
#include "tpuprof/report/views/Stacks.h"
#include "tpuprof/report/views/Summary.h"
#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/views/Trace.h"
#include "tpuprof/report/views/Workbook.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <functional>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

/// Each file through OutputFile.h: a temporary beside it, created with
/// O_EXCL, renamed when the view succeeded. The names are ours, not the
/// user's: whatever is there (a symlink, a FIFO) is replaced, never
/// written through.
Error writeFile(StringRef path, function_ref<Error(raw_ostream &)> write) {
  return writeStreamAtomically(path, write, SpecialFiles::Replace);
}

} // namespace

Error tpuprof::report::writeBundle(const Input &input,
                                   const BundleOptions &opts, StringRef outDir,
                                   raw_ostream &notes) {
  if (Error err = input.needDumps("bundle"))
    return err;
  if (std::error_code ec = sys::fs::create_directories(outDir))
    return createStringError(outDir +
                             ": cannot create the directory: " + ec.message());
  // The bundle draws one bar over its files, not one per view.
  Input in = input;
  in.progress = false;
  auto file = [&](StringRef name) {
    SmallString<256> p(outDir);
    sys::path::append(p, name);
    return std::string(p);
  };
  // The table as a file: every default column, no colours.
  TableOptions table;
  table.stats = true;
  std::map<std::string, uint64_t> folded;
  struct Step {
    const char *name;
    std::function<Error()> write;
  };
  std::vector<Step> steps = {
      {"report.html",
       [&] {
         return writeFile(file("report.html"), [&](raw_ostream &os) {
           return writeHtmlReport(in, opts.html, os);
         });
       }},
      {"trace.json",
       [&] {
         return writeFile(file("trace.json"), [&](raw_ostream &os) {
           return writeTrace(in, TraceOptions(), os);
         });
       }},
      {"summary.txt",
       [&] {
         return writeFile(file("summary.txt"), [&](raw_ostream &os) {
           return printSummary(in, 10, os);
         });
       }},
      {"table.txt",
       [&] {
         return writeFile(file("table.txt"), [&](raw_ostream &os) {
           return printTable(in, table, os);
         });
       }},
      {"ops.csv",
       [&] {
         return writeFile(file("ops.csv"), [&](raw_ostream &os) {
           writeCsv(in, os);
           return Error::success();
         });
       }},
      {"profile.json",
       [&] {
         return writeFile(file("profile.json"), [&](raw_ostream &os) {
           writeProfileJson(in, os);
           return Error::success();
         });
       }},
      {"stacks.folded",
       [&]() -> Error {
         Expected<std::map<std::string, uint64_t>> f = foldStacks(in, false);
         if (!f)
           return f.takeError();
         folded = std::move(*f);
         return writeFile(file("stacks.folded"), [&](raw_ostream &os) {
           writeFoldedStacks(folded, StacksOptions::Format::Folded, in, os);
           return Error::success();
         });
       }},
      {"stacks.speedscope.json",
       [&] {
         return writeFile(file("stacks.speedscope.json"), [&](raw_ostream &os) {
           writeFoldedStacks(folded, StacksOptions::Format::Speedscope, in, os);
           return Error::success();
         });
       }},
      {"graph.dot",
       [&] {
         return writeFile(file("graph.dot"), [&](raw_ostream &os) {
           return writeGraph(in, GraphOptions(), os);
         });
       }},
  };
  // Views this tpuprof-report may have been built without.
  auto optional = [&](const char *name, bool available,
                      Error (*write)(const Input &, StringRef, SpecialFiles),
                      const char *needs) {
    if (!available) {
      notes << "tpuprof-report bundle: no " << name
            << ": this tpuprof-report was built without " << needs << "\n";
      return;
    }
    // These writers are atomic themselves (OutputFile.h).
    steps.push_back({name, [&, name, write] {
                       return write(in, file(name), SpecialFiles::Replace);
                     }});
  };
  optional("profile.sqlite", sqliteAvailable(), exportSqlite,
           "SQLite (install libsqlite3-dev)");
  optional("report.xlsx", workbookAvailable(), writeWorkbook,
           "libxlsxwriter (install libxlsxwriter-dev)");

  Progress bar(opts.progress, "bundle", steps.size());
  for (const Step &s : steps) {
    if (Error err = s.write())
      return err;
    bar.advance(1);
  }
  return Error::success();
}
