//===- tools/tpuprof-report/Html.cpp - `tpuprof-report html` --------------===//
//
// The self-contained HTML page (views/Html.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Html.h"

#include <optional>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("html options");

cl::SubCommand htmlCmd(
    "html",
    "One self-contained HTML page: timeline, op table, IR, summary, diff");

/// What `tpuprof-report html --help` says after the options.
const char *const kAbout =
    "One self-contained HTML page: timeline (each run on its own time axis),\n"
    "op table, IR pane, summary and diff; it needs no network.\n\nExamples:\n"
    "  tpuprof-report html -o report.html run/\n"
    "  tpuprof-report html --ir model.mlir --baseline base/ -o report.html "
    "run/\n";
cl::list<std::string> htmlDumps(cl::Positional, cl::OneOrMore,
                                cl::desc("<dump file or directory>..."),
                                cl::sub(htmlCmd), cl::cat(options));
cl::opt<std::string> htmlIr(
    "ir",
    cl::desc("The model's IR (or source) for the IR pane (default: none)"),
    cl::value_desc("MODEL.mlir"), cl::sub(htmlCmd), cl::cat(options));
cl::list<std::string> htmlBaseline(
    "baseline",
    cl::desc("A run to diff against: dump, directory or .json; repeatable "
             "(default: none)"),
    cl::value_desc("DUMP"), cl::sub(htmlCmd), cl::cat(options));
cl::opt<uint64_t> htmlMaxEvents(
    "max-events",
    cl::desc("Above N records the timeline shows per-lane time buckets "
             "(default: 200000)"),
    cl::value_desc("N"), cl::init(200000), cl::sub(htmlCmd), cl::cat(options));
cl::opt<std::string> htmlTitle("title",
                               cl::desc("Page title (default: the inputs)"),
                               cl::value_desc("TEXT"), cl::sub(htmlCmd),
                               cl::cat(options));

int runHtml() {
  Expected<Input> in = load(htmlDumps);
  if (!in)
    return fail(in.takeError());
  // Checked before the baseline is read, as the IR file is.
  if (Error err = in->needDumps("html"))
    return fail(std::move(err));
  HtmlOptions opts;
  opts.irPath = htmlIr;
  opts.maxEvents = htmlMaxEvents;
  opts.title = htmlTitle;
  std::optional<Input> baseline;
  if (!htmlBaseline.empty()) {
    Expected<Input> b = load(htmlBaseline);
    if (!b)
      return fail(b.takeError());
    baseline = std::move(*b);
    opts.baseline = &*baseline;
  }
  return withOutput(
      [&](raw_ostream &o) { return writeHtmlReport(*in, opts, o); });
}

Subcommand registration(htmlCmd, options, kAbout, runHtml);

} // namespace
