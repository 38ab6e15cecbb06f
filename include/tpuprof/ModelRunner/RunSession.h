//===- RunSession.h - Call a model's entry inside a profile -----*- C++ -*-===//
//
// What tpuprof-run does once a model is compiled, however it was compiled:
// warm-up calls, one profiling window around --repeat timed calls, the
// results, the dump and the per-op table.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_RUNSESSION_H
#define TPUPROF_MODELRUNNER_RUNSESSION_H

#include "tpuprof/ModelRunner/ModelJit.h"
#include "tpuprof/ModelRunner/RunInputs.h"

#include "tpuprof/report/views/Table.h"

#include <string>

namespace tpuprof {
namespace run {

struct SessionOptions {
  std::string entryName; ///< For messages: "calling @main: ...".
  unsigned warmup = 1, repeat = 10;
  unsigned mode = 0;
  bool memory = false; ///< Track memory (mode 2 always does).
  /// Open a profiling window (the model has probes) and print its table.
  bool profile = true;
  std::string outputDir; ///< Empty: $TPUPROF_OUTPUT or the working directory.
  bool printResult = false;
  /// Leave the last call's results for the caller, who releases them.
  bool keepResults = false;
  unsigned resultValues = 16; ///< Values printed per result; 0 = all.
  bool printTime = false;
  report::TableOptions table;
  report::LoadOptions load; ///< How the table reads the dump.
};

/// Calls `entry` as `options` say and prints to `os`: `Time per call` (with
/// printTime), the results (printResult), `Dump:` and the table (profile).
llvm::Error runSession(PackedEntry entry, EntryArguments &args,
                       EntryResults &results, const SessionOptions &options,
                       llvm::raw_ostream &os);

} // namespace run
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_RUNSESSION_H
