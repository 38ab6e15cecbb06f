//===- model_bench.cpp - Time compiled models and their kernels -----------===//
//
// The timing half of bench/kernel_overhead.py and bench/kernel_alone.py
// (docs/performance.md, "Kernel probes against no probes" and "Kernel rows
// against kernels alone"). Models are .so files from tpuprof-compile, loaded
// and called through lib/ModelRunner as tpuprof-run loads them, so the
// model ABI is read from tpuprof/model.h alone.
//
//   model_bench ab PLAIN.so PROBED.so [--data DIR] [--seconds S]
//                  [--min-pairs N] [--max-pairs N] [--warmup N] [--output DIR]
//                  [--window open|off]
//       Both builds in this one process, called alternately (A B, B A, ...)
//       with the same inputs while a mode-0 window is open (or, with
//       --window off, none: the probes' guards alone); prints both
//       builds' fastest and median calls and the median of the paired
//       differences with a distribution-free 95 % interval.
//   model_bench profile PROBED.so [--data DIR] [--calls N] [--warmup N]
//                  [--output DIR] [--kernels KERNELS.so [--feeds FEEDS.tsv]]
//       A mode-0 window around N calls; prints each row of the profile
//       (hash, shapes, node, name, calls, mean and fastest corrected ns) and
//       the calibrated cost of a probe pair. With --kernels, every function
//       of KERNELS.so once after each call, in its order, and each one's
//       fastest and median call; FEEDS.tsv (from extract) makes a kernel
//       read the buffer its producer just wrote, as in the model.
//   model_bench extract MODEL -o KERNELS.mlir --manifest PROBES.json
//                  --feeds FEEDS.tsv
//       Compiles MODEL with kernel probes and writes, for every probed
//       kernel, a public function @k<probe id> holding that kernel alone,
//       its inputs as arguments (constants, weights included, stay
//       constants) and a buffer per result that it writes in place, and
//       @empty_call, a function of the same form that does nothing, in MLIR
//       bytecode; PROBES.json is the probe table; FEEDS.tsv says which
//       input of a @k is which result of an earlier one.
//   model_bench kernels KERNELS.so [--calls N] [--warmup N] [--seconds S]
//                  [--order back-to-back|sequence]
//       Times each function of a .so alone: fastest and median call, each
//       function called N times in a row, or (sequence) all functions once
//       per round for N rounds.
//
// Output lines that scripts read start with a tag and separate fields by
// tabs. A bad argument is one line `model_bench: error: ...` and exit 2.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/ModelRunner/CompiledModel.h"
#include "tpuprof/ModelRunner/ModelSource.h"
#include "tpuprof/ModelRunner/OnnxData.h"
#include "tpuprof/ModelRunner/RunInputs.h"

#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/Dialect/Probe/ProbeDialect.h"
#include "tpuprof/model.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/tpuprof.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
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
#include <string>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>
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
    if (positional.size() != wantPositional)
      usageError(command + ": takes " + llvm::Twine(wantPositional) +
                 " file argument" + (wantPositional == 1 ? "" : "s") +
                 ", got " + llvm::Twine(positional.size()));
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

/// A compiled model's entry with its arguments and results, ready to call.
struct Callable {
  CompiledModel::Entry entry;
  std::unique_ptr<EntryArguments> args;
  std::unique_ptr<EntryResults> results;
  llvm::SmallVector<void *> packed;

  /// One call; returns its seconds. Results are released after the clock.
  double call() {
    double start = nowSeconds();
    entry.packed(packed.data());
    double seconds = nowSeconds() - start;
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

void openWindow(const Args &args) {
  std::string dir = args.text("--output");
  if (!dir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      usageError("--output " + dir + ": " + ec.message());
    tpuprof_set_output(dir.c_str(), -1);
  }
  if (tpuprof_is_enabled())
    tpuprof_disable();
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

//===----------------------------------------------------------------------===//
// ab
//===----------------------------------------------------------------------===//

int runAb(int argc, char **argv) {
  Args args(argc, argv,
            {"--data", "--seconds", "--min-pairs", "--max-pairs", "--warmup",
             "--output", "--window"},
            2, "ab");
  std::string windowArg = args.text("--window", "open");
  if (windowArg != "open" && windowArg != "off")
    usageError("--window must be open or off, got '" + windowArg + "'");
  bool window = windowArg == "open";
  double seconds = args.number("--seconds", 20, 0);
  unsigned minPairs = args.count("--min-pairs", 30, 1);
  unsigned maxPairs = args.count("--max-pairs", 100000, 1);
  unsigned warmup = args.count("--warmup", 3, 0);
  if (maxPairs < minPairs)
    usageError("--max-pairs (" + llvm::Twine(maxPairs) +
               ") is below --min-pairs (" + llvm::Twine(minPairs) + ")");

  MLIRContext context;
  CompiledModel plainModel = check(CompiledModel::load(args.positional[0]));
  CompiledModel probedModel = check(CompiledModel::load(args.positional[1]));
  if (plainModel.instrumented())
    usageError(args.positional[0] +
               " has probes: give the --no-instrument build first");
  if (!probedModel.instrumented())
    usageError(args.positional[1] +
               " has no probes: give the instrumented build second");
  std::vector<std::string> specs = inputSpecsFrom(args);
  keepFreedBuffers();
  Callable plain = makeCallable(plainModel, "", context, specs);
  Callable probed = makeCallable(probedModel, "", context, specs);
  if (plain.entry.type != probed.entry.type)
    usageError("the two builds' entries differ in type");

  for (unsigned i = 0; i < warmup; ++i) {
    plain.call();
    probed.call();
  }
  // The uninstrumented build runs no probe code, so one window around all
  // calls leaves it as it is; the probed build records every call. With
  // --window off its probes stay off: what the probes cost in the code.
  if (window)
    openWindow(args);
  std::vector<double> a, b;
  double start = nowSeconds();
  for (unsigned i = 0; i < maxPairs; ++i) {
    if (i >= minPairs && nowSeconds() - start >= seconds)
      break;
    // A B, then B A: whatever the first call of a pair pays (a cache the
    // other build cooled), both pay alike.
    if (i % 2 == 0) {
      a.push_back(plain.call());
      b.push_back(probed.call());
    } else {
      b.push_back(probed.call());
      a.push_back(plain.call());
    }
  }
  WindowProfile profile;
  if (window)
    profile = readWindow(closeWindow());

  size_t n = a.size();
  std::vector<double> diff(n);
  for (size_t i = 0; i < n; ++i)
    diff[i] = (b[i] / a[i] - 1) * 100;
  std::sort(diff.begin(), diff.end());
  double minA = *std::min_element(a.begin(), a.end());
  double minB = *std::min_element(b.begin(), b.end());
  std::optional<size_t> k = medianIntervalIndex(n);
  double lo = k ? diff[*k] : NAN, hi = k ? diff[n - 1 - *k] : NAN;
  llvm::outs() << llvm::format(
      "ab\tpairs=%zu\tplain_min_ms=%.6f\tplain_median_ms=%.6f\t"
      "probed_min_ms=%.6f\tprobed_median_ms=%.6f\tdiff_median_pct=%.4f\t"
      "ci_lo_pct=%.4f\tci_hi_pct=%.4f\n",
      n, minA * 1e3, median(a) * 1e3, minB * 1e3, median(b) * 1e3, median(diff),
      lo, hi);
  if (!window)
    return 0;
  uint64_t kernelRecords = 0;
  for (const tpuprof::report::Row &row : profile.rows)
    kernelRecords += row.count;
  llvm::outs() << "dump\t" << profile.path << "\trows=" << profile.rows.size()
               << "\trecords=" << kernelRecords
               << "\tpair_ns=" << llvm::format("%.2f", profile.pairNs) << "\n";
  if (profile.rows.empty() || kernelRecords < n) {
    llvm::errs() << "model_bench: error: the instrumented build recorded "
                 << kernelRecords << " op records in " << n
                 << " calls: its probes did not run\n";
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

/// Kernel `consumer` reads argument `producerArg` (a result buffer) of
/// kernel `producer`, indexes into the kernels' order.
struct FeedLink {
  size_t consumer, producer;
  unsigned producerArg;
};

/// Points each input that FEEDS.tsv (extract --feeds) names at the result
/// buffer of the kernel that wrote it in the model (the same elements,
/// maybe reshaped).
std::vector<FeedLink> bindFeeds(const std::string &path,
                                llvm::ArrayRef<std::string> names,
                                std::vector<Callable> &kernels) {
  std::vector<FeedLink> links;
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    usageError("--feeds " + path + ": " + file.getError().message());
  llvm::SmallVector<llvm::StringRef> lines;
  (*file)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (auto [number, line] : llvm::enumerate(lines)) {
    auto bad = [&, number = number](const llvm::Twine &why) {
      usageError("--feeds " + path + ":" + llvm::Twine(number + 1) + ": " +
                 why);
    };
    llvm::SmallVector<llvm::StringRef, 4> f;
    line.split(f, '\t');
    unsigned arg = 0, producerArg = 0;
    if (f.size() != 4 || f[1].getAsInteger(10, arg) ||
        f[3].getAsInteger(10, producerArg))
      bad("expected KERNEL<tab>ARG<tab>PRODUCER<tab>ARG");
    auto find = [&](llvm::StringRef name) {
      return size_t(llvm::find(names, name) - names.begin());
    };
    size_t consumerAt = find(f[0]), producerAt = find(f[2]);
    if (consumerAt == names.size() || producerAt == names.size())
      bad("no function " + (consumerAt == names.size() ? f[0] : f[2]) +
          " in the kernels");
    Callable *consumer = &kernels[consumerAt], *producer = &kernels[producerAt];
    llvm::ArrayRef<Type> in = consumer->entry.type.getInputs();
    llvm::ArrayRef<Type> out = producer->entry.type.getInputs();
    if (producerArg >= out.size() || !isa<MemRefType>(out[producerArg]))
      bad("argument " + f[3] + " of " + f[2] + " is not a result buffer");
    auto a = arg < in.size() ? dyn_cast<ShapedType>(in[arg]) : nullptr;
    auto b = cast<MemRefType>(out[producerArg]);
    if (!a || !a.hasStaticShape() || !b.hasStaticShape() ||
        a.getNumElements() != b.getNumElements() ||
        a.getElementType() != b.getElementType())
      bad("the arguments are not buffers of one size");
    // The producer's pointers and offset; the consumer's own sizes and
    // strides where a reshape sat between them (both are contiguous).
    size_t to = consumer->args->packedIndex(arg);
    size_t from = producer->args->packedIndex(producerArg);
    for (size_t k = 0; k < 3; ++k)
      consumer->packed[to + k] = producer->packed[from + k];
    links.push_back({consumerAt, producerAt, producerArg});
  }
  return links;
}

/// The kernels alone of --kernels, each called once a round, in their
/// order. Their result buffers are allocated before each kernel's call and
/// freed after the last kernel that reads them (FEEDS.tsv), as the model
/// allocates a kernel's output before its begin and frees it after its
/// last use: a kernel writes into memory the allocator hands back, warm as
/// in the model, not into a buffer of its own left cold since the round
/// before. Allocation and frees are outside the timed calls.
class KernelSequence {
public:
  KernelSequence(const std::string &path, const std::string &feedsPath,
                 MLIRContext &context)
      : model(check(CompiledModel::load(path))), names(entryNames(path)) {
    for (const std::string &name : names)
      kernels.push_back(makeCallable(model, name, context, {}));
    std::vector<FeedLink> links;
    if (!feedsPath.empty())
      links = bindFeeds(feedsPath, names, kernels);
    // A result is a memref argument (extract's @k form).
    for (auto [k, kernel] : llvm::enumerate(kernels))
      for (auto [arg, type] : llvm::enumerate(kernel.entry.type.getInputs()))
        if (auto memref = dyn_cast<MemRefType>(type)) {
          size_t lastReader = k;
          for (const FeedLink &l : links)
            if (l.producer == k && l.producerArg == arg)
              lastReader = std::max(lastReader, l.consumer);
          uint64_t bytes = memref.getNumElements() *
                           ((memref.getElementTypeBitWidth() + 7) / 8);
          buffers.push_back(
              {k, kernel.args->packedIndex(arg), bytes, lastReader});
        }
  }
  ~KernelSequence() {
    for (Buffer &b : buffers)
      std::free(b.block);
  }

  size_t size() const { return kernels.size(); }
  const std::string &name(size_t k) const { return names[k]; }

  /// Calls kernel `k` after allocating its results; returns its seconds.
  double call(size_t k) {
    for (Buffer &b : buffers)
      if (b.kernel == k) {
        std::free(b.block);
        // As the model aligns its buffers: 64 bytes more, rounded up.
        b.block = std::malloc(b.bytes + 64);
        if (!b.block)
          usageError("out of memory for a kernel's result buffer");
        auto aligned = reinterpret_cast<void *>(
            (reinterpret_cast<uintptr_t>(b.block) + 63) & ~uintptr_t(63));
        *static_cast<void **>(kernels[k].packed[b.packedAt]) = b.block;
        *static_cast<void **>(kernels[k].packed[b.packedAt + 1]) = aligned;
      }
    double seconds = kernels[k].call();
    for (Buffer &b : buffers)
      if (b.lastReader == k) {
        std::free(b.block);
        b.block = nullptr;
      }
    return seconds;
  }

private:
  struct Buffer {
    size_t kernel, packedAt;
    uint64_t bytes;
    size_t lastReader;
    void *block = nullptr;
  };
  CompiledModel model;
  std::vector<std::string> names;
  std::vector<Callable> kernels;
  std::vector<Buffer> buffers;
};

int runProfile(int argc, char **argv) {
  Args args(
      argc, argv,
      {"--data", "--calls", "--warmup", "--output", "--kernels", "--feeds"}, 1,
      "profile");
  unsigned calls = args.count("--calls", 20, 1);
  unsigned warmup = args.count("--warmup", 3, 0);
  MLIRContext context;
  CompiledModel model = check(CompiledModel::load(args.positional[0]));
  if (!model.instrumented())
    usageError(args.positional[0] + " has no probes");
  keepFreedBuffers();
  Callable c = makeCallable(model, "", context, inputSpecsFrom(args));
  // With --kernels, each call of the model is followed by one call of every
  // function of that .so, in its order: the kernels alone meet the same
  // moments of the machine's load as the rows.
  std::optional<KernelSequence> kernels;
  if (std::string path = args.text("--kernels"); !path.empty())
    kernels.emplace(path, args.text("--feeds"), context);
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
  llvm::outs() << llvm::format("pair_ns\t%.2f\n", window.pairNs);
  for (const tpuprof::report::Row &row : window.rows)
    llvm::outs() << "row\t" << llvm::format_hex_no_prefix(row.hash, 16) << "\t"
                 << row.shapes << "\t" << row.node << "\t" << row.name << "\t"
                 << row.count
                 << llvm::format("\t%.1f\t%llu\n", row.durations.mean(),
                                 (unsigned long long)row.durations.min());
  for (size_t k = 0; k < numKernels; ++k)
    printKernelTimes(kernels->name(k), times[k]);
  return window.rows.empty() ? 1 : 0;
}

//===----------------------------------------------------------------------===//
// extract
//===----------------------------------------------------------------------===//

/// Keeps a copy of the module as it is right after kernel probes went in:
/// fused, not yet tiled, every kernel between its begin and end.
struct KeepAfterInstrument : PassInstrumentation {
  explicit KeepAfterInstrument(OwningOpRef<ModuleOp> &kept) : kept(kept) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    if (pass->getArgument() == "tpu-profile-instrument" && !kept)
      kept = cast<ModuleOp>(op->clone());
  }
  OwningOpRef<ModuleOp> &kept;
};

/// Constants stay constants in a kernel alone, weights included: the
/// pipeline compiles a kernel whose weights are constants differently (it
/// may rearrange them once, at compile time). Everything else a kernel
/// reads is an argument. Its results go into buffers the caller passes (a
/// memref argument per result, written in place, nothing returned): the
/// model allocates a kernel's output outside its probes (bufferization puts
/// the allocation where the empty tensor was, before the begin), so the
/// alone call must not allocate either, and a returned tensor would be a
/// buffer the function allocates (the caller frees what it gets back).
bool isConstant(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>();
}

/// Where a kernel alone reads what another kernel wrote in the model: its
/// argument `arg` is argument `producerArg` (a result's buffer) of
/// @k<producer>.
struct Feed {
  unsigned arg;
  int64_t producer;
  unsigned producerArg;
};

/// The kernels extracted so far: probe id to the number of input arguments
/// of its @k (its result buffers follow them).
using ExtractedKernels = llvm::DenseMap<int64_t, unsigned>;

/// Builds @k<id> from the ops between `begin` and its end, or says why not;
/// `feeds` gets its arguments that an extracted kernel's result feeds.
std::string extractKernel(tpuprof::BeginOp begin, ModuleOp out,
                          std::string &name, ExtractedKernels &extracted,
                          llvm::SmallVectorImpl<Feed> &feeds) {
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

  // What the kernel reads from outside, through the begin or not.
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
  auto source = [&](Value v) {
    if (auto r = dyn_cast<OpResult>(v); r && r.getOwner() == begin)
      return begin->getOperand(r.getResultNumber());
    return v;
  };
  llvm::SetVector<Value> arguments;
  for (Value v : outside) {
    Value s = source(v);
    if (isConstant(s))
      continue;
    auto tensor = dyn_cast<RankedTensorType>(s.getType());
    if (!tensor || !tensor.hasStaticShape())
      return "it reads a value that is not a static tensor";
    arguments.insert(s);
  }
  // A result's initial tensor that the kernel only writes into (the start
  // of its chain of destinations, read by nothing else) becomes a view of
  // the caller's buffer, so the kernel writes there as it writes into its
  // allocation in the model.
  llvm::SmallVector<Value> destinations;
  for (Value v : end->getOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor || !tensor.hasStaticShape())
      return "a result is not a static tensor";
    while (auto r = dyn_cast<OpResult>(v)) {
      auto dps = dyn_cast<DestinationStyleOpInterface>(r.getOwner());
      if (!dps || !inside.contains(r.getOwner()))
        break;
      v = dps.getDpsInitOperand(r.getResultNumber())->get();
    }
    Value init = source(v);
    unsigned uses = 0;
    for (Operation *op : body)
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          uses += source(operand) == init;
      });
    bool viewed = arguments.contains(init) && uses == 1 &&
                  !llvm::is_contained(destinations, init);
    destinations.push_back(viewed ? init : Value());
  }
  llvm::SmallVector<Type> argTypes;
  for (Value v : arguments)
    if (!llvm::is_contained(destinations, v))
      argTypes.push_back(v.getType());
  for (Value v : end->getOperands()) {
    auto tensor = cast<RankedTensorType>(v.getType());
    argTypes.push_back(
        MemRefType::get(tensor.getShape(), tensor.getElementType()));
  }

  OpBuilder b(out.getBodyRegion());
  b.setInsertionPointToEnd(out.getBody());
  auto fn = b.create<func::FuncOp>(begin.getLoc(), name,
                                   b.getFunctionType(argTypes, {}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping map;
  unsigned next = 0;
  for (Value v : arguments) {
    if (llvm::is_contained(destinations, v))
      continue;
    // An input that an extracted kernel's result is, as it is in the model,
    // the caller may pass that kernel's buffer: read as the model reads it,
    // just written. Reshapes between kernels are views of the same
    // contiguous buffer.
    Value written = v;
    while (isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
        written.getDefiningOp()))
      written = written.getDefiningOp()->getOperand(0);
    if (auto r = dyn_cast<OpResult>(written))
      if (auto producer = dyn_cast<tpuprof::EndOp>(r.getOwner()))
        if (auto it = extracted.find(producer.getProbe());
            it != extracted.end())
          feeds.push_back(
              {next, producer.getProbe(), it->second + r.getResultNumber()});
    map.map(v, entry->getArgument(next++));
  }
  llvm::SmallVector<Value> buffers(entry->getArguments().drop_front(next));
  extracted[id] = next;
  for (auto [init, buffer] : llvm::zip(destinations, buffers))
    if (init)
      map.map(init, b.create<bufferization::ToTensorOp>(begin.getLoc(), buffer,
                                                        /*restrict=*/true,
                                                        /*writable=*/true));
  for (Value v : outside) {
    Value s = source(v);
    if (!map.contains(s))
      map.map(s, b.clone(*s.getDefiningOp())->getResult(0));
    if (v != s)
      map.map(v, map.lookup(s));
  }
  for (Operation *op : body)
    b.clone(*op, map);
  for (auto [v, buffer] : llvm::zip(end->getOperands(), buffers))
    b.create<bufferization::MaterializeInDestinationOp>(
        end->getLoc(), TypeRange(), map.lookupOrDefault(v), buffer,
        /*restrict=*/true, /*writable=*/true);
  b.create<func::ReturnOp>(end->getLoc());
  return "";
}

int runExtract(int argc, char **argv) {
  Args args(argc, argv, {"-o", "--manifest", "--feeds"}, 1, "extract");
  std::string output = args.text("-o"), manifest = args.text("--manifest");
  std::string feedsPath = args.text("--feeds");
  if (output.empty() || manifest.empty() || feedsPath.empty())
    usageError("extract: needs -o KERNELS.mlir, --manifest PROBES.json and "
               "--feeds FEEDS.tsv");
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
  pm.addInstrumentation(std::make_unique<KeepAfterInstrument>(kept));
  tpuprof::eraseUnreachableSymbols(module, entries);
  if (llvm::Error err = tpuprof::runModelPipeline(pm, module))
    fail(std::move(err));
  if (!kept)
    fail(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the pipeline ran no tpu-profile-instrument"));

  OwningOpRef<ModuleOp> out = ModuleOp::create(kept->getLoc());
  // @empty_call: what calling a function of the .so costs by itself (the
  // packed wrapper, a descriptor in and out), to take off each kernel's.
  {
    OpBuilder b(out->getBodyRegion());
    b.setInsertionPointToEnd(out->getBody());
    Type in = RankedTensorType::get({16}, b.getF32Type());
    Type result = MemRefType::get({16}, b.getF32Type());
    auto fn = b.create<func::FuncOp>(out->getLoc(), "empty_call",
                                     b.getFunctionType({in, result}, {}));
    fn.addEntryBlock();
    b.setInsertionPointToStart(&fn.front());
    b.create<func::ReturnOp>(out->getLoc());
  }
  unsigned made = 0;
  model.context->getOrLoadDialect<bufferization::BufferizationDialect>();
  ExtractedKernels extracted;
  std::string feedLines;
  kept->walk([&](tpuprof::BeginOp begin) {
    std::string name;
    llvm::SmallVector<Feed> feeds;
    std::string why = extractKernel(begin, *out, name, extracted, feeds);
    if (!why.empty()) {
      llvm::outs() << "skipped\t" << name << "\t" << why << "\n";
      return;
    }
    ++made;
    for (const Feed &f : feeds)
      feedLines += llvm::formatv("{0}\t{1}\tk{2}\t{3}\n", name, f.arg,
                                 f.producer, f.producerArg)
                       .str();
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream feedsFile(feedsPath, ec);
    if (ec)
      usageError("--feeds " + feedsPath + ": " + ec.message());
    feedsFile << feedLines;
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
  std::string what = command.empty()
                         ? std::string("give a subcommand")
                         : "unknown subcommand '" + command.str() + "'";
  usageError(what + " (ab, profile, extract or kernels)");
}
