//===- tools/tpuprof-report/Bundle.cpp - `tpuprof-report bundle` ----------===//
//
// Every view into one directory (views/Bundle.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Bundle.h"

#include <optional>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("bundle options");

cl::SubCommand bundleCmd(
    "bundle",
    "Every view at once into one directory, as bigTpuProfile IN_DIR OUT_DIR");

/// What `tpuprof-report bundle --help` says after the options.
const char *const kAbout =
    "Every view at once into the directory -o names, as bigTpuProfile\n"
    "IN_DIR OUT_DIR does: report.html, report.xlsx (sheets Summary, Ops,\n"
    "Records, Threads), trace.json, summary.txt, table.txt, ops.csv,\n"
    "profile.json, profile.sqlite, stacks.folded, stacks.speedscope.json and\n"
    "graph.dot.\n\nExamples:\n"
    "  tpuprof-report bundle run/ -o run-report/\n"
    "  tpuprof-report bundle --ir model.mlir run/ -o run-report/\n";
cl::list<std::string> bundleDumps(cl::Positional, cl::OneOrMore,
                                  cl::desc("<dump file or directory>..."),
                                  cl::sub(bundleCmd), cl::cat(options));
cl::opt<std::string>
    bundleIr("ir",
             cl::desc("The model's IR (or source) for report.html's IR pane "
                      "(default: none)"),
             cl::value_desc("MODEL.mlir"), cl::sub(bundleCmd),
             cl::cat(options));
cl::list<std::string> bundleBaseline(
    "baseline",
    cl::desc("A run for report.html to diff against: dump, directory or "
             ".json; repeatable (default: none)"),
    cl::value_desc("DUMP"), cl::sub(bundleCmd), cl::cat(options));
cl::opt<std::string>
    bundleTitle("title", cl::desc("report.html's title (default: the inputs)"),
                cl::value_desc("TEXT"), cl::sub(bundleCmd), cl::cat(options));

int runBundle() {
  if (outputPath == "-")
    return fail(
        createStringError("bundle needs -o OUT_DIR, the directory to write"));
  Expected<Input> in = load(bundleDumps);
  if (!in)
    return fail(in.takeError());
  if (Error err = in->needDumps("bundle"))
    return fail(std::move(err));
  BundleOptions opts;
  opts.progress = showProgress();
  opts.html.irPath = bundleIr;
  opts.html.title = bundleTitle;
  std::optional<Input> baseline;
  if (!bundleBaseline.empty()) {
    Expected<Input> b = load(bundleBaseline);
    if (!b)
      return fail(b.takeError());
    baseline = std::move(*b);
    opts.html.baseline = &*baseline;
  }
  if (Error err = writeBundle(*in, opts, outputPath, errs()))
    return fail(std::move(err));
  return 0;
}

Subcommand registration(bundleCmd, options, kAbout, runBundle);

} // namespace
