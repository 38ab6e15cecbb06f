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

cl::SubCommand
    stacksCmd("stacks",
              "Flame graph stacks: folded (flamegraph.pl) or speedscope");

/// What `tpuprof-report stacks --help` says after the options.
const char *const kAbout =
    "Flame graph stacks weighted by self time in ns, under root frames for\n"
    "each run and thread: folded (flamegraph.pl) or speedscope's "
    "format.\n\nExamples:\n"
    "  tpuprof-report stacks run/ | flamegraph.pl --countname ns > flame.svg\n"
    "  tpuprof-report stacks --format speedscope -o run.speedscope.json run/\n";
cl::list<std::string> stacksDumps(cl::Positional, cl::OneOrMore,
                                  cl::desc("<dump file or directory>..."),
                                  cl::sub(stacksCmd), cl::cat(options));
cl::opt<std::string> stacksFormat(
    "format",
    cl::desc("folded (\"a;b;c <ns>\" lines) or speedscope (its JSON, whose "
             "values are nanoseconds) (default: folded)"),
    cl::value_desc("FORMAT"), cl::init("folded"), cl::sub(stacksCmd),
    cl::cat(options));
cl::opt<bool>
    stacksShapes("shapes",
                 cl::desc("Frames carry the actual shapes (default: off)"),
                 cl::sub(stacksCmd), cl::cat(options));

int runStacks() {
  StacksOptions opts;
  Expected<StacksOptions::Format> format = parseStacksFormat(stacksFormat);
  if (!format)
    return fail(createStringError("--format: " + toString(format.takeError())));
  opts.format = *format;
  opts.shapes = stacksShapes;
  Expected<Input> in = load(stacksDumps, /*rows=*/false);
  if (!in)
    return fail(in.takeError());
  return withOutput([&](raw_ostream &o) { return writeStacks(*in, opts, o); });
}

Subcommand registration(stacksCmd, options, kAbout, runStacks);

} // namespace
