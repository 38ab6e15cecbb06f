//===- tools/tpuprof-report/Table.cpp - `tpuprof-report table` ------------===//
//
// The per-op table (views/Table.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Roofline.h"
#include "tpuprof/report/views/Table.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("table options");

cl::SubCommand tableCmd("table",
                        "Per-op table: time, share, count, shapes, hash and "
                        "IR location of each (op, shapes, device)");

cl::list<std::string> tableDumps(cl::Positional, cl::OneOrMore,
                                 cl::desc("<dump file or directory>..."),
                                 cl::sub(tableCmd), cl::cat(options));

cl::opt<std::string> tableSort(
    "sort",
    cl::desc("Sort rows by COLUMN: name, duration, percent, count, device, "
             "shapes, hash or location. Numbers sort descending and text "
             "ascending unless prefixed by '+' (ascending) or '-' "
             "(descending)"),
    cl::value_desc("[+|-]COLUMN"), cl::init("duration"), cl::sub(tableCmd),
    cl::cat(options));

cl::opt<unsigned> tableTop("top",
                           cl::desc("Print only the first N rows (0: all)"),
                           cl::value_desc("N"), cl::init(0), cl::sub(tableCmd),
                           cl::cat(options));

cl::opt<std::string> tableBy(
    "by",
    cl::desc("Row key: op (hash + shapes + device, default), name, function, "
             "location or shape (op name + shapes)"),
    cl::value_desc("KEY"), cl::init("op"), cl::sub(tableCmd),
    cl::cat(options));
cl::opt<bool> tableStats(
    "stats", cl::desc("Add Min, Mean, Median, P90, P99 and Max (us) columns"),
    cl::sub(tableCmd), cl::cat(options));
cl::opt<bool> tableWork(
    "work",
    cl::desc("Add FLOPs, GFLOP/s, Bytes and GB/s columns (static estimates)"),
    cl::sub(tableCmd), cl::cat(options));
cl::opt<std::string> tableFilter(
    "filter", cl::desc("Show rows whose name matches REGEX (llvm::Regex)"),
    cl::value_desc("REGEX"), cl::sub(tableCmd), cl::cat(options));
cl::opt<std::string> tableType("type",
                               cl::desc("Show rows of one probe kind: op, "
                                        "launch or user"),
                               cl::value_desc("NAME"), cl::sub(tableCmd),
                               cl::cat(options));
cl::opt<double> tableMinTime("min-time",
                             cl::desc("Show rows of at least US microseconds"),
                             cl::value_desc("US"), cl::init(0),
                             cl::sub(tableCmd), cl::cat(options));
cl::opt<double> tablePeakFlops(
    "peak-flops", cl::desc("Peak GFLOP/s, for the Bound column"),
    cl::value_desc("GFLOPS"), cl::init(0), cl::sub(tableCmd),
    cl::cat(options));
cl::opt<double> tablePeakBw("peak-bw",
                            cl::desc("Peak GB/s, for the Bound column"),
                            cl::value_desc("GBPS"), cl::init(0),
                            cl::sub(tableCmd), cl::cat(options));
cl::opt<std::string> tableMachine(
    "machine",
    cl::desc("Peaks from a 'roofline --measure' file, for the Bound column"),
    cl::value_desc("FILE"), cl::sub(tableCmd), cl::cat(options));

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
  return withOutput([&](raw_ostream &o) { return printTable(*in, opts, o); });
}

Subcommand registration(tableCmd, options, runTable);

} // namespace
