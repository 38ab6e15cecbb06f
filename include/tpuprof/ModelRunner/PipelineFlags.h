//===- PipelineFlags.h - How to compile a model -----------------*- C++ -*-===//
//
// The options tpuprof-run and tpuprof-compile share, defined once so that a
// model compiled ahead of time is compiled exactly as tpuprof-run compiles
// it: --instrument-options, --probe-level, --no-instrument, --pipeline and
// --opt-level.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_PIPELINEFLAGS_H
#define TPUPROF_MODELRUNNER_PIPELINEFLAGS_H

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "llvm/Support/CommandLine.h"

namespace tpuprof {
namespace run {

/// The category the shared options are in (for cl::HideUnrelatedOptions).
llvm::cl::OptionCategory &pipelineCategory();

/// What the options select; fails (one line) on a bad --opt-level or
/// --probe-level.
llvm::Error readPipelineFlags(ModelPipelineOptions &pipeline,
                              unsigned &optLevel);

/// The first shared option given on the command line ("--pipeline"), or
/// empty: for a front-end that does not compile (tpuprof-run MODEL.so).
std::string firstPipelineFlagGiven();

} // namespace run
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_PIPELINEFLAGS_H
