//===- tools/tpuprof-report/Table.cpp - `tpuprof-report table` ------------===//
//
// The per-op table (views/Table.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Roofline.h"
#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/views/Terminal.h"

#include "llvm/ADT/StringExtras.h"

#include <unistd.h>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("table options");

cl::SubCommand
    tableCmd("table",
             "Per-op table: time, share, count, shapes, hash, IR location");

/// What `tpuprof-report table --help` says after the options.
const char *const kAbout =
    "The per-op table: time, share, count, shapes, hash and IR location of\n"
    "each (op, shapes, device); one section per run when the inputs hold\n"
    "several.\n\nExamples:\n"
    "  tpuprof-report table run/\n"
    "  tpuprof-report table --top 20 --sort self --stats run/\n"
    "  tpuprof-report table --type matmul,conv2d --kind op run/\n"
    "  tpuprof-report table --columns name,duration,percent,count,shapes "
    "run/\n";

cl::list<std::string> tableDumps(cl::Positional, cl::OneOrMore,
                                 cl::desc("<dump, directory or .json>..."),
                                 cl::sub(tableCmd), cl::cat(options));

cl::opt<std::string> tableSort(
    "sort",
    cl::desc("Sort rows by COLUMN, any column id of --columns (default: "
             "duration). Numbers sort descending and text ascending unless "
             "prefixed by '+' (ascending) or '-' (descending)"),
    cl::value_desc("[+|-]COLUMN"), cl::init("duration"), cl::sub(tableCmd),
    cl::cat(options));
cl::opt<unsigned> tableTop(
    "top",
    cl::desc("Print only the first N rows of each run (default: 0, all)"),
    cl::value_desc("N"), cl::init(0), cl::sub(tableCmd), cl::cat(options));
cl::opt<std::string>
    tableBy("by",
            cl::desc("Row key: op (hash + shapes + device; the default), name, "
                     "function, location, shape (op name + shapes) or node "
                     "(the location's name: one row per ONNX node)"),
            cl::value_desc("KEY"), cl::init("op"), cl::sub(tableCmd),
            cl::cat(options));
cl::opt<std::string> tableColumns(
    "columns",
    cl::desc("Columns to show, in order: name, duration, self, approx, "
             "percent, cum, "
             "device, count, shapes, outputs, hash, location, kind, function, "
             "unfinished, migrations, alloc, self_alloc, freed, peak, min, "
             "mean, median, p90, p99, max, "
             "flops, gflops, bytes, bandwidth, bound, a counter's title, or "
             "the sets default, stats, work, counters (default: the default "
             "set, fitted to the terminal's width)"),
    cl::value_desc("ID,..."), cl::sub(tableCmd), cl::cat(options));
cl::opt<bool> tableStats(
    "stats",
    cl::desc("Add Min, Mean, Median, P90, P99 and Max (us) columns (default: "
             "off)"),
    cl::sub(tableCmd), cl::cat(options));
cl::opt<bool> tableWork(
    "work",
    cl::desc("Add FLOPs, GFLOP/s, Bytes and GB/s columns, static estimates "
             "(default: off)"),
    cl::sub(tableCmd), cl::cat(options));
cl::opt<std::string> tableFilter(
    "filter",
    cl::desc("Show rows whose name matches REGEX, an llvm::Regex (default: "
             "all)"),
    cl::value_desc("REGEX"), cl::sub(tableCmd), cl::cat(options));
cl::opt<std::string> tableType(
    "type",
    cl::desc("Show rows of these ops: a full name (tosa.matmul), a name "
             "without its dialect (matmul: tosa.matmul and linalg.matmul) or "
             "a dialect (tosa); comma-separated (default: all)"),
    cl::value_desc("OP,..."), cl::sub(tableCmd), cl::cat(options));
cl::opt<std::string>
    tableKind("kind",
              cl::desc("Show rows of these probe kinds: op, launch, user; "
                       "comma-separated (default: all)"),
              cl::value_desc("KIND,..."), cl::sub(tableCmd), cl::cat(options));
cl::opt<double> tableMinTime(
    "min-time", cl::desc("Show rows of at least US microseconds (default: 0)"),
    cl::value_desc("US"), cl::init(0), cl::sub(tableCmd), cl::cat(options));
cl::opt<double> tablePeakFlops(
    "peak-flops",
    cl::desc("Peak GFLOP/s, for the Bound column (default: none)"),
    cl::value_desc("GFLOPS"), cl::init(0), cl::sub(tableCmd), cl::cat(options));
cl::opt<double> tablePeakBw(
    "peak-bw",
    cl::desc("Peak GB/s, for the Bound column; GB/s above it is marked "
             "cache-resident (default: none)"),
    cl::value_desc("GBPS"), cl::init(0), cl::sub(tableCmd), cl::cat(options));
cl::opt<std::string> tableMachine(
    "machine",
    cl::desc("Peaks from a 'roofline --measure' file, for the Bound column"),
    cl::value_desc("FILE"), cl::sub(tableCmd), cl::cat(options));

int runTable() {
  TableOptions opts;
  if (Error err = parseSortSpec(tableSort, opts))
    return fail(createStringError("--sort: " + toString(std::move(err))));
  opts.top = tableTop;
  Expected<GroupBy> by = parseGroupBy(tableBy);
  if (!by)
    return fail(createStringError("--by: " + toString(by.takeError())));
  if (!tableColumns.empty())
    if (Error err = parseColumns(tableColumns, opts))
      return fail(std::move(err));
  if (!tableKind.empty())
    if (Error err = parseKinds(tableKind, opts))
      return fail(std::move(err));
  SmallVector<StringRef, 4> types;
  StringRef(tableType).split(types, ',', -1, /*KeepEmpty=*/false);
  for (StringRef t : types)
    opts.types.push_back(t.trim().str());
  opts.stats = tableStats;
  opts.work = tableWork;
  opts.filter = tableFilter;
  opts.minTimeNs = uint64_t(tableMinTime * 1000.0);
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
    return fail(
        createStringError("the Bound column needs both --peak-flops and "
                          "--peak-bw (or --machine)"));
  // On a terminal: fitted to its width, and in colour.
  if (outputPath == "-") {
    opts.width = terminalColumns(STDOUT_FILENO);
    opts.colour = report::useColour();
  }
  Expected<Input> in = load(tableDumps);
  if (!in)
    return fail(in.takeError());
  in->profile.rows = groupRows(in->profile.rows, *by);
  return withOutput([&](raw_ostream &o) { return printTable(*in, opts, o); });
}

Subcommand registration(tableCmd, options, kAbout, runTable);

} // namespace
