//===- tools/tpuprof-report/Graph.cpp - `tpuprof-report graph` ------------===//
//
// The call graph in DOT (views/Graph.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Graph.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("graph options");

cl::SubCommand
    graphCmd("graph",
             "Call graph in DOT (self and total time), as llvm-xray graph");

/// What `tpuprof-report graph --help` says after the options.
const char *const kAbout =
    "The call graph in Graphviz DOT, like llvm-xray's `graph`: an op per\n"
    "vertex (self and total time, shaded by self), an edge per caller and\n"
    "callee (calls, time), a root per run.\n\nExamples:\n"
    "  tpuprof-report graph run/ | dot -Tsvg > graph.svg\n";
cl::list<std::string> graphDumps(cl::Positional, cl::OneOrMore,
                                 cl::desc("<dump file or directory>..."),
                                 cl::sub(graphCmd), cl::cat(options));
cl::opt<bool> graphShapes(
    "shapes",
    cl::desc("One vertex per op and actual shapes (default: per op name)"),
    cl::sub(graphCmd), cl::cat(options));

int runGraph() {
  GraphOptions opts;
  opts.shapes = graphShapes;
  Expected<Input> in = load(graphDumps, /*rows=*/false);
  if (!in)
    return fail(in.takeError());
  return withOutput([&](raw_ostream &o) { return writeGraph(*in, opts, o); });
}

Subcommand registration(graphCmd, options, kAbout, runGraph);

} // namespace
