//===- unittests/Report/RanksTest.cpp - A job merged by rank --------------===//
//
// The PROCESS section read back; ranks merged (model/Ranks.h) from dumps
// built by hand, one per rank: op statistics across ranks, collective waits
// and stragglers, the alignment of clocks, with one host's clock faked
// five seconds off and the offsets measured (ping-pong) or not, and the
// overlap of communication and computation on constructed intervals; the
// trace and the HTML page's timeline put the ranks on one aligned axis.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/model/Ranks.h"
#include "tpuprof/report/model/Timeline.h"
#include "tpuprof/report/model/Walk.h"
#include "tpuprof/report/views/Html.h"
#include "tpuprof/report/views/Ranks.h"
#include "tpuprof/report/views/Trace.h"

#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

#include <cstring>
#include <map>
#include <set>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

constexpr uint32_t kWork = 0, kAllreduce = 1;
constexpr int64_t kFiveSeconds = 5000000000;

tpuprof_process_section process(uint32_t rank, const char *host) {
  tpuprof_process_section p;
  std::memset(&p, 0, sizeof(p));
  p.rank = rank;
  p.world_size = 2;
  p.local_rank = 0;
  p.rank_source = TPUPROF_RANK_OPENMPI;
  std::strncpy(p.host, host, sizeof(p.host) - 1);
  std::strncpy(p.job_id, "77", sizeof(p.job_id) - 1);
  return p;
}

/// Rank `rank`'s dump: `workNs` of computation, then an allreduce it enters
/// at true time `arriveNs` and leaves at 1 ms; its host's monotonic clock
/// reads `skewNs` more than rank 0's.
DumpBuilder rankDump(uint32_t rank, const char *host, uint64_t workNs,
                     uint64_t arriveNs, int64_t skewNs) {
  DumpBuilder b;
  b.header.pid = 100 + rank;
  b.header.calib_ns0 += skewNs;
  b.header.calib_ns1 += skewNs;
  b.header.window_end = ticksAt(2000000);
  ProbeInfo work = probe("work", "", "", 55);
  ProbeInfo allreduce = probe("MPI_Allreduce", "", "", 77);
  allreduce.kind = TPUPROF_KIND_COMM;
  allreduce.collective = true;
  b.addModule(0, 0, "m", {work, allreduce});
  b.process = process(rank, host);
  b.threads.push_back(
      {1,
       0,
       {{kWork, 0, ticksAt(10), ticksAt(10 + workNs), {}, {}},
        {kAllreduce, 0, ticksAt(arriveNs), ticksAt(1000000), {}, {}}}});
  return b;
}

JobProfile merge(const std::vector<std::string> &paths, RankOptions opts = {}) {
  opts.overheadCorrection = false;
  opts.threads = 2;
  llvm::Expected<JobProfile> job = mergeRanks(paths, opts);
  if (!job) {
    ADD_FAILURE() << llvm::toString(job.takeError());
    return {};
  }
  return std::move(*job);
}

TEST(Ranks, ProcessSectionRoundTrips) {
  DumpBuilder b = rankDump(1, "node-b", 100, 200, 0);
  b.process->offsets[TPUPROF_OFFSET_INIT] = {-42, 1234, 5};
  b.process->realtime_ns0 = 99;
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(b.build());
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  const DumpInfo &info = r->info();
  ASSERT_TRUE(info.hasProcess);
  EXPECT_EQ(info.process.rank, 1u);
  EXPECT_EQ(info.process.worldSize, 2u);
  EXPECT_EQ(info.process.host, "node-b");
  EXPECT_EQ(info.process.jobId, "77");
  EXPECT_EQ(info.process.rankSource, (uint32_t)TPUPROF_RANK_OPENMPI);
  EXPECT_EQ(info.process.realtimeNs0, 99u);
  EXPECT_EQ(info.process.offsets[0].offsetNs, -42);
  EXPECT_EQ(info.process.offsets[0].atNs, 1234u);
  EXPECT_EQ(info.process.offsets[0].errorNs, 5u);
  EXPECT_FALSE(info.process.offsets[1].measured());
  // A probe's collective flag reaches the reader.
  EXPECT_TRUE(r->findProbe(kAllreduce)->collective);
  EXPECT_FALSE(r->findProbe(kWork)->collective);
}

TEST(Ranks, BadProcessSectionsAreRejected) {
  DumpBuilder b = rankDump(5, "h", 1, 2, 0); // Rank 5 of 2.
  EXPECT_TRUE(contains(readError(b.build()), "PROCESS rank 5 is not below"));
  b = rankDump(0, "h", 1, 2, 0);
  b.process->rank_source = TPUPROF_RANK_SOURCE_COUNT;
  EXPECT_TRUE(contains(readError(b.build()), "rank source"));
  // A host name without its NUL stops at the field's end.
  b = rankDump(0, "h", 1, 2, 0);
  std::memset(b.process->host, 'x', sizeof(b.process->host));
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(b.build());
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(r->info().process.host.size(), sizeof(b.process->host));
}

TEST(Ranks, SameHostSharesTheClock) {
  // Rank 1 computes 4x rank 0's and arrives 300 us later.
  TempFile r0(rankDump(0, "node-a", 100000, 200000, 0).build());
  TempFile r1(rankDump(1, "node-a", 400000, 500000, 0).build());
  JobProfile job = merge({r1.str(), r0.str()});
  ASSERT_EQ(job.ranks.size(), 2u);
  EXPECT_EQ(job.ranks[0].rank, 0u);
  EXPECT_EQ(job.ranks[1].clock.method, ClockAlignment::Method::SameHost);
  EXPECT_TRUE(job.alignmentBounded);
  EXPECT_EQ(job.alignmentErrorNs, 0u);
  EXPECT_EQ(job.slowestRank().first, 1u);
  EXPECT_DOUBLE_EQ(job.slowestRank().second, 4.0);

  // Both ops cost 150 us over their mean: ties go by name.
  ASSERT_EQ(job.ops.size(), 2u);
  EXPECT_EQ(job.ops[0].name, "MPI_Allreduce");
  EXPECT_TRUE(job.ops[0].collective);
  const OpAcrossRanks &work = job.ops[1];
  EXPECT_EQ(work.name, "work");
  EXPECT_EQ(work.ranksCalling, 2u);
  EXPECT_DOUBLE_EQ(work.minNs, 100000);
  EXPECT_DOUBLE_EQ(work.maxNs, 400000);
  EXPECT_DOUBLE_EQ(work.meanNs, 250000);
  EXPECT_DOUBLE_EQ(work.stddevNs, 150000);
  EXPECT_DOUBLE_EQ(work.imbalance, 1.6);
  EXPECT_EQ(work.slowestRank, 1u);

  ASSERT_EQ(job.collectives.size(), 1u);
  const CollectiveWaits &ar = job.collectives[0];
  EXPECT_EQ(ar.name, "MPI_Allreduce");
  EXPECT_EQ(ar.instances, 1u);
  EXPECT_EQ(ar.straggler, 1u);
  EXPECT_EQ(ar.waitNs[0], 300000u);
  EXPECT_EQ(ar.waitNs[1], 0u);
  EXPECT_EQ(job.ranks[0].waitNs, 300000u);
  // Communication and computation per rank.
  EXPECT_EQ(job.ranks[0].computeNs, 100000u);
  EXPECT_EQ(job.ranks[0].commNs, 800000u);
}

TEST(Ranks, FakedHostOffsetIsAlignedByThePingPong) {
  // Node b's monotonic clock reads 5 s ahead of node a's; its ping-pong
  // measured -5 s (+/- 2 us) at MPI_Init and 1 us less at MPI_Finalize.
  DumpBuilder b0 = rankDump(0, "node-a", 100000, 200000, 0);
  b0.process->offsets[TPUPROF_OFFSET_INIT] = {0, 1, 0};
  DumpBuilder b1 = rankDump(1, "node-b", 400000, 500000, kFiveSeconds);
  uint64_t start = b1.header.calib_ns0;
  b1.process->offsets[TPUPROF_OFFSET_INIT] = {-kFiveSeconds, start, 2000};
  b1.process->offsets[TPUPROF_OFFSET_FINALIZE] = {-kFiveSeconds - 1000,
                                                  start + 1000000000, 1500};
  TempFile r0(b0.build()), r1(b1.build());
  JobProfile job = merge({r0.str(), r1.str()});
  ASSERT_EQ(job.ranks.size(), 2u);
  const ClockAlignment &c = job.ranks[1].clock;
  EXPECT_EQ(c.method, ClockAlignment::Method::PingPong);
  EXPECT_EQ(c.errorNs, 2000u);
  EXPECT_NEAR(c.drift * 1e6, -1.0, 1e-9); // -1 us per second: -1 ppm.
  EXPECT_TRUE(job.alignmentBounded);
  EXPECT_EQ(job.alignmentErrorNs, 2000u);
  ASSERT_EQ(job.collectives.size(), 1u);
  const CollectiveWaits &ar = job.collectives[0];
  EXPECT_EQ(ar.straggler, 1u);
  // 300 us, less the drift over the half millisecond since the init.
  EXPECT_NEAR(double(ar.waitNs[0]), 300000.0, 2.0);
  EXPECT_EQ(ar.waitNs[1], 0u);
  std::string text;
  llvm::raw_string_ostream os(text);
  printRanks(job, 0, os);
  EXPECT_TRUE(contains(text, "Clock alignment: within 2.0 us"));
  EXPECT_TRUE(contains(text, "ping-pong -5000.000 ms, -1.00 ppm, +/- 2.0 us"));
}

TEST(Ranks, WithoutOffsetsHostClocksAlignUnbounded) {
  // No ping-pong: the realtime pairs say node b's monotonic clock is 5 s
  // ahead of node a's (their realtime clocks agree).
  DumpBuilder b0 = rankDump(0, "node-a", 100000, 200000, 0);
  DumpBuilder b1 = rankDump(1, "node-b", 400000, 500000, kFiveSeconds);
  b0.process->realtime_ns0 = 1700000000000000000ull;
  b0.process->monotonic_ns0 = 1000;
  b1.process->realtime_ns0 = 1700000000000000000ull;
  b1.process->monotonic_ns0 = 1000 + kFiveSeconds;
  TempFile r0(b0.build()), r1(b1.build());
  JobProfile job = merge({r0.str(), r1.str()});
  ASSERT_EQ(job.ranks.size(), 2u);
  EXPECT_EQ(job.ranks[1].clock.method, ClockAlignment::Method::HostClock);
  EXPECT_EQ(job.ranks[1].clock.offset0Ns, -kFiveSeconds);
  EXPECT_FALSE(job.alignmentBounded);
  ASSERT_EQ(job.collectives.size(), 1u);
  EXPECT_EQ(job.collectives[0].waitNs[0], 300000u);

  // Unaligned (no pairs at all), the 5 s would make rank 0 "wait" 5 s: the
  // merge says it could not align instead.
  b0.process->realtime_ns0 = b1.process->realtime_ns0 = 0;
  TempFile u0(b0.build()), u1(b1.build());
  job = merge({u0.str(), u1.str()});
  EXPECT_EQ(job.ranks[1].clock.method, ClockAlignment::Method::None);
  ASSERT_FALSE(job.warnings.empty());
  EXPECT_TRUE(contains(job.warnings[0], "rank 1: no clock pairs"));
}

TEST(Ranks, RankFilterKeepsTheWaitsOfTheWholeJob) {
  TempFile r0(rankDump(0, "node-a", 100000, 200000, 0).build());
  TempFile r1(rankDump(1, "node-a", 400000, 500000, 0).build());
  RankOptions opts;
  opts.ranks = {0};
  JobProfile job = merge({r0.str(), r1.str()}, opts);
  ASSERT_EQ(job.ranks.size(), 1u);
  ASSERT_EQ(job.collectives.size(), 1u);
  EXPECT_EQ(job.collectives[0].waitNs.size(), 1u);
  EXPECT_EQ(job.collectives[0].waitNs[0], 300000u);
  opts.ranks = {7};
  llvm::Expected<JobProfile> none = mergeRanks({r0.str()}, opts);
  ASSERT_FALSE(bool(none));
  EXPECT_TRUE(
      contains(llvm::toString(none.takeError()), "the inputs hold ranks 0"));
}

TEST(Ranks, RankLists) {
  llvm::Expected<std::vector<uint32_t>> l = parseRankList("3, 0-2,2");
  ASSERT_TRUE(bool(l));
  EXPECT_EQ(*l, (std::vector<uint32_t>{3, 0, 1, 2}));
  for (const char *bad : {"", "x", "2-1", "1-", "-1", "0-99999999"}) {
    llvm::Expected<std::vector<uint32_t>> e = parseRankList(bad);
    EXPECT_FALSE(bool(e)) << bad;
    if (!e) {
      EXPECT_TRUE(contains(llvm::toString(e.takeError()), "not a rank list"));
    }
  }
}

TEST(Ranks, TextNamesTheSlowRankAndTheStraggler) {
  TempFile r0(rankDump(0, "node-a", 100000, 200000, 0).build());
  TempFile r1(rankDump(1, "node-a", 400000, 500000, 0).build());
  JobProfile job = merge({r0.str(), r1.str()});
  std::string text;
  llvm::raw_string_ostream os(text);
  printRanks(job, 0, os);
  EXPECT_TRUE(contains(text, "Job: 2 ranks of 2 on 1 host (node-a), job 77"));
  EXPECT_TRUE(contains(text, "Slowest rank: 1 (computation 4.00x"));
  EXPECT_TRUE(contains(text, "Most imbalanced computation: work (imbalance "
                             "1.60, slowest rank 1, 0.150 ms over the mean)"));
  EXPECT_TRUE(contains(text, "Straggler in MPI_Allreduce: rank 1, last to "
                             "arrive in 1 of 1 calls"));
}

TEST(Overlap, BlockingCommunicationDoesNotOverlap) {
  // Compute 0-100, then a blocking call 100-200; and a blocking call nested
  // inside a computation (20-40 of 300-400): neither overlaps.
  ThreadActivity t;
  t.compute = {{0, 100}, {300, 400}};
  t.commCalls = {{100, 200}, {320, 340}};
  CommOverlap o = measureOverlap({t});
  EXPECT_EQ(o.inFlightNs, 120u);
  EXPECT_EQ(o.overlapNs, 0u);
}

TEST(Overlap, ComputationWhileARequestIsInFlight) {
  // MPI_Iallreduce 0-10, compute 10-60, MPI_Wait 60-100: the request is in
  // flight 0-100, and the 50 of computation overlap it.
  ThreadActivity t;
  t.commCalls = {{0, 10}, {60, 100}};
  t.compute = {{10, 60}, {100, 150}};
  t.inFlight = {{0, 100}};
  CommOverlap o = measureOverlap({t});
  EXPECT_EQ(o.inFlightNs, 100u);
  EXPECT_EQ(o.overlapNs, 50u);
}

TEST(Overlap, OtherThreadsComputationOverlaps) {
  // Thread a blocks in a call 0-100; thread b computes 50-150 (nested
  // records counted once) and makes a call of its own 60-70.
  ThreadActivity a, b;
  a.commCalls = {{0, 100}};
  b.compute = {{50, 150}, {55, 65}};
  b.commCalls = {{60, 70}};
  CommOverlap o = measureOverlap({a, b});
  EXPECT_EQ(o.inFlightNs, 100u);
  EXPECT_EQ(o.overlapNs, 40u); // 50-60 and 70-100.
  // Empty and backwards spans count for nothing.
  ThreadActivity e;
  e.compute = {{5, 5}, {9, 3}};
  e.commCalls = {{7, 7}};
  o = measureOverlap({e});
  EXPECT_EQ(o.inFlightNs, 0u);
  EXPECT_EQ(o.overlapNs, 0u);
}

TEST(Overlap, RequestsPairWithTheirWaitsInOrder) {
  std::vector<Interval> spans;
  RequestPairing r(spans);
  r.start(0);
  r.start(10);
  r.start(20);
  r.complete(2, 50); // The two oldest.
  r.complete(5, 70); // More than are open: the one left.
  r.complete(1, 80); // None open.
  r.start(90);
  r.complete(0, 95); // A wait on nothing.
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].begin, 0u);
  EXPECT_EQ(spans[0].end, 50u);
  EXPECT_EQ(spans[1].begin, 10u);
  EXPECT_EQ(spans[1].end, 50u);
  EXPECT_EQ(spans[2].begin, 20u);
  EXPECT_EQ(spans[2].end, 70u);
}

TEST(Overlap, MergedRanksCarryIt) {
  // Rank 0 computes while its MPI_Iallreduce is in flight (10-20, compute
  // 20-520, MPI_Waitall 520-600); rank 1 (rankDump) only blocks.
  DumpBuilder b = rankDump(0, "node-a", 0, 0, 0);
  ProbeInfo work = probe("work", "", "", 55);
  ProbeInfo iallreduce = probe("MPI_Iallreduce", "", "", 78);
  iallreduce.kind = TPUPROF_KIND_COMM;
  iallreduce.collective = iallreduce.startsRequest = true;
  ProbeInfo waitall = probe("MPI_Waitall", "requests[?]", "", 79);
  waitall.kind = TPUPROF_KIND_COMM;
  waitall.numDynDims = 1;
  waitall.completesRequests = true;
  b.modules.clear();
  b.addModule(0, 0, "m", {work, iallreduce, waitall});
  b.threads[0].records = {{1, 0, ticksAt(10), ticksAt(20), {}, {}},
                          {0, 0, ticksAt(20), ticksAt(520), {}, {}},
                          {2, 0, ticksAt(520), ticksAt(600), {1}, {}}};
  TempFile r0(b.build());
  TempFile r1(rankDump(1, "node-a", 400000, 500000, 0).build());
  JobProfile job = merge({r0.str(), r1.str()});
  ASSERT_EQ(job.ranks.size(), 2u);
  EXPECT_NEAR(double(job.ranks[0].commInFlightNs), 590, 2);
  EXPECT_NEAR(double(job.ranks[0].overlapNs), 500, 2);
  EXPECT_EQ(job.ranks[1].overlapNs, 0u);
  EXPECT_NEAR(double(job.ranks[1].commInFlightNs), 500000, 2);
  // A nonblocking collective is no arrival: only rank 1's blocking
  // MPI_Allreduce is matched (one rank: no wait), yet it is a collective.
  for (const CollectiveWaits &cw : job.collectives) {
    EXPECT_NE(cw.name, "MPI_Iallreduce");
  }
  for (const OpAcrossRanks &op : job.ops) {
    if (op.name == "MPI_Iallreduce") {
      EXPECT_TRUE(op.collective);
    }
  }
  // The flags reach the reader.
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(b.build());
  ASSERT_TRUE(bool(r));
  EXPECT_TRUE(r->findProbe(1)->startsRequest);
  EXPECT_FALSE(r->findProbe(1)->completesRequests);
  EXPECT_TRUE(r->findProbe(2)->completesRequests);
  std::string text;
  llvm::raw_string_ostream os(text);
  printRanks(job, 0, os);
  EXPECT_TRUE(contains(text, "Overlap (ms)  Overlap %"));
}

TEST(Ranks, TracePutsTheRanksOnOneAxis) {
  // Node b's clock reads 5 s ahead; its ping-pong says so. In the trace its
  // allreduce begins 300 us after rank 0's, as it truly did, and the
  // processes are named and sorted by rank.
  DumpBuilder b0 = rankDump(0, "node-a", 100000, 200000, 0);
  b0.process->offsets[TPUPROF_OFFSET_INIT] = {0, 1, 0};
  DumpBuilder b1 = rankDump(1, "node-b", 400000, 500000, kFiveSeconds);
  b1.process->offsets[TPUPROF_OFFSET_INIT] = {-kFiveSeconds,
                                              b1.header.calib_ns0, 2000};
  TempFile r0(b0.build()), r1(b1.build());
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(writeTrace(input({r1.str(), r0.str()}, true, false),
                               TraceOptions(), os)));
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(out);
  ASSERT_TRUE(bool(v)) << llvm::toString(v.takeError());
  const llvm::json::Array *events = v->getAsObject()->getArray("traceEvents");
  ASSERT_TRUE(events);
  std::map<int64_t, std::string> names;
  std::map<int64_t, int64_t> sortIndex;
  std::map<int64_t, double> allreduceTs;
  for (const llvm::json::Value &e : *events) {
    const llvm::json::Object *o = e.getAsObject();
    int64_t pid = o->getInteger("pid").value_or(-1);
    std::string name = o->getString("name").value_or("").str();
    const llvm::json::Object *args = o->getObject("args");
    if (name == "process_name" && args)
      names[pid] = args->getString("name").value_or("").str();
    else if (name == "process_sort_index" && args)
      sortIndex[pid] = args->getInteger("sort_index").value_or(0);
    else if (name == "MPI_Allreduce" && o->getString("ph") == "X")
      allreduceTs[pid] = o->getNumber("ts").value_or(0);
  }
  int64_t pid0 = -1, pid1 = -1;
  for (auto &[pid, name] : names) {
    if (contains(name, "rank 0,"))
      pid0 = pid;
    if (contains(name, "rank 1,"))
      pid1 = pid;
  }
  ASSERT_TRUE(pid0 >= 0 && pid1 >= 0) << out;
  EXPECT_LT(sortIndex[pid0], sortIndex[pid1]);
  ASSERT_TRUE(allreduceTs.count(pid0) && allreduceTs.count(pid1));
  EXPECT_NEAR(allreduceTs[pid1] - allreduceTs[pid0], 300.0, 1.0);
}

/// The JSON data the HTML page embeds.
llvm::json::Value htmlPageData(const std::vector<std::string> &dumps) {
  std::string page;
  llvm::raw_string_ostream os(page);
  llvm::Error err = writeHtmlReport(input(dumps), HtmlOptions(), os);
  EXPECT_FALSE(bool(err)) << llvm::toString(std::move(err));
  llvm::StringRef start =
      "<script type=\"application/json\" id=\"tpuprof-data\">";
  size_t b = page.find(start.str());
  EXPECT_NE(b, std::string::npos);
  b += start.size();
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(
      llvm::StringRef(page).slice(b, page.find("</script>", b)));
  if (!v) {
    ADD_FAILURE() << llvm::toString(v.takeError());
    return nullptr;
  }
  return std::move(*v);
}

TEST(Ranks, HtmlTimelinePutsTheRanksOnOneAxis) {
  // Node b's clock reads 5 s ahead and runs 1000 ppm slow against node a's,
  // as its ping-pong at MPI_Init and MPI_Finalize says. On the page's one
  // axis each record begins where the merge's alignment (offsets and drift)
  // puts it: rank 1's allreduce about 300 us after rank 0's, less the drift
  // since the init.
  DumpBuilder b0 = rankDump(0, "node-a", 100000, 200000, 0);
  b0.process->offsets[TPUPROF_OFFSET_INIT] = {0, 1, 0};
  DumpBuilder b1 = rankDump(1, "node-b", 400000, 500000, kFiveSeconds);
  uint64_t start = b1.header.calib_ns0;
  b1.process->offsets[TPUPROF_OFFSET_INIT] = {-kFiveSeconds, start, 2000};
  b1.process->offsets[TPUPROF_OFFSET_FINALIZE] = {-kFiveSeconds - 1000000,
                                                  start + 1000000000, 2000};
  TempFile r0(b0.build()), r1(b1.build());
  JobProfile job = merge({r0.str(), r1.str()});
  ASSERT_EQ(job.ranks.size(), 2u);
  const ClockAlignment &c1 = job.ranks[1].clock;
  EXPECT_EQ(c1.method, ClockAlignment::Method::PingPong);
  EXPECT_NEAR(c1.drift * 1e6, -1000.0, 1e-6);

  // The model: one origin, each rank's events at their aligned times.
  Input in = input({r1.str(), r0.str()}, true, false);
  Timeline tl;
  ASSERT_FALSE(bool(buildTimeline(in, TimelineOptions(), tl)));
  EXPECT_TRUE(tl.sharedAxis);
  ASSERT_EQ(tl.runOrigin.size(), 2u);
  EXPECT_EQ(tl.runOrigin[0], tl.runOrigin[1]);
  llvm::Expected<DumpReader> d0 = DumpReader::fromBytes(b0.build());
  llvm::Expected<DumpReader> d1 = DumpReader::fromBytes(b1.build());
  ASSERT_TRUE(d0 && d1);
  // Rank 0's window begins first: it is the origin.
  EXPECT_EQ(tl.runOrigin[0], absoluteNs(d0->info(), d0->info().windowBegin));
  auto aligned = [&](const DumpReader &d, const ClockAlignment &c,
                     uint64_t ns) {
    return uint64_t(c.toAxis(absoluteNs(d.info(), ticksAt(ns)))) -
           tl.runOrigin[0];
  };
  ASSERT_EQ(tl.lanes.size(), 2u);
  std::map<uint32_t, const TimelineLane *> laneOfRank;
  for (const TimelineLane &l : tl.lanes)
    laneOfRank[in.profile.runs[l.run].rank] = &l;
  ASSERT_TRUE(laneOfRank.count(0) && laneOfRank.count(1));
  // Lane groups in rank order whatever the inputs' order.
  EXPECT_EQ(in.profile.runs[tl.lanes[0].run].rank, 0u);
  const TimelineLane &l0 = *laneOfRank[0], &l1 = *laneOfRank[1];
  ASSERT_EQ(l0.events.size(), 2u);
  ASSERT_EQ(l1.events.size(), 2u);
  EXPECT_EQ(l0.events[0].begin, aligned(*d0, job.ranks[0].clock, 10));
  EXPECT_EQ(l0.events[1].begin, aligned(*d0, job.ranks[0].clock, 200000));
  EXPECT_EQ(l1.events[0].begin, aligned(*d1, c1, 10));
  EXPECT_EQ(l1.events[1].begin, aligned(*d1, c1, 500000));
  // 300 us apart, less 1000 ppm of the ~0.5 ms since the init: 299.5 us.
  EXPECT_NEAR(double(l1.events[1].begin) - double(l0.events[1].begin), 299500.0,
              2.0);

  // The page's data: one origin for every run, the ranks named, each
  // lane's first event at its aligned time.
  llvm::json::Value v = htmlPageData({r1.str(), r0.str()});
  const llvm::json::Object *o = v.getAsObject();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getObject("timeline")->getBoolean("sharedAxis"), true);
  const llvm::json::Array *runs = o->getArray("runs");
  ASSERT_TRUE(runs && runs->size() == 2);
  std::set<int64_t> origins;
  std::map<int64_t, int64_t> rankOfRun;
  for (size_t r = 0; r != runs->size(); ++r) {
    const llvm::json::Object *run = (*runs)[r].getAsObject();
    origins.insert(*run->getInteger("originNs"));
    rankOfRun[r] = *run->getInteger("rank");
    EXPECT_TRUE(contains(run->getString("short")->str(),
                         "rank " + std::to_string(rankOfRun[r])));
    EXPECT_EQ(run->getString("clock")->str(),
              rankOfRun[r] ? "ping-pong" : "reference");
  }
  EXPECT_EQ(origins.size(), 1u);
  const llvm::json::Array *lanes = o->getArray("lanes");
  const llvm::json::Array *cols = o->getObject("timeline")->getArray("lanes");
  ASSERT_TRUE(lanes && cols && lanes->size() == 2 && cols->size() == 2);
  for (size_t i = 0; i != 2; ++i) {
    int64_t rank = rankOfRun[*(*lanes)[i].getAsObject()->getInteger("run")];
    const llvm::json::Array *begin =
        (*cols)[i].getAsObject()->getArray("begin");
    ASSERT_TRUE(begin && !begin->empty());
    EXPECT_EQ(uint64_t(*(*begin)[0].getAsInteger()),
              rank ? aligned(*d1, c1, 10)
                   : aligned(*d0, job.ranks[0].clock, 10));
  }
}

TEST(Ranks, HtmlTimelineOfOneProcessKeepsItsOwnAxis) {
  // A process without a rank, and one rank alone: no shared axis.
  DumpBuilder plain = rankDump(0, "node-a", 100, 200, 0);
  plain.process.reset();
  TempFile p(plain.build());
  Timeline tl;
  ASSERT_FALSE(bool(buildTimeline(input({p.str()}), TimelineOptions(), tl)));
  EXPECT_FALSE(tl.sharedAxis);
  llvm::Expected<DumpReader> d = DumpReader::fromBytes(plain.build());
  ASSERT_TRUE(bool(d));
  ASSERT_EQ(tl.runOrigin.size(), 1u);
  EXPECT_EQ(tl.runOrigin[0], absoluteNs(d->info(), d->info().windowBegin));
  ASSERT_EQ(tl.lanes.size(), 1u);
  EXPECT_EQ(tl.lanes[0].events[0].begin, 10u);
  llvm::json::Value v = htmlPageData({p.str()});
  EXPECT_EQ(v.getAsObject()->getObject("timeline")->getBoolean("sharedAxis"),
            false);
}

} // namespace
