//===- tpuprof-report.cpp - Report views of tpuprof dumps -----------------===//
//
//   tpuprof-report table [--sort [+|-]COLUMN] [--top N] [--by KEY] ... DUMP...
//   tpuprof-report summary | trace | export | diff | stacks | roofline ...
//   tpuprof-report annotate IR_FILE -o OUT DUMP...  (runs tpuprof-annotate)
//
// Each view is a cl::SubCommand. The work lives in the TpuProfReport library so that
// tpuprof-run prints the same table. docs/report.md is the user guide.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Html.h"
#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Diff.h"
#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Listing.h"
#include "tpuprof/report/views/Roofline.h"
#include "tpuprof/report/views/Sqlite.h"
#include "tpuprof/report/views/Stacks.h"
#include "tpuprof/report/views/Summary.h"
#include "tpuprof/report/views/Trace.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"
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

cl::opt<std::string> tableBy(
    "by",
    cl::desc("Row key: op (hash + shapes + device, default), name, function, "
             "location or shape (op name + shapes)"),
    cl::value_desc("KEY"), cl::init("op"), cl::sub(tableCmd),
    cl::cat(tableCategory));
cl::opt<bool> tableStats(
    "stats", cl::desc("Add Min, Mean, Median, P90, P99 and Max (us) columns"),
    cl::sub(tableCmd), cl::cat(tableCategory));
cl::opt<bool> tableWork(
    "work",
    cl::desc("Add FLOPs, GFLOP/s, Bytes and GB/s columns (static estimates)"),
    cl::sub(tableCmd), cl::cat(tableCategory));
cl::opt<std::string> tableFilter(
    "filter", cl::desc("Show rows whose name matches REGEX (llvm::Regex)"),
    cl::value_desc("REGEX"), cl::sub(tableCmd), cl::cat(tableCategory));
cl::opt<std::string> tableType("type",
                               cl::desc("Show rows of one probe kind: op, "
                                        "launch or user"),
                               cl::value_desc("NAME"), cl::sub(tableCmd),
                               cl::cat(tableCategory));
cl::opt<double> tableMinTime("min-time",
                             cl::desc("Show rows of at least US microseconds"),
                             cl::value_desc("US"), cl::init(0),
                             cl::sub(tableCmd), cl::cat(tableCategory));
cl::opt<double> tablePeakFlops(
    "peak-flops", cl::desc("Peak GFLOP/s, for the Bound column"),
    cl::value_desc("GFLOPS"), cl::init(0), cl::sub(tableCmd),
    cl::cat(tableCategory));
cl::opt<double> tablePeakBw("peak-bw",
                            cl::desc("Peak GB/s, for the Bound column"),
                            cl::value_desc("GBPS"), cl::init(0),
                            cl::sub(tableCmd), cl::cat(tableCategory));
cl::opt<std::string> tableMachine(
    "machine",
    cl::desc("Peaks from a 'roofline --measure' file, for the Bound column"),
    cl::value_desc("FILE"), cl::sub(tableCmd), cl::cat(tableCategory));

// summary
cl::SubCommand summaryCmd("summary",
                          "Per device and thread: busy vs idle, time by probe "
                          "kind, top ops, dropped records, counter totals");
cl::list<std::string> summaryDumps(cl::Positional, cl::OneOrMore,
                                   cl::desc("<dump file or directory>..."),
                                   cl::sub(summaryCmd), cl::cat(tableCategory));
cl::opt<unsigned> summaryTop("top", cl::desc("Top ops per device (0: all)"),
                             cl::init(10), cl::sub(summaryCmd),
                             cl::cat(tableCategory));
cl::opt<std::string> summaryOut(
    "o", cl::desc("Also write the summary to FILE ('-': do not)"),
    cl::value_desc("FILE"), cl::init("summary.txt"), cl::sub(summaryCmd),
    cl::cat(tableCategory));

// trace
cl::SubCommand traceCmd("trace", "Chrome trace JSON (Perfetto, "
                                 "chrome://tracing)");
cl::list<std::string> traceDumps(cl::Positional, cl::OneOrMore,
                                 cl::desc("<dump file or directory>..."),
                                 cl::sub(traceCmd), cl::cat(tableCategory));
cl::opt<std::string> traceOut("o", cl::desc("Output file ('-': stdout)"),
                              cl::value_desc("FILE"), cl::init("trace.json"),
                              cl::sub(traceCmd), cl::cat(tableCategory));
cl::opt<std::string> traceExternal(
    "trace-file",
    cl::desc("Merge this Chrome trace (timestamps: CLOCK_MONOTONIC us)"),
    cl::value_desc("FILE"), cl::sub(traceCmd), cl::cat(tableCategory));
cl::opt<double> traceOffset(
    "trace-offset",
    cl::desc("Add US microseconds to the --trace-file timestamps"),
    cl::value_desc("US"), cl::init(0), cl::sub(traceCmd),
    cl::cat(tableCategory));

// export
cl::SubCommand exportCmd("export", "Rows as CSV or JSON, or every record "
                                   "as a SQLite database");
cl::list<std::string> exportDumps(cl::Positional, cl::OneOrMore,
                                  cl::desc("<dump, directory or .json>..."),
                                  cl::sub(exportCmd), cl::cat(tableCategory));
cl::opt<std::string> exportFormat("format",
                                  cl::desc("csv, json or sqlite"),
                                  cl::value_desc("FORMAT"), cl::Required,
                                  cl::sub(exportCmd), cl::cat(tableCategory));
cl::opt<std::string> exportOut(
    "o", cl::desc("Output file ('-': stdout; required for sqlite)"),
    cl::value_desc("FILE"), cl::init("-"), cl::sub(exportCmd),
    cl::cat(tableCategory));

// diff
cl::SubCommand diffCmd("diff", "Compare two runs per (op hash, shapes)");
cl::list<std::string> diffInputs(cl::Positional, cl::OneOrMore,
                                 cl::desc("<A> <B> (dump, directory or .json)"),
                                 cl::sub(diffCmd), cl::cat(tableCategory));
cl::opt<double> diffFailAbove(
    "fail-above",
    cl::desc("Exit 1 when an op got slower by more than PCT percent"),
    cl::value_desc("PCT"), cl::init(-1), cl::sub(diffCmd),
    cl::cat(tableCategory));
cl::opt<double> diffMinTime(
    "min-time",
    cl::desc("Ops under US microseconds in both runs never fail"),
    cl::value_desc("US"), cl::init(0), cl::sub(diffCmd),
    cl::cat(tableCategory));
cl::opt<unsigned> diffTop("top", cl::desc("Print only the first N rows"),
                          cl::init(0), cl::sub(diffCmd),
                          cl::cat(tableCategory));

// stacks
cl::SubCommand stacksCmd("stacks", "Folded stacks (flamegraph.pl, speedscope)");
cl::list<std::string> stacksDumps(cl::Positional, cl::OneOrMore,
                                  cl::desc("<dump file or directory>..."),
                                  cl::sub(stacksCmd), cl::cat(tableCategory));
cl::opt<bool> stacksPerThread("per-thread",
                              cl::desc("Root frames per device and thread"),
                              cl::sub(stacksCmd), cl::cat(tableCategory));
cl::opt<bool> stacksShapes("shapes", cl::desc("Frames carry actual shapes"),
                           cl::sub(stacksCmd), cl::cat(tableCategory));
cl::opt<std::string> stacksOut("o", cl::desc("Output file ('-': stdout)"),
                               cl::value_desc("FILE"), cl::init("-"),
                               cl::sub(stacksCmd), cl::cat(tableCategory));

// roofline
cl::SubCommand rooflineCmd("roofline",
                           "Measure peak GFLOP/s and GB/s for --machine");
cl::opt<bool> rooflineMeasure("measure", cl::desc("Run the benchmarks"),
                              cl::sub(rooflineCmd), cl::cat(tableCategory));
cl::opt<std::string> rooflineOut("o", cl::desc("Roofline file to write"),
                                 cl::value_desc("FILE"),
                                 cl::init("tpuprof-roofline.json"),
                                 cl::sub(rooflineCmd), cl::cat(tableCategory));
cl::opt<unsigned> rooflineThreads("threads",
                                  cl::desc("Threads (0: all hardware threads)"),
                                  cl::init(0), cl::sub(rooflineCmd),
                                  cl::cat(tableCategory));
cl::opt<double> rooflineSeconds("seconds",
                                cl::desc("Seconds per benchmark"),
                                cl::init(0.3), cl::sub(rooflineCmd),
                                cl::cat(tableCategory));

// Every view: subtract the runtime's measured probe cost (Correction.h).
cl::opt<bool> noOverheadCorrection(
    "no-overhead-correction",
    cl::desc("Report raw probe intervals: do not subtract the probe cost the "
             "runtime measured at window start"),
    cl::sub(cl::SubCommand::getAll()), cl::cat(tableCategory));

// html
cl::SubCommand htmlCmd("html", "One self-contained HTML page: timeline, op "
                               "table, IR, summary and diff");
cl::list<std::string> htmlDumps(cl::Positional, cl::OneOrMore,
                                cl::desc("<dump file or directory>..."),
                                cl::sub(htmlCmd), cl::cat(tableCategory));
cl::opt<std::string> htmlOut("o", cl::desc("The HTML file to write"),
                             cl::value_desc("FILE"), cl::sub(htmlCmd),
                             cl::cat(tableCategory));
cl::opt<std::string> htmlIr("ir",
                            cl::desc("The model's IR (or source) for the IR "
                                     "pane"),
                            cl::value_desc("MODEL.mlir"), cl::sub(htmlCmd),
                            cl::cat(tableCategory));
cl::list<std::string> htmlBaseline(
    "baseline",
    cl::desc("A run to diff against (dump, directory or .json; repeatable)"),
    cl::value_desc("DUMP"), cl::sub(htmlCmd), cl::cat(tableCategory));
cl::opt<uint64_t> htmlMaxEvents(
    "max-events",
    cl::desc("Above N records the timeline shows per-lane time buckets"),
    cl::value_desc("N"), cl::init(200000), cl::sub(htmlCmd),
    cl::cat(tableCategory));
cl::opt<std::string> htmlTitle("title", cl::desc("Page title"),
                               cl::value_desc("TEXT"), cl::sub(htmlCmd),
                               cl::cat(tableCategory));

Error errorf(const Twine &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}

/// Draw progress bars only for a person watching.
bool showProgress() { return sys::Process::StandardErrIsDisplayed(); }

/// Loads the inputs of a subcommand (model/Load.h).
Expected<Input> load(ArrayRef<std::string> inputs, bool rows = true) {
  LoadOptions opts;
  opts.rows = rows;
  opts.progress = showProgress();
  return loadInput(inputs, opts);
}

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
  Expected<GroupBy> by = parseGroupBy(tableBy);
  if (!by)
    return fail(errorf("--by: " + toString(by.takeError())));
  opts.stats = tableStats;
  opts.work = tableWork;
  opts.filter = tableFilter;
  opts.minTimeNs = uint64_t(tableMinTime * 1000.0);
  if (!tableType.empty()) {
    if (tableType == "op")
      opts.kind = TPUPROF_KIND_OP;
    else if (tableType == "launch")
      opts.kind = TPUPROF_KIND_LAUNCH;
    else if (tableType == "user")
      opts.kind = TPUPROF_KIND_USER;
    else
      return fail(errorf("--type: unknown probe kind '" + tableType +
                         "' (expected one of: op, launch, user)"));
  }
  opts.peakGflops = tablePeakFlops;
  opts.peakGBps = tablePeakBw;
  if (!tableMachine.empty()) {
    Expected<Roofline> r = readRoofline(tableMachine);
    if (!r)
      return fail(r.takeError());
    if (!opts.peakGflops)
      opts.peakGflops = r->peakGflops;
    if (!opts.peakGBps)
      opts.peakGBps = r->peakGBps;
  }
  if ((opts.peakGflops > 0) != (opts.peakGBps > 0))
    return fail(errorf("the Bound column needs both --peak-flops and "
                       "--peak-bw (or --machine)"));
  Expected<Input> in = load(tableDumps);
  if (!in)
    return fail(in.takeError());
  in->profile.rows = groupRows(in->profile.rows, *by);
  if (Error err = printTable(*in, opts, outs()))
    return fail(std::move(err));
  return 0;
}

/// Opens `path` for writing ("-": stdout) and runs `fn` on it.
int withOutput(StringRef path, function_ref<Error(raw_ostream &)> fn) {
  if (path == "-") {
    if (Error err = fn(outs()))
      return fail(std::move(err));
    return 0;
  }
  std::error_code ec;
  ToolOutputFile out(path, ec, sys::fs::OF_None);
  if (ec)
    return fail(errorf(path + ": cannot write: " + ec.message()));
  if (Error err = fn(out.os()))
    return fail(std::move(err));
  out.keep();
  return 0;
}

int runSummary() {
  std::string text;
  raw_string_ostream os(text);
  Expected<Input> in = load(summaryDumps);
  if (!in)
    return fail(in.takeError());
  if (Error err = printSummary(*in, summaryTop, os))
    return fail(std::move(err));
  outs() << text;
  if (summaryOut == "-")
    return 0;
  return withOutput(summaryOut, [&](raw_ostream &o) {
    o << text;
    return Error::success();
  });
}

int runTrace() {
  TraceOptions opts;
  opts.externalTrace = traceExternal;
  opts.externalOffsetUs = traceOffset;
  Expected<Input> in = load(traceDumps, /*rows=*/false);
  if (!in)
    return fail(in.takeError());
  return withOutput(traceOut,
                    [&](raw_ostream &o) { return writeTrace(*in, opts, o); });
}

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

int runDiff() {
  if (diffInputs.size() != 2)
    return fail(errorf("diff takes two runs (A B), got " +
                       Twine(diffInputs.size())));
  Expected<Input> a = load({diffInputs[0]});
  if (!a)
    return fail(a.takeError());
  Expected<Input> b = load({diffInputs[1]});
  if (!b)
    return fail(b.takeError());
  DiffOptions opts;
  opts.failAbovePct = diffFailAbove;
  opts.minTimeNs = uint64_t(diffMinTime * 1000.0);
  opts.top = diffTop;
  Expected<bool> regressed = printDiff(*a, *b, opts, outs());
  if (!regressed)
    return fail(regressed.takeError());
  return *regressed ? 1 : 0;
}

int runStacks() {
  StacksOptions opts;
  opts.perThread = stacksPerThread;
  opts.shapes = stacksShapes;
  Expected<Input> in = load(stacksDumps, /*rows=*/false);
  if (!in)
    return fail(in.takeError());
  return withOutput(stacksOut,
                    [&](raw_ostream &o) { return writeStacks(*in, opts, o); });
}

int runRoofline() {
  if (!rooflineMeasure)
    return fail(errorf("roofline: nothing to do (use --measure)"));
  Roofline r = measureRoofline(rooflineThreads, rooflineSeconds);
  outs() << formatv("Peak compute: {0:F2} GFLOP/s\nPeak bandwidth: {1:F2} "
                    "GB/s\nRidge point: {2:F2} FLOP/byte\nThreads: {3}\n",
                    r.peakGflops, r.peakGBps, r.peakGflops / r.peakGBps,
                    r.threads);
  if (Error err = writeRoofline(r, rooflineOut))
    return fail(std::move(err));
  outs() << "Written: " << rooflineOut << '\n';
  return 0;
}

int runHtml() {
  if (htmlOut.empty())
    return fail(errorf("html needs -o FILE"));
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
  return withOutput(htmlOut, [&](raw_ostream &o) {
    return writeHtmlReport(*in, opts, o);
  });
}

/// `annotate` needs MLIR to parse and print IR; it lives in the sibling
/// binary tpuprof-annotate so that this tool links LLVM Support only.
int runAnnotate(int argc, char **argv) {
  std::string self = sys::fs::getMainExecutable(argv[0], (void *)&fail);
  SmallString<256> tool(sys::path::parent_path(self));
  sys::path::append(tool, "tpuprof-annotate");
  if (!sys::fs::can_execute(tool))
    return fail(errorf("annotate: " + tool +
                       " not found (it is built with "
                       "TPUPROF_ENABLE_MLIR=ON)"));
  std::vector<StringRef> args = {tool};
  for (int i = 2; i < argc; ++i)
    args.push_back(argv[i]);
  std::string msg;
  int rc = sys::ExecuteAndWait(tool, args, std::nullopt, {}, 0, 0, &msg);
  if (rc < 0)
    return fail(errorf("annotate: cannot run " + tool + ": " + msg));
  return rc;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  if (argc >= 2 && StringRef(argv[1]) == "annotate")
    return runAnnotate(argc, argv);
  // libLLVM registers many options of its own; show only ours in --help.
  cl::HideUnrelatedOptions({&tableCategory});
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tpuprof-report (tpuprof " TPUPROF_VERSION ")\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "tpuprof-report: report views of tpuprof dumps\n\n"
      "  tpuprof-report table [options] DUMP...    per-op table\n"
      "  tpuprof-report summary DUMP...            per device/thread summary\n"
      "  tpuprof-report trace -o FILE DUMP...      Chrome trace JSON\n"
      "  tpuprof-report export --format F DUMP...  csv, json or sqlite\n"
      "  tpuprof-report diff A B                   compare two runs\n"
      "  tpuprof-report stacks DUMP...             folded stacks\n"
      "  tpuprof-report roofline --measure         machine peaks\n"
      "  tpuprof-report html -o FILE DUMP...       self-contained HTML page\n"
      "  tpuprof-report annotate IR -o OUT DUMP... IR with tpuprof.stats\n\n"
      "A DUMP is a dump file or a directory of tpuprof_data_dev* dumps.\n");
  setOverheadCorrection(!noOverheadCorrection);

  if (tableCmd)
    return runTable();
  if (summaryCmd)
    return runSummary();
  if (traceCmd)
    return runTrace();
  if (exportCmd)
    return runExport();
  if (diffCmd)
    return runDiff();
  if (stacksCmd)
    return runStacks();
  if (rooflineCmd)
    return runRoofline();
  if (htmlCmd)
    return runHtml();
  return fail(
      createStringError(inconvertibleErrorCode(),
                        "no subcommand given; expected one of: table, "
                        "summary, trace, export, diff, stacks, roofline, "
                        "html, annotate (see 'tpuprof-report --help')"));
}
