//===- unittests/Report/StreamingTest.cpp - Streamed against whole dumps --===//
//
// DumpReader::openStreaming reads record streams from the file a chunk at a
// time; open() reads the dump whole. Both must see the same records and
// give the same errors, and aggregation over either must give the same rows:
// on hand-built dumps (every truncation, byte mutations), on dumps that
// tpuprof-gen-dumps writes (bench/gen_dumps.cpp: several chunks, records
// straddling their edges), and through the ranks merge, which streams.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/model/Ranks.h"
#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstddef>
#include <map>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// Every record and memory event of `r`, one line each, in visit order.
std::vector<std::string> visitAll(const DumpReader &r) {
  std::vector<std::string> out;
  for (const ThreadInfo &t : r.threads())
    r.forEachEvent(
        t,
        [&](const RecordView &v) {
          std::string s =
              llvm::formatv("{0} r {1} {2} {3} {4} {5}", t.tid, v.probe,
                            v.depth, v.begin, v.end, v.offset);
          for (unsigned i = 0; i != v.numDims; ++i)
            s += " d" + std::to_string(v.dim(i));
          for (unsigned i = 0; i != v.numCounters; ++i)
            s += " c" + std::to_string(v.counter(i));
          out.push_back(std::move(s));
        },
        [&](const MemoryEventView &m) {
          out.push_back(llvm::formatv("{0} m {1} {2} {3} {4}", t.tid, m.time,
                                      m.probe, m.address, m.size));
        });
  return out;
}

/// The error of opening `path` each way, or "" when it opens; both must
/// agree, and when it opens, both must visit the same records.
std::string openBoth(const std::string &path) {
  llvm::Expected<DumpReader> whole = DumpReader::open(path);
  llvm::Expected<DumpReader> streamed = DumpReader::openStreaming(path);
  std::string a = whole ? "" : llvm::toString(whole.takeError());
  std::string b = streamed ? "" : llvm::toString(streamed.takeError());
  EXPECT_EQ(a, b);
  if (whole && streamed) {
    EXPECT_TRUE(streamed->isStreaming());
    EXPECT_FALSE(whole->isStreaming());
    EXPECT_EQ(visitAll(*whole), visitAll(*streamed));
    EXPECT_EQ(whole->info().windowEnd, streamed->info().windowEnd);
    EXPECT_EQ(whole->info().backwards, streamed->info().backwards);
  }
  return a;
}

/// One row as a line: every figure aggregation gives it.
std::string rowLine(const Row &r) {
  std::string s = llvm::formatv("{0}|{1}|{2}|{3}|{4}|{5}|{6}|{7}|{8}", r.name,
                                r.hash, r.shapes, r.device, r.run, r.count,
                                r.durationNs, r.selfNs, r.unfinished);
  for (uint64_t c : r.counters)
    s += "|" + std::to_string(c);
  return s;
}

std::vector<std::string> aggregate(const std::string &path, bool stream) {
  llvm::Expected<DumpReader> r =
      stream ? DumpReader::openStreaming(path) : DumpReader::open(path);
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    return {};
  }
  Aggregator agg(true);
  agg.add(*r);
  Profile p = agg.take();
  std::vector<std::string> lines;
  for (const Row &row : p.rows)
    lines.push_back(rowLine(row));
  for (const DumpSummary &d : p.dumps)
    lines.push_back(llvm::formatv("dump {0} {1} {2} {3}", d.records,
                                  d.coveredNs, d.windowNs, d.unfinished));
  return lines;
}

DumpBuilder mixedDump() {
  DumpBuilder b;
  b.events = std::vector<std::string>{"cycles", "instructions"};
  b.header.mode = 1;
  b.header.window_end = ticksAt(100000);
  b.addModule(0, 0, "m",
              {probe("a", "f32[?]", "a.mlir:1:1", 1, 1),
               probe("b", "f32[4]", "a.mlir:2:1", 2)});
  for (uint64_t tid : {7, 9}) {
    TestThread t;
    t.tid = tid;
    for (uint64_t i = 0; i != 40; ++i)
      t.records.push_back(
          {uint32_t(i % 2),
           uint16_t(i % 2),
           ticksAt(10 + 100 * i),
           ticksAt(60 + 100 * i),
           i % 2 ? std::vector<int64_t>{} : std::vector<int64_t>{int64_t(i)},
           {i * 3, i * 5}});
    b.threads.push_back(t);
  }
  return b;
}

TEST(Streaming, SameRecordsAndErrorsOnEveryTruncation) {
  std::string image = mixedDump().build();
  TempFile full(image);
  EXPECT_EQ(openBoth(full.str()), "");
  // Every prefix: the same error (or none) each way.
  for (size_t n = 0; n < image.size(); n += 7) {
    TempFile cut(image.substr(0, n));
    SCOPED_TRACE(n);
    EXPECT_NE(openBoth(cut.str()), "");
  }
  // Every eighth byte flipped: same verdict, same records when it opens.
  for (size_t i = 0; i < image.size(); i += 8) {
    std::string bad = image;
    bad[i] = char(bad[i] ^ 0x5a);
    TempFile f(bad);
    SCOPED_TRACE(i);
    openBoth(f.str());
  }
}

TEST(Streaming, IncompleteDumpsAreScannedAlike) {
  DumpBuilder b = mixedDump();
  b.header.flags = 0; // Never finished: its streams are scanned.
  std::vector<uint64_t> offsets;
  std::string image = b.build(&offsets);
  // An unfinished THREAD section has no count or size yet (sections:
  // module, events, then the two threads).
  ASSERT_EQ(offsets.size(), 4u);
  for (size_t i : {2, 3}) {
    uint64_t payload = offsets[i] + sizeof(tpuprof_section_header);
    patch(image, payload + offsetof(tpuprof_thread_section, num_records),
          uint64_t(0));
    patch(image, payload + offsetof(tpuprof_thread_section, stream_size),
          uint64_t(0));
  }
  llvm::Expected<DumpReader> whole = DumpReader::fromBytes(image);
  ASSERT_TRUE(bool(whole)) << llvm::toString(whole.takeError());
  EXPECT_EQ(whole->threads()[0].numRecords, 40u);
  TempFile f(image);
  EXPECT_EQ(openBoth(f.str()), "");
}

/// Where the build put tpuprof-gen-dumps (TPUPROF_GEN_DUMPS), or "".
std::string genDumps() {
#ifdef TPUPROF_GEN_DUMPS
  return TPUPROF_GEN_DUMPS;
#else
  return "";
#endif
}

/// Runs tpuprof-gen-dumps with `args` into a new directory; its dumps.
std::vector<std::string> generate(std::vector<std::string> args,
                                  llvm::SmallString<128> &dir) {
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tpuprof-stream", dir));
  // The StringRefs point into `tool` and `args`, which outlive the call.
  const std::string tool = genDumps();
  std::vector<llvm::StringRef> argv = {tool, "-o", dir};
  for (const std::string &a : args)
    argv.push_back(a);
  std::string err;
  int rc = llvm::sys::ExecuteAndWait(
      tool, argv, std::nullopt,
      {std::nullopt, llvm::StringRef(""), std::nullopt}, 0, 0, &err);
  EXPECT_EQ(rc, 0) << err;
  llvm::Expected<std::vector<std::string>> files =
      expandDumpPaths({std::string(dir)});
  if (!files) {
    ADD_FAILURE() << llvm::toString(files.takeError());
    return {};
  }
  return *files;
}

TEST(Streaming, GeneratedDumpsAggregateAlike) {
  if (genDumps().empty() || !llvm::sys::fs::exists(genDumps()))
    GTEST_SKIP() << "tpuprof-gen-dumps is not built";
  // 150 000 records of 24 and 32 bytes on 2 threads: several chunks per
  // thread, records across their edges, nested and with dynamic dims.
  for (std::vector<std::string> flags :
       {std::vector<std::string>{"--records", "150000", "--nest", "--dims",
                                 "--nthreads", "2"},
        std::vector<std::string>{"--records", "60000", "--ops", "7"}}) {
    llvm::SmallString<128> dir;
    std::vector<std::string> dumps = generate(flags, dir);
    ASSERT_EQ(dumps.size(), 1u);
    std::vector<std::string> whole = aggregate(dumps[0], false);
    EXPECT_FALSE(whole.empty());
    EXPECT_EQ(whole, aggregate(dumps[0], true));
    EXPECT_EQ(openBoth(dumps[0]), "");
    llvm::sys::fs::remove_directories(dir);
  }
}

TEST(Streaming, RanksMergeMatchesWholeDumpAggregation) {
  if (genDumps().empty() || !llvm::sys::fs::exists(genDumps()))
    GTEST_SKIP() << "tpuprof-gen-dumps is not built";
  // Three processes (unranked: numbered by start order), 50 000 records each.
  llvm::SmallString<128> dir;
  std::vector<std::string> dumps = generate(
      {"--records", "50000", "--dumps", "3", "--runs", "3", "--nest", "--dims"},
      dir);
  ASSERT_EQ(dumps.size(), 3u);
  RankOptions opts;
  opts.threads = 2;
  llvm::Expected<JobProfile> job = mergeRanks({std::string(dir)}, opts);
  ASSERT_TRUE(bool(job)) << llvm::toString(job.takeError());
  ASSERT_EQ(job->ranks.size(), 3u);
  // Each rank's per-op totals and counts are its whole dump's.
  for (const std::string &path : dumps) {
    llvm::Expected<DumpReader> r = DumpReader::open(path);
    ASSERT_TRUE(bool(r));
    Aggregator agg(true);
    agg.add(*r);
    Profile p = agg.take();
    int rank = -1;
    for (size_t i = 0; i != job->ranks.size(); ++i)
      if (job->ranks[i].pid == r->info().pid)
        rank = int(i);
    ASSERT_GE(rank, 0);
    EXPECT_EQ(job->ranks[rank].records, p.dumps[0].records);
    EXPECT_EQ(job->ranks[rank].coveredNs, p.dumps[0].coveredNs);
    std::map<std::string, std::pair<uint64_t, uint64_t>> byName;
    for (const Row &row : p.rows) {
      byName[row.name].first += row.durationNs;
      byName[row.name].second += row.count;
    }
    for (const OpAcrossRanks &op : job->ops) {
      SCOPED_TRACE(op.name);
      EXPECT_EQ(op.totalNs[rank], byName[op.name].first);
      EXPECT_EQ(op.calls[rank], byName[op.name].second);
    }
  }
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
