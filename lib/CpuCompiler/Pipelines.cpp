//===- Pipelines.cpp - The built-in CPU lowerings -------------------------===//
//
// The pipelines are pass-pipeline strings so that what runs is exactly what
// docs/passes.md prints and what a user can paste into tpuprof-opt or
// mlir-opt (with the plugin) to reproduce a step.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/InitAllPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

/// Large functions first become functions of ~128 graph ops (compile time
/// linear in the model). Strided 1x1 convolutions become a slice and a
/// matmul. TOSA to linalg, tensor, arith and scf on tensors.
/// Control flow first: tosa-to-linalg cannot convert the tosa.yield of a
/// cond_if or while_loop. include-apply-rescale lowers the tosa.apply_scale
/// that rescale and shifted integer multiplies become. Then the weights the
/// lowering transposes or reshapes become constants in their kernel's
/// layout, before kernels or their probes exist.
constexpr llvm::StringLiteral kTosaToTensors =
    "tpu-profile-outline-ops,"
    "func.func(tpu-profile-subsample-pointwise-convs,"
    "tosa-optional-decompositions,tosa-infer-shapes,"
    "tosa-make-broadcastable,tosa-to-scf,tosa-to-linalg-named,tosa-to-linalg,"
    "tosa-to-arith{include-apply-rescale},tosa-to-tensor),"
    "tpu-profile-fold-constant-layouts";

/// Tensors to buffers (loops may yield new ones: scf.while from
/// tosa.while_loop does); the constants it makes in program order, so that
/// one model compiles to one object.
constexpr llvm::StringLiteral kBufferize =
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops},"
    "tpu-profile-order-constants";
/// Probes to runtime calls (after bufferization, where nothing moves
/// across them); then every buffer freed after its last use, unless the
/// model frees its own, and the frees wrapped for memory tracking by a
/// second tpu-profile-lower.
constexpr llvm::StringLiteral kLowerBuffers =
    "tpu-profile-lower,tpu-profile-deallocate,tpu-profile-free-early,"
    "tpu-profile-lower";

/// The optimizing middle: fuse elementwise producers into consumers, but
/// not into contractions, which stay contractions for the tiler (graph
/// probes keep instrumented ops apart; kernel probes go in right after
/// this), tile and vectorize on tensors (each kernel on its own, where it
/// is); after bufferization keep accumulators in registers and lower vector
/// ops.
constexpr llvm::StringLiteral kFuse = "func.func(tpu-profile-fuse-elementwise)";
constexpr llvm::StringLiteral kOptimizeTensors =
    "func.func(tpu-profile-tile-and-vectorize,canonicalize,cse),"
    "eliminate-empty-tensors";
constexpr llvm::StringLiteral kOptimizeBuffers =
    "func.func(tpu-profile-lower-vectors),convert-vector-to-scf{full-unroll},"
    "tpu-profile-page-align-loops";

/// Whatever is left to LLVM: copies between strided buffers (pads,
/// concatenations) become loops of memcpy of contiguous blocks, linalg ops
/// not vectorized become loops, math functions without an LLVM intrinsic
/// call libm (the JIT resolves it in the process), integer powers become
/// outlined functions.
constexpr llvm::StringLiteral kToLLVM =
    "tpu-profile-lower-copies,"
    "convert-linalg-to-loops,expand-strided-metadata,lower-affine,"
    "arith-expand,convert-math-to-funcs,convert-math-to-llvm,"
    "convert-math-to-libm,convert-scf-to-cf,"
    "convert-vector-to-llvm{reassociate-fp-reductions},convert-to-llvm,"
    "finalize-memref-to-llvm,reconcile-unrealized-casts";

/// The built-in pipeline up to where kernel probes go: TOSA to tensors,
/// then fused when optimizing. With kernel probes, source ops are tagged
/// first so that the probes can name each kernel by them.
std::string kernelsPipelineText(bool optimize, bool tagSources) {
  std::string text = tagSources ? "tpu-profile-tag-sources," : "";
  text += kTosaToTensors.str();
  if (optimize)
    text += "," + kFuse.str();
  return text;
}

/// The rest: kernels tiled and vectorized, bufferized, lowered to LLVM.
std::string loweringPipelineText(bool optimize) {
  std::string text = optimize ? kOptimizeTensors.str() + "," : "";
  return text + kBufferize.str() + "," +
         tpuprof::afterBufferizationPipelineText(optimize);
}

llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// The names of the passes and nested pipelines `text` (a printed pipeline)
/// runs, without their options.
llvm::StringSet<> passNames(StringRef text) {
  std::string plain;
  int depth = 0;
  for (char c : text) {
    if (c == '{')
      ++depth;
    else if (c == '}')
      --depth;
    else if (depth == 0)
      plain += (c == '(' || c == ')') ? ',' : c;
  }
  llvm::StringSet<> names;
  SmallVector<StringRef> parts;
  StringRef(plain).split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef p : parts)
    if (!p.trim().empty())
      names.insert(p.trim());
  return names;
}

/// `file:line:col` of the first file location in `loc` (`file` for the
/// module's own, line 0), else how it prints.
std::string formatLocation(Location loc) {
  std::string text;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      text = f.getFilename().str();
      if (f.getLine() != 0)
        text += ":" + std::to_string(f.getLine()) + ":" +
                std::to_string(f.getColumn());
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (text.empty())
    llvm::raw_string_ostream(text) << loc;
  return text;
}

/// ` ('name')`: the op an error diagnostic is about, from the note MLIR
/// attaches ("see current operation: %0 = \"tensor.pack\"(...)"), when the
/// message does not quote it already; else "".
std::string failingOpName(Diagnostic &d) {
  for (Diagnostic &note : d.getNotes()) {
    std::string text = note.str();
    StringRef rest(text);
    if (!rest.consume_front("see current operation: "))
      continue;
    size_t open = rest.find('"');
    size_t close = rest.find('"', open + 1);
    if (open == StringRef::npos || close == StringRef::npos)
      return "";
    std::string name = rest.slice(open + 1, close).str();
    return d.str().find("'" + name + "'") == std::string::npos
               ? " ('" + name + "')"
               : "";
  }
  return "";
}

} // namespace

std::string tpuprof::afterBufferizationPipelineText(bool optimize) {
  std::string text = kLowerBuffers.str() + ",";
  if (optimize)
    text += kOptimizeBuffers.str() + ",";
  return text + kToLLVM.str();
}

void tpuprof::buildCpuPipeline(OpPassManager &pm, bool optimize,
                               std::unique_ptr<Pass> kernelProbes) {
  // The text is ours and fixed: it parses, or the build is broken.
  if (failed(parsePassPipeline(kernelsPipelineText(optimize, !!kernelProbes),
                               pm, llvm::errs())))
    llvm::report_fatal_error("tpuprof: the built-in pipeline does not parse");
  if (kernelProbes)
    pm.addPass(std::move(kernelProbes));
  if (failed(
          parsePassPipeline(loweringPipelineText(optimize), pm, llvm::errs())))
    llvm::report_fatal_error("tpuprof: the built-in pipeline does not parse");
}

llvm::Expected<tpuprof::ProbeLevel>
tpuprof::parseProbeLevel(llvm::StringRef text) {
  if (text == "graph")
    return ProbeLevel::Graph;
  if (text == "kernel")
    return ProbeLevel::Kernel;
  if (text == "node")
    return ProbeLevel::Node;
  if (text == "node+graph")
    return ProbeLevel::NodeGraph;
  return makeError(
      "probe level must be graph, kernel, node or node+graph, got '" + text +
      "'");
}

llvm::StringRef tpuprof::probeLevelName(ProbeLevel level) {
  switch (level) {
  case ProbeLevel::Graph:
    return "graph";
  case ProbeLevel::Kernel:
    return "kernel";
  case ProbeLevel::Node:
    return "node";
  case ProbeLevel::NodeGraph:
    return "node+graph";
  }
  llvm_unreachable("a probe level without a name");
}

namespace {
/// --tpu-profile-instrument with `options`, at `level`; the error names the
/// options when they do not parse.
llvm::Expected<std::unique_ptr<Pass>>
createInstrument(const std::string &options, tpuprof::ProbeLevel level) {
  std::unique_ptr<Pass> instrument = tpuprof::createTpuProfileInstrument();
  // The level first: an explicit probe-level in `options` is the user's.
  std::string all =
      ("probe-level=" + tpuprof::probeLevelName(level) + " " + options).str();
  std::string problem;
  if (failed(instrument->initializeOptions(all, [&](const llvm::Twine &msg) {
        problem = msg.str();
        return failure();
      })))
    return makeError("bad instrumentation options '" + options + "'" +
                     (problem.empty() ? "" : ": " + StringRef(problem).trim()));
  return std::move(instrument);
}
} // namespace

llvm::Error tpuprof::buildModelPipeline(PassManager &pm,
                                        const ModelPipelineOptions &options) {
  if (!options.customPipeline) {
    std::unique_ptr<Pass> instrument;
    if (options.instrument) {
      auto created =
          createInstrument(options.instrumentOptions, options.probeLevel);
      if (!created)
        return created.takeError();
      instrument = std::move(*created);
    }
    // Graph and node probes go on the ops as the model has them; kernel
    // probes after the pipeline's fusion.
    if (instrument && options.probeLevel != ProbeLevel::Kernel)
      pm.addPass(std::move(instrument));
    buildCpuPipeline(pm, options.optimize, std::move(instrument));
    return llvm::Error::success();
  }

  // Both spellings: mlir-opt's `builtin.module(a,b)` and the list `a,b`
  // that runs inside the module.
  const std::string &given = *options.customPipeline;
  StringRef text = StringRef(given).trim();
  StringRef body = text;
  if (body.consume_front("builtin.module(") && body.consume_back(")"))
    text = body.trim();
  if (text.empty())
    return makeError("pipeline '" + given + "' is empty: it runs no pass");
  std::string parseError;
  llvm::raw_string_ostream parseOs(parseError);
  OpPassManager lowering(ModuleOp::getOperationName());
  if (failed(parsePassPipeline(text, lowering, parseOs))) {
    // The parser's first line is `<source>:1:1: error: <what>`, then the
    // text and a caret.
    StringRef what = StringRef(parseError).split('\n').first;
    size_t at = what.find("error: ");
    if (at != StringRef::npos)
      what = what.drop_front(at + 7);
    return makeError("pipeline '" + given + "' does not parse: " + what);
  }
  if (lowering.size() == 0)
    return makeError("pipeline '" + given + "' is empty: it runs no pass");

  std::string printed;
  llvm::raw_string_ostream printedOs(printed);
  lowering.printAsTextualPipeline(printedOs);
  llvm::StringSet<> names = passNames(printed);
  // A pipeline may place the probes itself (kernel probes after its own
  // fusion); else they go first, on the graph, and only there: where a
  // pipeline fuses is its own business.
  bool placesProbes = names.contains("tpu-profile-instrument");
  if (options.instrument && !placesProbes) {
    if (options.probeLevelGiven && options.probeLevel == ProbeLevel::Kernel)
      return makeError("pipeline '" + given +
                       "' places no kernel probes: run "
                       "tpu-profile-instrument{probe-level=kernel} in it "
                       "after its fusion, or use --probe-level=graph");
    auto created = createInstrument(options.instrumentOptions,
                                    options.probeLevel == ProbeLevel::Kernel
                                        ? ProbeLevel::Graph
                                        : options.probeLevel);
    if (!created)
      return created.takeError();
    pm.addPass(std::move(*created));
  }
  SmallVector<std::string> missing;
  if (options.instrument && !names.contains("tpu-profile-lower"))
    missing.push_back("tpu-profile-lower (the probes' lowering, after "
                      "bufferization; or run without probes)");
  if (!names.contains("convert-to-llvm") &&
      !names.contains("convert-func-to-llvm"))
    missing.push_back("a lowering of functions to the LLVM dialect "
                      "(convert-to-llvm or convert-func-to-llvm)");
  if (!missing.empty())
    return makeError("pipeline '" + given + "' lacks " +
                     llvm::join(missing, " and "));
  if (failed(parsePassPipeline(text, pm, parseOs)))
    return makeError("pipeline '" + given + "' does not parse");
  return llvm::Error::success();
}

llvm::Error tpuprof::runModelPipeline(PassManager &pm, ModuleOp module) {
  // The first error is the one that names what could not be lowered; the
  // errors that follow from it (failed materializations, verifier notes)
  // only repeat it elsewhere. Warnings and remarks pass through.
  std::string first;
  unsigned errors = 0;
  {
    ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      if (errors++ == 0)
        first =
            formatLocation(d.getLocation()) + ": " + d.str() + failingOpName(d);
      return success();
    });
    // The module is verified once, at the end, not after each of ~40
    // passes: that was a fifth of the lowering of large models.
    pm.enableVerifier(false);
    if (succeeded(pm.run(module)) && errors == 0 && succeeded(verify(module)))
      return checkLoweredToLLVM(module);
  }
  if (errors == 0)
    return makeError("lowering failed without a diagnostic");
  if (errors > 1)
    first += " (and " + std::to_string(errors - 1) + " more errors)";
  return makeError(first);
}

llvm::Error tpuprof::checkLoweredToLLVM(ModuleOp module) {
  Operation *left = nullptr;
  module.getBody()->walk([&](Operation *op) {
    if (isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    left = op;
    return WalkResult::interrupt();
  });
  if (!left)
    return llvm::Error::success();
  std::string where;
  if (auto fn = left->getParentOfType<FunctionOpInterface>())
    where = " in @" + fn.getName().str();
  return makeError(formatLocation(left->getLoc()) + ": '" +
                   left->getName().getStringRef() + "'" + where +
                   " is still there after the pipeline: nothing in it "
                   "lowers this op to the LLVM dialect");
}

namespace {

/// The options of the registered built-in pipelines.
struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  Option<std::string> probeLevel{
      *this, "probe-level",
      llvm::cl::desc("Also place probes: 'graph' (before lowering, on each "
                     "op), 'kernel' (after fusion, on each kernel), 'node' "
                     "(before lowering, on each node's ops) or 'node+graph' "
                     "(both of those, nested); none when empty"),
      llvm::cl::init("")};
};

/// The built-in pipeline with the probes `options` ask for. Instrumentation
/// options beyond the level are --tpu-profile-instrument's own, run before
/// the pipeline (graph) or in a pipeline of one's own (kernel).
void buildCpuPipelineWithProbes(OpPassManager &pm, bool optimize,
                                const CpuPipelineOptions &options) {
  std::unique_ptr<Pass> instrument;
  tpuprof::ProbeLevel level = tpuprof::ProbeLevel::Graph;
  if (!options.probeLevel.empty()) {
    llvm::Expected<tpuprof::ProbeLevel> parsed =
        tpuprof::parseProbeLevel(options.probeLevel);
    if (!parsed)
      llvm::report_fatal_error(
          ("tpuprof: tpu-profile-cpu: " + llvm::toString(parsed.takeError()))
              .c_str(),
          /*gen_crash_diag=*/false);
    level = *parsed;
    auto created = createInstrument("", level);
    if (!created)
      llvm::report_fatal_error(llvm::toString(created.takeError()).c_str(),
                               /*gen_crash_diag=*/false);
    instrument = std::move(*created);
  }
  if (instrument && level != tpuprof::ProbeLevel::Kernel)
    pm.addPass(std::move(instrument));
  tpuprof::buildCpuPipeline(pm, optimize, std::move(instrument));
}

/// Registers `create`'s pass under `oldName` too, the name it had before
/// every tpuprof pass was named tpu-profile-*: the same pass with the same
/// options, so that pipelines written with the old name keep working.
void registerOldName(llvm::StringRef oldName,
                     std::unique_ptr<Pass> (*create)()) {
  std::string description = ("Old name of --" + create()->getArgument()).str();
  registerPassPipeline(
      oldName, description,
      [create](
          OpPassManager &pm, llvm::StringRef options,
          llvm::function_ref<LogicalResult(const llvm::Twine &)> errorHandler) {
        std::unique_ptr<Pass> pass = create();
        if (failed(pass->initializeOptions(options, errorHandler)))
          return failure();
        pm.addPass(std::move(pass));
        return success();
      },
      [](llvm::function_ref<void(const detail::PassOptions &)>) {});
}

} // namespace

void tpuprof::registerTpuProfPipelines() {
  registerTpuProfCpuPasses();
  constexpr llvm::StringLiteral optimizingSummary =
      "tpuprof-run's optimizing CPU lowering: TOSA/linalg on tensors to the "
      "LLVM dialect, linalg ops tiled and vectorized, probes lowered";
  constexpr llvm::StringLiteral naiveSummary =
      "tpuprof-run's naive CPU lowering: TOSA/linalg on tensors to the LLVM "
      "dialect, every linalg op a scalar loop nest, probes lowered";
  PassPipelineRegistration<CpuPipelineOptions>(
      kOptimizingPipeline, optimizingSummary,
      [](OpPassManager &pm, const CpuPipelineOptions &options) {
        buildCpuPipelineWithProbes(pm, /*optimize=*/true, options);
      });
  PassPipelineRegistration<CpuPipelineOptions>(
      kNaivePipeline, naiveSummary,
      [](OpPassManager &pm, const CpuPipelineOptions &options) {
        buildCpuPipelineWithProbes(pm, /*optimize=*/false, options);
      });

  // The names the pipelines and passes had before.
  PassPipelineRegistration<>(
      "tpuprof-cpu", "Old name of tpu-profile-cpu",
      [](OpPassManager &pm) { buildCpuPipeline(pm, /*optimize=*/true); });
  PassPipelineRegistration<>(
      "tpuprof-cpu-naive", "Old name of tpu-profile-cpu-naive",
      [](OpPassManager &pm) { buildCpuPipeline(pm, /*optimize=*/false); });
  registerOldName("tpuprof-tile-and-vectorize",
                  [] { return createTpuProfTileAndVectorize(); });
  registerOldName("tpuprof-lower-vectors",
                  [] { return createTpuProfLowerVectors(); });
  registerOldName("tpuprof-outline-ops",
                  [] { return createTpuProfOutlineOps(); });
  registerOldName("tpuprof-deallocate",
                  [] { return createTpuProfDeallocate(); });
  registerOldName("tpuprof-free-early",
                  [] { return createTpuProfFreeEarly(); });
}
