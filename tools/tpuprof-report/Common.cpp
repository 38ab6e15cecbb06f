//===- tools/tpuprof-report/Common.cpp - What subcommands share -----------===//

#include "Subcommand.h"

#include "tpuprof/report/model/Ranks.h"
#include "tpuprof/report/views/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

#include <cstdlib>
#include <vector>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {
/// Function-local, so that registration works whatever the order in which
/// the subcommands' files are initialized.
std::vector<const Subcommand *> &registry() {
  static std::vector<const Subcommand *> list;
  return list;
}
} // namespace

cl::OptionCategory tpuprof::reporttool::commonOptions("common options");

namespace {
cl::opt<unsigned> runOption(
    "run",
    cl::desc("Report run N alone (1-based, in the order the runs started; "
             "default: every run, kept apart)"),
    cl::value_desc("N"), cl::init(0), cl::sub(cl::SubCommand::getAll()),
    cl::cat(tpuprof::reporttool::commonOptions));
cl::opt<bool> mergeRunsOption(
    "merge-runs",
    cl::desc("Add the rows of all runs up, as one (default: runs are kept "
             "apart, one section each)"),
    cl::sub(cl::SubCommand::getAll()),
    cl::cat(tpuprof::reporttool::commonOptions));
// Every view: subtract the runtime's measured probe cost (Correction.h).
cl::opt<bool> noOverheadCorrection(
    "no-overhead-correction",
    cl::desc("Report raw probe intervals: do not subtract the probe cost the "
             "runtime measured at window start"),
    cl::sub(cl::SubCommand::getAll()),
    cl::cat(tpuprof::reporttool::commonOptions));
cl::list<unsigned> rankOption(
    "rank",
    cl::desc("Report the dumps of rank N alone (repeatable; a job's dumps "
             "carry their rank: docs/mpi.md)"),
    cl::value_desc("N"), cl::sub(cl::SubCommand::getAll()),
    cl::cat(tpuprof::reporttool::commonOptions));
cl::opt<std::string>
    ranksOption("ranks",
                cl::desc("Report the dumps of these ranks alone, e.g. 0,2-3"),
                cl::value_desc("LIST"), cl::sub(cl::SubCommand::getAll()),
                cl::cat(tpuprof::reporttool::commonOptions));
} // namespace

bool tpuprof::reporttool::overheadCorrection() { return !noOverheadCorrection; }

Expected<std::vector<uint32_t>> tpuprof::reporttool::rankFilter() {
  std::vector<uint32_t> ranks;
  if (!ranksOption.empty()) {
    Expected<std::vector<uint32_t>> list = parseRankList(ranksOption);
    if (!list)
      return createStringError("--ranks " + toString(list.takeError()));
    ranks = std::move(*list);
  }
  for (unsigned r : rankOption)
    if (!is_contained(ranks, r))
      ranks.push_back(r);
  return ranks;
}

cl::opt<std::string> tpuprof::reporttool::outputPath(
    "o",
    cl::desc("Write the output to FILE (default: -, stdout; bundle: the "
             "directory to write)"),
    cl::value_desc("FILE"), cl::init("-"), cl::sub(cl::SubCommand::getAll()),
    cl::cat(commonOptions));

Subcommand::Subcommand(cl::SubCommand &cmd, cl::OptionCategory &options,
                       const char *about, int (*run)())
    : cmd(cmd), options(&options), about(about), run(run) {
  registry().push_back(this);
}

Subcommand::Subcommand(cl::SubCommand &cmd, int (*exec)(int, char **))
    : cmd(cmd), exec(exec) {
  registry().push_back(this);
}

ArrayRef<const Subcommand *> Subcommand::all() { return registry(); }

bool tpuprof::reporttool::showProgress() {
  return sys::Process::StandardErrIsDisplayed();
}

Expected<Input> tpuprof::reporttool::load(ArrayRef<std::string> inputs,
                                          bool rows) {
  if (runOption && mergeRunsOption)
    return createStringError("--run and --merge-runs exclude each other");
  LoadOptions opts;
  opts.rows = rows;
  opts.progress = showProgress();
  opts.run = runOption;
  opts.mergeRuns = mergeRunsOption;
  opts.overheadCorrection = !noOverheadCorrection;
  Expected<std::vector<uint32_t>> ranks = rankFilter();
  if (!ranks)
    return ranks.takeError();
  opts.ranks = std::move(*ranks);
  return loadInput(inputs, opts);
}

int tpuprof::reporttool::fail(Error err) {
  WithColor::error(errs(), "tpuprof-report")
      << toString(std::move(err)) << '\n';
  return 1;
}

int tpuprof::reporttool::withOutput(function_ref<Error(raw_ostream &)> fn) {
  if (Error err = writeStreamAtomically(outputPath, fn))
    return fail(std::move(err));
  return 0;
}
