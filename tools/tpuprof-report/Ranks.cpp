//===- tools/tpuprof-report/Ranks.cpp - `tpuprof-report ranks` ------------===//
//
// A distributed job's dumps merged by rank (views/Ranks.h, docs/mpi.md).
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "tpuprof/report/views/Otf2.h"
#include "tpuprof/report/views/Ranks.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::reporttool;

namespace {

cl::OptionCategory options("ranks options");

cl::SubCommand ranksCmd("ranks",
                        "A job's dumps merged by rank: ops across ranks, "
                        "collective waits, the slow rank");

const char *const kAbout =
    "Merges the dumps of a distributed job (MPI, torchrun, Slurm: each dump\n"
    "says its rank) by rank: per-rank computation and communication, each\n"
    "op's min/mean/max/stddev across ranks and its imbalance (max/mean), the\n"
    "time each rank waited in each collective for the last to arrive, and a\n"
    "summary naming the slowest rank and the worst ops. Clocks of different\n"
    "hosts are aligned by the offsets libtpuprof_mpi measured.\n\nExamples:\n"
    "  tpuprof-report ranks job/\n"
    "  tpuprof-report ranks --ranks 0-3 --format json -o job.json job/\n"
    "  tpuprof-report ranks 'host*/tpuprof_data_dev0-rank*'\n"
    "  tpuprof-report ranks --otf2 job.otf2 job/ && otf2-print "
    "job.otf2/traces.otf2\n";

cl::list<std::string> ranksDumps(cl::Positional, cl::OneOrMore,
                                 cl::desc("<dump file, directory or glob>..."),
                                 cl::sub(ranksCmd), cl::cat(options));
cl::opt<std::string> ranksFormat("format",
                                 cl::desc("text (default), json or csv"),
                                 cl::value_desc("FORMAT"), cl::init("text"),
                                 cl::sub(ranksCmd), cl::cat(options));
cl::opt<unsigned> ranksTop("top",
                           cl::desc("Ops shown in the text (default: 20; 0: "
                                    "all)"),
                           cl::value_desc("N"), cl::init(20), cl::sub(ranksCmd),
                           cl::cat(options));
cl::opt<unsigned> ranksJobs("jobs",
                            cl::desc("Dumps read at once (default: one per "
                                     "hardware thread)"),
                            cl::value_desc("N"), cl::init(0), cl::sub(ranksCmd),
                            cl::cat(options));

cl::opt<std::string>
    ranksOtf2("otf2",
              cl::desc("Also write the job's records as an OTF2 archive in "
                       "DIR (new), for Vampir and otf2-print"),
              cl::value_desc("DIR"), cl::sub(ranksCmd), cl::cat(options));

int runRanks() {
  if (ranksFormat != "text" && ranksFormat != "json" && ranksFormat != "csv")
    return fail(createStringError("--format " + ranksFormat +
                                  ": not text, json or csv"));
  Expected<std::vector<uint32_t>> ranks = rankFilter();
  if (!ranks)
    return fail(ranks.takeError());
  RankOptions opts;
  opts.ranks = std::move(*ranks);
  opts.threads = ranksJobs;
  opts.overheadCorrection = overheadCorrection();
  Expected<JobProfile> job = mergeRanks(ranksDumps, opts);
  if (!job)
    return fail(job.takeError());
  if (!ranksOtf2.empty()) {
    Expected<Otf2Summary> written = writeOtf2(*job, ranksOtf2);
    if (!written)
      return fail(written.takeError());
    errs() << "tpuprof-report: wrote " << written->anchor << " ("
           << job->ranks.size() << " ranks, " << written->locations
           << " locations, " << written->events << " events)\n";
  }
  return withOutput([&](raw_ostream &o) {
    if (ranksFormat == "json")
      writeRanksJson(*job, o);
    else if (ranksFormat == "csv")
      writeRanksCsv(*job, o);
    else
      printRanks(*job, ranksTop, o);
    return Error::success();
  });
}

Subcommand registration(ranksCmd, options, kAbout, runRanks);

} // namespace
