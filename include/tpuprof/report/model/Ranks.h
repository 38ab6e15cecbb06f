//===- tpuprof/report/model/Ranks.h - One job, merged by rank ---*- C++ -*-===//
//
// The dumps of a distributed job (MPI, torchrun, Slurm: one or more dumps per
// rank, each with its PROCESS section) merged by rank: each rank's rows as
// its own report aggregates them, statistics of every op across the ranks,
// the wait each collective cost each rank and which rank arrived last, the
// ranks' share of communication and computation, and the ranks' clocks
// aligned onto one axis with the alignment's error bound (docs/mpi.md).
//
// Dumps are read in parallel (one task per dump) and dropped once
// aggregated: memory grows with ops x ranks, plus one begin time per
// collective call (what the wait analysis matches across ranks).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_RANKS_H
#define TPUPROF_REPORT_MODEL_RANKS_H

#include "tpuprof/report/model/Aggregate.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tpuprof {
namespace report {

/// How a rank's CLOCK_MONOTONIC maps onto the job's axis (rank 0's, or the
/// lowest rank's, monotonic clock).
struct ClockAlignment {
  enum class Method {
    Reference, ///< The rank whose clock is the axis.
    SameHost,  ///< Shares the reference's host, hence its clock: exact.
    PingPong,  ///< Offsets measured against rank 0 (libtpuprof_mpi).
    HostClock, ///< CLOCK_REALTIME pairs of both hosts: as good as their
               ///< time sync (NTP, PTP), not bounded here.
    None,      ///< No way to align: taken as is.
  };
  Method method = Method::Reference;
  /// offset(t) = offset0 + (t - at0) * drift, for this rank's monotonic t.
  int64_t offset0Ns = 0;
  uint64_t at0Ns = 0;
  double drift = 0; ///< Offset change per ns (ppm = drift * 1e6).
  uint64_t errorNs = 0;
  bool bounded() const {
    return method != Method::HostClock && method != Method::None;
  }
  /// The job-axis time of this rank's monotonic `ns`.
  int64_t toAxis(uint64_t ns) const {
    return int64_t(ns) + offset0Ns +
           int64_t(drift * (double(ns) - double(at0Ns)));
  }
};

/// "reference", "same host", "ping-pong", "host clock", "none".
const char *clockMethodName(ClockAlignment::Method m);

/// One rank: its dumps' identity, totals and clock.
struct RankStats {
  uint32_t rank = 0;
  uint32_t worldSize = 0;
  uint32_t localRank = TPUPROF_RANK_UNKNOWN;
  std::string host, jobId;
  uint32_t pid = 0;
  std::vector<std::string> dumps;
  uint64_t windowNs = 0;  ///< Sum of its dumps' windows.
  uint64_t coveredNs = 0; ///< Its table's Sum (top-level probe time).
  uint64_t computeNs = 0; ///< Top-level time in non-communication probes,
                          ///< less the communication nested in them.
  uint64_t commNs = 0;    ///< Time in communication probes.
  uint64_t waitNs = 0;    ///< Part of commNs spent waiting in collectives
                          ///< for the last rank to arrive.
  /// Time some communication of the rank was in progress: its calls, and
  /// its nonblocking requests from start to completion (CommOverlap).
  uint64_t commInFlightNs = 0;
  /// Part of commInFlightNs during which the rank also computed.
  uint64_t overlapNs = 0;
  uint64_t records = 0;
  ClockAlignment clock;
};

/// One op (by kind, hash and name: its shapes merged) across the ranks.
struct OpAcrossRanks {
  std::string name;
  uint64_t hash = 0;
  uint8_t kind = TPUPROF_KIND_OP;
  bool collective = false;
  std::vector<uint64_t> totalNs; ///< Per rank (JobProfile::ranks order).
  std::vector<uint64_t> calls;   ///< Per rank.
  /// Over the ranks that called it: min, mean, max and standard deviation
  /// of their total time, imbalance = max / mean, and the slowest rank.
  uint32_t ranksCalling = 0;
  double minNs = 0, meanNs = 0, maxNs = 0, stddevNs = 0, imbalance = 0;
  uint32_t slowestRank = 0;
  /// What the slowest rank cost the others: max - mean.
  double lostNs() const { return maxNs - meanNs; }
};

/// One collective's calls matched across ranks (the k-th call of each rank
/// is one instance): per rank, the time it waited for the last arrival.
struct CollectiveWaits {
  std::string name;
  uint64_t hash = 0;
  uint64_t instances = 0;
  std::vector<uint64_t> waitNs;    ///< Per rank.
  std::vector<uint64_t> lastCount; ///< Per rank: instances it arrived last.
  uint32_t straggler = 0;          ///< The rank most often last.
  uint64_t totalWaitNs = 0;
  bool countsDiffer = false; ///< Ranks made different numbers of calls.
};

/// A span of one timeline, [begin, end), in ns.
struct Interval {
  uint64_t begin = 0, end = 0;
};

/// One thread's activity, for the overlap of communication and computation:
/// its computation (records of kinds other than comm), its communication
/// calls, and the lifetimes of its nonblocking requests (RequestPairing).
struct ThreadActivity {
  std::vector<Interval> compute, commCalls, inFlight;
};

/// Pairs a thread's nonblocking calls with the waits that complete them, in
/// call order: a wait completing K requests completes the K oldest ones
/// still open (the records do not say which request a wait names; programs
/// wait for their requests in the order they started them far more often
/// than not). A request is in flight from its call's begin to its wait's
/// end; one never completed in the window is not counted.
class RequestPairing {
public:
  explicit RequestPairing(std::vector<Interval> &inFlight)
      : inFlight(inFlight) {}
  void start(uint64_t beginNs) { open.push_back(beginNs); }
  void complete(uint64_t count, uint64_t endNs);

private:
  std::vector<Interval> &inFlight;
  std::vector<uint64_t> open; ///< Begins of open requests, oldest first.
  size_t oldest = 0;          ///< open[oldest..] are still open.
};

/// Communication against computation on one timeline (HTA's overlap).
struct CommOverlap {
  /// |C|: C = the union over threads of their communication calls and
  /// requests in flight.
  uint64_t inFlightNs = 0;
  /// |P intersected with C|: P = the union over threads of each thread's
  /// computation less its own communication calls (a blocking call inside a
  /// computation is not computation).
  uint64_t overlapNs = 0;
};
CommOverlap measureOverlap(llvm::ArrayRef<ThreadActivity> threads);

/// A job merged by rank.
struct JobProfile {
  std::vector<RankStats> ranks;             ///< By rank.
  std::vector<OpAcrossRanks> ops;           ///< By lostNs, highest first.
  std::vector<CollectiveWaits> collectives; ///< By totalWaitNs, highest first.
  /// The largest error bound of the ranks' alignments; `alignmentBounded`
  /// is false when some rank's alignment has none (host clocks).
  uint64_t alignmentErrorNs = 0;
  bool alignmentBounded = true;
  std::vector<std::string> warnings; ///< One line each.

  /// Index of `rank` in `ranks`, or -1.
  int indexOf(uint32_t rank) const;
  /// The rank with the most computation, and how many times the mean of
  /// the others' it is (0 when it is the only rank).
  std::pair<uint32_t, double> slowestRank() const;
};

struct RankOptions {
  bool overheadCorrection = true;
  /// Ranks to report (empty: all). The merge reads every dump, so the
  /// alignment and the waits do not depend on the choice.
  std::vector<uint32_t> ranks;
  /// Dumps read at once; 0: one per hardware thread.
  unsigned threads = 0;
};

/// Reads the dumps `inputs` name (files, directories, globs:
/// expandDumpPaths) and merges them by rank. Dumps without a rank (no
/// launcher) are ranked by their runs' start order.
llvm::Expected<JobProfile> mergeRanks(llvm::ArrayRef<std::string> inputs,
                                      const RankOptions &opts = {});

/// The clock alignment of each rank among `dumps` (by their PROCESS
/// sections; dumps without a rank are left out), as mergeRanks aligns them:
/// the lowest rank's CLOCK_MONOTONIC is the axis. What the trace uses to put
/// a job's ranks on one time axis.
std::map<uint32_t, ClockAlignment>
alignRanks(llvm::ArrayRef<const DumpInfo *> dumps,
           std::vector<std::string> *warnings = nullptr);

/// Parses a rank list, "0,2-4,7", into its ranks, in order, no repeats.
llvm::Expected<std::vector<uint32_t>> parseRankList(llvm::StringRef list);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_RANKS_H
