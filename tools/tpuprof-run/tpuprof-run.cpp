//===- tpuprof-run.cpp - Instrument, lower, run and report a model --------===//
//
// The main job: `tpuprof-run model.mlir` keeps what the entry function
// reaches, instruments it with --tpu-profile-instrument, lowers it with the
// built-in CPU pipeline (tpu-profile-cpu, or --pipeline), JIT-compiles it with
// MLIR's ExecutionEngine, calls the entry --warmup + --repeat times with one
// profiling window around the --repeat calls, writes the dump and prints
// the per-op table. `tpuprof-run model.so` runs a model tpuprof-compile
// built (CompiledModel) the same way, profiled when the environment says so
// (TPUPROF_ENABLE=1 or ENABLE_ALL_PROFILE=1). The stages live in libraries
// other front-ends reuse: lib/CpuCompiler (Pipelines.h) and lib/ModelRunner
// (ModelSource, ModelJit, RunInputs, RunSession).
//
//===----------------------------------------------------------------------===//

#include "tpuprof/ModelRunner/CompiledModel.h"
#include "tpuprof/ModelRunner/EntryShapes.h"
#include "tpuprof/ModelRunner/ModelJit.h"
#include "tpuprof/ModelRunner/ModelSource.h"
#include "tpuprof/ModelRunner/OnnxData.h"
#include "tpuprof/ModelRunner/PipelineFlags.h"
#include "tpuprof/ModelRunner/RunInputs.h"
#include "tpuprof/ModelRunner/RunSession.h"

#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/Version.h"
#include "tpuprof/format.h"
#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/views/OutputFile.h"
#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/views/Terminal.h"
#include "tpuprof/tpuprof.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <unistd.h>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("tpuprof-run options");

cl::opt<std::string> inputFile(cl::Positional,
                               cl::desc("<model.mlir | model.onnx | model.so>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> entryName("entry",
                               cl::desc("Function to run (default: main, "
                                        "or the only public function)"),
                               cl::value_desc("FUNC"), cl::cat(category));
cl::list<std::string> inputSpecs(
    "input",
    cl::desc("Shape and optionally values of the next entry argument, in "
             "order: 4x784xf32, 4x784, or 2x2xf32=1,2,3,4 (one value fills "
             "all). Arguments without one get deterministic random values"),
    cl::value_desc("SPEC"), cl::cat(category));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("For a .onnx model: the shape of a graph input, binding its "
             "symbolic dimensions (repeatable): NAME=1x3x224x224"),
    cl::value_desc("NAME=DIMS"), cl::cat(category));
cl::opt<std::string> dataDir(
    "data",
    cl::desc("Arguments from DIR/input_N.pb (ONNX TensorProto files) in "
             "order; results compared with DIR/output_N.pb where present "
             "(exit 1 on a mismatch)"),
    cl::value_desc("DIR"), cl::cat(category));
cl::opt<double> relTolerance("rtol", cl::desc("--data's relative tolerance"),
                             cl::init(1e-3), cl::cat(category));
cl::opt<double> absTolerance("atol", cl::desc("--data's absolute tolerance"),
                             cl::init(1e-7), cl::cat(category));
cl::opt<unsigned> repeat("repeat", cl::desc("Profiled calls of the entry"),
                         cl::init(10), cl::cat(category));
cl::opt<unsigned> warmup("warmup", cl::desc("Calls before profiling starts"),
                         cl::init(1), cl::cat(category));
/// The run-time modes, "0 timing, 1 counters, 2 detailed" (format.h).
std::string modeNames() {
  std::string names;
  for (unsigned m = 0; m < TPUPROF_MODE_COUNT; ++m)
    names += (m ? ", " : "") + std::to_string(m) + " " + tpuprof_mode_name(m);
  return names;
}

/// "0, 1 or 2": the valid values of --mode.
std::string modeRange() {
  std::string range;
  for (unsigned m = 0; m < TPUPROF_MODE_COUNT; ++m)
    range += (m == 0                        ? ""
              : m + 1 == TPUPROF_MODE_COUNT ? " or "
                                            : ", ") +
             std::to_string(m);
  return range;
}

const std::string modeHelp =
    "Runtime mode: " + modeNames() +
    " (default: $TPUPROF_MODE or $PROFILE_MODE, else 0)";
cl::opt<unsigned> mode("mode", cl::desc(modeHelp), cl::cat(category));
cl::opt<bool> memory(
    "memory",
    cl::desc("Track memory: record every buffer the model allocates and "
             "frees, for the report's Alloc/Self Alloc/Freed/Peak columns "
             "(always on in mode 2)"),
    cl::cat(category));
cl::opt<std::string> outputDir(
    "output",
    cl::desc("Directory for the dump (default: $TPUPROF_OUTPUT or .)"),
    cl::value_desc("DIR"), cl::cat(category));
cl::opt<bool>
    printResult("print-result",
                cl::desc("Print the entry's results after the last call"),
                cl::cat(category));
cl::opt<unsigned> resultValues(
    "result-values",
    cl::desc("Values printed per result with --print-result (0: all)"),
    cl::init(16), cl::cat(category));
cl::opt<std::string>
    emitLowered("emit-lowered",
                cl::desc("Write the lowered LLVM-dialect module to FILE"),
                cl::value_desc("FILE"), cl::cat(category));
cl::opt<std::string> sortSpec("sort",
                              cl::desc("Table sort column (+COL ascending)"),
                              cl::init("duration"), cl::cat(category));
cl::opt<unsigned> top("top", cl::desc("Print only the first N rows"),
                      cl::init(0), cl::cat(category));
cl::opt<std::string>
    tableBy("by",
            cl::desc("Table row key, as tpuprof-report table's --by: op (the "
                     "default), name, function, location, shape or node (one "
                     "row per ONNX node)"),
            cl::value_desc("KEY"), cl::init("op"), cl::cat(category));
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
  if (auto fn = module.lookupSymbol<func::FuncOp>("main");
      fn && !fn.isExternal())
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

/// --output is checked before anything is compiled or run: a directory
/// that cannot hold the dump is an error of one line, not a discovery after
/// the model ran. It is not created here: a run that records nothing (a
/// .so with profiling off) leaves no directory behind.
llvm::Error checkOutputDir() {
  if (outputDir.empty())
    return llvm::Error::success();
  auto bad = [](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--output '" + outputDir + "': " + why);
  };
  // The directory, or the nearest ancestor that exists: the one the dump,
  // or the directories leading to it, will be created in.
  llvm::SmallString<256> dir(outputDir);
  llvm::sys::fs::make_absolute(dir);
  bool itself = true;
  while (!llvm::sys::fs::exists(dir) && llvm::sys::path::has_parent_path(dir))
    dir = llvm::sys::path::parent_path(dir), itself = false;
  if (!llvm::sys::fs::is_directory(dir))
    return bad(itself ? llvm::Twine("not a directory")
                      : "cannot create it: " + dir + " is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return bad("cannot write in " + dir + ": " +
               std::error_code(errno, std::generic_category()).message());
  return llvm::Error::success();
}

/// Milliseconds since `start`.
double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// --mode, else the mode the environment gives the runtime. A bad value
/// was reported by the runtime when it loaded; it uses 0, and so do we.
unsigned runtimeMode() {
  if (mode.getNumOccurrences())
    return mode;
  for (const char *name : {"TPUPROF_MODE", "PROFILE_MODE"}) {
    llvm::StringRef value = getenv(name) ? getenv(name) : "";
    unsigned parsed;
    if (!value.empty())
      return value.trim().getAsInteger(0, parsed) ||
                     parsed >= TPUPROF_MODE_COUNT
                 ? 0
                 : parsed;
  }
  return 0;
}

/// --data's inputs and expected outputs, when given.
std::optional<tpuprof::run::OnnxData> onnxData;

/// The --input specs, or --data's.
std::vector<std::string> argumentSpecs() {
  return onnxData
             ? onnxData->inputSpecs
             : std::vector<std::string>(inputSpecs.begin(), inputSpecs.end());
}

/// Arguments and result storage for an entry of type `type`.
struct EntryData {
  tpuprof::run::EntryArguments args;
  tpuprof::run::EntryResults results;
};
llvm::Expected<EntryData> makeEntryData(llvm::StringRef entry,
                                        FunctionType type) {
  llvm::Expected<tpuprof::run::EntryArguments> args =
      tpuprof::run::EntryArguments::create(type.getInputs(), argumentSpecs());
  if (!args)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "@" + entry + ": " +
                                       llvm::toString(args.takeError()));
  llvm::Expected<tpuprof::run::EntryResults> results =
      tpuprof::run::EntryResults::create(type.getResults());
  if (!results)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "@" + entry + ": " +
                                       llvm::toString(results.takeError()));
  return EntryData{std::move(*args), std::move(*results)};
}

/// Calls the entry (runSession), then compares with --data's outputs.
llvm::Error runAndCheck(tpuprof::run::PackedEntry entry, EntryData &data,
                        tpuprof::run::SessionOptions &session) {
  session.keepResults = onnxData.has_value();
  if (llvm::Error err = tpuprof::run::runSession(entry, data.args, data.results,
                                                 session, llvm::outs()))
    return err;
  if (!onnxData)
    return llvm::Error::success();
  llvm::Error err = tpuprof::run::compareOnnxOutputs(
      *onnxData, data.results, relTolerance, absTolerance, llvm::outs());
  data.results.release(data.args);
  return err;
}

/// tpuprof-run model.mlir: instrument, lower and JIT-compile, then call.
int runSource(tpuprof::run::SessionOptions &session,
              const tpuprof::ModelPipelineOptions &pipelineOptions,
              unsigned optLevel) {
  auto parseStart = std::chrono::steady_clock::now();
  llvm::Expected<tpuprof::run::ModelSource> source = tpuprof::run::loadModel(
      inputFile, inputShapes,
      onnxData ? onnxData->inputFiles : std::vector<std::string>());
  if (!source)
    return fail(llvm::toString(source.takeError()));
  // Inputs a shape depends on were imported as constants: not arguments.
  for (unsigned position : source->foldedInputs)
    llvm::errs() << "tpuprof-run: note: " << onnxData->inputFiles[position]
                 << " is a constant of the model (a shape depends on it)\n";
  for (unsigned position : llvm::reverse(source->foldedInputs))
    onnxData->inputSpecs.erase(onnxData->inputSpecs.begin() + position);
  ModuleOp module = *source->module;
  double parseMs = msSince(parseStart);

  FailureOr<func::FuncOp> entry = findEntry(module);
  if (failed(entry))
    return 1;
  std::string entrySym = entry->getSymName().str();
  llvm::Expected<EntryData> data =
      makeEntryData(entrySym, tpuprof::run::entryType(*entry));
  if (!data)
    return fail(llvm::toString(data.takeError()));
  if (llvm::Error err =
          tpuprof::run::checkEntryShapes(*entry, data->args.shapes()))
    return fail("@" + entrySym + ": " + llvm::toString(std::move(err)));

  auto lowerStart = std::chrono::steady_clock::now();
  if (llvm::Error err = tpuprof::run::lowerModel(*source, inputFile, {entrySym},
                                                 pipelineOptions))
    return fail(llvm::toString(std::move(err)));
  double lowerMs = msSince(lowerStart);
  if (!emitLowered.empty())
    if (llvm::Error err = tpuprof::report::writeStreamAtomically(
            emitLowered, [&](llvm::raw_ostream &os) {
              module->print(os);
              return llvm::Error::success();
            }))
      return fail(llvm::toString(std::move(err)));

  auto jitStart = std::chrono::steady_clock::now();
  llvm::Expected<tpuprof::run::JitModel> jit =
      tpuprof::run::jitCompile(module, entrySym, sharedLibs, optLevel);
  if (!jit)
    return fail("cannot JIT " + inputFile + ": " +
                llvm::toString(jit.takeError()));
  double jitMs = msSince(jitStart);
  if (printTime)
    llvm::outs() << llvm::format(
        "Compile time: %.1f ms (parse %.1f, lower %.1f, LLVM %.1f)\n",
        parseMs + lowerMs + jitMs, parseMs, lowerMs, jitMs);

  session.entryName = entrySym;
  session.profile = pipelineOptions.instrument;
  if (llvm::Error err = runAndCheck(jit->entry, *data, session))
    return fail(llvm::toString(std::move(err)));
  return 0;
}

/// tpuprof-run model.so: call a model tpuprof-compile built, profiled when
/// the environment switched profiling on (the runtime opened a window when
/// it loaded), as the board tools' model runners do.
int runCompiled(tpuprof::run::SessionOptions &session) {
  if (std::string flag = tpuprof::run::firstPipelineFlagGiven(); !flag.empty())
    return fail(flag + " applies to a .mlir model; " + inputFile +
                " is compiled already");
  for (const cl::Option *option : std::initializer_list<const cl::Option *>{
           &emitLowered, std::addressof(sharedLibs)})
    if (option->getNumOccurrences())
      return fail("--" + option->ArgStr + " applies to a .mlir model; " +
                  inputFile + " is compiled already");
  if (inputShapes.getNumOccurrences())
    return fail("--input-shape binds an ONNX model's inputs; " + inputFile +
                " is compiled already (its shapes were bound then)");
  bool profilingOn = tpuprof_is_enabled();

  auto loadStart = std::chrono::steady_clock::now();
  llvm::Expected<tpuprof::run::CompiledModel> model =
      tpuprof::run::CompiledModel::load(inputFile);
  if (!model)
    return fail(llvm::toString(model.takeError()));
  MLIRContext context;
  llvm::Expected<tpuprof::run::CompiledModel::Entry> entry =
      model->findEntry(entryName, context);
  if (!entry)
    return fail(llvm::toString(entry.takeError()));
  llvm::Expected<EntryData> data = makeEntryData(entry->name, entry->type);
  if (!data)
    return fail(llvm::toString(data.takeError()));
  if (llvm::Error err = tpuprof::run::checkDimEqualities(entry->dimEqualities,
                                                         data->args.shapes()))
    return fail("@" + entry->name + ": " + llvm::toString(std::move(err)));
  if (printTime)
    llvm::outs() << llvm::format("Load time: %.1f ms\n", msSince(loadStart));

  if (!profilingOn && model->instrumented())
    llvm::WithColor::note(llvm::errs(), "tpuprof-run")
        << "profiling is off: set TPUPROF_ENABLE=1 (or ENABLE_ALL_PROFILE=1) "
           "to profile "
        << inputFile << "\n";
  session.entryName = entry->name;
  session.profile = profilingOn && model->instrumented();
  if (llvm::Error err = runAndCheck(entry->packed, *data, session))
    return fail(llvm::toString(std::move(err)));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  tpuprof::run::registerModelPasses();
  cl::HideUnrelatedOptions({&category, &tpuprof::run::pipelineCategory()});
  tpuprof::setVersionPrinter("tpuprof-run");
  cl::ParseCommandLineOptions(
      argc, argv,
      "tpuprof-run: instrument an MLIR model, run it on the CPU and print "
      "the per-op profile; or run a model tpuprof-compile built (MODEL.so), "
      "profiled under TPUPROF_ENABLE=1 or ENABLE_ALL_PROFILE=1\n");
  if (mode.getNumOccurrences() && mode >= TPUPROF_MODE_COUNT)
    return fail("--mode must be " + modeRange() + ", got " + llvm::Twine(mode));
  tpuprof::ModelPipelineOptions pipelineOptions;
  unsigned optLevel;
  if (llvm::Error err =
          tpuprof::run::readPipelineFlags(pipelineOptions, optLevel))
    return fail(llvm::toString(std::move(err)));
  if (repeat == 0 && pipelineOptions.instrument)
    return fail("--repeat must be at least 1");
  for (const std::string &lib : sharedLibs)
    if (!llvm::sys::fs::exists(lib))
      return fail("--shared-lib: no such file '" + lib + "'");
  if (llvm::Error err = checkOutputDir())
    return fail(llvm::toString(std::move(err)));
  tpuprof::run::SessionOptions session;
  if (llvm::Error err = tpuprof::report::parseSortSpec(sortSpec, session.table))
    return fail(llvm::toString(std::move(err)));
  session.table.top = top;
  llvm::Expected<tpuprof::report::GroupBy> by =
      tpuprof::report::parseGroupBy(tableBy);
  if (!by)
    return fail("--by: " + llvm::toString(by.takeError()));
  session.table.by = *by;
  // On a terminal the table fits its width and has colours, as
  // tpuprof-report table's does.
  session.table.width = tpuprof::report::terminalColumns(STDOUT_FILENO);
  session.table.colour = tpuprof::report::useColour();
  session.warmup = warmup;
  session.repeat = repeat;
  session.mode = runtimeMode();
  session.memory = memory;
  session.outputDir = outputDir;
  session.printResult = printResult;
  session.resultValues = resultValues;
  session.printTime = printTime;
  session.load.overheadCorrection = !noOverheadCorrection;

  if (!dataDir.empty()) {
    if (inputSpecs.getNumOccurrences())
      return fail("--data and --input both give the arguments; use one");
    if (repeat == 0)
      return fail("--data needs --repeat of at least 1");
    for (const cl::opt<double> *tolerance : {&relTolerance, &absTolerance})
      if (!std::isfinite(*tolerance) || *tolerance < 0)
        return fail("--" + tolerance->ArgStr + " '" +
                    llvm::formatv("{0}", double(*tolerance)).str() +
                    "': a tolerance is a finite number of at least 0");
    llvm::Expected<tpuprof::run::OnnxData> data =
        tpuprof::run::readOnnxData(dataDir);
    if (!data)
      return fail(llvm::toString(data.takeError()));
    onnxData = std::move(*data);
  }
  llvm::Expected<bool> compiled = tpuprof::run::isSharedObject(inputFile);
  if (!compiled)
    return fail(llvm::toString(compiled.takeError()));
  if (*compiled)
    return runCompiled(session);
  return runSource(session, pipelineOptions, optLevel);
}
