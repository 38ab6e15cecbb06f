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
cl::opt<std::string> summaryOut(
    "o", cl::desc("Also write the summary to FILE ('-': do not)"),
    cl::value_desc("FILE"), cl::init("summary.txt"), cl::sub(summaryCmd),
    cl::cat(options));

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

Subcommand registration(summaryCmd, options, runSummary);

} // namespace
