//===- tpuprof/LLVMPass/Instrument.h - The LLVM pass ------------*- C++ -*-===//
//
// The LLVM-IR side of --tpu-profile-instrument: wraps calls to kernel-launch
// functions and whole annotated functions in tpuprof probes, embeds the
// module's probe table and registers it from a constructor, exactly as the
// MLIR side's --tpu-profile-lower does (docs/llvm-pass.md).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_LLVMPASS_INSTRUMENT_H
#define TPUPROF_LLVMPASS_INSTRUMENT_H

#include "tpuprof/format.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace llvmpass {

/// What the pass instruments and how. Filled from the -tpu-profile-* command
/// line options by optionsFromCommandLine(); tests and embedders may fill it
/// directly.
struct InstrumentOptions {
  /// What probes capture (tpuprof_capture): 0 times only; 1 and 2 also the
  /// dynamic launch arguments (grid and block dims, thread counts, integer
  /// arguments) through the probe's dims.
  unsigned capture = TPUPROF_CAPTURE_DEFAULT;
  /// Instrument annotated functions only, no launch calls.
  bool annotateOnly = false;
  /// Wrap allocation calls in instrumented functions and launch regions
  /// (Memory.h).
  bool memory = true;
  /// Extra launch-function globs, added to the default list.
  std::vector<std::string> launchPatterns;
  /// A file of further globs, one per line ('#' starts a comment).
  std::string launchFile;
};

/// Reads the -tpu-profile-* options. Errors (bad capture level, unreadable
/// file) are
/// one line each, without a trailing newline or prefix.
llvm::Expected<InstrumentOptions> optionsFromCommandLine();

/// True unless -tpu-profile-auto=false: register at the pipeline start so
/// that `clang -fpass-plugin` instruments at every -O level.
bool autoInstrumentEnabled();

/// The module pass `tpu-profile-instrument`.
class TpuProfileInstrumentPass
    : public llvm::PassInfoMixin<TpuProfileInstrumentPass> {
public:
  /// Reads its options from the command line when it runs.
  TpuProfileInstrumentPass() = default;
  explicit TpuProfileInstrumentPass(InstrumentOptions options)
      : options(std::move(options)), hasOptions(true) {}

  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);

  /// Probes are part of the program's meaning once asked for: run even on
  /// optnone functions (clang -O0).
  static bool isRequired() { return true; }

private:
  InstrumentOptions options;
  bool hasOptions = false;
};

} // namespace llvmpass
} // namespace tpuprof

#endif // TPUPROF_LLVMPASS_INSTRUMENT_H
