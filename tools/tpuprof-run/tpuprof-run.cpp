//===- tpuprof-run.cpp - Instrument, lower, run and report a model --------===//
//
// The main job: `tpuprof-run model.mlir` keeps what the entry function
// reaches, instruments it with --tpu-profile-instrument, lowers it with the
// built-in CPU pipeline (tpuprof-cpu, or --pipeline), JIT-compiles it with
// MLIR's ExecutionEngine, calls the entry --warmup + --repeat times with one
// profiling window around the --repeat calls, writes the dump and prints
// the per-op table. The stages live in libraries a second front-end reuses:
// passes/mlir (Pipelines.h), ModelJit, RunInputs, RunSession.
//
//===----------------------------------------------------------------------===//

#include "ModelJit.h"
#include "RunInputs.h"
#include "RunSession.h"

#include "tpuprof/passes/mlir/Passes.h"
#include "tpuprof/passes/mlir/Pipelines.h"
#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/views/Table.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

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
             "built-in tpuprof-cpu (tiled and vectorized): a pass pipeline, "
             "'a,b' or 'builtin.module(a,b)', that runs tpu-profile-lower "
             "(with probes) and lowers to the LLVM dialect; "
             "'tpuprof-cpu-naive' is the built-in one with scalar loops"),
    cl::value_desc("PIPELINE"), cl::cat(category));
cl::opt<unsigned> optLevel(
    "opt-level",
    cl::desc("LLVM optimization level of the JIT, 0-3 (0 compiles a large "
             "model several times faster into slower code)"),
    cl::init(2), cl::cat(category));
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
cl::opt<unsigned> resultValues(
    "result-values",
    cl::desc("Values printed per result with --print-result (0: all)"),
    cl::init(16), cl::cat(category));
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
    cl::desc("Print the compile time by stage, and the median and minimum "
             "wall time of one of the --repeat calls (compile, warm-up, "
             "opening and closing the window excluded): what "
             "bench/e2e_overhead.py compares"),
    cl::cat(category));
cl::list<std::string> sharedLibs(
    "shared-lib",
    cl::desc("Load this shared library into the JIT so that the model can "
             "call the functions it defines (repeatable; like "
             "mlir-cpu-runner's --shared-libs). A library compiled with "
             "TpuProfilePlugin.so records its probes in the same profile"),
    cl::value_desc("PATH"), cl::cat(category));

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

/// Milliseconds since `start`.
double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAllPasses();
  tpuprof::registerTpuProfilePasses();
  tpuprof::registerTpuProfilePipelines();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tpuprof-run: instrument an MLIR model, run it on the CPU and print "
      "the per-op profile\n");
  if (mode > 2)
    return fail("--mode must be 0, 1 or 2, got " + llvm::Twine(mode));
  if (repeat == 0 && !noInstrument)
    return fail("--repeat must be at least 1");
  if (optLevel > 3)
    return fail("--opt-level must be 0, 1, 2 or 3, got " + llvm::Twine(optLevel));
  for (const std::string &lib : sharedLibs)
    if (!llvm::sys::fs::exists(lib))
      return fail("--shared-lib: no such file '" + lib + "'");
  tpuprof::run::SessionOptions session;
  if (llvm::Error err = tpuprof::report::parseSortSpec(sortSpec, session.table))
    return fail(llvm::toString(std::move(err)));
  session.table.top = top;

  auto parseStart = std::chrono::steady_clock::now();
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
  double parseMs = msSince(parseStart);

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

  tpuprof::ModelPipelineOptions pipelineOptions;
  pipelineOptions.instrument = !noInstrument;
  pipelineOptions.instrumentOptions = instrumentOptions;
  if (pipeline.getNumOccurrences())
    pipelineOptions.customPipeline = pipeline;
  PassManager pm(&context);
  if (llvm::Error err = tpuprof::buildModelPipeline(pm, pipelineOptions))
    return fail(llvm::toString(std::move(err)));

  auto lowerStart = std::chrono::steady_clock::now();
  tpuprof::eraseUnreachableSymbols(*module, entrySym);
  if (llvm::Error err = tpuprof::runModelPipeline(pm, *module))
    return fail("cannot lower " + inputFile + ": " +
                llvm::toString(std::move(err)));
  double lowerMs = msSince(lowerStart);
  if (!emitLowered.empty()) {
    auto out = openOutputFile(emitLowered, &errorMessage);
    if (!out)
      return fail(errorMessage);
    module->print(out->os());
    out->keep();
  }

  auto jitStart = std::chrono::steady_clock::now();
  llvm::Expected<tpuprof::run::JitModel> jit =
      tpuprof::run::jitCompile(*module, entrySym, sharedLibs, optLevel);
  if (!jit)
    return fail("cannot JIT " + inputFile + ": " +
                llvm::toString(jit.takeError()));
  double jitMs = msSince(jitStart);
  if (printTime)
    llvm::outs() << llvm::format(
        "Compile time: %.1f ms (parse %.1f, lower %.1f, LLVM %.1f)\n",
        parseMs + lowerMs + jitMs, parseMs, lowerMs, jitMs);

  tpuprof::report::setOverheadCorrection(!noOverheadCorrection);
  session.entryName = entrySym;
  session.warmup = warmup;
  session.repeat = repeat;
  session.mode = mode;
  session.profile = !noInstrument;
  session.outputDir = outputDir;
  session.printResult = printResult;
  session.resultValues = resultValues;
  session.printTime = printTime;
  if (llvm::Error err = tpuprof::run::runSession(jit->entry, *args, *results,
                                                 session, llvm::outs()))
    return fail(llvm::toString(std::move(err)));
  return 0;
}
