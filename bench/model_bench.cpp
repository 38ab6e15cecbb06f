//===- model_bench.cpp - Time compiled models and their kernels -----------===//
//
// The timing half of bench/kernel_overhead.py and bench/kernel_alone.py
// (docs/performance.md, "Kernel probes against no probes" and "Kernel rows
// against kernels alone"). Models are .so files from tpuprof-compile, loaded
// and called through lib/ModelRunner as tpuprof-run loads them, so the
// model ABI is read from tpuprof/model.h alone.
//
//   model_bench ab PLAIN.so PROBED.so [PLAIN2.so PROBED2.so ...]
//                  [--data DIR] [--seconds S]
//                  [--min-pairs N] [--max-pairs N] [--warmup N] [--output DIR]
//                  [--window open|off] [--first plain|probed]
//       Both builds in this one process, called alternately (A B, B A, ...)
//       with the same inputs while a mode-0 window is open (or, with
//       --window off, none: the probes' guards alone, or any two builds
//       of one model side by side); prints both
//       builds' fastest and median calls and the median of the paired
//       differences with a distribution-free 95 % interval. --first: which
//       build is loaded and given its buffers first. More pairs of files
//       (copies of the same two builds) are called in turn within each
//       pair of calls' round, one `ab` line each: copies place the same
//       code and weights on other pages, which moves a process's figure
//       more than anything in it.
//   model_bench onoff PROBED.so [--data DIR] [--seconds S] [--min-pairs N]
//                  [--max-pairs N] [--warmup N] [--output DIR] [--block N]
//       The instrumented build alone, blocks of N calls without a window
//       and N calls in a mode-0 window in turn (a schedule, one step per
//       call): the paired differences as ab prints them, recorded over
//       not, and the recorded windows' dumps. What recording costs on the
//       same code at the same addresses.
//   model_bench profile PROBED.so [--data DIR] [--calls N] [--warmup N]
//                  [--output DIR] [--kernels KERNELS.so [--buffers
//                  BUFFERS.tsv]]
//       A mode-0 window around N calls; prints each row of the profile
//       (hash, shapes, node, name, calls, mean and fastest corrected ns) and
//       the calibrated cost of a probe pair. With --kernels, every function
//       of KERNELS.so once after each call, in its order, and each one's
//       fastest and median call; BUFFERS.tsv (from extract) makes the
//       kernels share the model's buffers as the model does: a kernel
//       reads what the kernel before it just wrote.
//   model_bench extract MODEL -o KERNELS.mlir --manifest PROBES.json
//                  --buffers BUFFERS.tsv [--probes drop|keep]
//       Compiles MODEL with kernel probes up to bufferization and writes,
//       for every probed kernel, a public function @k<probe id> holding
//       that kernel alone as the model runs it (tiled, vectorized, on
//       buffers), the model's buffers it touches as arguments (views of
//       them and constants, weights included, rebuilt inside), and
//       @empty_call, a function of the same form that does nothing, in
//       MLIR bytecode; PROBES.json is the probe table; BUFFERS.tsv says
//       which of the model's buffers each argument is, and when the model
//       allocates and frees each, in and between which kernels' rows (its
//       schedule once the pipeline has placed the frees). Prints the pipeline
//       that compiles KERNELS.mlir from there (tpuprof-compile --pipeline).
//       With --probes keep, each kernel keeps one probe pair around it.
//   model_bench kernels KERNELS.so [--calls N] [--warmup N] [--seconds S]
//                  [--order back-to-back|sequence]
//       Times each function of a .so alone: fastest and median call, each
//       function called N times in a row, or (sequence) all functions once
//       per round for N rounds.
//   model_bench pairs KERNELS.so PROBED_KERNELS.so --buffers BUFFERS.tsv
//                  [--calls N] [--warmup N] [--output DIR]
//       The kernels alone without and with their probe pair (extract
//       --probes drop / keep), both in the model's buffers, in turn each
//       round, in a mode-0 window: each kernel's fastest call both ways
//       (what a pair costs in place) and the probed kernels' rows.
//
// Output lines that scripts read start with a tag and separate fields by
// tabs. A bad argument is one line `model_bench: error: ...` and exit 2.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/ModelRunner/CompiledModel.h"
#include "tpuprof/ModelRunner/ModelSource.h"
#include "tpuprof/ModelRunner/OnnxData.h"
#include "tpuprof/ModelRunner/RunInputs.h"

#include "tpuprof/Conversion/ProbeToLLVM/ProbeToLLVM.h"
#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/Dialect/Probe/ProbeDialect.h"
#include "tpuprof/model.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/tpuprof.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>
#endif
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

using namespace mlir;
using tpuprof::run::CompiledModel;
using tpuprof::run::EntryArguments;
using tpuprof::run::EntryResults;

namespace {

[[noreturn]] void usageError(const llvm::Twine &msg) {
  llvm::errs() << "model_bench: error: " << msg << "\n";
  std::exit(2);
}

[[noreturn]] void fail(llvm::Error err) {
  llvm::errs() << "model_bench: error: " << llvm::toString(std::move(err))
               << "\n";
  std::exit(1);
}

template <typename T> T check(llvm::Expected<T> value) {
  if (!value)
    fail(value.takeError());
  return std::move(*value);
}

/// The options of every subcommand: positional arguments, then `--name
/// value` pairs from `known`.
struct Args {
  std::vector<std::string> positional;
  llvm::StringMap<std::string> named;

  Args(int argc, char **argv, llvm::ArrayRef<llvm::StringRef> known,
       unsigned wantPositional, llvm::StringRef command) {
    for (int i = 2; i < argc; ++i) {
      llvm::StringRef arg = argv[i];
      if (!arg.starts_with("-") || arg == "-") {
        positional.push_back(arg.str());
        continue;
      }
      if (!llvm::is_contained(known, arg))
        usageError(command + ": unknown option '" + arg +
                   "' (known: " + llvm::join(known, ", ") + ")");
      if (i + 1 >= argc)
        usageError(command + ": " + arg + " needs a value");
      named[arg] = argv[++i];
    }
    // ab takes its two builds once or several times (copies), in pairs.
    if (command == "ab") {
      if (positional.size() < 2 || positional.size() % 2)
        usageError("ab: takes files in pairs (PLAIN.so PROBED.so ...), got " +
                   llvm::Twine(positional.size()));
    } else if (positional.size() != wantPositional) {
      usageError(command + ": takes " + llvm::Twine(wantPositional) +
                 " file argument" + (wantPositional == 1 ? "" : "s") +
                 ", got " + llvm::Twine(positional.size()));
    }
  }

  std::string text(llvm::StringRef name, llvm::StringRef otherwise = "") const {
    auto it = named.find(name);
    return it == named.end() ? otherwise.str() : it->second;
  }
  double number(llvm::StringRef name, double otherwise, double least) const {
    auto it = named.find(name);
    if (it == named.end())
      return otherwise;
    double value;
    if (llvm::StringRef(it->second).getAsDouble(value) || !(value >= least))
      usageError(name + " must be a number of at least " +
                 llvm::formatv("{0}", llvm::format("%g", least)).str() +
                 ", got '" + it->second + "'");
    return value;
  }
  unsigned count(llvm::StringRef name, unsigned otherwise,
                 unsigned least) const {
    auto it = named.find(name);
    if (it == named.end())
      return otherwise;
    unsigned value;
    if (llvm::StringRef(it->second).getAsInteger(10, value) || value < least)
      usageError(name + " must be a whole number of at least " +
                 llvm::Twine(least) + ", got '" + it->second + "'");
    return value;
  }
};

/// As tpuprof-run does (RunSession.cpp, keepFreedBuffers): freed buffers
/// stay in the heap, so that no call pays page faults another did not.
void keepFreedBuffers() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

double nowSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// A call is timed as the probes time a row: the time-stamp counter read
/// plainly at the start and, once everything before has finished, at the
/// end (lfence; rdtsc), not through clock_gettime, whose data page may be
/// cold after a kernel and whose own call lands inside a short interval.
/// Ticks become seconds at the rate measured against the steady clock on
/// first use. Elsewhere the steady clock, in ns.
#if defined(__x86_64__)
uint64_t stampStart() { return __rdtsc(); }
uint64_t stampEnd() {
  _mm_lfence();
  return __rdtsc();
}
double secondsPerStamp() {
  static const double rate = [] {
    double t0 = nowSeconds();
    uint64_t c0 = __rdtsc();
    double t1;
    do
      t1 = nowSeconds();
    while (t1 - t0 < 0.02);
    return (t1 - t0) / double(__rdtsc() - c0);
  }();
  return rate;
}
#else
uint64_t stampStart() { return uint64_t(nowSeconds() * 1e9); }
uint64_t stampEnd() { return uint64_t(nowSeconds() * 1e9); }
double secondsPerStamp() { return 1e-9; }
#endif

/// A compiled model's entry with its arguments and results, ready to call.
struct Callable {
  CompiledModel::Entry entry;
  std::unique_ptr<EntryArguments> args;
  std::unique_ptr<EntryResults> results;
  llvm::SmallVector<void *> packed;

  /// One call; returns its seconds. Results are released after the clock.
  double call() {
    uint64_t start = stampStart();
    entry.packed(packed.data());
    double seconds = double(stampEnd() - start) * secondsPerStamp();
    results->release(*args);
    return seconds;
  }
};

Callable makeCallable(const CompiledModel &model, llvm::StringRef name,
                      MLIRContext &context,
                      llvm::ArrayRef<std::string> inputSpecs) {
  Callable c;
  c.entry = check(model.findEntry(name, context));
  c.args = std::make_unique<EntryArguments>(
      check(EntryArguments::create(c.entry.type.getInputs(), inputSpecs)));
  c.results = std::make_unique<EntryResults>(
      check(EntryResults::create(c.entry.type.getResults())));
  c.packed = c.args->packedArguments();
  if (c.results->storage())
    c.packed.push_back(c.results->storage());
  return c;
}

/// The instrumented model the first argument names, or a one-line error.
CompiledModel loadInstrumented(const Args &args) {
  CompiledModel model = check(CompiledModel::load(args.positional[0]));
  if (!model.instrumented())
    usageError(args.positional[0] + " has no probes");
  return model;
}

std::vector<std::string> inputSpecsFrom(const Args &args) {
  std::string dir = args.text("--data");
  if (dir.empty())
    return {};
  return check(tpuprof::run::readOnnxData(dir)).inputSpecs;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Order-statistic indexes (0-based, inclusive) of a distribution-free 95 %
/// confidence interval for the median of `n` values: [v[k], v[n-1-k]] with
/// the largest k where 2 P(Binomial(n, 1/2) <= k - 1) <= 0.05. None below 6
/// values.
std::optional<size_t> medianIntervalIndex(size_t n) {
  if (n < 6)
    return std::nullopt;
  double logHalfN = double(n) * std::log(0.5);
  double cdf = 0; // P(X <= k - 1)
  size_t k = 0;
  for (size_t j = 0; j < n; ++j) {
    double logPmf = std::lgamma(double(n) + 1) - std::lgamma(double(j) + 1) -
                    std::lgamma(double(n - j) + 1) + logHalfN;
    if (2 * (cdf + std::exp(logPmf)) > 0.05)
      break;
    cdf += std::exp(logPmf);
    k = j + 1;
  }
  if (k == 0)
    return std::nullopt;
  return k - 1; // The k-th smallest, 0-based.
}

/// The window's dump: its op rows and the calibrated pair cost in ns.
struct WindowProfile {
  std::string path;
  std::vector<tpuprof::report::Row> rows;
  uint64_t records = 0;
  double pairNs = 0;
};

WindowProfile readWindow(const std::string &path) {
  WindowProfile w;
  w.path = path;
  tpuprof::report::Input input = check(tpuprof::report::loadInput({path}));
  for (const tpuprof::report::Row &row : input.profile.rows)
    if (row.kind == TPUPROF_KIND_OP && row.count)
      w.rows.push_back(row);
  for (const tpuprof::report::DumpSummary &d : input.profile.dumps) {
    w.records += d.records;
    const tpuprof::report::DumpInfo &info = d.info;
    if (info.hasCalibration && info.calibTicks1 > info.calibTicks0)
      w.pairNs = double(info.calibNestedTicks) *
                 double(info.calibNs1 - info.calibNs0) /
                 double(info.calibTicks1 - info.calibTicks0);
  }
  return w;
}

/// Dumps go to --output, where given; no window is left open.
void prepareOutput(const Args &args) {
  std::string dir = args.text("--output");
  if (!dir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      usageError("--output " + dir + ": " + ec.message());
    tpuprof_set_output(dir.c_str(), -1);
  }
  if (tpuprof_is_enabled())
    tpuprof_disable();
}

/// The calibrated pair, then each op row: hash, shapes, node, name,
/// calls, mean and fastest corrected ns.
void printRows(const WindowProfile &window) {
  llvm::outs() << llvm::format("pair_ns\t%.2f\n", window.pairNs);
  for (const tpuprof::report::Row &row : window.rows)
    llvm::outs() << "row\t" << llvm::format_hex_no_prefix(row.hash, 16) << "\t"
                 << row.shapes << "\t" << row.node << "\t" << row.name << "\t"
                 << row.count
                 << llvm::format("\t%.1f\t%llu\n", row.durations.mean(),
                                 (unsigned long long)row.durations.min());
}

void openWindow(const Args &args) {
  prepareOutput(args);
  if (tpuprof_enable(TPUPROF_MAX_RECORD_SIZE, 0) != 0)
    fail(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "cannot open a profiling window"));
}

std::string closeWindow() {
  if (tpuprof_disable() != 0)
    fail(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "cannot write the profile dump"));
  return tpuprof_last_dump_path();
}

/// How ab and onoff pair calls: for --seconds and at least --min-pairs
/// pairs, at most --max-pairs, after --warmup calls of each side.
struct Pairing {
  double seconds;
  unsigned minPairs, maxPairs, warmup;

  explicit Pairing(const Args &args)
      : seconds(args.number("--seconds", 20, 0)),
        minPairs(args.count("--min-pairs", 30, 1)),
        maxPairs(args.count("--max-pairs", 100000, 1)),
        warmup(args.count("--warmup", 3, 0)) {
    if (maxPairs < minPairs)
      usageError("--max-pairs (" + llvm::Twine(maxPairs) +
                 ") is below --min-pairs (" + llvm::Twine(minPairs) + ")");
  }
};

/// One line: both sides' fastest and median call (ms) and the median of
/// the paired differences, b over a, in percent, with its distribution-free
/// 95 % interval.
void printPaired(llvm::StringRef tag, llvm::StringRef aName,
                 const std::vector<double> &a, llvm::StringRef bName,
                 const std::vector<double> &b) {
  size_t n = a.size();
  std::vector<double> diff(n);
  for (size_t i = 0; i < n; ++i)
    diff[i] = (b[i] / a[i] - 1) * 100;
  std::sort(diff.begin(), diff.end());
  std::optional<size_t> k = medianIntervalIndex(n);
  double lo = k ? diff[*k] : NAN, hi = k ? diff[n - 1 - *k] : NAN;
  llvm::outs() << tag << "\tpairs=" << n << "\t" << aName
               << llvm::format("_min_ms=%.6f\t",
                               *std::min_element(a.begin(), a.end()) * 1e3)
               << aName << llvm::format("_median_ms=%.6f\t", median(a) * 1e3)
               << bName
               << llvm::format("_min_ms=%.6f\t",
                               *std::min_element(b.begin(), b.end()) * 1e3)
               << bName << llvm::format("_median_ms=%.6f\t", median(b) * 1e3)
               << llvm::format(
                      "diff_median_pct=%.4f\tci_lo_pct=%.4f\tci_hi_pct=%.4f\n",
                      median(diff), lo, hi);
}

//===----------------------------------------------------------------------===//
// ab
//===----------------------------------------------------------------------===//

int runAb(int argc, char **argv) {
  Args args(argc, argv,
            {"--data", "--seconds", "--min-pairs", "--max-pairs", "--warmup",
             "--output", "--window", "--first"},
            2, "ab");
  std::string windowArg = args.text("--window", "open");
  if (windowArg != "open" && windowArg != "off")
    usageError("--window must be open or off, got '" + windowArg + "'");
  bool window = windowArg == "open";
  Pairing pairing(args);

  std::string first = args.text("--first", "plain");
  if (first != "plain" && first != "probed")
    usageError("--first must be plain or probed, got '" + first + "'");
  bool probedFirst = first == "probed";

  // Which build is mapped and given its buffers first is a fixed choice per
  // process, and it moves the difference (where each build's pages and
  // buffers fall): kernel_overhead.py alternates it from process to process
  // so that it cancels in the mean over processes.
  const int loadOrder[2] = {probedFirst ? 1 : 0, probedFirst ? 0 : 1};
  size_t copies = args.positional.size() / 2;
  MLIRContext context;
  std::vector<std::optional<CompiledModel>> loaded(2 * copies);
  for (size_t c = 0; c < copies; ++c)
    for (int side : loadOrder)
      loaded[2 * c + side].emplace(
          check(CompiledModel::load(args.positional[2 * c + side])));
  // With no window open any two builds of one model compare (two
  // compilers, two pipelines); an open window needs the probed build second.
  for (size_t c = 0; c < copies; ++c) {
    if (window && loaded[2 * c]->instrumented())
      usageError(args.positional[2 * c] +
                 " has probes: give the --no-instrument build first");
    if (window && !loaded[2 * c + 1]->instrumented())
      usageError(args.positional[2 * c + 1] +
                 " has no probes: give the instrumented build second");
  }
  std::vector<std::string> specs = inputSpecsFrom(args);
  keepFreedBuffers();
  std::vector<std::optional<Callable>> callables(2 * copies);
  for (size_t c = 0; c < copies; ++c)
    for (int side : loadOrder)
      callables[2 * c + side].emplace(
          makeCallable(*loaded[2 * c + side], "", context, specs));
  for (size_t i = 1; i < callables.size(); ++i)
    if (callables[i]->entry.type != callables[0]->entry.type)
      usageError(args.positional[i] + "'s entry differs in type from " +
                 args.positional[0] + "'s");

  for (unsigned i = 0; i < pairing.warmup; ++i)
    for (std::optional<Callable> &callable : callables)
      callable->call();
  // The uninstrumented build runs no probe code, so one window around all
  // calls leaves it as it is; the probed build records every call. With
  // --window off its probes stay off: what the probes cost in the code.
  if (window)
    openWindow(args);
  std::vector<std::vector<double>> a(copies), b(copies);
  double start = nowSeconds();
  for (unsigned i = 0; i < pairing.maxPairs; ++i) {
    if (i >= pairing.minPairs && nowSeconds() - start >= pairing.seconds)
      break;
    // A B, then B A: whatever the first call of a pair pays (a cache the
    // other build cooled), both pay alike.
    for (size_t c = 0; c < copies; ++c) {
      Callable &plain = *callables[2 * c], &probed = *callables[2 * c + 1];
      if (i % 2 == 0) {
        a[c].push_back(plain.call());
        b[c].push_back(probed.call());
      } else {
        b[c].push_back(probed.call());
        a[c].push_back(plain.call());
      }
    }
  }
  WindowProfile profile;
  if (window)
    profile = readWindow(closeWindow());

  for (size_t c = 0; c < copies; ++c)
    printPaired("ab", "plain", a[c], "probed", b[c]);
  if (!window)
    return 0;
  uint64_t kernelRecords = 0;
  for (const tpuprof::report::Row &row : profile.rows)
    kernelRecords += row.count;
  llvm::outs() << "dump\t" << profile.path << "\trows=" << profile.rows.size()
               << "\trecords=" << kernelRecords
               << "\tpair_ns=" << llvm::format("%.2f", profile.pairNs) << "\n";
  uint64_t probedCalls = copies * a[0].size();
  if (profile.rows.empty() || kernelRecords < probedCalls) {
    llvm::errs() << "model_bench: error: the instrumented build recorded "
                 << kernelRecords << " op records in " << probedCalls
                 << " calls: its probes did not run\n";
    return 1;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// onoff
//===----------------------------------------------------------------------===//

/// The instrumented build alone, its calls recorded and not in turn: a
/// schedule of --block steps without a window and --block steps in a
/// mode-0 window, one step per call, the k-th call of each unrecorded
/// block paired with the k-th of the recorded block after it. What
/// recording costs on the same code at the same addresses: the part of
/// the probes' overhead that is not where the instrumented build's code
/// and data happen to sit.
int runOnOff(int argc, char **argv) {
  Args args(argc, argv,
            {"--data", "--seconds", "--min-pairs", "--max-pairs", "--warmup",
             "--output", "--block"},
            1, "onoff");
  Pairing pairing(args);
  unsigned block = args.count("--block", 5, 1);
  MLIRContext context;
  CompiledModel model = loadInstrumented(args);
  keepFreedBuffers();
  Callable c = makeCallable(model, "", context, inputSpecsFrom(args));
  for (unsigned i = 0; i < pairing.warmup; ++i)
    c.call();
  prepareOutput(args);
  struct Ready {
    unsigned dumps = 0;
    std::string last;
  } ready;
  tpuprof_schedule schedule{};
  schedule.wait = block;
  schedule.active = block;
  schedule.max_records = TPUPROF_MAX_RECORD_SIZE;
  schedule.on_ready = [](const char *path, void *user) {
    auto *r = static_cast<Ready *>(user);
    ++r->dumps;
    r->last = path;
  };
  schedule.user = &ready;
  if (tpuprof_set_schedule(&schedule) != 0)
    fail(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "cannot set a profiling schedule"));
  std::vector<double> off, on, pendingOff;
  double start = nowSeconds();
  for (uint64_t step = 0; off.size() < pairing.maxPairs; ++step) {
    bool recorded = (step / block) % 2 == 1;
    if (!recorded && step % block == 0 && off.size() >= pairing.minPairs &&
        nowSeconds() - start >= pairing.seconds)
      break;
    double t = c.call();
    if (!recorded) {
      pendingOff.push_back(t);
    } else if (size_t k = step % block; k < pendingOff.size()) {
      off.push_back(pendingOff[k]);
      on.push_back(t);
    }
    if (recorded && step % block == block - 1)
      pendingOff.clear();
    tpuprof_step();
  }
  tpuprof_set_schedule(nullptr);
  printPaired("onoff", "off", off, "on", on);
  WindowProfile last = ready.dumps ? readWindow(ready.last) : WindowProfile();
  llvm::outs() << "dumps\t" << ready.dumps << "\trows=" << last.rows.size()
               << "\n";
  if (last.rows.empty()) {
    llvm::errs() << "model_bench: error: no recorded window has an op row: "
                    "the build's probes did not run\n";
    return 1;
  }
  return 0;
}

/// The names of a compiled model's entries, from the signature its loader
/// checked (CompiledModel keeps the model open; this takes the same handle).
std::vector<std::string> entryNames(const std::string &path) {
  std::string openPath =
      llvm::StringRef(path).contains('/') ? path : "./" + path;
  void *handle = dlopen(openPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  auto *signature = handle ? static_cast<const tpuprof_model_signature *>(
                                 dlsym(handle, TPUPROF_MODEL_SIGNATURE_SYMBOL))
                           : nullptr;
  if (!signature)
    usageError(path + ": no model signature");
  std::vector<std::string> names;
  for (uint32_t e = 0; e < signature->num_entries; ++e)
    names.push_back(signature->entries[e].name);
  return names;
}

void printKernelTimes(llvm::StringRef name, const std::vector<double> &times) {
  llvm::outs() << "kernel\t" << name
               << llvm::format("\t%.1f\t%.1f\t%zu\n",
                               *std::min_element(times.begin(), times.end()) *
                                   1e9,
                               median(times) * 1e9, times.size());
}

//===----------------------------------------------------------------------===//
// profile
//===----------------------------------------------------------------------===//

/// Where a buffer that a kernel touches comes from in the model: one of
/// its inputs, an allocation outside every kernel, or one this kernel
/// makes (inside its row).
enum class BufferOrigin { Input, Alloc, Made, Count };
constexpr llvm::StringLiteral kBufferOriginNames[] = {"input", "alloc", "made"};
static_assert(std::size(kBufferOriginNames) == size_t(BufferOrigin::Count));

/// What one step of the model's schedule (BUFFERS.tsv `step` lines) does:
/// allocate or free a buffer, begin or end a kernel's row.
enum class StepKind { Alloc, Free, Begin, End, Count };
constexpr llvm::StringLiteral kStepKindNames[] = {"alloc", "free", "begin",
                                                  "end"};
static_assert(std::size(kStepKindNames) == size_t(StepKind::Count));

/// The kernels alone of --kernels, each called once a round, in their
/// order, in the model's buffers as BUFFERS.tsv (extract --buffers) names
/// them: a kernel reads the buffer that an earlier kernel just wrote, as in
/// the model. The model's inputs are made once (deterministic random
/// values). The others are allocated and freed as the model's schedule
/// (the file's steps) does, in its order: outside the timed calls where
/// the model does it outside every row, inside a kernel's timed call
/// (before it, after it) where the model does it inside that kernel's
/// row. So a kernel writes into memory the allocator hands back, warm as
/// in the model, at the addresses the model's kernel had (the same
/// requests to the same heap), and its time holds the allocator's work
/// that its row holds.
class KernelSequence {
public:
  KernelSequence(const std::string &path, const std::string &buffersPath,
                 MLIRContext &context)
      : model(check(CompiledModel::load(path))), names(entryNames(path)) {
    for (const std::string &name : names)
      kernels.push_back(makeCallable(model, name, context, {}));
    steps.resize(kernels.size());
    if (!buffersPath.empty())
      readBuffers(buffersPath);
  }
  ~KernelSequence() {
    for (Shared &s : shared)
      if (s.origin != BufferOrigin::Input)
        std::free(s.block);
  }

  size_t size() const { return kernels.size(); }
  const std::string &name(size_t k) const { return names[k]; }

  /// Calls kernel `k` with the allocations and frees the model makes in its
  /// row; returns their seconds. Inside the clock only what the row holds:
  /// the model's mallocs, the call, the model's frees. The last kernel's
  /// call also takes the round's remaining steps, outside the clock.
  double call(size_t k) {
    const Steps &step = steps[k];
    run(step.before);
    // The arguments' descriptors in the cache, as the model's kernel has
    // them at hand: the call reads them through pointers.
    Callable &kernel = kernels[k];
    for (void *field : kernel.packed)
      touched += *static_cast<volatile const char *>(field);
    uint64_t start = stampStart();
    for (size_t i : step.made) {
      allocate(shared[i]);
      for (const Use &u : shared[i].uses)
        if (u.kernel == k)
          setPointers(u, shared[i].block);
    }
    kernel.entry.packed(kernel.packed.data());
    for (size_t i : step.freed)
      std::free(shared[i].block);
    double seconds = double(stampEnd() - start) * secondsPerStamp();
    for (size_t i : step.made)
      bind(shared[i]);
    for (size_t i : step.freed)
      shared[i].block = nullptr;
    if (k + 1 == kernels.size())
      run(rest);
    return seconds;
  }

private:
  static constexpr size_t kNone = ~size_t(0);
  struct Use {
    size_t kernel, packedAt;
  };
  struct Shared {
    unsigned id = 0;
    BufferOrigin origin = BufferOrigin::Input;
    MemRefType type;
    uint64_t bytes = 0;
    std::vector<Use> uses;
    void *block = nullptr;
  };
  /// An allocation or free outside every row.
  struct Action {
    StepKind kind;
    size_t buffer;
  };
  /// What happens to buffers around one kernel's call, in the model's
  /// order: allocated or freed before it, outside every row; allocated in
  /// its row; freed in its row. And the buffers it takes.
  struct Steps {
    std::vector<Action> before;
    std::vector<size_t> made, freed, uses;
  };

  void allocate(Shared &s) {
    // As the model allocates an aligned buffer: 64 bytes more, rounded up.
    s.block = std::malloc(s.bytes + 64);
    if (!s.block)
      usageError("out of memory for a kernel's buffer");
  }
  void setPointers(const Use &u, void *block) {
    auto aligned = reinterpret_cast<void *>(
        (reinterpret_cast<uintptr_t>(block) + 63) & ~uintptr_t(63));
    *static_cast<void **>(kernels[u.kernel].packed[u.packedAt]) = block;
    *static_cast<void **>(kernels[u.kernel].packed[u.packedAt + 1]) = aligned;
  }
  /// Every kernel that takes `s` gets its current block.
  void bind(const Shared &s) {
    for (const Use &u : s.uses)
      setPointers(u, s.block);
  }
  void run(const std::vector<Action> &actions) {
    for (const Action &a : actions) {
      Shared &s = shared[a.buffer];
      if (a.kind == StepKind::Alloc) {
        allocate(s);
        bind(s);
      } else {
        std::free(s.block);
        s.block = nullptr;
      }
    }
  }

  /// Lines `buffer<tab>ID<tab>input|alloc|made`, then
  /// `arg<tab>KERNEL<tab>ARG<tab>ID`, then the model's schedule in its
  /// order: `step<tab>alloc|free<tab>ID` and `step<tab>begin|end<tab>KERNEL`.
  /// A buffer the schedule does not allocate is allocated before its first
  /// kernel; one it does not free, after the round (as the model's results
  /// are).
  void readBuffers(const std::string &path) {
    auto file = llvm::MemoryBuffer::getFile(path);
    if (!file)
      usageError("--buffers " + path + ": " + file.getError().message());
    llvm::SmallVector<llvm::StringRef> lines;
    (*file)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
    llvm::DenseMap<unsigned, size_t> index;
    std::vector<bool> allocated, freed;
    size_t row = kNone, lastBegun = kNone;
    std::vector<Action> pending;
    for (auto [number, line] : llvm::enumerate(lines)) {
      auto bad = [&, number = number](const llvm::Twine &why) {
        usageError("--buffers " + path + ":" + llvm::Twine(number + 1) + ": " +
                   why);
      };
      auto kernel = [&](llvm::StringRef name) {
        size_t k = llvm::find(names, name) - names.begin();
        if (k == names.size())
          bad("no function " + name + " in the kernels");
        return k;
      };
      auto buffer = [&](llvm::StringRef text) {
        unsigned id = 0;
        auto it = text.getAsInteger(10, id) ? index.end() : index.find(id);
        if (it == index.end())
          bad("no buffer line for buffer " + text + " before it");
        return it->second;
      };
      llvm::SmallVector<llvm::StringRef, 5> f;
      line.split(f, '\t');
      unsigned id = 0, arg = 0;
      if (f[0] == "buffer") {
        const auto *origin = f.size() == 3
                                 ? llvm::find(kBufferOriginNames, f[2])
                                 : std::end(kBufferOriginNames);
        if (origin == std::end(kBufferOriginNames) || f[1].getAsInteger(10, id))
          bad("expected buffer<tab>ID<tab>input|alloc|made");
        if (!index.try_emplace(id, shared.size()).second)
          bad("buffer " + f[1] + " twice");
        shared.emplace_back();
        shared.back().id = id;
        shared.back().origin =
            BufferOrigin(origin - std::begin(kBufferOriginNames));
        allocated.push_back(false);
        freed.push_back(false);
        continue;
      }
      if (f[0] == "step") {
        const auto *name = f.size() == 3 ? llvm::find(kStepKindNames, f[1])
                                         : std::end(kStepKindNames);
        if (name == std::end(kStepKindNames))
          bad("expected step<tab>alloc|free|begin|end<tab>ID or KERNEL");
        StepKind kind = StepKind(name - std::begin(kStepKindNames));
        switch (kind) {
        case StepKind::Begin: {
          size_t k = kernel(f[2]);
          if (row != kNone || (lastBegun != kNone && k <= lastBegun))
            bad("kernel " + f[2] + " begins out of the kernels' order");
          row = lastBegun = k;
          steps[k].before = std::move(pending);
          pending.clear();
          break;
        }
        case StepKind::End:
          if (row != kernel(f[2]))
            bad("kernel " + f[2] + " ends where it did not begin");
          row = kNone;
          break;
        case StepKind::Alloc:
        case StepKind::Free: {
          bool isFree = kind == StepKind::Free;
          size_t i = buffer(f[2]);
          if (shared[i].origin == BufferOrigin::Input)
            bad("the model's input " + f[2] + " is allocated or freed");
          (isFree ? freed : allocated)[i] = true;
          if (row == kNone)
            pending.push_back({kind, i});
          else
            (isFree ? steps[row].freed : steps[row].made).push_back(i);
          break;
        }
        case StepKind::Count:
          llvm_unreachable("not a step");
        }
        continue;
      }
      if (f[0] != "arg" || f.size() != 4 || f[2].getAsInteger(10, arg))
        bad("expected buffer, arg or step lines");
      size_t k = kernel(f[1]);
      llvm::ArrayRef<Type> inputs = kernels[k].entry.type.getInputs();
      auto type = arg < inputs.size() ? dyn_cast<MemRefType>(inputs[arg])
                                      : MemRefType();
      if (!type || !type.hasStaticShape())
        bad(f[1] + " has no buffer argument " + f[2]);
      Shared &s = shared[buffer(f[3])];
      if (s.type && s.type != type)
        bad("buffer " + f[3] + " has arguments of two types");
      s.type = type;
      s.uses.push_back({k, kernels[k].args->packedIndex(arg)});
      steps[k].uses.push_back(&s - shared.data());
    }
    if (row != kNone)
      usageError("--buffers " + path + ": the last kernel does not end");
    rest = std::move(pending);
    for (Shared &s : shared) {
      size_t i = &s - shared.data();
      if (s.uses.empty())
        usageError("--buffers " + path + ": a buffer no kernel takes");
      s.bytes =
          s.type.getNumElements() * ((s.type.getElementTypeBitWidth() + 7) / 8);
      if (s.origin == BufferOrigin::Input) {
        // An input is the buffer its first kernel was given, for all of
        // them.
        for (const Use &u : s.uses)
          for (size_t field = 0; field < 3; ++field)
            kernels[u.kernel].packed[u.packedAt + field] =
                kernels[s.uses.front().kernel]
                    .packed[s.uses.front().packedAt + field];
        continue;
      }
      size_t first = s.uses.front().kernel;
      for (const Use &u : s.uses)
        first = std::min(first, u.kernel);
      if (!allocated[i])
        steps[first].before.push_back({StepKind::Alloc, i});
      if (!freed[i])
        rest.push_back({StepKind::Free, i});
    }
    checkSchedule();
  }

  /// Runs one round of the schedule on paper, once, rather than checking
  /// it between the timed calls: each kernel finds its buffers allocated,
  /// and no buffer is allocated while it holds a block (in this round or,
  /// left allocated at its end, in the next).
  void checkSchedule() const {
    std::vector<bool> live(shared.size());
    auto apply = [&](StepKind kind, size_t i) {
      if (kind == StepKind::Alloc && live[i])
        usageError("the schedule of --buffers allocates buffer " +
                   llvm::Twine(shared[i].id) + " twice");
      live[i] = kind == StepKind::Alloc;
    };
    for (size_t k = 0; k < steps.size(); ++k) {
      for (const Action &a : steps[k].before)
        apply(a.kind, a.buffer);
      for (size_t i : steps[k].made)
        apply(StepKind::Alloc, i);
      for (size_t i : steps[k].uses)
        if (shared[i].origin != BufferOrigin::Input && !live[i])
          usageError("the schedule of --buffers has no block for buffer " +
                     llvm::Twine(shared[i].id) + " when " + names[k] + " runs");
      for (size_t i : steps[k].freed)
        apply(StepKind::Free, i);
    }
    for (const Action &a : rest)
      apply(a.kind, a.buffer);
    for (size_t i = 0; i < shared.size(); ++i)
      if (live[i])
        apply(StepKind::Alloc, i);
  }

  CompiledModel model;
  std::vector<std::string> names;
  std::vector<Callable> kernels;
  std::vector<Shared> shared;
  std::vector<Steps> steps;
  /// What the schedule does after the last kernel's row.
  std::vector<Action> rest;
  unsigned touched = 0;
};

int runProfile(int argc, char **argv) {
  Args args(
      argc, argv,
      {"--data", "--calls", "--warmup", "--output", "--kernels", "--buffers"},
      1, "profile");
  unsigned calls = args.count("--calls", 20, 1);
  unsigned warmup = args.count("--warmup", 3, 0);
  MLIRContext context;
  CompiledModel model = loadInstrumented(args);
  keepFreedBuffers();
  Callable c = makeCallable(model, "", context, inputSpecsFrom(args));
  // With --kernels, each call of the model is followed by one call of every
  // function of that .so, in its order: the kernels alone meet the same
  // moments of the machine's load as the rows.
  std::optional<KernelSequence> kernels;
  if (std::string path = args.text("--kernels"); !path.empty())
    kernels.emplace(path, args.text("--buffers"), context);
  size_t numKernels = kernels ? kernels->size() : 0;
  std::vector<std::vector<double>> times(numKernels);
  for (unsigned i = 0; i < warmup; ++i) {
    c.call();
    for (size_t k = 0; k < numKernels; ++k)
      kernels->call(k);
  }
  openWindow(args);
  for (unsigned i = 0; i < calls; ++i) {
    c.call();
    for (size_t k = 0; k < numKernels; ++k)
      times[k].push_back(kernels->call(k));
  }
  WindowProfile window = readWindow(closeWindow());
  llvm::outs() << "calls\t" << calls << "\n";
  printRows(window);
  for (size_t k = 0; k < numKernels; ++k)
    printKernelTimes(kernels->name(k), times[k]);
  return window.rows.empty() ? 1 : 0;
}

//===----------------------------------------------------------------------===//
// extract
//===----------------------------------------------------------------------===//

/// The attribute extract numbers each allocation of the bufferized model
/// with, to find it again once the pipeline has placed the frees.
constexpr llvm::StringLiteral kBufferTag = "model_bench.buffer";

/// A step of the schedule: an allocation's tag, or a probe's id.
struct ScheduleStep {
  StepKind kind;
  int64_t number;
};

std::vector<ScheduleStep> modelSchedule(ModuleOp module,
                                        llvm::ArrayRef<std::string> entries);

/// Keeps a copy of the module as it is right after bufferization: each
/// kernel fused, tiled, vectorized and in the buffers it runs in, between
/// its begin and end (the probes are lowered by the next pass); its
/// allocations tagged. Then, once the pipeline has freed each buffer where
/// the model frees it (tpu-profile-free-early), the model's schedule.
struct KeepModelStages : PassInstrumentation {
  KeepModelStages(OwningOpRef<ModuleOp> &kept,
                  std::optional<std::vector<ScheduleStep>> &schedule,
                  std::vector<std::string> entries)
      : kept(kept), schedule(schedule), entries(std::move(entries)) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    auto module = dyn_cast<ModuleOp>(op);
    if (!module)
      return;
    if (pass->getArgument() == "one-shot-bufferize" && !kept) {
      Builder b(op->getContext());
      int64_t tag = 0;
      module.walk([&](memref::AllocOp alloc) {
        alloc->setAttr(kBufferTag, b.getI64IntegerAttr(tag++));
      });
      kept = module.clone();
    }
    if (pass->getArgument() == "tpu-profile-free-early" && kept && !schedule)
      schedule = modelSchedule(module, entries);
  }
  OwningOpRef<ModuleOp> &kept;
  std::optional<std::vector<ScheduleStep>> &schedule;
  std::vector<std::string> entries;
};

/// The buffers of a bufferized model, each seen behind what only passes it
/// on, so that two kernels that touch one buffer name the same value.
class ModelBuffers {
public:
  explicit ModelBuffers(ModuleOp module) {
    module.walk([&](func::CallOp call) {
      callers[call.getCalleeAttr().getAttr()].push_back(call);
    });
  }

  /// The buffer `v` is: a probe's result is its operand, a loop's result
  /// that the loop yields in place its initial value, a call's result what
  /// the callee returns, a function's argument the operand of the
  /// function's one call. Stops at anything else (an allocation, a view,
  /// the model's input).
  Value of(Value v) const {
    for (;;) {
      if (auto r = dyn_cast<OpResult>(v)) {
        Operation *op = r.getOwner();
        unsigned i = r.getResultNumber();
        if (isa<tpuprof::BeginOp, tpuprof::EndOp>(op)) {
          v = op->getOperand(i);
          continue;
        }
        if (auto call = dyn_cast<func::CallOp>(op)) {
          auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
              call, call.getCalleeAttr());
          if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock())
            return v;
          v = callee.getBody().front().getTerminator()->getOperand(i);
          continue;
        }
        auto loop = dyn_cast<scf::ForOp>(op);
        if (!loop ||
            of(loop.getYieldedValues()[i]) != loop.getRegionIterArgs()[i])
          return v;
        v = loop.getInitArgs()[i];
        continue;
      }
      auto arg = cast<BlockArgument>(v);
      auto fn = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
      if (!fn || !arg.getOwner()->isEntryBlock())
        return v;
      auto it = callers.find(fn.getSymNameAttr());
      if (it == callers.end() || it->second.size() != 1)
        return v;
      v = it->second.front()->getOperand(arg.getArgNumber());
    }
  }

  /// A number per buffer, in the order they are first asked for.
  unsigned id(Value buffer) {
    auto [it, fresh] = ids.try_emplace(buffer, ids.size());
    if (fresh)
      values.push_back(buffer);
    return it->second;
  }
  Value buffer(unsigned id) const { return values[id]; }

private:
  llvm::DenseMap<StringAttr, llvm::SmallVector<Operation *, 1>> callers;
  llvm::DenseMap<Value, unsigned> ids;
  std::vector<Value> values;
};

/// The tag of the allocation behind `v` (through views, the base buffer
/// of a `memref.extract_strided_metadata` that a lowered dealloc frees,
/// calls and loops), if it has one.
std::optional<int64_t> allocationTag(const ModelBuffers &buffers, Value v) {
  for (;;) {
    Value root = buffers.of(v);
    Operation *def = root.getDefiningOp();
    if (auto meta = dyn_cast_or_null<memref::ExtractStridedMetadataOp>(def))
      v = meta.getSource();
    else if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(def))
      v = view.getViewSource();
    else if (auto tag = def ? def->getAttrOfType<IntegerAttr>(kBufferTag)
                            : IntegerAttr())
      return tag.getInt();
    else
      return std::nullopt;
  }
}

/// The id a lowered probe's guard call passes, if `call` is one.
std::optional<ScheduleStep> probeStep(LLVM::CallOp call) {
  std::optional<llvm::StringRef> callee = call.getCallee();
  if (!callee || call.getNumOperands() == 0)
    return std::nullopt;
  StepKind kind;
  if (*callee == tpuprof::kEndGuardName)
    kind = StepKind::End;
  else if (*callee == tpuprof::kBeginGuardName ||
           callee->starts_with(tpuprof::kBeginDimsGuardPrefix))
    kind = StepKind::Begin;
  else
    return std::nullopt;
  auto id = call.getOperand(0).getDefiningOp<LLVM::ConstantOp>();
  auto value = id ? dyn_cast<IntegerAttr>(id.getValue()) : IntegerAttr();
  if (!value)
    return std::nullopt;
  return ScheduleStep{kind, value.getInt()};
}

/// The model's allocations (tagged), frees and kernel rows in the order
/// one call of its entries runs them, calls followed into their callees:
/// what the kernels alone repeat to get the model's blocks of the heap.
/// A kernel in a loop is seen once, a function's body at its first call
/// (the kernels alone run once a round); an entry that another calls (a
/// model's public subfunction) is seen where it is called.
std::vector<ScheduleStep> modelSchedule(ModuleOp module,
                                        llvm::ArrayRef<std::string> entries) {
  ModelBuffers buffers(module);
  llvm::DenseSet<StringAttr> called;
  module.walk([&](func::CallOp call) {
    called.insert(call.getCalleeAttr().getAttr());
  });
  std::vector<ScheduleStep> steps;
  llvm::SmallPtrSet<Operation *, 8> visited;
  std::function<void(func::FuncOp)> visit = [&](func::FuncOp fn) {
    if (!fn || fn.isExternal() || !visited.insert(fn).second)
      return;
    fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<memref::AllocOp>(op)) {
        if (auto tag = op->getAttrOfType<IntegerAttr>(kBufferTag))
          steps.push_back({StepKind::Alloc, tag.getInt()});
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        if (auto tag = allocationTag(buffers, dealloc.getMemref()))
          steps.push_back({StepKind::Free, *tag});
      } else if (auto call = dyn_cast<LLVM::CallOp>(op)) {
        if (auto step = probeStep(call))
          steps.push_back(*step);
      } else if (auto call = dyn_cast<func::CallOp>(op)) {
        visit(SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr()));
      }
    });
  };
  for (const std::string &entry : entries)
    if (auto fn = module.lookupSymbol<func::FuncOp>(entry);
        fn && !called.contains(fn.getSymNameAttr()))
      visit(fn);
  return steps;
}

/// An argument of an extracted kernel, the model's buffer it stands for,
/// and where that comes from.
struct BoundBuffer {
  unsigned arg, buffer;
  BufferOrigin origin;
};

/// Whether `alloc`'s buffer, or a memref made from it, is used by an op of
/// its block outside `inside` (a probe passes it on: its results count).
bool usedAfter(Operation *alloc,
               const llvm::SmallPtrSetImpl<Operation *> &inside) {
  Block *block = alloc->getBlock();
  llvm::SmallVector<Value> work{alloc->getResult(0)};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      for (Value r : user->getResults())
        if (isa<BaseMemRefType>(r.getType()))
          work.push_back(r);
      if (isa<tpuprof::BeginOp, tpuprof::EndOp>(user))
        continue;
      Operation *at = block->findAncestorOpInBlock(*user);
      if (!at || !inside.contains(at))
        return true;
    }
  }
  return false;
}

/// Builds @k<id> from the ops between `begin` and its end, or says why not;
/// `bound` gets which of the model's buffers each argument is.
std::string extractKernel(tpuprof::BeginOp begin, ModuleOp model, ModuleOp out,
                          ModelBuffers &buffers, bool keepProbes,
                          std::string &name,
                          llvm::SmallVectorImpl<BoundBuffer> &bound) {
  int64_t id = begin.getProbe();
  name = "k" + std::to_string(id);
  llvm::SmallVector<Operation *> body;
  Operation *end = nullptr;
  for (Operation *op = begin->getNextNode(); op; op = op->getNextNode()) {
    if (auto e = dyn_cast<tpuprof::EndOp>(op); e && e.getProbe() == id) {
      end = op;
      break;
    }
    body.push_back(op);
  }
  if (!end)
    return "its end is not in the same block";
  llvm::SmallPtrSet<Operation *, 8> inside(body.begin(), body.end());
  for (Operation *op : body) {
    bool bad = false;
    op->walk([&](Operation *nested) {
      if (isa<tpuprof::BeginOp, tpuprof::EndOp, func::CallOp>(nested))
        bad = true;
    });
    if (bad)
      return "it holds probes or calls";
  }
  llvm::SetVector<Value> outside;
  for (Operation *op : body) {
    for (Value v : op->getOperands())
      if (!v.getDefiningOp() || !inside.contains(v.getDefiningOp()))
        outside.insert(v);
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    for (Value v : above)
      if (!v.getDefiningOp() || !inside.contains(v.getDefiningOp()))
        outside.insert(v);
  }
  // A buffer that the kernel allocates in the model (in its row) and that
  // is used after it (a result, or zeros a later kernel copies) is an
  // argument alone, which the caller allocates inside the timed call: it
  // outlives the kernel.
  llvm::SmallPtrSet<Operation *, 4> hoisted;
  for (Operation *op : body)
    if (isa<memref::AllocOp>(op) && usedAfter(op, inside))
      hoisted.insert(op);

  OpBuilder b(out.getBodyRegion());
  b.setInsertionPointToEnd(out.getBody());
  auto fn =
      b.create<func::FuncOp>(begin.getLoc(), name, b.getFunctionType({}, {}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping map;
  llvm::DenseMap<Value, Value> argumentOf;
  std::string why;
  auto argumentFor = [&](Value buffer) -> Value {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity()) {
      why = "it reads a value that is not a static buffer or a constant";
      return {};
    }
    auto [it, fresh] = argumentOf.try_emplace(buffer);
    if (fresh) {
      it->second = entry->addArgument(type, buffer.getLoc());
      Operation *alloc = buffer.getDefiningOp();
      bound.push_back({entry->getNumArguments() - 1, buffers.id(buffer),
                       !alloc                    ? BufferOrigin::Input
                       : hoisted.contains(alloc) ? BufferOrigin::Made
                                                 : BufferOrigin::Alloc});
    }
    return it->second;
  };
  // What the kernel reads from outside: the buffer behind it (an argument),
  // a constant or a global (cloned), or a view of one of those (cloned over
  // what it views, as the model computes it before the begin).
  std::function<Value(Value)> resolve = [&](Value v) -> Value {
    if (Value known = map.lookupOrNull(v))
      return known;
    Value s = buffers.of(v);
    Operation *def = s.getDefiningOp();
    Value result;
    if (!def || isa<memref::AllocOp>(def)) {
      result = argumentFor(s);
    } else if (def->hasTrait<OpTrait::ConstantLike>() ||
               isa<memref::GetGlobalOp>(def)) {
      result = b.clone(*def)->getResult(cast<OpResult>(s).getResultNumber());
    } else if (isa<ViewLikeOpInterface>(def) && def->getNumRegions() == 0) {
      for (Value operand : def->getOperands())
        if (!resolve(operand))
          return {};
      result =
          b.clone(*def, map)->getResult(cast<OpResult>(s).getResultNumber());
    } else {
      why = "it reads a value that is not a static buffer or a constant";
    }
    if (result) {
      map.map(s, result);
      map.map(v, result);
    }
    return result;
  };
  bool resolved = llvm::all_of(outside, [&](Value v) { return !!resolve(v); });
  for (Operation *alloc : hoisted) {
    Value arg = resolved ? argumentFor(alloc->getResult(0)) : Value();
    resolved = resolved && arg;
    if (arg)
      map.map(alloc->getResult(0), arg);
  }
  if (!resolved) {
    fn.erase();
    bound.clear();
    return why;
  }
  // With probes kept, one pair around the whole kernel (its allocations
  // the caller's): what a pair costs in place, on the same code.
  if (keepProbes)
    b.create<tpuprof::BeginOp>(begin.getLoc(), TypeRange(), id, ValueRange());
  for (Operation *op : body)
    if (!hoisted.contains(op))
      b.clone(*op, map);
  if (keepProbes)
    b.create<tpuprof::EndOp>(end->getLoc(), TypeRange(), id, ValueRange());
  b.create<func::ReturnOp>(end->getLoc());
  fn.setFunctionType(b.getFunctionType(entry->getArgumentTypes(), {}));
  // Distinct buffers, as the model's allocations are to LLVM: what it may
  // keep in registers or reorder in the model, it may alone.
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    fn.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  // Weights stay the model's constant globals: the pipeline compiled the
  // kernel against them (a filter rearranged at compile time).
  fn.walk([&](memref::GetGlobalOp get) {
    if (out.lookupSymbol(get.getNameAttr()))
      return;
    OpBuilder top(out.getBodyRegion());
    top.setInsertionPointToStart(out.getBody());
    top.clone(*model.lookupSymbol(get.getNameAttr()));
  });
  return "";
}

int runExtract(int argc, char **argv) {
  Args args(argc, argv, {"-o", "--manifest", "--buffers", "--probes"}, 1,
            "extract");
  std::string probes = args.text("--probes", "drop");
  if (probes != "drop" && probes != "keep")
    usageError("--probes must be drop or keep, got '" + probes + "'");
  bool keepProbes = probes == "keep";
  std::string output = args.text("-o"), manifest = args.text("--manifest");
  std::string buffersPath = args.text("--buffers");
  if (output.empty() || manifest.empty() || buffersPath.empty())
    usageError("extract: needs -o KERNELS.mlir, --manifest PROBES.json and "
               "--buffers BUFFERS.tsv");
  tpuprof::run::registerModelPasses();
  tpuprof::run::ModelSource model =
      check(tpuprof::run::loadModel(args.positional[0]));
  ModuleOp module = *model.module;
  llvm::SmallVector<llvm::StringRef> entries;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal())
      entries.push_back(fn.getSymName());

  tpuprof::ModelPipelineOptions options;
  options.instrument = true;
  options.probeLevel = tpuprof::ProbeLevel::Kernel;
  options.instrumentOptions = "manifest=" + manifest;
  PassManager pm(model.context.get());
  if (llvm::Error err = tpuprof::buildModelPipeline(pm, options))
    fail(std::move(err));
  OwningOpRef<ModuleOp> kept;
  std::optional<std::vector<ScheduleStep>> schedule;
  pm.addInstrumentation(std::make_unique<KeepModelStages>(
      kept, schedule,
      std::vector<std::string>(entries.begin(), entries.end())));
  tpuprof::eraseUnreachableSymbols(module, entries);
  if (llvm::Error err = tpuprof::runModelPipeline(pm, module))
    fail(std::move(err));
  if (!kept || !schedule)
    fail(llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the pipeline ran no one-shot-bufferize or tpu-profile-free-early"));

  OwningOpRef<ModuleOp> out = ModuleOp::create(kept->getLoc());
  // @empty_call: what calling a function of the .so costs by itself (the
  // packed wrapper, two descriptors), to take off each kernel's.
  {
    OpBuilder b(out->getBodyRegion());
    b.setInsertionPointToEnd(out->getBody());
    Type buffer = MemRefType::get({16}, b.getF32Type());
    auto fn = b.create<func::FuncOp>(out->getLoc(), "empty_call",
                                     b.getFunctionType({buffer, buffer}, {}));
    fn.addEntryBlock();
    b.setInsertionPointToStart(&fn.front());
    b.create<func::ReturnOp>(out->getLoc());
  }
  // Kept probes need the model's probe table, which their lowering reads.
  if (keepProbes)
    for (auto table : kept->getOps<tpuprof::ProbesOp>()) {
      OpBuilder top(out->getBodyRegion());
      top.setInsertionPointToStart(out->getBody());
      top.clone(*table);
    }
  unsigned made = 0;
  ModelBuffers buffers(*kept);
  std::string argLines;
  std::map<unsigned, BufferOrigin> origins;
  kept->walk([&](tpuprof::BeginOp begin) {
    std::string name;
    llvm::SmallVector<BoundBuffer> bound;
    std::string why =
        extractKernel(begin, *kept, *out, buffers, keepProbes, name, bound);
    if (!why.empty()) {
      llvm::outs() << "skipped\t" << name << "\t" << why << "\n";
      return;
    }
    ++made;
    for (const BoundBuffer &b : bound) {
      argLines +=
          llvm::formatv("arg\t{0}\t{1}\t{2}\n", name, b.arg, b.buffer).str();
      // Made by one kernel, taken by others: made.
      BufferOrigin &origin =
          origins.try_emplace(b.buffer, b.origin).first->second;
      if (b.origin == BufferOrigin::Made)
        origin = b.origin;
    }
  });
  // The kernels' buffers by the tag of their allocation, and the model's
  // schedule in their terms: what happens to other buffers, and in kernels
  // not extracted, the kernels alone do not repeat.
  llvm::DenseMap<int64_t, unsigned> bufferOfTag;
  for (auto &[id, origin] : origins)
    if (Operation *alloc = buffers.buffer(id).getDefiningOp())
      if (auto tag = alloc->getAttrOfType<IntegerAttr>(kBufferTag))
        bufferOfTag[tag.getInt()] = id;
  out->walk([](memref::AllocOp alloc) { alloc->removeAttr(kBufferTag); });
  {
    std::error_code ec;
    llvm::raw_fd_ostream buffersFile(buffersPath, ec);
    if (ec)
      usageError("--buffers " + buffersPath + ": " + ec.message());
    for (auto &[id, origin] : origins)
      buffersFile << llvm::formatv("buffer\t{0}\t{1}\n", id,
                                   kBufferOriginNames[size_t(origin)]);
    buffersFile << argLines;
    // One block per buffer: a function seen once whose results its
    // callers free at each call frees one buffer twice.
    llvm::DenseSet<unsigned> live;
    for (const ScheduleStep &step : *schedule) {
      std::string what;
      if (step.kind == StepKind::Alloc || step.kind == StepKind::Free) {
        auto it = bufferOfTag.find(step.number);
        if (it != bufferOfTag.end() &&
            (step.kind == StepKind::Alloc ? live.insert(it->second).second
                                          : live.erase(it->second)))
          what = std::to_string(it->second);
      } else if (std::string kernel = "k" + std::to_string(step.number);
                 out->lookupSymbol(kernel)) {
        what = kernel;
      }
      if (!what.empty())
        buffersFile << "step\t" << kStepKindNames[size_t(step.kind)] << "\t"
                    << what << "\n";
    }
  }
  std::string error;
  auto file = mlir::openOutputFile(output, &error);
  if (!file)
    usageError("-o " + output + ": " + error);
  // Bytecode: the weights as raw bytes, not hex text.
  if (failed(writeBytecodeToFile(*out, file->os())))
    usageError("-o " + output + ": cannot write bytecode");
  file->keep();
  llvm::outs() << "kernels\t" << made << "\n";
  llvm::outs() << "pipeline\t"
               << tpuprof::afterBufferizationPipelineText(/*optimize=*/true)
               << "\n";
  return made ? 0 : 1;
}

//===----------------------------------------------------------------------===//
// kernels
//===----------------------------------------------------------------------===//

int runKernels(int argc, char **argv) {
  Args args(argc, argv, {"--calls", "--warmup", "--seconds", "--order"}, 1,
            "kernels");
  unsigned calls = args.count("--calls", 30, 1);
  unsigned warmup = args.count("--warmup", 3, 0);
  double seconds = args.number("--seconds", 2, 0);
  std::string order = args.text("--order", "back-to-back");
  if (order != "back-to-back" && order != "sequence")
    usageError("--order must be back-to-back or sequence, got '" + order + "'");
  const std::string &path = args.positional[0];
  MLIRContext context;
  CompiledModel model = check(CompiledModel::load(path));
  std::vector<std::string> names = entryNames(path);
  keepFreedBuffers();
  if (order == "sequence") {
    // Every function once per round, in the .so's order (the model's
    // kernels in program order): each runs after the others as in the
    // model, its code and data no warmer than that.
    std::vector<Callable> all;
    for (const std::string &name : names)
      all.push_back(makeCallable(model, name, context, {}));
    std::vector<std::vector<double>> times(all.size());
    double start = nowSeconds();
    for (unsigned round = 0; round < warmup + calls; ++round) {
      if (round >= warmup + 3 &&
          nowSeconds() - start >= seconds * double(all.size()))
        break;
      for (size_t e = 0; e < all.size(); ++e) {
        double t = all[e].call();
        if (round >= warmup)
          times[e].push_back(t);
      }
    }
    for (size_t e = 0; e < all.size(); ++e)
      printKernelTimes(names[e], times[e]);
    return 0;
  }
  for (const std::string &name : names) {
    Callable c = makeCallable(model, name, context, {});
    for (unsigned i = 0; i < warmup; ++i)
      c.call();
    std::vector<double> times;
    double start = nowSeconds();
    for (unsigned i = 0; i < calls; ++i) {
      if (i >= 3 && nowSeconds() - start >= seconds)
        break;
      times.push_back(c.call());
    }
    printKernelTimes(name, times);
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// pairs
//===----------------------------------------------------------------------===//

/// The same kernels alone without and with a probe pair each (extract
/// --probes drop / keep), each .so's kernels once a round in their order,
/// the two in alternate order from round to round, in a mode-0 window:
/// what a pair costs in place, on the same code in the same buffers.
int runPairs(int argc, char **argv) {
  Args args(argc, argv, {"--buffers", "--calls", "--warmup", "--output"}, 2,
            "pairs");
  unsigned calls = args.count("--calls", 20, 1);
  unsigned warmup = args.count("--warmup", 3, 0);
  std::string buffersPath = args.text("--buffers");
  MLIRContext context;
  keepFreedBuffers();
  KernelSequence plain(args.positional[0], buffersPath, context);
  KernelSequence probed(args.positional[1], buffersPath, context);
  if (plain.size() != probed.size())
    usageError("the two .so files hold different kernels");
  for (size_t k = 0; k < plain.size(); ++k)
    if (plain.name(k) != probed.name(k))
      usageError("the two .so files hold different kernels");
  std::vector<std::vector<double>> a(plain.size()), b(plain.size());
  auto round = [&](unsigned i, bool keep) {
    KernelSequence &first = i % 2 ? probed : plain;
    KernelSequence &second = i % 2 ? plain : probed;
    auto &firstTimes = i % 2 ? b : a, &secondTimes = i % 2 ? a : b;
    for (size_t k = 0; k < first.size(); ++k) {
      double t = first.call(k);
      if (keep)
        firstTimes[k].push_back(t);
    }
    for (size_t k = 0; k < second.size(); ++k) {
      double t = second.call(k);
      if (keep)
        secondTimes[k].push_back(t);
    }
  };
  for (unsigned i = 0; i < warmup; ++i)
    round(i, false);
  openWindow(args);
  for (unsigned i = 0; i < calls; ++i)
    round(i, true);
  WindowProfile window = readWindow(closeWindow());
  printRows(window);
  for (size_t k = 0; k < plain.size(); ++k)
    llvm::outs() << "pair\t" << plain.name(k)
                 << llvm::format(
                        "\t%.1f\t%.1f\n",
                        *std::min_element(a[k].begin(), a[k].end()) * 1e9,
                        *std::min_element(b[k].begin(), b[k].end()) * 1e9);
  return window.rows.empty() ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::StringRef command = argc > 1 ? argv[1] : "";
  if (command == "ab")
    return runAb(argc, argv);
  if (command == "profile")
    return runProfile(argc, argv);
  if (command == "extract")
    return runExtract(argc, argv);
  if (command == "kernels")
    return runKernels(argc, argv);
  if (command == "pairs")
    return runPairs(argc, argv);
  if (command == "onoff")
    return runOnOff(argc, argv);
  std::string what = command.empty()
                         ? std::string("give a subcommand")
                         : "unknown subcommand '" + command.str() + "'";
  usageError(what + " (ab, onoff, profile, extract, kernels or pairs)");
}
