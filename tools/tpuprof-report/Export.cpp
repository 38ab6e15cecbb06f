//===- tools/tpuprof-report/Export.cpp - `tpuprof-report export` ----------===//
//
// CSV, JSON and SQLite exports (views/Export.h, views/Sqlite.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Sqlite.h"

#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("export options");

cl::SubCommand exportCmd("export", "Rows as CSV or JSON, or every record "
                                   "as a SQLite database");
cl::list<std::string> exportDumps(cl::Positional, cl::OneOrMore,
                                  cl::desc("<dump, directory or .json>..."),
                                  cl::sub(exportCmd), cl::cat(options));
cl::opt<std::string> exportFormat("format",
                                  cl::desc("csv, json or sqlite"),
                                  cl::value_desc("FORMAT"), cl::Required,
                                  cl::sub(exportCmd), cl::cat(options));
cl::opt<std::string> exportOut(
    "o", cl::desc("Output file ('-': stdout; required for sqlite)"),
    cl::value_desc("FILE"), cl::init("-"), cl::sub(exportCmd),
    cl::cat(options));

int runExport() {
  if (exportFormat == "sqlite") {
    if (exportOut == "-")
      return fail(errorf("export --format sqlite needs -o FILE"));
    Expected<Input> in = load(exportDumps);
    if (!in)
      return fail(in.takeError());
    if (Error err = exportSqlite(*in, exportOut))
      return fail(std::move(err));
    return 0;
  }
  if (exportFormat != "csv" && exportFormat != "json")
    return fail(errorf("--format: unknown format '" + exportFormat +
                       "' (expected one of: csv, json, sqlite)"));
  Expected<Input> in = load(exportDumps);
  if (!in)
    return fail(in.takeError());
  // JSON carries the dropped count; a CSV table has no place for it.
  if (std::string lost = lossSummary(in->profile);
      !lost.empty() && exportFormat == "csv")
    WithColor::warning(errs(), "tpuprof-report export") << lost << '\n';
  return withOutput(exportOut, [&](raw_ostream &o) {
    if (exportFormat == "csv")
      writeCsv(*in, o);
    else
      writeProfileJson(*in, o);
    return Error::success();
  });
}

Subcommand registration(exportCmd, options, runExport);

} // namespace
