//===- Options.cpp - -tpu-profile-* command-line options ------------------===//
//
// The pass's options are cl::opts so that both `opt -tpu-profile-capture=0`
// and `clang -mllvm -tpu-profile-capture=0` reach them; they are read when the
// pass runs, not when the plugin registers it, because clang parses -mllvm
// options after loading -fpass-plugin libraries.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/LLVMPass/Instrument.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;
using namespace tpuprof::llvmpass;

namespace {

cl::OptionCategory category("tpu-profile-instrument (LLVM) options");

cl::opt<unsigned> captureOpt(
    "tpu-profile-capture",
    cl::desc("What launch probes capture (format.h's tpuprof_capture): 0 "
             "times only; 1 and 2 also the dynamic launch arguments "
             "(grid/block dims, thread count)"),
    cl::init(TPUPROF_CAPTURE_DEFAULT), cl::cat(category));

cl::opt<unsigned> modeOpt("tpu-profile-mode",
                          cl::desc("Old name of -tpu-profile-capture"),
                          cl::init(TPUPROF_CAPTURE_DEFAULT), cl::cat(category));

cl::list<std::string> launchOpt(
    "tpu-profile-launch",
    cl::desc("Also instrument calls to functions matching these globs "
             "(symbol, demangled name or qualified name); repeatable, "
             "comma-separated"),
    cl::value_desc("GLOB"), cl::CommaSeparated, cl::cat(category));

cl::opt<std::string> launchFileOpt(
    "tpu-profile-launch-file",
    cl::desc("A file of further launch-function globs, one a line; '#' "
             "starts a comment"),
    cl::value_desc("FILE"), cl::cat(category));

cl::opt<bool> annotateOnlyOpt(
    "tpu-profile-annotate-only",
    cl::desc("Instrument annotated functions only, not launch calls"),
    cl::init(false), cl::cat(category));

cl::opt<bool> memoryOpt(
    "tpu-profile-memory",
    cl::desc("Wrap malloc/free, new/delete, cudaMalloc/cudaFree and the like "
             "inside instrumented functions and launch regions, so a window "
             "that tracks memory (TPUPROF_MEMORY=1, mode 2) records them"),
    cl::init(true), cl::cat(category));

cl::opt<bool> autoOpt(
    "tpu-profile-auto",
    cl::desc("Run tpu-profile-instrument at the start of every default "
             "pipeline (clang -fpass-plugin at -O0..-O3); false leaves it to "
             "-passes"),
    cl::init(true), cl::cat(category));

} // namespace

Expected<InstrumentOptions> tpuprof::llvmpass::optionsFromCommandLine() {
  // The option the user wrote, named in its error.
  cl::opt<unsigned> &captureLevel =
      captureOpt.getNumOccurrences() || !modeOpt.getNumOccurrences()
          ? captureOpt
          : modeOpt;
  if (captureLevel >= TPUPROF_CAPTURE_COUNT)
    return createStringError(inconvertibleErrorCode(),
                             "-" + captureLevel.ArgStr +
                                 " must be 0, 1 or 2, got " +
                                 Twine(captureLevel.getValue()));
  InstrumentOptions options;
  options.capture = captureLevel;
  options.annotateOnly = annotateOnlyOpt;
  options.memory = memoryOpt;
  options.launchPatterns.assign(launchOpt.begin(), launchOpt.end());
  options.launchFile = launchFileOpt;
  return options;
}

bool tpuprof::llvmpass::autoInstrumentEnabled() { return autoOpt; }
