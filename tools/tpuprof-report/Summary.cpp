//===- tools/tpuprof-report/Summary.cpp - `tpuprof-report summary` --------===//
//
// Per device and thread (views/Summary.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Summary.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("summary options");

cl::SubCommand
    summaryCmd("summary",
               "Per device and thread: busy vs idle, time by kind, top ops");

/// What `tpuprof-report summary --help` says after the options.
const char *const kAbout =
    "Per device and thread: busy vs idle, time by probe kind, top ops,\n"
    "dropped records, counter totals; one section per run.\n\nExamples:\n"
    "  tpuprof-report summary run/\n"
    "  tpuprof-report summary --top 5 -o summary.txt run/\n";
cl::list<std::string> summaryDumps(cl::Positional, cl::OneOrMore,
                                   cl::desc("<dump file or directory>..."),
                                   cl::sub(summaryCmd), cl::cat(options));
cl::opt<unsigned>
    summaryTop("top", cl::desc("Top ops per device (default: 10; 0: all)"),
               cl::value_desc("N"), cl::init(10), cl::sub(summaryCmd),
               cl::cat(options));

int runSummary() {
  Expected<Input> in = load(summaryDumps);
  if (!in)
    return fail(in.takeError());
  return withOutput(
      [&](raw_ostream &o) { return printSummary(*in, summaryTop, o); });
}

Subcommand registration(summaryCmd, options, kAbout, runSummary);

} // namespace
