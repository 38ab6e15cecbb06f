//===- tools/tpuprof-report/Main.cpp - Report views of tpuprof dumps ------===//
//
//   tpuprof-report <subcommand> [options] DUMP...
//
// Each subcommand lives in its own file of this directory and registers
// itself (Subcommand.h); the work is in the report library (report/), so
// that tpuprof-run prints the same table. docs/report.md is the user guide.
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/Version.h"
#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/views/Sqlite.h"
#include "tpuprof/report/views/Workbook.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"

#include <csignal>
#include <optional>
#include <vector>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::reporttool;

namespace {

/// The top-level help's overview; cl lists the subcommands after it.
const char *const kOverview =
    "tpuprof-report: report views of tpuprof dumps\n\n"
    "  tpuprof-report <subcommand> [options] DUMP...\n\n"
    "A DUMP is a dump file, a directory of tpuprof_data_dev* dumps or (where\n"
    "rows are enough) an `export --format json` file.\n";

/// "unknown subcommand 'tabel'; did you mean 'table'? (expected one of:
/// ...)", the guess only when it is near.
Error unknownSubcommand(StringRef given,
                        ArrayRef<const Subcommand *> subcommands) {
  std::vector<StringRef> names;
  StringRef nearest;
  unsigned best = ~0u;
  for (const Subcommand *s : subcommands) {
    StringRef name = s->cmd.getName();
    names.push_back(name);
    unsigned distance = given.edit_distance(name, /*AllowReplacements=*/true,
                                            /*MaxEditDistance=*/best);
    if (distance < best) {
      best = distance;
      nearest = name;
    }
  }
  llvm::sort(names);
  // A dump given first: the subcommand was left out.
  if (sys::fs::exists(given))
    return createStringError("no subcommand given before '" + given +
                             "'; expected one of: " + join(names, ", ") +
                             " (e.g. 'tpuprof-report table " + given + "')");
  std::string guess;
  if (given == "help")
    guess = "; for help run 'tpuprof-report --help' or 'tpuprof-report "
            "SUBCOMMAND --help'";
  else if (!nearest.empty() && best <= std::max<size_t>(2, nearest.size() / 3))
    guess = ("; did you mean '" + nearest + "'?").str();
  return createStringError("unknown subcommand '" + given + "'" + guess +
                           " (expected one of: " + join(names, ", ") + ")");
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // Past a file size limit (ulimit -f) a write fails with EFBIG, which the
  // writers report in one line, instead of the signal killing the tool.
  std::signal(SIGXFSZ, SIG_IGN);
  ArrayRef<const Subcommand *> subcommands = Subcommand::all();
  if (argc >= 2)
    for (const Subcommand *s : subcommands)
      if (s->exec && s->cmd.getName() == argv[1])
        return s->exec(argc, argv);
  // A first word that is no subcommand would leave cl with an error per
  // argument: one line instead, with the nearest name.
  if (argc >= 2 && argv[1][0] != '-' &&
      llvm::none_of(subcommands, [&](const Subcommand *s) {
        return s->cmd.getName() == argv[1];
      }))
    return fail(unknownSubcommand(argv[1], subcommands));
  // libLLVM registers many options of its own; show only ours in --help.
  std::vector<const cl::OptionCategory *> categories = {&commonOptions};
  for (const Subcommand *s : subcommands)
    if (s->options)
      categories.push_back(s->options);
  // LLVM's own --color is ours too (report::useColour()): list it with the
  // rest, once (not also under its own "Color Options").
  if (cl::Option *colour = cl::getRegisteredOptions().lookup("color")) {
    colour->Categories.clear();
    colour->addCategory(commonOptions);
  }
  cl::HideUnrelatedOptions(categories);
  setVersionPrinter("tpuprof-report", [](raw_ostream &os) {
    // What this build can write (the rest is always there).
    os << "  optional outputs: sqlite "
       << (report::sqliteAvailable() ? "yes" : "no") << ", xlsx "
       << (report::workbookAvailable() ? "yes" : "no") << "\n";
  });
  // A subcommand's help: its one line, its options, then what it does with
  // examples; the top-level help: the overview and the list.
  const Subcommand *given = nullptr;
  for (const Subcommand *s : subcommands)
    if (argc >= 2 && s->cmd.getName() == argv[1])
      given = s;
  std::string aboutText =
      given && given->about ? "\n" + std::string(given->about) : "";
  std::optional<cl::extrahelp> about;
  if (!aboutText.empty())
    about.emplace(aboutText.c_str());
  cl::ParseCommandLineOptions(argc, argv, given ? "" : kOverview);

  std::vector<StringRef> names;
  for (const Subcommand *s : subcommands) {
    if (s->run && s->cmd)
      return s->run();
    names.push_back(s->cmd.getName());
  }
  llvm::sort(names);
  return fail(createStringError(
      "no subcommand given; expected one of: " + join(names, ", ") +
      " (see 'tpuprof-report --help')"));
}
