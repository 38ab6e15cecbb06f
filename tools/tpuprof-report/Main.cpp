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

#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/views/Sqlite.h"
#include "tpuprof/report/views/Workbook.h"

#include "llvm/ADT/StringExtras.h"
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
  // libLLVM registers many options of its own; show only ours in --help.
  std::vector<const cl::OptionCategory *> categories = {&commonOptions};
  for (const Subcommand *s : subcommands)
    if (s->options)
      categories.push_back(s->options);
  // LLVM's own --color is ours too (useColour()): list it with the rest.
  if (cl::Option *colour = cl::getRegisteredOptions().lookup("color"))
    colour->addCategory(commonOptions);
  cl::HideUnrelatedOptions(categories);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tpuprof-report (tpuprof " TPUPROF_VERSION ")\n";
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
