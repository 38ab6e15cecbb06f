//===- report/views/Ranks.cpp - A job merged by rank ----------------------===//
//
// views/Ranks.h.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Ranks.h"

#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Terminal.h"
#include "tpuprof/report/views/TextTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <set>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

/// The JSON names of the ranks document (ExportKeys.def).
enum class RanksKey {
#define TPUPROF_RANKS_KEY(PART, KEY, NAME) PART##KEY,
#include "tpuprof/report/ExportKeys.def"
};
constexpr StringLiteral kRanksKeyNames[] = {
#define TPUPROF_RANKS_KEY(PART, KEY, NAME) NAME,
#include "tpuprof/report/ExportKeys.def"
};
StringRef key(RanksKey k) { return kRanksKeyNames[size_t(k)]; }

std::string ms(double ns) { return formatv("{0:F3}", ns / 1e6).str(); }
std::string pct(uint64_t part, uint64_t whole) {
  return whole ? formatv("{0:F1}", 100.0 * double(part) / double(whole)).str()
               : "-";
}

/// "+1.250" or "-0.003": milliseconds with their sign.
std::string signedMs(int64_t ns) {
  return (ns >= 0 ? "+" : "") + formatv("{0:F3}", double(ns) / 1e6).str();
}

std::string describeClock(const ClockAlignment &c) {
  std::string s = clockMethodName(c.method);
  switch (c.method) {
  case ClockAlignment::Method::PingPong:
    s += formatv(" {0} ms, {1:F2} ppm, +/- {2:F1} us", signedMs(c.offset0Ns),
                 c.drift * 1e6, double(c.errorNs) / 1e3)
             .str();
    break;
  case ClockAlignment::Method::HostClock:
    s += formatv(" {0} ms, not bounded", signedMs(c.offset0Ns)).str();
    break;
  default:
    break;
  }
  return s;
}

/// Lines of the summary: the slowest rank, the most imbalanced computation
/// and communication, the most waited-on collective.
void printSummary(const JobProfile &job, raw_ostream &os) {
  os << "Summary\n";
  if (job.ranks.size() > 1) {
    auto [rank, ratio] = job.slowestRank();
    os << formatv("  Slowest rank: {0} (computation {1:F2}x the mean of the "
                  "other ranks)\n",
                  rank, ratio);
  }
  for (bool comm : {false, true}) {
    for (const OpAcrossRanks &op : job.ops) {
      if ((op.kind == TPUPROF_KIND_COMM) != comm || op.ranksCalling < 2)
        continue;
      os << formatv("  Most imbalanced {0}: {1} (imbalance {2:F2}, slowest "
                    "rank {3}, {4} ms over the mean)\n",
                    comm ? "communication" : "computation", printable(op.name),
                    op.imbalance, op.slowestRank, ms(op.lostNs()));
      break;
    }
  }
  for (const CollectiveWaits &cw : job.collectives) {
    int i = job.indexOf(cw.straggler);
    uint64_t last = i >= 0 ? cw.lastCount[size_t(i)] : 0;
    os << formatv("  Straggler in {0}: rank {1}, last to arrive in {2} of {3} "
                  "calls; the ranks waited {4} ms in all\n",
                  printable(cw.name), cw.straggler, last, cw.instances,
                  ms(double(cw.totalWaitNs)));
    break;
  }
  for (const std::string &w : job.warnings)
    os << "  Warning: " << printable(w) << "\n";
}

} // namespace

void tpuprof::report::printRanks(const JobProfile &job, unsigned top,
                                 raw_ostream &os) {
  std::set<std::string> hosts;
  std::set<std::string> jobIds;
  uint32_t world = 0;
  for (const RankStats &r : job.ranks) {
    hosts.insert(r.host.empty() ? "?" : r.host);
    if (!r.jobId.empty())
      jobIds.insert(r.jobId);
    world = std::max(world, r.worldSize);
  }
  os << "Job: " << job.ranks.size() << " rank"
     << (job.ranks.size() == 1 ? "" : "s");
  if (world)
    os << " of " << world;
  os << " on " << hosts.size() << " host" << (hosts.size() == 1 ? "" : "s")
     << " (" << printable(join(hosts, ", ")) << ")";
  if (!jobIds.empty())
    os << ", job " << printable(join(jobIds, ", "));
  os << "\n";
  os << "Clock alignment: ";
  if (!job.alignmentBounded)
    os << "not bounded (some hosts are aligned by their own clocks)\n";
  else
    os << formatv("within {0} us (rank {1}'s CLOCK_MONOTONIC is the axis)\n",
                  formatv("{0:F1}", double(job.alignmentErrorNs) / 1e3),
                  job.ranks.empty() ? 0 : job.ranks[0].rank);
  os << "\n";

  os << "Ranks\n";
  TextTable ranks(2);
  ranks.addColumn("Rank", TextTable::Align::Right);
  ranks.addColumn("Host", TextTable::Align::Left);
  ranks.addColumn("Pid", TextTable::Align::Right);
  for (const char *t :
       {"Window (ms)", "Busy (ms)", "Compute (ms)", "Comm (ms)", "Wait (ms)",
        "Compute %", "Comm %", "Overlap (ms)", "Overlap %", "Records"})
    ranks.addColumn(t, TextTable::Align::Right);
  ranks.addColumn("Clock", TextTable::Align::Left);
  for (const RankStats &r : job.ranks)
    ranks.addRow({utostr(r.rank), printable(r.host), utostr(r.pid),
                  ms(double(r.windowNs)), ms(double(r.coveredNs)),
                  ms(double(r.computeNs)), ms(double(r.commNs)),
                  ms(double(r.waitNs)), pct(r.computeNs, r.windowNs),
                  pct(r.commNs, r.windowNs), ms(double(r.overlapNs)),
                  pct(r.overlapNs, r.commInFlightNs), utostr(r.records),
                  describeClock(r.clock)});
  ranks.print(os);
  os << "\n";

  os << "Ops across ranks (by max - mean: what the slowest rank cost)\n";
  TextTable ops(2);
  ops.addColumn("Op", TextTable::Align::Left);
  ops.addColumn("Kind", TextTable::Align::Left);
  for (const char *t : {"Ranks", "Calls", "Min (ms)", "Mean (ms)", "Max (ms)",
                        "Stddev (ms)", "Imbalance", "Slowest rank"})
    ops.addColumn(t, TextTable::Align::Right);
  unsigned shown = 0;
  for (const OpAcrossRanks &op : job.ops) {
    if (top && shown++ == top) {
      ops.addNote(formatv("({0} more ops)", job.ops.size() - top).str());
      break;
    }
    uint64_t calls = 0;
    for (uint64_t c : op.calls)
      calls += c;
    ops.addRow({printable(op.name), kindName(op.kind).str(),
                utostr(op.ranksCalling), utostr(calls), ms(op.minNs),
                ms(op.meanNs), ms(op.maxNs), ms(op.stddevNs),
                formatv("{0:F2}", op.imbalance).str(), utostr(op.slowestRank)});
  }
  ops.print(os);
  os << "\n";

  if (!job.collectives.empty()) {
    os << "Collectives: time each rank waited for the last to arrive\n";
    TextTable cols(2);
    cols.addColumn("Op", TextTable::Align::Left);
    for (const char *t : {"Calls", "Wait (ms)", "Straggler"})
      cols.addColumn(t, TextTable::Align::Right);
    for (const RankStats &r : job.ranks)
      cols.addColumn(formatv("Rank {0} wait (ms)", r.rank).str(),
                     TextTable::Align::Right);
    cols.addColumn("Last arrivals", TextTable::Align::Left);
    for (const CollectiveWaits &cw : job.collectives) {
      std::vector<std::string> cells = {
          printable(cw.name), utostr(cw.instances), ms(double(cw.totalWaitNs)),
          utostr(cw.straggler)};
      std::string last;
      for (size_t i = 0; i != job.ranks.size(); ++i) {
        cells.push_back(ms(double(cw.waitNs[i])));
        if (cw.lastCount[i])
          last += formatv("{0}rank {1}: {2}", last.empty() ? "" : ", ",
                          job.ranks[i].rank, cw.lastCount[i])
                      .str();
      }
      cells.push_back(last.empty() ? "-" : last);
      cols.addRow(std::move(cells));
    }
    cols.print(os);
    os << "\n";
  }
  printSummary(job, os);
}

void tpuprof::report::writeRanksJson(const JobProfile &job, raw_ostream &os) {
  json::OStream j(os, 1);
  j.object([&] {
    j.attribute(key(RanksKey::JobFormat), "tpuprof-report ranks");
    j.attributeArray(key(RanksKey::JobRanks), [&] {
      for (const RankStats &r : job.ranks)
        j.object([&] {
          j.attribute(key(RanksKey::RankRank), r.rank);
          j.attribute(key(RanksKey::RankWorldSize), r.worldSize);
          if (r.localRank != TPUPROF_RANK_UNKNOWN)
            j.attribute(key(RanksKey::RankLocalRank), r.localRank);
          else
            j.attribute(key(RanksKey::RankLocalRank), nullptr);
          j.attribute(key(RanksKey::RankHost), r.host);
          j.attribute(key(RanksKey::RankJobId), r.jobId);
          j.attribute(key(RanksKey::RankPid), r.pid);
          j.attributeArray(key(RanksKey::RankDumps), [&] {
            for (const std::string &d : r.dumps)
              j.value(d);
          });
          j.attribute(key(RanksKey::RankWindowNs), r.windowNs);
          j.attribute(key(RanksKey::RankCoveredNs), r.coveredNs);
          j.attribute(key(RanksKey::RankComputeNs), r.computeNs);
          j.attribute(key(RanksKey::RankCommNs), r.commNs);
          j.attribute(key(RanksKey::RankWaitNs), r.waitNs);
          j.attribute(key(RanksKey::RankRecords), r.records);
          j.attribute(key(RanksKey::RankClock),
                      clockMethodName(r.clock.method));
          j.attribute(key(RanksKey::RankClockOffsetNs), r.clock.offset0Ns);
          j.attribute(key(RanksKey::RankClockDriftPpm), r.clock.drift * 1e6);
          if (r.clock.bounded())
            j.attribute(key(RanksKey::RankClockErrorNs), r.clock.errorNs);
          else
            j.attribute(key(RanksKey::RankClockErrorNs), nullptr);
          j.attribute(key(RanksKey::RankCommInFlightNs), r.commInFlightNs);
          j.attribute(key(RanksKey::RankOverlapNs), r.overlapNs);
        });
    });
    j.attributeArray(key(RanksKey::JobOps), [&] {
      for (const OpAcrossRanks &op : job.ops)
        j.object([&] {
          j.attribute(key(RanksKey::OpName), op.name);
          j.attribute(key(RanksKey::OpHash), formatv("{0:x16}", op.hash).str());
          j.attribute(key(RanksKey::OpKind), kindName(op.kind).str());
          j.attribute(key(RanksKey::OpCollective), op.collective);
          j.attribute(key(RanksKey::OpRanks), op.ranksCalling);
          j.attribute(key(RanksKey::OpMinNs), op.minNs);
          j.attribute(key(RanksKey::OpMeanNs), op.meanNs);
          j.attribute(key(RanksKey::OpMaxNs), op.maxNs);
          j.attribute(key(RanksKey::OpStddevNs), op.stddevNs);
          j.attribute(key(RanksKey::OpImbalance), op.imbalance);
          j.attribute(key(RanksKey::OpSlowestRank), op.slowestRank);
          j.attributeArray(key(RanksKey::OpPerRank), [&] {
            for (size_t i = 0; i != job.ranks.size(); ++i)
              j.object([&] {
                j.attribute(key(RanksKey::OpRankRank), job.ranks[i].rank);
                j.attribute(key(RanksKey::OpRankCalls), op.calls[i]);
                j.attribute(key(RanksKey::OpRankTotalNs), op.totalNs[i]);
              });
          });
        });
    });
    j.attributeArray(key(RanksKey::JobCollectives), [&] {
      for (const CollectiveWaits &cw : job.collectives)
        j.object([&] {
          j.attribute(key(RanksKey::CollectiveName), cw.name);
          j.attribute(key(RanksKey::CollectiveInstances), cw.instances);
          j.attribute(key(RanksKey::CollectiveTotalWaitNs), cw.totalWaitNs);
          j.attribute(key(RanksKey::CollectiveStraggler), cw.straggler);
          j.attributeArray(key(RanksKey::CollectivePerRank), [&] {
            for (size_t i = 0; i != job.ranks.size(); ++i)
              j.object([&] {
                j.attribute(key(RanksKey::CollectiveRankRank),
                            job.ranks[i].rank);
                j.attribute(key(RanksKey::CollectiveRankWaitNs), cw.waitNs[i]);
                j.attribute(key(RanksKey::CollectiveRankLastArrivals),
                            cw.lastCount[i]);
              });
          });
        });
    });
    j.attribute(key(RanksKey::JobAlignmentErrorNs), job.alignmentErrorNs);
    j.attribute(key(RanksKey::JobAlignmentBounded), job.alignmentBounded);
    if (job.ranks.size() > 1)
      j.attribute(key(RanksKey::JobSlowestRank), job.slowestRank().first);
    else
      j.attribute(key(RanksKey::JobSlowestRank), nullptr);
    j.attributeArray(key(RanksKey::JobWarnings), [&] {
      for (const std::string &w : job.warnings)
        j.value(w);
    });
  });
  os << "\n";
}

void tpuprof::report::writeRanksCsv(const JobProfile &job, raw_ostream &os) {
  os << "rank,host,op,kind,collective,calls,total_ns,wait_ns\n";
  for (const OpAcrossRanks &op : job.ops)
    for (size_t i = 0; i != job.ranks.size(); ++i) {
      if (!op.calls[i])
        continue;
      uint64_t wait = 0;
      for (const CollectiveWaits &cw : job.collectives)
        if (cw.hash == op.hash && op.kind == TPUPROF_KIND_COMM)
          wait = cw.waitNs[i];
      os << job.ranks[i].rank << ',' << csvField(job.ranks[i].host) << ','
         << csvField(op.name) << ',' << kindName(op.kind).str() << ','
         << (op.collective ? 1 : 0) << ',' << op.calls[i] << ','
         << op.totalNs[i] << ',' << wait << '\n';
    }
}
