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
//                  [--output DIR]
//       A mode-0 window around N calls; prints each row of the profile
//       (hash, shapes, node, name, calls, mean and fastest corrected ns) and
//       the calibrated cost of a probe pair.
//   model_bench extract MODEL -o KERNELS.mlir --manifest PROBES.json
//       Compiles MODEL with kernel probes and writes, for every probed
//       kernel, a public function @k<probe id> holding that kernel alone,
//       its inputs as arguments (its output's initial tensor too; constants,
//       weights included, stay constants), and @empty_call, a function
//       that does nothing, in MLIR bytecode; PROBES.json is the probe
//       table.
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

int runProfile(int argc, char **argv) {
  Args args(argc, argv,
            {"--data", "--calls", "--warmup", "--output", "--kernels"}, 1,
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
  std::string kernelsPath = args.text("--kernels");
  std::optional<CompiledModel> kernelsModel;
  std::vector<std::string> names;
  std::vector<Callable> kernels;
  if (!kernelsPath.empty()) {
    kernelsModel = check(CompiledModel::load(kernelsPath));
    names = entryNames(kernelsPath);
    for (const std::string &name : names)
      kernels.push_back(makeCallable(*kernelsModel, name, context, {}));
  }
  std::vector<std::vector<double>> times(kernels.size());
  for (unsigned i = 0; i < warmup; ++i) {
    c.call();
    for (Callable &k : kernels)
      k.call();
  }
  openWindow(args);
  for (unsigned i = 0; i < calls; ++i) {
    c.call();
    for (size_t k = 0; k < kernels.size(); ++k)
      times[k].push_back(kernels[k].call());
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
  for (size_t k = 0; k < kernels.size(); ++k)
    printKernelTimes(names[k], times[k]);
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
/// reads is an argument, its output's initial tensor too: the model
/// allocates that outside the kernel's probes (bufferization puts the
/// allocation where the empty tensor was, before the begin), so the alone
/// call does not allocate either.
bool isConstant(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>();
}

/// Builds @k<id> from the ops between `begin` and its end, or says why not.
std::string extractKernel(tpuprof::BeginOp begin, ModuleOp out,
                          std::string &name) {
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
  llvm::SmallVector<Type> argTypes, resultTypes;
  for (Value v : arguments)
    argTypes.push_back(v.getType());
  for (Value v : end->getOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor || !tensor.hasStaticShape())
      return "a result is not a static tensor";
    resultTypes.push_back(v.getType());
  }

  OpBuilder b(out.getBodyRegion());
  b.setInsertionPointToEnd(out.getBody());
  auto fn = b.create<func::FuncOp>(begin.getLoc(), name,
                                   b.getFunctionType(argTypes, resultTypes));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping map;
  for (auto [v, arg] : llvm::zip(arguments, entry->getArguments()))
    map.map(v, arg);
  for (Value v : outside) {
    Value s = source(v);
    if (!map.contains(s))
      map.map(s, b.clone(*s.getDefiningOp())->getResult(0));
    if (v != s)
      map.map(v, map.lookup(s));
  }
  for (Operation *op : body)
    b.clone(*op, map);
  llvm::SmallVector<Value> results;
  for (Value v : end->getOperands())
    results.push_back(map.lookupOrDefault(v));
  b.create<func::ReturnOp>(end->getLoc(), results);
  return "";
}

int runExtract(int argc, char **argv) {
  Args args(argc, argv, {"-o", "--manifest"}, 1, "extract");
  std::string output = args.text("-o"), manifest = args.text("--manifest");
  if (output.empty() || manifest.empty())
    usageError("extract: needs -o KERNELS.mlir and --manifest PROBES.json");
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
    Type t = RankedTensorType::get({16}, b.getF32Type());
    auto fn = b.create<func::FuncOp>(out->getLoc(), "empty_call",
                                     b.getFunctionType({t}, {t}));
    Block *entry = fn.addEntryBlock();
    b.setInsertionPointToStart(entry);
    b.create<func::ReturnOp>(out->getLoc(), entry->getArgument(0));
  }
  unsigned made = 0;
  kept->walk([&](tpuprof::BeginOp begin) {
    std::string name;
    std::string why = extractKernel(begin, *out, name);
    if (why.empty())
      ++made;
    else
      llvm::outs() << "skipped\t" << name << "\t" << why << "\n";
  });
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
