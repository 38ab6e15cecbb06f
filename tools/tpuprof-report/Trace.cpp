//===- tools/tpuprof-report/Trace.cpp - `tpuprof-report trace` ------------===//
//
// The Chrome trace (views/Trace.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Trace.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("trace options");

cl::SubCommand
    traceCmd("trace", "Chrome trace JSON for Perfetto UI and chrome://tracing");

/// What `tpuprof-report trace --help` says after the options.
const char *const kAbout =
    "Every record as a Chrome trace event, for Perfetto UI and\n"
    "chrome://tracing: a process per run and device, a track per "
    "thread.\n\nExamples:\n"
    "  tpuprof-report trace -o trace.json run/\n"
    "  tpuprof-report trace --trace-file host.json -o merged.json run/\n";
cl::list<std::string> traceDumps(cl::Positional, cl::OneOrMore,
                                 cl::desc("<dump file or directory>..."),
                                 cl::sub(traceCmd), cl::cat(options));
cl::opt<std::string> traceExternal(
    "trace-file",
    cl::desc("Merge this Chrome trace, timestamps in CLOCK_MONOTONIC "
             "microseconds (default: none)"),
    cl::value_desc("FILE"), cl::sub(traceCmd), cl::cat(options));
cl::opt<double> traceOffset(
    "trace-offset",
    cl::desc("Add US microseconds to the --trace-file timestamps (default: "
             "0)"),
    cl::value_desc("US"), cl::init(0), cl::sub(traceCmd), cl::cat(options));

/// Offsets beyond this (about 31 years) are typing mistakes, and would
/// leave timestamps that lose their microseconds.
constexpr double kMaxOffsetUs = 1e15;

int runTrace() {
  // cl::opt<double> takes "nan", "inf" and "1e999" (inf); JSON has no
  // spelling for them.
  if (!std::isfinite(traceOffset) || std::fabs(traceOffset) > kMaxOffsetUs)
    return fail(createStringError(
        "--trace-offset: expected a finite number of microseconds within "
        "+-1e15, got " +
        formatv("{0}", format("%g", double(traceOffset))).str()));
  TraceOptions opts;
  opts.notes = &errs();
  opts.externalTrace = traceExternal;
  opts.externalOffsetUs = traceOffset;
  Expected<Input> in = load(traceDumps, /*rows=*/false);
  if (!in)
    return fail(in.takeError());
  return withOutput([&](raw_ostream &o) { return writeTrace(*in, opts, o); });
}

Subcommand registration(traceCmd, options, kAbout, runTrace);

} // namespace
