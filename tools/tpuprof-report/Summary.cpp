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

cl::SubCommand summaryCmd("summary",
                          "Per device and thread: busy vs idle, time by probe "
                          "kind, top ops, dropped records, counter totals");
cl::list<std::string> summaryDumps(cl::Positional, cl::OneOrMore,
                                   cl::desc("<dump file or directory>..."),
                                   cl::sub(summaryCmd), cl::cat(options));
cl::opt<unsigned> summaryTop("top", cl::desc("Top ops per device (0: all)"),
                             cl::init(10), cl::sub(summaryCmd),
                             cl::cat(options));
int runSummary() {
  Expected<Input> in = load(summaryDumps);
  if (!in)
    return fail(in.takeError());
  return withOutput(
      [&](raw_ostream &o) { return printSummary(*in, summaryTop, o); });
}

Subcommand registration(summaryCmd, options, runSummary);

} // namespace
