//===- tools/tpuprof-report/Export.cpp - `tpuprof-report export` ----------===//
//
// CSV, JSON and SQLite exports (views/Export.h, views/Sqlite.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Sqlite.h"
#include "tpuprof/report/views/Workbook.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("export options");

cl::SubCommand
    exportCmd("export",
              "Rows as CSV, JSON or .xlsx, or every record as SQLite");

/// What `tpuprof-report export --help` says after the options.
const char *const kAbout =
    "The rows as CSV (for spreadsheets) or JSON (lossless; every row view\n"
    "reads it back), or every record as a SQLite database.\n\nExamples:\n"
    "  tpuprof-report export --format csv -o ops.csv run/\n"
    "  tpuprof-report export --format json -o run.json run/\n"
    "  tpuprof-report export --format sqlite -o run.sqlite run/\n";
cl::list<std::string> exportDumps(cl::Positional, cl::OneOrMore,
                                  cl::desc("<dump, directory or .json>..."),
                                  cl::sub(exportCmd), cl::cat(options));
cl::opt<std::string>
    exportFormat("format", cl::desc("csv, json, sqlite or xlsx (required)"),
                 cl::value_desc("FORMAT"), cl::Required, cl::sub(exportCmd),
                 cl::cat(options));

/// SQLite writes a file: to stdout the database goes through a temporary
/// one.
Error copySqliteTo(const Input &in, raw_ostream &os) {
  SmallString<128> tmp;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("tpuprof-export", "sqlite", tmp))
    return createStringError("cannot create a temporary file: " + ec.message());
  FileRemover remove(tmp);
  if (Error err = exportSqlite(in, tmp))
    return err;
  ErrorOr<std::unique_ptr<MemoryBuffer>> db = MemoryBuffer::getFile(tmp);
  if (!db)
    return createStringError(tmp + ": " + db.getError().message());
  os << (*db)->getBuffer();
  return Error::success();
}

int runExport() {
  if (exportFormat == "sqlite") {
    Expected<Input> in = load(exportDumps);
    if (!in)
      return fail(in.takeError());
    if (outputPath != "-") {
      if (Error err = exportSqlite(*in, outputPath))
        return fail(std::move(err));
      return 0;
    }
    return withOutput([&](raw_ostream &o) { return copySqliteTo(*in, o); });
  }
  if (exportFormat == "xlsx") {
    if (outputPath == "-")
      return fail(
          createStringError("export --format xlsx needs -o FILE (a workbook "
                            "is a zip archive, not text for a terminal)"));
    Expected<Input> in = load(exportDumps);
    if (!in)
      return fail(in.takeError());
    if (Error err = writeWorkbook(*in, outputPath))
      return fail(std::move(err));
    return 0;
  }
  if (exportFormat != "csv" && exportFormat != "json")
    return fail(
        createStringError("--format: unknown format '" + exportFormat +
                          "' (expected one of: csv, json, sqlite, xlsx)"));
  Expected<Input> in = load(exportDumps);
  if (!in)
    return fail(in.takeError());
  // JSON carries the dropped count; a CSV table has no place for it.
  if (std::string lost = lossSummary(in->profile);
      !lost.empty() && exportFormat == "csv")
    WithColor::warning(errs(), "tpuprof-report export") << lost << '\n';
  return withOutput([&](raw_ostream &o) {
    if (exportFormat == "csv")
      writeCsv(*in, o);
    else
      writeProfileJson(*in, o);
    return Error::success();
  });
}

Subcommand registration(exportCmd, options, kAbout, runExport);

} // namespace
