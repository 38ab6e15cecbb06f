//===- tpuprof-report.cpp - Report views of tpuprof dumps -----------------===//
//
//   tpuprof-report table [--sort [+|-]COLUMN] [--top N] DUMP...
//
// Each view is a cl::SubCommand; more (summary, trace, export, diff) follow
// the same pattern. The work lives in the TpuProfReport library so that
// tpuprof-run prints the same table. docs/report.md is the user guide.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/Table.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;
using namespace tpuprof::report;

namespace {

cl::OptionCategory tableCategory("table options");

cl::SubCommand tableCmd("table",
                        "Per-op table: time, share, count, shapes, hash and "
                        "IR location of each (op, shapes, device)");

cl::list<std::string> tableDumps(cl::Positional, cl::OneOrMore,
                                 cl::desc("<dump file or directory>..."),
                                 cl::sub(tableCmd), cl::cat(tableCategory));

cl::opt<std::string> tableSort(
    "sort",
    cl::desc("Sort rows by COLUMN: name, duration, percent, count, device, "
             "shapes, hash or location. Numbers sort descending and text "
             "ascending unless prefixed by '+' (ascending) or '-' "
             "(descending)"),
    cl::value_desc("[+|-]COLUMN"), cl::init("duration"), cl::sub(tableCmd),
    cl::cat(tableCategory));

cl::opt<unsigned> tableTop("top",
                           cl::desc("Print only the first N rows (0: all)"),
                           cl::value_desc("N"), cl::init(0), cl::sub(tableCmd),
                           cl::cat(tableCategory));

/// Prints "tpuprof-report: error: <message>" and returns the exit status.
int fail(Error err) {
  WithColor::error(errs(), "tpuprof-report")
      << toString(std::move(err)) << '\n';
  return 1;
}

int runTable() {
  TableOptions opts;
  if (Error err = parseSortSpec(tableSort, opts))
    return fail(createStringError(inconvertibleErrorCode(),
                                  "--sort: " + toString(std::move(err))));
  opts.top = tableTop;
  if (Error err = printTable(tableDumps, opts, outs()))
    return fail(std::move(err));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // libLLVM registers many options of its own; show only ours in --help.
  cl::HideUnrelatedOptions({&tableCategory});
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tpuprof-report (tpuprof " TPUPROF_VERSION ")\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "tpuprof-report: report views of tpuprof dumps\n\n"
      "  tpuprof-report table [options] DUMP...   per-op table\n\n"
      "A DUMP is a dump file or a directory of tpuprof_data_dev* dumps.\n");

  if (tableCmd)
    return runTable();
  return fail(
      createStringError(inconvertibleErrorCode(),
                        "no subcommand given; expected one of: table (see "
                        "'tpuprof-report --help')"));
}
