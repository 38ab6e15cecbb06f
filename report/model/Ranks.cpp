//===- report/model/Ranks.cpp - One job, merged by rank -------------------===//
//
// model/Ranks.h. Each dump is one task: validate, aggregate (the same
// Aggregator every view uses, so a rank's figures are its own report's),
// and note the begin of every collective call. The tasks' results then
// fold by rank, the clocks are aligned, and the collectives are matched.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Ranks.h"

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/Walk.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

const char *tpuprof::report::clockMethodName(ClockAlignment::Method m) {
  switch (m) {
  case ClockAlignment::Method::Reference:
    return "reference";
  case ClockAlignment::Method::SameHost:
    return "same host";
  case ClockAlignment::Method::PingPong:
    return "ping-pong";
  case ClockAlignment::Method::HostClock:
    return "host clock";
  case ClockAlignment::Method::None:
    return "none";
  }
  return "none";
}

int JobProfile::indexOf(uint32_t rank) const {
  for (size_t i = 0; i != ranks.size(); ++i)
    if (ranks[i].rank == rank)
      return int(i);
  return -1;
}

std::pair<uint32_t, double> JobProfile::slowestRank() const {
  if (ranks.empty())
    return {0, 0};
  size_t worst = 0;
  for (size_t i = 1; i != ranks.size(); ++i)
    if (ranks[i].computeNs > ranks[worst].computeNs)
      worst = i;
  if (ranks.size() == 1)
    return {ranks[worst].rank, 0};
  double others = 0;
  for (size_t i = 0; i != ranks.size(); ++i)
    if (i != worst)
      others += double(ranks[i].computeNs);
  others /= double(ranks.size() - 1);
  return {ranks[worst].rank,
          others > 0 ? double(ranks[worst].computeNs) / others : 0};
}

Expected<std::vector<uint32_t>> tpuprof::report::parseRankList(StringRef list) {
  std::vector<uint32_t> out;
  auto bad = [&](StringRef what) {
    return createStringError("'" + list + "' is not a rank list (" + what +
                             "; e.g. 0,2-4,7)");
  };
  if (list.trim().empty())
    return bad("empty");
  SmallVector<StringRef, 8> items;
  list.split(items, ',');
  for (StringRef item : items) {
    item = item.trim();
    auto [lo, hi] = item.split('-');
    uint32_t a = 0, b = 0;
    if (lo.trim().getAsInteger(10, a))
      return bad("'" + item.str() + "'");
    b = a;
    if (item.contains('-') && hi.trim().getAsInteger(10, b))
      return bad("'" + item.str() + "'");
    if (b < a)
      return bad("'" + item.str() + "' runs backwards");
    if (b - a > 1000000)
      return bad("'" + item.str() + "' is too long a range");
    for (uint64_t r = a; r <= b; ++r)
      if (!is_contained(out, uint32_t(r)))
        out.push_back(uint32_t(r));
  }
  return out;
}

void RequestPairing::complete(uint64_t count, uint64_t endNs) {
  for (; count && oldest != open.size(); --count, ++oldest)
    inFlight.push_back({open[oldest], std::max(open[oldest], endNs)});
  if (oldest == open.size()) { // Keep the queue as small as what is open.
    open.clear();
    oldest = 0;
  }
}

namespace {

/// `spans` sorted by begin, overlapping and touching ones joined, empty
/// ones dropped.
std::vector<Interval> unionOf(std::vector<Interval> spans) {
  llvm::sort(spans, [](const Interval &a, const Interval &b) {
    return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
  });
  std::vector<Interval> out;
  for (const Interval &s : spans) {
    if (s.end <= s.begin)
      continue;
    if (!out.empty() && s.begin <= out.back().end)
      out.back().end = std::max(out.back().end, s.end);
    else
      out.push_back(s);
  }
  return out;
}

/// a intersected with b, both unions (unionOf).
std::vector<Interval> intersect(ArrayRef<Interval> a, ArrayRef<Interval> b) {
  std::vector<Interval> out;
  for (size_t i = 0, j = 0; i != a.size() && j != b.size();) {
    uint64_t lo = std::max(a[i].begin, b[j].begin);
    uint64_t hi = std::min(a[i].end, b[j].end);
    if (lo < hi)
      out.push_back({lo, hi});
    (a[i].end < b[j].end ? i : j)++;
  }
  return out;
}

/// a less b, both unions.
std::vector<Interval> subtract(ArrayRef<Interval> a, ArrayRef<Interval> b) {
  std::vector<Interval> out;
  size_t j = 0;
  for (Interval s : a) {
    while (j != b.size() && b[j].end <= s.begin)
      ++j;
    for (size_t k = j; k != b.size() && b[k].begin < s.end; ++k) {
      if (b[k].begin > s.begin)
        out.push_back({s.begin, b[k].begin});
      s.begin = std::max(s.begin, b[k].end);
    }
    if (s.begin < s.end)
      out.push_back(s);
  }
  return out;
}

uint64_t lengthOf(ArrayRef<Interval> spans) {
  uint64_t n = 0;
  for (const Interval &s : spans)
    n += s.end - s.begin;
  return n;
}

} // namespace

CommOverlap tpuprof::report::measureOverlap(ArrayRef<ThreadActivity> threads) {
  std::vector<Interval> compute, comm;
  for (const ThreadActivity &t : threads) {
    std::vector<Interval> calls = unionOf(t.commCalls);
    append_range(compute, subtract(unionOf(t.compute), calls));
    append_range(comm, calls);
    append_range(comm, t.inFlight);
  }
  CommOverlap o;
  comm = unionOf(std::move(comm));
  o.inFlightNs = lengthOf(comm);
  o.overlapNs = lengthOf(intersect(unionOf(std::move(compute)), comm));
  return o;
}

namespace {

/// What one dump contributes.
struct DumpPart {
  std::string path;
  DumpInfo info;
  Profile profile;
  /// Per collective probe (by hash): its name and the absolute monotonic
  /// ns of each call's begin, in time order.
  std::map<uint64_t, std::pair<std::string, std::vector<uint64_t>>>
      collectiveBegins;
  /// Hashes of its collective communication probes.
  std::set<uint64_t> collectiveHashes;
  CommOverlap overlap;
};

/// Adds `s` to `spans`, a union being built from spans that arrive mostly
/// in end order (a thread's records, children before their parents): `s`
/// joins the last spans it overlaps or touches, so nested and adjoining
/// records take one entry. Spans out of order are kept as they are; unionOf
/// sorts them later.
void addToUnion(std::vector<Interval> &spans, Interval s) {
  while (!spans.empty() && spans.back().end >= s.begin &&
         spans.back().begin <= s.end) {
    s = {std::min(s.begin, spans.back().begin),
         std::max(s.end, spans.back().end)};
    spans.pop_back();
  }
  spans.push_back(s);
}

Expected<DumpPart> readPart(const std::string &path, bool correction) {
  // Streaming: the records are read from the file a chunk at a time, so a
  // reading thread holds rows, not records, whatever the dump's size.
  Expected<DumpReader> reader = DumpReader::openStreaming(path);
  if (!reader)
    return reader.takeError();
  DumpPart part;
  part.path = path;
  part.info = reader->info();
  Aggregator agg(correction);
  agg.add(*reader);
  part.profile = agg.take();
  bool anyComm = false;
  for (const Module &m : reader->modules())
    for (const Probe &p : m.table.probes)
      if (p.kind == TPUPROF_KIND_COMM) {
        anyComm = true;
        if (p.collective)
          part.collectiveHashes.insert(p.hash);
      }
  // Without communication there is nothing to match or overlap.
  if (!anyComm)
    return std::move(part);
  // An unfinished record lasts to its window's end.
  auto spanOf = [&](const RecordView &r) {
    Interval span{
        absoluteNs(part.info, r.begin),
        absoluteNs(part.info, r.isFinished() ? r.end : part.info.windowEnd)};
    span.end = std::max(span.begin, span.end);
    return span;
  };
  // First the communication (one span per call or request), then only the
  // part of the computation that falls inside it: the overlap is the same
  // (P - calls) intersected with C = ((P within C) - calls) within C, and
  // memory grows with communication, not with every record.
  std::vector<ThreadActivity> activity;
  for (const ThreadInfo &t : reader->threads()) {
    ThreadActivity &a = activity.emplace_back();
    RequestPairing requests(a.inFlight);
    reader->forEachRecord(t, [&](const RecordView &r) {
      const Probe *p = reader->findProbe(r.probe);
      if (!p || p->kind != TPUPROF_KIND_COMM)
        return;
      Interval span = spanOf(r);
      a.commCalls.push_back(span);
      if (p->startsRequest)
        requests.start(span.begin);
      if (p->completesRequests)
        requests.complete(
            r.numDims ? uint64_t(std::max<int64_t>(0, r.dim(0))) : 1, span.end);
      // A nonblocking collective's begin is no arrival: the rank goes on.
      if (!p->collective || p->startsRequest)
        return;
      auto &slot = part.collectiveBegins[p->hash];
      if (slot.first.empty())
        slot.first = p->name.str();
      slot.second.push_back(span.begin);
    });
  }
  std::vector<Interval> comm;
  for (const ThreadActivity &a : activity) {
    append_range(comm, a.commCalls);
    append_range(comm, a.inFlight);
  }
  comm = unionOf(std::move(comm));
  size_t ti = 0;
  for (const ThreadInfo &t : reader->threads()) {
    ThreadActivity &a = activity[ti++];
    reader->forEachRecord(t, [&](const RecordView &r) {
      const Probe *p = reader->findProbe(r.probe);
      if (!p || p->kind == TPUPROF_KIND_COMM)
        return;
      Interval span = spanOf(r);
      auto it = llvm::upper_bound(
          comm, span.begin,
          [](uint64_t v, const Interval &c) { return v < c.end; });
      for (; it != comm.end() && it->begin < span.end; ++it) {
        Interval in{std::max(span.begin, it->begin),
                    std::min(span.end, it->end)};
        if (in.begin < in.end)
          addToUnion(a.compute, in);
      }
    });
  }
  part.overlap = measureOverlap(activity);
  for (auto &entry : part.collectiveBegins)
    llvm::sort(entry.second.second);
  return std::move(part);
}

/// The dump of a rank whose PROCESS section says most about its clock:
/// the most ping-pong measurements, then the latest.
const DumpInfo::ProcessInfo *bestProcess(ArrayRef<const DumpInfo *> dumps) {
  const DumpInfo::ProcessInfo *best = nullptr;
  int bestScore = -1;
  for (const DumpInfo *d : dumps) {
    if (!d->hasProcess)
      continue;
    int score = 0;
    for (const auto &o : d->process.offsets)
      score += o.measured();
    if (score >= bestScore) {
      best = &d->process;
      bestScore = score;
    }
  }
  return best;
}

const DumpInfo::ProcessInfo *bestProcess(ArrayRef<const DumpPart *> parts) {
  std::vector<const DumpInfo *> infos;
  for (const DumpPart *p : parts)
    infos.push_back(&p->info);
  return bestProcess(ArrayRef<const DumpInfo *>(infos));
}

/// Aligns `proc`'s clock onto the axis of `ref` (the reference rank's
/// process), preferring the exact (same host), then the measured
/// (ping-pong), then the hosts' own (realtime pairs).
ClockAlignment align(const DumpInfo::ProcessInfo *proc,
                     const DumpInfo::ProcessInfo *ref, bool isRef,
                     std::vector<std::string> &warnings, uint32_t rank) {
  ClockAlignment a;
  if (isRef) {
    a.method = ClockAlignment::Method::Reference;
    return a;
  }
  if (!proc || !ref) {
    a.method = ClockAlignment::Method::None;
    return a;
  }
  const auto &o0 = proc->offsets[TPUPROF_OFFSET_INIT];
  const auto &o1 = proc->offsets[TPUPROF_OFFSET_FINALIZE];
  const auto &r0 = ref->offsets[TPUPROF_OFFSET_INIT];
  bool pingPong = o0.measured() || o1.measured();
  if (!proc->host.empty() && proc->host == ref->host) {
    a.method = ClockAlignment::Method::SameHost; // Offset 0, exactly.
    for (const auto *o : {&o0, &o1})
      if (o->measured() &&
          uint64_t(std::llabs(o->offsetNs)) > o->errorNs + 1000000 /* 1 ms */)
        warnings.push_back(formatv("rank {0} shares host {1} with the "
                                   "reference, but its ping-pong offset is "
                                   "{2} ns (+/- {3} ns): the clocks are "
                                   "taken as shared",
                                   rank, proc->host, o->offsetNs, o->errorNs)
                               .str());
    return a;
  }
  if (pingPong) {
    a.method = ClockAlignment::Method::PingPong;
    // The ping-pong measures against rank 0; a reference other than rank
    // 0 has offsets of its own, which the axis subtracts.
    int64_t refOffset = r0.measured() ? r0.offsetNs : 0;
    if (o0.measured() && o1.measured() && o1.atNs > o0.atNs) {
      a.offset0Ns = o0.offsetNs - refOffset;
      a.at0Ns = o0.atNs;
      a.drift = double(o1.offsetNs - o0.offsetNs) / double(o1.atNs - o0.atNs);
      a.errorNs = std::max(o0.errorNs, o1.errorNs);
    } else {
      const auto &o = o0.measured() ? o0 : o1;
      a.offset0Ns = o.offsetNs - refOffset;
      a.at0Ns = o.atNs;
      a.errorNs = o.errorNs;
    }
    return a;
  }
  if (proc->realtimeNs0 && ref->realtimeNs0) {
    a.method = ClockAlignment::Method::HostClock;
    // realtime - monotonic of each host, at the window's begin (and end):
    // their difference maps one monotonic clock onto the other.
    auto base = [](uint64_t rt, uint64_t mono) {
      return int64_t(rt) - int64_t(mono);
    };
    int64_t refBase = base(ref->realtimeNs0, ref->monotonicNs0);
    a.offset0Ns = base(proc->realtimeNs0, proc->monotonicNs0) - refBase;
    a.at0Ns = proc->monotonicNs0;
    if (proc->realtimeNs1 && proc->monotonicNs1 > proc->monotonicNs0) {
      int64_t end = base(proc->realtimeNs1, proc->monotonicNs1) - refBase;
      a.drift = double(end - a.offset0Ns) /
                double(proc->monotonicNs1 - proc->monotonicNs0);
    }
    return a;
  }
  a.method = ClockAlignment::Method::None;
  warnings.push_back(formatv("rank {0}: no clock pairs or offsets; its times "
                             "are taken as they are",
                             rank)
                         .str());
  return a;
}

} // namespace

std::map<uint32_t, ClockAlignment>
tpuprof::report::alignRanks(ArrayRef<const DumpInfo *> dumps,
                            std::vector<std::string> *warnings) {
  std::map<uint32_t, std::vector<const DumpInfo *>> byRank;
  for (const DumpInfo *d : dumps)
    if (d->hasProcess && d->process.ranked())
      byRank[d->process.rank].push_back(d);
  std::map<uint32_t, ClockAlignment> out;
  if (byRank.empty())
    return out;
  uint32_t reference = byRank.begin()->first;
  const DumpInfo::ProcessInfo *ref = bestProcess(byRank.begin()->second);
  std::vector<std::string> unused;
  for (auto &[rank, list] : byRank)
    out[rank] = align(bestProcess(list), ref, rank == reference,
                      warnings ? *warnings : unused, rank);
  return out;
}

Expected<JobProfile> tpuprof::report::mergeRanks(ArrayRef<std::string> inputs,
                                                 const RankOptions &opts) {
  Expected<std::vector<std::string>> files = expandDumpPaths(inputs);
  if (!files)
    return files.takeError();

  // 1. Every dump, in parallel; the first error (in file order) wins.
  std::vector<std::optional<DumpPart>> parts(files->size());
  std::vector<std::string> errors(files->size());
  {
    unsigned threads =
        opts.threads
            ? opts.threads
            : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
    threads = std::min<unsigned>(threads, std::max<size_t>(1, files->size()));
    DefaultThreadPool pool(hardware_concurrency(threads));
    for (size_t i = 0; i != files->size(); ++i)
      pool.async([&, i] {
        Expected<DumpPart> p = readPart((*files)[i], opts.overheadCorrection);
        if (p)
          parts[i] = std::move(*p);
        else
          errors[i] = toString(p.takeError());
      });
    pool.wait();
  }
  for (const std::string &e : errors)
    if (!e.empty())
      return createStringError(e);

  // 2. Ranks: from the PROCESS sections; dumps without one are ranked by
  //    their runs' start order, after the ranked ones.
  JobProfile job;
  std::map<uint32_t, std::vector<const DumpPart *>> byRank;
  std::map<RunId, std::vector<const DumpPart *>> unranked;
  for (const auto &p : parts) {
    if (p->info.hasProcess && p->info.process.ranked())
      byRank[p->info.process.rank].push_back(&*p);
    else
      unranked[RunId{p->info.pid, p->info.calibNs0}].push_back(&*p);
  }
  if (!unranked.empty() && !byRank.empty())
    job.warnings.push_back(
        formatv("{0} process(es) without a rank: numbered after rank {1}",
                unranked.size(), byRank.rbegin()->first)
            .str());
  uint32_t next = byRank.empty() ? 0 : byRank.rbegin()->first + 1;
  for (auto &entry : unranked)
    byRank[next++] = entry.second;

  // 3. Each rank's totals, from its dumps' aggregation.
  std::vector<Profile> rankProfiles;
  for (auto &[rank, list] : byRank) {
    RankStats rs;
    rs.rank = rank;
    Profile merged;
    std::set<RunId> runs;
    for (const DumpPart *p : list) {
      rs.dumps.push_back(p->path);
      runs.insert(RunId{p->info.pid, p->info.calibNs0});
      if (p->info.hasProcess) {
        const auto &pi = p->info.process;
        rs.worldSize = pi.worldSize;
        rs.localRank = pi.localRank;
        rs.host = pi.host;
        rs.jobId = pi.jobId;
      }
      rs.pid = p->info.pid;
      rs.commInFlightNs += p->overlap.inFlightNs;
      rs.overlapNs += p->overlap.overlapNs;
      mergeProfile(merged, p->profile);
      for (const DumpSummary &d : p->profile.dumps) {
        rs.windowNs += d.windowNs;
        rs.coveredNs += d.coveredNs;
        rs.records += d.records;
        for (const ThreadSummary &t : d.threadStats)
          for (uint32_t k = 0; k != TPUPROF_KIND_BUCKETS; ++k)
            (k == TPUPROF_KIND_COMM ? rs.commNs : rs.computeNs) += t.busyNs[k];
      }
    }
    if (runs.size() > 1)
      job.warnings.push_back(
          formatv("rank {0}: dumps of {1} processes (several jobs in one "
                  "directory?)",
                  rank, runs.size())
              .str());
    // Communication nested in computation (an MPI call inside an annotated
    // function) is communication, not computation.
    uint64_t commAll = 0;
    for (const Row &r : merged.rows)
      if (r.kind == TPUPROF_KIND_COMM)
        commAll += r.durationNs;
    uint64_t nested = commAll > rs.commNs ? commAll - rs.commNs : 0;
    rs.computeNs -= std::min(rs.computeNs, nested);
    rs.commNs = commAll;
    job.ranks.push_back(std::move(rs));
    rankProfiles.push_back(std::move(merged));
  }

  // 4. Clocks: the lowest rank is the axis.
  const size_t n = job.ranks.size();
  std::vector<const DumpInfo::ProcessInfo *> procs;
  for (auto &[rank, list] : byRank)
    procs.push_back(bestProcess(list));
  for (size_t i = 0; i != n; ++i) {
    job.ranks[i].clock = align(procs[i], procs.empty() ? nullptr : procs[0],
                               i == 0, job.warnings, job.ranks[i].rank);
    const ClockAlignment &c = job.ranks[i].clock;
    job.alignmentErrorNs = std::max(job.alignmentErrorNs, c.errorNs);
    job.alignmentBounded &= c.bounded();
  }

  // 5. Ops across ranks, keyed by (kind, hash, name): shapes merge.
  std::map<std::tuple<uint8_t, uint64_t, std::string>, size_t> opIndex;
  for (size_t i = 0; i != n; ++i)
    for (const Row &r : rankProfiles[i].rows) {
      auto [it, inserted] =
          opIndex.try_emplace({r.kind, r.hash, r.name}, job.ops.size());
      if (inserted) {
        OpAcrossRanks op;
        op.name = r.name;
        op.hash = r.hash;
        op.kind = r.kind;
        op.totalNs.assign(n, 0);
        op.calls.assign(n, 0);
        job.ops.push_back(std::move(op));
      }
      OpAcrossRanks &op = job.ops[it->second];
      op.totalNs[i] += r.durationNs;
      op.calls[i] += r.count;
    }
  for (auto &[rank, list] : byRank)
    for (const DumpPart *p : list)
      for (uint64_t hash : p->collectiveHashes)
        for (OpAcrossRanks &op : job.ops)
          if (op.hash == hash && op.kind == TPUPROF_KIND_COMM)
            op.collective = true;
  // 6. Collectives: the k-th call of each rank is one instance; each rank
  //    waits from its arrival until the last one's, on the aligned axis.
  std::map<uint64_t, std::pair<std::string, std::vector<std::vector<int64_t>>>>
      arrivals;
  size_t idx = 0;
  for (auto &[rank, list] : byRank) {
    for (const DumpPart *p : list)
      for (auto &[hash, entry] : p->collectiveBegins) {
        auto &slot = arrivals[hash];
        slot.first = entry.first;
        slot.second.resize(n);
        for (uint64_t ns : entry.second)
          slot.second[idx].push_back(job.ranks[idx].clock.toAxis(ns));
      }
    ++idx;
  }
  for (auto &[hash, entry] : arrivals) {
    auto &perRank = entry.second;
    CollectiveWaits cw;
    cw.name = entry.first;
    cw.hash = hash;
    cw.waitNs.assign(n, 0);
    cw.lastCount.assign(n, 0);
    size_t calls = SIZE_MAX, most = 0;
    for (auto &v : perRank) {
      llvm::sort(v);
      if (!v.empty()) {
        calls = std::min(calls, v.size());
        most = std::max(most, v.size());
      }
    }
    if (calls == SIZE_MAX)
      continue;
    cw.countsDiffer = calls != most;
    if (cw.countsDiffer)
      job.warnings.push_back(
          formatv("{0}: ranks made {1} to {2} calls; the first {1} of each "
                  "are matched",
                  cw.name, calls, most)
              .str());
    cw.instances = calls;
    for (size_t k = 0; k != calls; ++k) {
      int64_t last = INT64_MIN;
      size_t lastRank = 0;
      for (size_t i = 0; i != n; ++i)
        if (!perRank[i].empty() && perRank[i][k] > last) {
          last = perRank[i][k];
          lastRank = i;
        }
      ++cw.lastCount[lastRank];
      for (size_t i = 0; i != n; ++i)
        if (!perRank[i].empty())
          cw.waitNs[i] += uint64_t(last - perRank[i][k]);
    }
    size_t straggler = 0;
    for (size_t i = 0; i != n; ++i) {
      cw.totalWaitNs += cw.waitNs[i];
      job.ranks[i].waitNs += cw.waitNs[i];
      if (cw.lastCount[i] > cw.lastCount[straggler])
        straggler = i;
    }
    cw.straggler = job.ranks[straggler].rank;
    job.collectives.push_back(std::move(cw));
  }
  llvm::sort(job.collectives, [](const CollectiveWaits &a,
                                 const CollectiveWaits &b) {
    return std::tie(b.totalWaitNs, a.name) < std::tie(a.totalWaitNs, b.name);
  });

  // 7. The ranks asked for: per-rank vectors keep only theirs.
  if (!opts.ranks.empty()) {
    std::vector<size_t> keep;
    for (size_t i = 0; i != n; ++i)
      if (is_contained(opts.ranks, job.ranks[i].rank))
        keep.push_back(i);
    if (keep.empty())
      return createStringError(
          formatv(
              "no dump of the ranks asked for; the inputs hold ranks {0}",
              join(map_range(job.ranks,
                             [](const RankStats &r) { return utostr(r.rank); }),
                   ","))
              .str());
    auto pick = [&](auto &v) {
      std::remove_reference_t<decltype(v)> out;
      for (size_t i : keep)
        out.push_back(v[i]);
      v = std::move(out);
    };
    pick(job.ranks);
    for (OpAcrossRanks &op : job.ops) {
      pick(op.totalNs);
      pick(op.calls);
    }
    std::vector<OpAcrossRanks> kept;
    for (OpAcrossRanks &op : job.ops)
      if (llvm::any_of(op.calls, [](uint64_t c) { return c != 0; }))
        kept.push_back(std::move(op));
    job.ops = std::move(kept);
    for (CollectiveWaits &cw : job.collectives) {
      pick(cw.waitNs);
      pick(cw.lastCount);
    }
  }
  // 8. Each op's statistics over the ranks reported that call it.
  for (OpAcrossRanks &op : job.ops) {
    double sum = 0, sq = 0;
    op.minNs = INFINITY;
    for (size_t i = 0; i != job.ranks.size(); ++i) {
      if (!op.calls[i])
        continue;
      double t = double(op.totalNs[i]);
      ++op.ranksCalling;
      sum += t;
      sq += t * t;
      op.minNs = std::min(op.minNs, t);
      if (t >= op.maxNs) {
        op.maxNs = t;
        op.slowestRank = job.ranks[i].rank;
      }
    }
    if (!op.ranksCalling) {
      op.minNs = 0;
      continue;
    }
    op.meanNs = sum / op.ranksCalling;
    op.stddevNs =
        std::sqrt(std::max(0.0, sq / op.ranksCalling - op.meanNs * op.meanNs));
    op.imbalance = op.meanNs > 0 ? op.maxNs / op.meanNs : 1;
  }
  // By what the slowest rank cost (computed once the ranks are chosen);
  // ties by name, so the order never depends on the dumps' order.
  auto byLoss = [](const OpAcrossRanks &a, const OpAcrossRanks &b) {
    return std::make_tuple(b.lostNs(), a.name, a.kind) <
           std::make_tuple(a.lostNs(), b.name, b.kind);
  };
  llvm::sort(job.ops, byLoss);

  return std::move(job);
}
