//===- bench/gen_dumps.cpp - Synthetic dumps for report benchmarks --------===//
//
//   tpuprof-gen-dumps -o DIR --records N [--dumps D] [--ops K] [--nthreads T]
//                     [--nest] [--dims] [--slow-op I --slow-factor F]
//                     [--runs R]
//
// Writes D dumps tpuprof_data_dev{device}-{n} of N records each, per
// include/tpuprof/format.h, streamed to disk (memory stays small whatever N).
// Probe k is "gen.op{k}" with shapes "f32[k+1, 64]", hash 0x1000 + k, and a
// base duration of 100 + 37 * k ns with a deterministic +-25% jitter; probe
// --slow-op runs --slow-factor times longer. --nest makes every other record
// a child (depth 1) of the one before; --dims gives probe 0 a dynamic
// dimension that cycles through 4 values (more rows). The clock is
// CLOCK_MONOTONIC (ticks are ns). The dumps are R runs (processes, one pid
// and runtime start each), dump n in run n % R; one by default, as one
// process's D windows. The report benchmarks and the diff tests
// use it; docs/performance.md has the commands.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/ProbeTable.h"
#include "tpuprof/format.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <vector>

using namespace llvm;
using namespace tpuprof;

namespace {

cl::opt<std::string> outDir("o", cl::desc("Output directory"), cl::Required,
                            cl::value_desc("DIR"));
cl::opt<uint64_t> numRecords("records", cl::desc("Records per dump"),
                             cl::init(1000000));
cl::opt<unsigned> numDumps("dumps", cl::desc("Dumps"), cl::init(1));
cl::opt<unsigned> numOps("ops", cl::desc("Distinct probes"), cl::init(64));
cl::opt<unsigned> numThreads("nthreads", cl::desc("Threads per dump"),
                             cl::init(1));
cl::opt<unsigned> device("device", cl::desc("Device id"), cl::init(0));
cl::opt<unsigned> numRuns("runs", cl::desc("Runs the dumps belong to"),
                          cl::init(1));
cl::opt<bool> nest("nest", cl::desc("Every other record nests in the one "
                                    "before"));
cl::opt<bool> dims("dims", cl::desc("Probe 0 has a dynamic dimension"));
cl::opt<int> slowOp("slow-op", cl::desc("Probe made slower"), cl::init(-1));
cl::opt<double> slowFactor("slow-factor", cl::desc("How much slower"),
                           cl::init(2.0));

template <typename T> void put(raw_ostream &os, const T &v) {
  os.write(reinterpret_cast<const char *>(&v), sizeof(v));
}

uint64_t durationOf(unsigned op, uint64_t i) {
  uint64_t base = 100 + 37 * uint64_t(op);
  // Deterministic jitter in [-25%, +25%].
  uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull;
  double jitter = (double((h >> 40) % 1001) / 1000.0 - 0.5) * 0.5;
  double ns = double(base) * (1.0 + jitter);
  if (int(op) == slowOp)
    ns *= slowFactor;
  return uint64_t(ns);
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "synthetic tpuprof dumps\n");
  if (numOps == 0 || numThreads == 0)
    return WithColor::error(errs(), "tpuprof-gen-dumps")
               << "--ops and --nthreads must be positive\n",
           1;
  if (std::error_code ec = sys::fs::create_directories(outDir))
    return WithColor::error(errs(), "tpuprof-gen-dumps")
               << outDir << ": " << ec.message() << '\n',
           1;
  std::vector<ProbeInfo> probes;
  for (unsigned k = 0; k != numOps; ++k) {
    ProbeInfo p;
    p.name = ("gen.op" + Twine(k)).str();
    p.shapes = (dims && k == 0) ? "f32[?, 64]"
                                : ("f32[" + Twine(k + 1) + ", 64]").str();
    p.location = ("gen.mlir:" + Twine(k + 1) + ":1").str();
    p.function = "main";
    p.hash = 0x1000 + k;
    p.flops = 2 * 64 * uint64_t(k + 1);
    p.bytes = 4 * 64 * uint64_t(k + 1) * 2;
    p.numDynDims = (dims && k == 0) ? 1 : 0;
    probes.push_back(p);
  }
  std::string table = serializeProbeTable("gen", probes);
  std::string tablePadded = table;
  while (tablePadded.size() % 8)
    tablePadded.push_back('\0');

  for (unsigned d = 0; d != numDumps; ++d) {
    SmallString<256> path(outDir);
    sys::path::append(path,
                      "tpuprof_data_dev" + Twine(device) + "-" + Twine(d));
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    if (ec)
      return WithColor::error(errs(), "tpuprof-gen-dumps")
                 << path << ": " << ec.message() << '\n',
             1;
    uint64_t t0 = 1000000000ull + uint64_t(d) * 10000000000ull;
    // Precompute each thread's record count and stream size.
    std::vector<uint64_t> perThread(numThreads, numRecords / numThreads);
    perThread[0] += numRecords % numThreads;
    uint64_t windowLen = 0;
    std::vector<uint64_t> streamSize(numThreads);
    for (unsigned t = 0; t != numThreads; ++t) {
      uint64_t withDims = 0;
      if (dims)
        for (uint64_t i = 0; i != perThread[t]; ++i)
          withDims += (i % numOps == 0);
      streamSize[t] = 24 * perThread[t] + 8 * withDims;
    }
    // Window long enough for the slowest thread: bound by max durations.
    uint64_t maxDur = 0;
    for (unsigned k = 0; k != numOps; ++k)
      maxDur = std::max<uint64_t>(
          maxDur, uint64_t((100 + 37 * k) * 1.26 *
                           (int(k) == slowOp ? slowFactor : 1.0)) +
                      2);
    windowLen = (perThread[0] + 1) * (2 * maxDur + 20);

    tpuprof_dump_header h;
    std::memset(&h, 0, sizeof h);
    std::memcpy(h.magic, TPUPROF_DUMP_MAGIC, 8);
    h.version = TPUPROF_DUMP_VERSION;
    h.header_size = sizeof h;
    h.device = device;
    // A run is a process: its pid, and its runtime's start as the first
    // calibration pair.
    unsigned run = d % std::max(1u, unsigned(numRuns));
    h.pid = 1000 + run;
    h.call_num = d;
    h.clock_source = TPUPROF_CLOCK_MONOTONIC;
    h.flags = TPUPROF_DUMP_COMPLETE;
    h.calib_ticks0 = h.calib_ns0 = 1000000000ull + uint64_t(run) * 1000 - 1000;
    h.calib_ticks1 = h.calib_ns1 = t0 + windowLen + 1000;
    h.window_begin = t0;
    h.window_end = t0 + windowLen;
    h.num_sections = 2 + numThreads;
    put(os, h);
    tpuprof_section_header sh{TPUPROF_SECTION_MODULE, 0,
                              sizeof(tpuprof_module_section) +
                                  tablePadded.size()};
    put(os, sh);
    tpuprof_module_section ms{0, 0, table.size()};
    put(os, ms);
    os << tablePadded;
    sh = {TPUPROF_SECTION_EVENTS, 0, sizeof(tpuprof_events_section)};
    put(os, sh);
    tpuprof_events_section es{0, 0};
    put(os, es);
    for (unsigned t = 0; t != numThreads; ++t) {
      sh = {TPUPROF_SECTION_THREAD, 0,
            sizeof(tpuprof_thread_section) + streamSize[t]};
      put(os, sh);
      tpuprof_thread_section ts{100 + t, 0, perThread[t], streamSize[t]};
      put(os, ts);
      uint64_t cursor = t0 + 1;
      uint64_t parentEnd = 0;
      for (uint64_t i = 0; i != perThread[t]; ++i) {
        unsigned op = unsigned(i % numOps);
        uint64_t dur = durationOf(op, i);
        tpuprof_record r;
        std::memset(&r, 0, sizeof r);
        r.probe = op;
        bool child = nest && (i % 2 == 1);
        if (child) {
          // Inside the previous record: [begin + 1, parent end - 1).
          r.depth = 1;
          r.begin = cursor + 1;
          r.end = std::max(r.begin + 1, std::min(r.begin + dur, parentEnd - 1));
          cursor = parentEnd + 5;
        } else {
          r.begin = cursor;
          r.end = cursor + (nest ? dur + 2 * maxDur : dur);
          parentEnd = r.end;
          cursor = nest ? r.begin : r.end + 5;
        }
        r.num_dims = (dims && op == 0) ? 1 : 0;
        put(os, r);
        if (r.num_dims)
          put(os, int64_t(1 + (i / numOps) % 4));
      }
    }
    os.close();
    if (os.has_error())
      return WithColor::error(errs(), "tpuprof-gen-dumps")
                 << path << ": write failed\n",
             1;
  }
  return 0;
}
