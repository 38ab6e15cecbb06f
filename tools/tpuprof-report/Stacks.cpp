//===- tools/tpuprof-report/Stacks.cpp - `tpuprof-report stacks` ----------===//
//
// Folded stacks (views/Stacks.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Stacks.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("stacks options");

cl::SubCommand stacksCmd("stacks", "Folded stacks (flamegraph.pl, speedscope)");
cl::list<std::string> stacksDumps(cl::Positional, cl::OneOrMore,
                                  cl::desc("<dump file or directory>..."),
                                  cl::sub(stacksCmd), cl::cat(options));
cl::opt<bool> stacksPerThread("per-thread",
                              cl::desc("Root frames per device and thread"),
                              cl::sub(stacksCmd), cl::cat(options));
cl::opt<bool> stacksShapes("shapes", cl::desc("Frames carry actual shapes"),
                           cl::sub(stacksCmd), cl::cat(options));
int runStacks() {
  StacksOptions opts;
  opts.perThread = stacksPerThread;
  opts.shapes = stacksShapes;
  Expected<Input> in = load(stacksDumps, /*rows=*/false);
  if (!in)
    return fail(in.takeError());
  return withOutput([&](raw_ostream &o) { return writeStacks(*in, opts, o); });
}

Subcommand registration(stacksCmd, options, runStacks);

} // namespace
