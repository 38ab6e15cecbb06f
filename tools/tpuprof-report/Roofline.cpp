//===- tools/tpuprof-report/Roofline.cpp - `tpuprof-report roofline` ------===//
//
// Machine peaks for `table --machine` (views/Roofline.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Roofline.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("roofline options");

cl::SubCommand rooflineCmd("roofline",
                           "Measure peak GFLOP/s and GB/s for table --machine");

/// What `tpuprof-report roofline --help` says after the options.
const char *const kAbout =
    "Measures this machine's peak GFLOP/s (an FMA loop) and GB/s (a STREAM\n"
    "triad) and writes the machine file that `table --machine` "
    "reads.\n\nExamples:\n"
    "  tpuprof-report roofline --measure -o machine.json\n";
cl::opt<bool> rooflineMeasure("measure", cl::desc("Run the benchmarks"),
                              cl::sub(rooflineCmd), cl::cat(options));
cl::opt<unsigned> rooflineThreads(
    "threads", cl::desc("Threads (default: 0, all hardware threads)"),
    cl::value_desc("N"), cl::init(0), cl::sub(rooflineCmd), cl::cat(options));
cl::opt<double>
    rooflineSeconds("seconds", cl::desc("Seconds per benchmark (default: 0.3)"),
                    cl::value_desc("S"), cl::init(0.3), cl::sub(rooflineCmd),
                    cl::cat(options));

int runRoofline() {
  if (!rooflineMeasure)
    return fail(createStringError("roofline: nothing to do (use --measure)"));
  Roofline r = measureRoofline(rooflineThreads, rooflineSeconds);
  // The machine file is the output; the figures in words go to stderr.
  errs() << formatv("tpuprof-report roofline: {0:F2} GFLOP/s, {1:F2} GB/s, "
                    "ridge point {2:F2} FLOP/byte, {3} threads\n",
                    r.peakGflops, r.peakGBps, r.peakGflops / r.peakGBps,
                    r.threads);
  return withOutput([&](raw_ostream &o) {
    writeRoofline(r, o);
    return Error::success();
  });
}

Subcommand registration(rooflineCmd, options, kAbout, runRoofline);

} // namespace
