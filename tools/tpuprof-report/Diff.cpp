//===- tools/tpuprof-report/Diff.cpp - `tpuprof-report diff` --------------===//
//
// Two runs compared (views/Diff.h).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Diff.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("diff options");

cl::SubCommand
    diffCmd("diff",
            "Compare two runs per (op hash, shapes); --fail-above for CI");

/// What `tpuprof-report diff --help` says after the options.
const char *const kAbout =
    "Two runs compared per (op hash, shapes): time, delta and status of\n"
    "each op; with --fail-above, a regression check for CI. Each side must\n"
    "be one run (--run N picks one, --merge-runs adds them up).\n\nExamples:\n"
    "  tpuprof-report diff before/ after/\n"
    "  tpuprof-report diff --fail-above 10 --min-time 5 base.json run/\n";
cl::list<std::string> diffInputs(cl::Positional, cl::OneOrMore,
                                 cl::desc("<A> <B> (dump, directory or .json)"),
                                 cl::sub(diffCmd), cl::cat(options));
cl::opt<double> diffFailAbove(
    "fail-above",
    cl::desc("Exit 1 when an op got slower by more than PCT percent "
             "(default: never)"),
    cl::value_desc("PCT"), cl::init(-1), cl::sub(diffCmd), cl::cat(options));
cl::opt<double> diffMinTime(
    "min-time",
    cl::desc("Ops under US microseconds in both runs never fail (default: "
             "0)"),
    cl::value_desc("US"), cl::init(0), cl::sub(diffCmd), cl::cat(options));
cl::opt<unsigned>
    diffTop("top", cl::desc("Print only the first N rows (default: 0, all)"),
            cl::value_desc("N"), cl::init(0), cl::sub(diffCmd),
            cl::cat(options));

int runDiff() {
  if (diffInputs.size() != 2)
    return fail(createStringError("diff takes two runs (A B), got " +
                                  Twine(diffInputs.size())));
  Expected<Input> a = load({diffInputs[0]});
  if (!a)
    return fail(a.takeError());
  Expected<Input> b = load({diffInputs[1]});
  if (!b)
    return fail(b.takeError());
  DiffOptions opts;
  opts.failAbovePct = diffFailAbove;
  opts.minTimeNs = uint64_t(diffMinTime * 1000.0);
  opts.top = diffTop;
  bool regressed = false;
  int rc = withOutput([&](raw_ostream &o) -> Error {
    Expected<bool> r = printDiff(*a, *b, opts, o);
    if (!r)
      return r.takeError();
    regressed = *r;
    return Error::success();
  });
  return rc ? rc : regressed ? 1 : 0;
}

Subcommand registration(diffCmd, options, kAbout, runDiff);

} // namespace
