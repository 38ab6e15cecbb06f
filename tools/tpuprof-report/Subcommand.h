//===- tools/tpuprof-report/Subcommand.h - Subcommands --------*- C++ -*-===//
//
// Like llvm-xray: each subcommand lives in its own file and registers itself
// with one static Subcommand, so main() lists, parses and dispatches them
// without naming any. The helpers below are what every subcommand shares.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TOOLS_TPUPROF_REPORT_SUBCOMMAND_H
#define TPUPROF_TOOLS_TPUPROF_REPORT_SUBCOMMAND_H

#include "tpuprof/report/model/Load.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace reporttool {

/// A registered subcommand.
struct Subcommand {
  /// `run` does the work once `cmd` was parsed; its options are in
  /// `options`; `about` (what it does, with examples) ends its --help.
  Subcommand(llvm::cl::SubCommand &cmd, llvm::cl::OptionCategory &options,
             const char *about, int (*run)());
  /// A subcommand that another program does (annotate): `exec` gets the
  /// whole command line, unparsed.
  Subcommand(llvm::cl::SubCommand &cmd, int (*exec)(int argc, char **argv));

  static llvm::ArrayRef<const Subcommand *> all();

  llvm::cl::SubCommand &cmd;
  llvm::cl::OptionCategory *options = nullptr;
  const char *about = nullptr;
  int (*run)() = nullptr;
  int (*exec)(int argc, char **argv) = nullptr;
};

/// Options every subcommand takes (main() applies them).
extern llvm::cl::OptionCategory commonOptions;

/// -o FILE: where a subcommand writes its output ("-", the default: stdout).
extern llvm::cl::opt<std::string> outputPath;

/// Loads a subcommand's inputs (model/Load.h); `rows` as LoadOptions.
llvm::Expected<report::Input> load(llvm::ArrayRef<std::string> inputs,
                                   bool rows = true);

/// Whether --no-overhead-correction was left out.
bool overheadCorrection();

/// The ranks --rank and --ranks name (empty: every rank).
llvm::Expected<std::vector<uint32_t>> rankFilter();

/// Prints "tpuprof-report: error: <message>" and returns the exit status 1.
int fail(llvm::Error err);

/// Runs `fn` on -o's file ("-": stdout), written as OutputFile.h says: the
/// file is replaced only when `fn` and every write succeeded, so no
/// subcommand leaves a half-written or unnamed file. Returns the exit
/// status.
int withOutput(llvm::function_ref<llvm::Error(llvm::raw_ostream &)> fn);

/// Whether to draw progress bars (stderr is a terminal).
bool showProgress();

} // namespace reporttool
} // namespace tpuprof

#endif // TPUPROF_TOOLS_TPUPROF_REPORT_SUBCOMMAND_H
