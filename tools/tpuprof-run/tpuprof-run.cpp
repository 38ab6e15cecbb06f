//===- tpuprof-run.cpp - Instrument, lower, run and report a model --------===//
//
// The main job: `tpuprof-run model.mlir` instruments the model with
// --tpu-profile-instrument, lowers it with a built-in CPU pipeline (or
// --pipeline), JIT-compiles it with MLIR's ExecutionEngine, calls the entry
// function --warmup + --repeat times with one profiling window around the
// --repeat calls, writes the dump and prints the per-op table.
//
//===----------------------------------------------------------------------===//

#include "RunInputs.h"

#include "tpuprof/passes/mlir/Passes.h"
#include "tpuprof/report/Correction.h"
#include "tpuprof/report/Table.h"
#include "tpuprof/tpuprof.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("tpuprof-run options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> entryName("entry", cl::desc("Function to run (default: main, "
                                                 "or the only public function)"),
                               cl::value_desc("FUNC"), cl::cat(category));
cl::list<std::string> inputSpecs(
    "input",
    cl::desc("Shape and optionally values of the next entry argument, in "
             "order: 4x784xf32, 4x784, or 2x2xf32=1,2,3,4 (one value fills "
             "all). Arguments without one get deterministic random values"),
    cl::value_desc("SPEC"), cl::cat(category));
cl::opt<unsigned> repeat("repeat", cl::desc("Profiled calls of the entry"),
                         cl::init(10), cl::cat(category));
cl::opt<unsigned> warmup("warmup",
                         cl::desc("Calls before profiling starts"),
                         cl::init(1), cl::cat(category));
cl::opt<unsigned> mode("mode", cl::desc("Runtime mode: 0 timing, 1 counters "
                                        "and shapes, 2 detailed"),
                       cl::init(0), cl::cat(category));
cl::opt<std::string> outputDir(
    "output", cl::desc("Directory for the dump (default: $TPUPROF_OUTPUT or .)"),
    cl::value_desc("DIR"), cl::cat(category));
cl::opt<std::string> pipeline(
    "pipeline",
    cl::desc("Lowering pipeline run after instrumentation, replacing the "
             "built-in one (a pass pipeline string; it must run "
             "tpu-profile-lower and end in the LLVM dialect)"),
    cl::value_desc("PIPELINE"), cl::cat(category));
cl::opt<std::string> instrumentOptions(
    "instrument-options",
    cl::desc("Options for --tpu-profile-instrument, e.g. 'exclude=tosa.reshape'"),
    cl::value_desc("OPTIONS"), cl::cat(category));
cl::opt<bool> noInstrument("no-instrument",
                           cl::desc("Run the model without probes (no report)"),
                           cl::cat(category));
cl::opt<bool> printResult("print-result",
                          cl::desc("Print the entry's results after the last call"),
                          cl::cat(category));
cl::opt<std::string> emitLowered(
    "emit-lowered", cl::desc("Write the lowered LLVM-dialect module to FILE"),
    cl::value_desc("FILE"), cl::cat(category));
cl::opt<std::string> sortSpec("sort", cl::desc("Table sort column (+COL ascending)"),
                              cl::init("duration"), cl::cat(category));
cl::opt<unsigned> top("top", cl::desc("Print only the first N rows"),
                      cl::init(0), cl::cat(category));
cl::opt<bool> noOverheadCorrection(
    "no-overhead-correction",
    cl::desc("Print raw probe intervals: do not subtract the probe cost the "
             "runtime measured at window start"),
    cl::cat(category));
cl::opt<bool> printTime(
    "time",
    cl::desc("Print the median and minimum wall time of one of the --repeat "
             "calls (compile, warm-up, opening and closing the window "
             "excluded): what bench/e2e_overhead.py compares"),
    cl::cat(category));
cl::list<std::string> sharedLibs(
    "shared-lib",
    cl::desc("Load this shared library into the JIT so that the model can "
             "call the functions it defines (repeatable; like "
             "mlir-cpu-runner's --shared-libs). A library compiled with "
             "TpuProfilePlugin.so records its probes in the same profile"),
    cl::value_desc("PATH"), cl::cat(category));

/// The built-in CPU lowering (docs/quickstart.md): TOSA to linalg,
/// bufferization, probes to calls, loops, LLVM.
constexpr const char *kBuiltinPipeline =
    "func.func(tosa-optional-decompositions,tosa-infer-shapes,"
    "tosa-make-broadcastable,tosa-to-linalg-named,tosa-to-linalg,"
    "tosa-to-arith,tosa-to-tensor,tosa-to-scf),"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "tpu-profile-lower,"
    "convert-linalg-to-loops,expand-strided-metadata,lower-affine,"
    "convert-scf-to-cf,convert-to-llvm,finalize-memref-to-llvm,"
    "reconcile-unrealized-casts";

int fail(const llvm::Twine &msg) {
  llvm::WithColor::error(llvm::errs(), "tpuprof-run") << msg << '\n';
  return 1;
}

/// Finds the entry: --entry, else @main, else the only public function.
FailureOr<func::FuncOp> findEntry(ModuleOp module) {
  if (!entryName.empty()) {
    auto fn = module.lookupSymbol<func::FuncOp>(entryName);
    if (!fn || fn.isExternal()) {
      fail("no function @" + entryName + " with a body in " + inputFile);
      return failure();
    }
    return fn;
  }
  if (auto fn = module.lookupSymbol<func::FuncOp>("main"); fn && !fn.isExternal())
    return fn;
  func::FuncOp only;
  unsigned count = 0;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal())
      only = fn, ++count;
  if (count == 1)
    return only;
  fail("cannot tell which function to run in " + inputFile +
       ": there is no @main; name one with --entry");
  return failure();
}

/// Prints `Time per call: median M us, min N us, K calls` for --time.
void printCallTimes(std::vector<double> seconds, llvm::raw_ostream &os) {
  std::sort(seconds.begin(), seconds.end());
  size_t n = seconds.size();
  double median = n % 2 ? seconds[n / 2]
                        : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  os << llvm::format("Time per call: median %.3f us, min %.3f us, %zu calls\n",
                     median * 1e6, seconds.front() * 1e6, n);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAllPasses();
  tpuprof::registerTpuProfilePasses();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tpuprof-run: instrument an MLIR model, run it on the CPU and print "
      "the per-op profile\n");
  if (mode > 2)
    return fail("--mode must be 0, 1 or 2, got " + llvm::Twine(mode));
  if (repeat == 0 && !noInstrument)
    return fail("--repeat must be at least 1");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  tpuprof::registerTpuProfDialect(registry);
  MLIRContext context(registry);
  context.allowUnregisteredDialects();

  std::string errorMessage;
  auto file = openInputFile(inputFile, &errorMessage);
  if (!file)
    return fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse " + inputFile);

  FailureOr<func::FuncOp> entry = findEntry(*module);
  if (failed(entry))
    return 1;
  std::string entrySym = entry->getSymName().str();
  SmallVector<Type> argTypes(entry->getArgumentTypes());
  SmallVector<Type> resultTypes(entry->getResultTypes());

  llvm::Expected<tpuprof::run::EntryArguments> args =
      tpuprof::run::EntryArguments::create(argTypes, inputSpecs);
  if (!args)
    return fail("@" + entrySym + ": " + llvm::toString(args.takeError()));
  llvm::Expected<tpuprof::run::EntryResults> results =
      tpuprof::run::EntryResults::create(resultTypes);
  if (!results)
    return fail("@" + entrySym + ": " + llvm::toString(results.takeError()));

  std::string passes = noInstrument ? "" : "tpu-profile-instrument{" + instrumentOptions + "},";
  passes += pipeline.empty() ? std::string(kBuiltinPipeline) : pipeline;
  PassManager pm(&context);
  // The pass manager is anchored on builtin.module: the string lists what
  // runs inside it.
  if (failed(parsePassPipeline(passes, pm, llvm::errs())))
    return fail("bad pass pipeline: " + passes);
  if (failed(pm.run(*module)))
    return fail("lowering " + inputFile + " failed (pipeline: " + passes + ")");
  if (!emitLowered.empty()) {
    auto out = openOutputFile(emitLowered, &errorMessage);
    if (!out)
      return fail(errorMessage);
    module->print(out->os());
    out->keep();
  }

  for (const std::string &lib : sharedLibs)
    if (!llvm::sys::fs::exists(lib))
      return fail("--shared-lib: no such file '" + lib + "'");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions engineOptions;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Default;
  SmallVector<StringRef> libPaths(sharedLibs.begin(), sharedLibs.end());
  engineOptions.sharedLibPaths = libPaths;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    return fail("cannot JIT " + inputFile + ": " +
                llvm::toString(engine.takeError()));

  SmallVector<void *> packed = args->packedArguments();
  if (!resultTypes.empty())
    packed.push_back(results->storage());
  auto call = [&]() -> llvm::Error {
    if (llvm::Error err = (*engine)->invokePacked(entrySym, packed))
      return err;
    results->release(*args);
    return llvm::Error::success();
  };

  for (unsigned i = 0; i < warmup; ++i)
    if (llvm::Error err = call())
      return fail("calling @" + entrySym + ": " + llvm::toString(std::move(err)));

  std::string dumpPath;
  if (!noInstrument) {
    if (!outputDir.empty()) {
      if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
        return fail("cannot create output directory '" + outputDir +
                    "': " + ec.message());
      tpuprof_set_output(outputDir.c_str(), -1);
    }
    if (tpuprof_is_enabled())
      tpuprof_disable(); // TPUPROF_ENABLE opened a window at load; ours replaces it.
    if (tpuprof_enable(0, static_cast<int>(mode)) != 0)
      return fail("cannot enable profiling");
  }
  // Each call is timed on its own (a steady_clock read on either side costs
  // tens of ns, against calls of µs and up), so the median can shed calls
  // that the machine interrupted.
  std::vector<double> callSeconds;
  callSeconds.reserve(repeat);
  for (unsigned i = 0; i < repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    // The last call's results are printed; release the others.
    if (llvm::Error err = (*engine)->invokePacked(entrySym, packed))
      return fail("calling @" + entrySym + ": " + llvm::toString(std::move(err)));
    if (i + 1 < repeat || !printResult)
      results->release(*args);
    callSeconds.push_back(std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }
  if (!noInstrument) {
    if (tpuprof_disable() != 0)
      return fail("cannot write the profile dump");
    dumpPath = tpuprof_last_dump_path();
  }
  if (printTime && !callSeconds.empty())
    printCallTimes(callSeconds, llvm::outs());
  if (printResult && repeat > 0) {
    results->print(llvm::outs());
    results->release(*args);
  }
  if (noInstrument)
    return 0;

  llvm::outs() << "Dump: " << dumpPath << "\n";
  tpuprof::report::setOverheadCorrection(!noOverheadCorrection);
  tpuprof::report::TableOptions tableOptions;
  tableOptions.top = top;
  if (llvm::Error err = tpuprof::report::parseSortSpec(sortSpec, tableOptions))
    return fail(llvm::toString(std::move(err)));
  if (llvm::Error err =
          tpuprof::report::printTable({dumpPath}, tableOptions, llvm::outs()))
    return fail(llvm::toString(std::move(err)));
  return 0;
}
