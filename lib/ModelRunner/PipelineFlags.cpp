//===- PipelineFlags.cpp - How to compile a model, from the command line --===//

#include "tpuprof/ModelRunner/PipelineFlags.h"

namespace cl = llvm::cl;

llvm::cl::OptionCategory &tpuprof::run::pipelineCategory() {
  static cl::OptionCategory category("Model compilation options");
  return category;
}

namespace {

cl::opt<std::string> pipeline(
    "pipeline",
    cl::desc(
        "Lowering pipeline run after instrumentation, replacing the "
        "built-in tpu-profile-cpu (tiled and vectorized): a pass pipeline, "
        "'a,b' or 'builtin.module(a,b)', that runs tpu-profile-lower "
        "(with probes) and lowers to the LLVM dialect; "
        "'tpu-profile-cpu-naive' is the built-in one with scalar loops"),
    cl::value_desc("PIPELINE"), cl::cat(tpuprof::run::pipelineCategory()));
cl::opt<unsigned> optLevel(
    "opt-level",
    cl::desc("LLVM optimization level, 0-3 (0 compiles a large model several "
             "times faster into slower code)"),
    cl::init(2), cl::cat(tpuprof::run::pipelineCategory()));
cl::opt<std::string> instrumentOptions(
    "instrument-options",
    cl::desc(
        "Options for --tpu-profile-instrument, e.g. 'exclude=tosa.reshape'"),
    cl::value_desc("OPTIONS"), cl::cat(tpuprof::run::pipelineCategory()));
cl::opt<std::string> probeLevel(
    "probe-level",
    cl::desc("Where probes go: 'kernel' (the default: on each kernel the "
             "pipeline runs, after its fusion, named by the ops fused into "
             "it), 'graph' (on each op of the model, before lowering: per-op "
             "times of an unfused program), 'node' (one probe around each "
             "ONNX node's ops, before lowering: one row per node) or "
             "'node+graph' (node probes with each op's probe inside)"),
    cl::value_desc("kernel|graph|node|node+graph"), cl::init("kernel"),
    cl::cat(tpuprof::run::pipelineCategory()));
cl::opt<bool>
    noInstrument("no-instrument",
                 cl::desc("Compile the model without probes (no report)"),
                 cl::cat(tpuprof::run::pipelineCategory()));

} // namespace

llvm::Error tpuprof::run::readPipelineFlags(ModelPipelineOptions &options,
                                            unsigned &level) {
  if (optLevel > 3)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--opt-level must be 0, 1, 2 or 3, got " +
                                       llvm::Twine(optLevel));
  level = optLevel;
  options.instrument = !noInstrument;
  options.instrumentOptions = instrumentOptions;
  llvm::Expected<ProbeLevel> probes = parseProbeLevel(probeLevel);
  if (!probes) {
    llvm::consumeError(probes.takeError());
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "--probe-level must be kernel, graph, node or node+graph, got '" +
            probeLevel + "'");
  }
  options.probeLevel = *probes;
  options.probeLevelGiven = probeLevel.getNumOccurrences() != 0;
  if (pipeline.getNumOccurrences())
    options.customPipeline = pipeline;
  return llvm::Error::success();
}

std::string tpuprof::run::firstPipelineFlagGiven() {
  for (const cl::Option *option : std::initializer_list<const cl::Option *>{
           &pipeline, &optLevel, &instrumentOptions, &probeLevel,
           &noInstrument})
    if (option->getNumOccurrences())
      return "--" + option->ArgStr.str();
  return "";
}
