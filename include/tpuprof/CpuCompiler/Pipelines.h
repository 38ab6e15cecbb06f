//===- Pipelines.h - The built-in CPU lowerings -----------------*- C++ -*-===//
//
// What tpuprof-run (and anything that compiles a model the way it does) runs
// between parsing a model and JIT-compiling it: keep what the entry reaches,
// instrument, lower to the LLVM dialect with a built-in pipeline or a
// user-given one, and check that everything was lowered. docs/passes.md,
// "Built-in pipelines", describes each stage.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_CPUCOMPILER_PIPELINES_H
#define TPUPROF_CPUCOMPILER_PIPELINES_H

#include "tpuprof/CpuCompiler/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace tpuprof {

/// Registered names of the built-in lowerings: tensors (tosa, linalg, tensor,
/// arith, math, scf) to the LLVM dialect, with `tpu-profile-lower` after
/// bufferization. The first tiles and vectorizes linalg ops for the host
/// CPU; the second lowers every linalg op to scalar loops.
inline constexpr llvm::StringLiteral kOptimizingPipeline = "tpu-profile-cpu";
inline constexpr llvm::StringLiteral kNaivePipeline = "tpu-profile-cpu-naive";

/// Adds the built-in lowering to `pm` (anchored on builtin.module). With
/// `kernelProbes` (--tpu-profile-instrument at probe-level=kernel), source
/// ops are tagged first (--tpu-profile-tag-sources) and the pass runs after
/// fusion, before tiling: fusion decides which kernels exist, and tiling
/// and vectorizing transform each kernel where it is.
void buildCpuPipeline(mlir::OpPassManager &pm, bool optimize,
                      std::unique_ptr<mlir::Pass> kernelProbes = nullptr);

/// The built-in lowering's passes after one-shot bufferization, as a
/// pipeline text: probes, frees and vector ops lowered, then everything to
/// the LLVM dialect. It compiles a module that is already bufferized as the
/// built-in pipeline bufferizes (bench/model_bench's kernels alone).
std::string afterBufferizationPipelineText(bool optimize);

/// Where probes go (docs/probes.md, "Probe levels"): on each op of the
/// model before lowering, on each kernel after the pipeline's fusion, on
/// each node's run of ops before lowering (alone, or around the ops' own
/// probes). All but Kernel go in before the pipeline.
enum class ProbeLevel { Graph, Kernel, Node, NodeGraph };

/// "graph", "kernel", "node" or "node+graph" as a level; else an error
/// saying what was given.
llvm::Expected<ProbeLevel> parseProbeLevel(llvm::StringRef text);
llvm::StringRef probeLevelName(ProbeLevel level);

/// How to compile a model: what tpuprof-run's options select.
struct ModelPipelineOptions {
  /// Run --tpu-profile-instrument first, with these options ("key=value ...").
  bool instrument = true;
  std::string instrumentOptions;
  /// Where the probes go. A custom pipeline gets graph probes first unless
  /// it runs tpu-profile-instrument itself; asking it for kernel probes
  /// (`probeLevelGiven`) without that is an error.
  ProbeLevel probeLevel = ProbeLevel::Kernel;
  bool probeLevelGiven = false;
  /// A pass pipeline replacing the built-in lowering, in either spelling:
  /// `builtin.module(a,b)` or `a,b`. None: the built-in one.
  std::optional<std::string> customPipeline;
  /// The built-in pipeline: optimizing (tpu-profile-cpu) or naive.
  bool optimize = true;
};

/// Fills `pm` (anchored on builtin.module) with what `options` select. A bad
/// instrumentation option, a pipeline that does not parse, is empty, lacks
/// `tpu-profile-lower` while instrumenting or never lowers functions to the
/// LLVM dialect is an error of one line, before anything runs.
llvm::Error buildModelPipeline(mlir::PassManager &pm,
                               const ModelPipelineOptions &options);

/// Runs `pm` on `module`, then checkLoweredToLLVM. Errors come back as one
/// line, `file:line:col: message` of the first error diagnostic (the op
/// that could not be lowered), with a count of the errors that followed;
/// warnings are reported as usual.
llvm::Error runModelPipeline(mlir::PassManager &pm, mlir::ModuleOp module);

/// Erases every symbol of `module` that none of the functions `entries`
/// reaches (through symbol uses, transitively), so that code the entries
/// never run cannot stop the model from compiling. Ops that are not symbols
/// stay, and so does what they reference, except transform-dialect schedules (a
/// `transform.sequence`, a module of named sequences), which are scripts
/// for the transform interpreter, not code.
void eraseUnreachableSymbols(mlir::ModuleOp module,
                             llvm::ArrayRef<llvm::StringRef> entries);

/// Succeeds when `module` holds only LLVM-dialect ops (what the JIT can
/// translate); else names the first op left and where it came from.
llvm::Error checkLoweredToLLVM(mlir::ModuleOp module);

/// Registers the built-in pipelines and the passes they use beyond
/// upstream's (--tpu-profile-tile-and-vectorize, ...), each also under its
/// earlier name (tpuprof-cpu, --tpuprof-tile-and-vectorize, ...).
void registerTpuProfPipelines();

/// Old name of registerTpuProfPipelines().
inline void registerTpuProfilePipelines() { registerTpuProfPipelines(); }

} // namespace tpuprof

#endif // TPUPROF_CPUCOMPILER_PIPELINES_H
