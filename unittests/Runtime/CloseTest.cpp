//===- CloseTest.cpp - Closing a window in place -------------- -*- C++ -*-===//
//
// Every window is finalized in its crash-safe file (no copy, no rename):
// the dump read back record for record across segments, probes still open
// at the close, several threads, a ring, the record limit, and a thread
// recording while its windows are flushed (the TSan target of the close).
// docs/reliability.md, "Closing a window".
//
//===----------------------------------------------------------------------===//

#include "DumpParser.h"
#include "OutputDirTest.h"
#include "tpuprof/tpuprof.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tpuprof_test;

namespace {

uint64_t gettid_() { return (uint64_t)syscall(SYS_gettid); }

ino_t inodeOf(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

void pair(uint32_t id) {
  __tpuprof_begin(id);
  __tpuprof_end(id);
}

void spinFor(std::chrono::microseconds us) {
  auto until = std::chrono::steady_clock::now() + us;
  volatile uint64_t x = 0;
  while (std::chrono::steady_clock::now() < until)
    x = x + 1;
}

using tpuprof::test::listDir;
using Close = tpuprof::test::OutputDirTest;

} // namespace

TEST_F(Close, OneThreadsWindowIsFinalizedInPlaceRecordForRecord) {
  const int n = 5000;
  ASSERT_EQ(tpuprof_enable(3 * n, 0), 0); // Room for the dims words.
  // The crash-safe file exists from the start, under the dump's name.
  std::vector<std::string> names = listDir(Dir);
  ASSERT_EQ(names.size(), 1u);
  ino_t ino = inodeOf(path(names[0]));
  ASSERT_NE(ino, 0u);
  for (int i = 0; i < n; ++i) {
    int64_t dims[2] = {i, -i};
    __tpuprof_begin(7);
    __tpuprof_begin_dims(8, dims, uint32_t(i % 3));
    __tpuprof_end(8);
    __tpuprof_end(7);
  }
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(listDir(Dir), names); // No temporary file left behind.
  // The same file, finalized where the records were written: not replaced.
  EXPECT_EQ(inodeOf(path(names[0])), ino);
  // The strict parser checks sizes, counts, padding and the file's end (the
  // unused capacity is gone).
  Dump d = onlyDump();
  EXPECT_NE(d.header.flags & TPUPROF_DUMP_COMPLETE, 0u);
  EXPECT_EQ(d.header.dropped, 0u);
  ASSERT_EQ(d.threads.size(), 1u);
  const ThreadSection &t = d.threads[0];
  EXPECT_EQ(t.head.tid, gettid_());
  EXPECT_EQ(t.head.dropped, 0u);
  ASSERT_EQ(t.records.size(), 2u * n);
  uint64_t prevEnd = d.header.window_begin;
  for (int i = 0; i < n; ++i) {
    const Record &a = t.records[2 * i], &b = t.records[2 * i + 1];
    ASSERT_EQ(a.rec.probe, 7u);
    ASSERT_EQ(a.rec.depth, 0u);
    ASSERT_TRUE(a.dims.empty());
    ASSERT_EQ(b.rec.probe, 8u);
    ASSERT_EQ(b.rec.depth, 1u);
    ASSERT_EQ(b.dims.size(), size_t(i % 3)) << i;
    if (i % 3 > 0) {
      ASSERT_EQ(b.dims[0], i);
    }
    if (i % 3 > 1) {
      ASSERT_EQ(b.dims[1], -i);
    }
    ASSERT_LE(prevEnd, a.rec.begin) << i;
    ASSERT_LE(a.rec.begin, b.rec.begin) << i;
    ASSERT_LE(b.rec.begin, b.rec.end) << i;
    ASSERT_LE(b.rec.end, a.rec.end) << i;
    prevEnd = a.rec.end;
  }
  EXPECT_LE(prevEnd, d.header.window_end);
}

TEST_F(Close, ProbeOpenAtAnInPlaceCloseStaysOpenAndItsEndWritesNothing) {
  ASSERT_EQ(tpuprof_enable(64, 0), 0);
  pair(20);
  __tpuprof_begin(21); // Still open when the window closes.
  pair(22);
  ASSERT_EQ(tpuprof_disable(), 0);
  std::string bytes = readFile(tpuprof_last_dump_path());
  // The end lands in memory that no longer maps the dump.
  __tpuprof_end(21);
  pair(23);
  EXPECT_EQ(readFile(tpuprof_last_dump_path()), bytes);
  Dump d = lastDump();
  ASSERT_EQ(d.threads.size(), 1u);
  const std::vector<Record> &r = d.threads[0].records;
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].rec.probe, 20u);
  EXPECT_NE(r[0].rec.end, 0u);
  EXPECT_EQ(r[1].rec.probe, 21u);
  EXPECT_EQ(r[1].rec.end, 0u);
  EXPECT_EQ(r[2].rec.probe, 22u);
  EXPECT_EQ(r[2].rec.depth, 1u);
  EXPECT_NE(r[2].rec.end, 0u);
  // The thread's next window records into a fresh section as usual.
  ASSERT_EQ(tpuprof_enable(64, 0), 0);
  pair(24);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump next = lastDump();
  ASSERT_EQ(next.threads.size(), 1u);
  ASSERT_EQ(next.threads[0].records.size(), 1u);
  EXPECT_EQ(next.threads[0].records[0].rec.probe, 24u);
}

TEST_F(Close, WindowWithoutRecordsIsFinalizedInPlace) {
  ASSERT_EQ(tpuprof_enable(64, 0), 0);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump(); // The enabling thread's unused section is gone.
  EXPECT_TRUE(d.threads.empty());
  EXPECT_NE(d.header.flags & TPUPROF_DUMP_COMPLETE, 0u);
}

TEST_F(Close, ThreadRecordingThroughInPlaceFlushesLosesNothing) {
  // Windows after the first hold only the worker (the enabling thread's
  // section is in the first one): each flush detaches the buffer the
  // worker is writing and finalizes its file in place. TSan checks this.
  ASSERT_EQ(tpuprof_enable(1u << 15, 0), 0);
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> pairs{0};
  uint64_t tid = 0;
  std::thread worker([&] {
    tid = gettid_();
    int64_t dims[1] = {5};
    while (!stop.load(std::memory_order_relaxed)) {
      __tpuprof_begin(400);
      __tpuprof_begin_dims(401, dims, 1);
      __tpuprof_end(401);
      __tpuprof_end(400);
      pairs.fetch_add(1, std::memory_order_relaxed);
    }
  });
  while (pairs.load() < 100)
    std::this_thread::yield();
  for (int f = 0; f < 10; ++f) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ASSERT_EQ(tpuprof_flush(), 0);
  }
  stop = true;
  worker.join();
  ASSERT_EQ(tpuprof_disable(), 0);
  // A window the worker did not record in (it may not have run between two
  // flushes) leaves no dump: its file is created by its first record.
  std::vector<std::string> names = listDir(Dir);
  EXPECT_GE(names.size(), 1u);
  EXPECT_LE(names.size(), 11u);
  uint64_t total = 0;
  for (const std::string &n : names) {
    Dump d;
    ASSERT_EQ(parseDump(path(n), d), "") << n;
    EXPECT_LE(d.threads.size(), 1u) << n;
    for (const ThreadSection &t : d.threads) {
      EXPECT_EQ(t.head.tid, tid) << n;
      uint64_t kept = t.records.size() + t.head.dropped;
      for (size_t k = 0; k < t.records.size(); ++k) {
        const tpuprof_record &r = t.records[k].rec;
        ASSERT_TRUE(r.end == 0 || r.end >= r.begin) << n;
        ASSERT_EQ(r.num_dims, r.probe == 401 ? 1u : 0u) << n;
        if (r.num_dims) {
          ASSERT_EQ(t.records[k].dims[0], 5) << n;
        }
        // Only records at the window's edges can be open.
        if (r.end == 0) {
          ASSERT_TRUE(k + 2 >= t.records.size() || k < 2) << n << " " << k;
        }
      }
      total += kept;
    }
  }
  // Not per window: a window may end right after the worker entered it,
  // before its first record (under TSan, mapping a section takes ms).
  EXPECT_GT(total, 0u);
}

TEST_F(Close, TwoThreadsAreFinalizedInPlaceWithOneStillInsideAProbe) {
  ASSERT_EQ(tpuprof_enable(256, 0), 0);
  std::atomic<int> stage{0};
  uint64_t tid = 0;
  std::thread worker([&] {
    tid = gettid_();
    pair(60);
    __tpuprof_begin(61); // Inside a probe while the window closes.
    stage = 1;
    while (stage.load() != 2)
      std::this_thread::yield();
    __tpuprof_end(61); // Into memory no dump reads.
    pair(62);
    stage = 3;
  });
  while (stage.load() != 1)
    std::this_thread::yield();
  pair(63);
  std::vector<std::string> names = listDir(Dir);
  ASSERT_EQ(names.size(), 1u);
  ino_t ino = inodeOf(path(names[0]));
  ASSERT_EQ(tpuprof_disable(), 0);
  std::string bytes = readFile(tpuprof_last_dump_path());
  stage = 2;
  while (stage.load() != 3)
    std::this_thread::yield();
  worker.join();
  EXPECT_EQ(readFile(tpuprof_last_dump_path()), bytes);
  EXPECT_EQ(listDir(Dir), names);
  EXPECT_EQ(inodeOf(path(names[0])), ino); // Edited, not replaced.
  Dump d = onlyDump();
  ASSERT_EQ(d.threads.size(), 2u);
  // Threads by number: main, which took its first segment when it opened
  // the window, then the worker.
  const ThreadSection &m = d.threads[0], &w = d.threads[1];
  EXPECT_EQ(w.head.tid, tid);
  EXPECT_EQ(m.head.tid, gettid_());
  ASSERT_EQ(w.records.size(), 2u);
  EXPECT_EQ(w.records[0].rec.probe, 60u);
  EXPECT_NE(w.records[0].rec.end, 0u);
  EXPECT_EQ(w.records[1].rec.probe, 61u);
  EXPECT_EQ(w.records[1].rec.end, 0u);
  ASSERT_EQ(m.records.size(), 1u);
  EXPECT_EQ(m.records[0].rec.probe, 63u);
}

TEST_F(Close, ThreadsInterleavingSegmentsReadBackInOrder) {
  // Four threads fill segments at once, so their SEGMENT sections
  // interleave in the file; each thread's records come back in order.
  const int threads = 4, pairs = 60000; // Several segments each.
  ASSERT_EQ(tpuprof_enable(2 * pairs, 0), 0);
  std::vector<uint64_t> tids(threads);
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i)
    pool.emplace_back([&, i] {
      tids[i] = gettid_();
      for (int k = 0; k < pairs; ++k) {
        int64_t dim = k;
        __tpuprof_begin_dims(uint32_t(100 + i), &dim, 1);
        __tpuprof_end(uint32_t(100 + i));
      }
    });
  for (std::thread &t : pool)
    t.join();
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  ASSERT_EQ(d.threads.size(), size_t(threads));
  EXPECT_EQ(d.header.dropped, 0u);
  for (const ThreadSection &t : d.threads) {
    EXPECT_GT(t.segments, 3u);
    int i = int(std::find(tids.begin(), tids.end(), t.head.tid) - tids.begin());
    ASSERT_LT(i, threads);
    ASSERT_EQ(t.records.size(), size_t(pairs));
    for (int k = 0; k < pairs; ++k) {
      ASSERT_EQ(t.records[k].rec.probe, uint32_t(100 + i));
      ASSERT_EQ(t.records[k].dims.at(0), k);
      ASSERT_NE(t.records[k].rec.end, 0u);
    }
  }
}

TEST_F(Close, RecordLimitCountsWhatIsNotKept) {
  // The limit caps the records kept, exactly, across segment boundaries.
  const int limit = 50000;
  ASSERT_EQ(tpuprof_enable(limit, 0), 0);
  for (int k = 0; k < limit + 123; ++k)
    pair(5);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  ASSERT_EQ(d.threads.size(), 1u);
  EXPECT_EQ(d.threads[0].records.size(), size_t(limit));
  EXPECT_EQ(d.threads[0].droppedFull, 123u);
  EXPECT_EQ(d.header.dropped, 123u);
}

TEST_F(Close, StageLapsKeepEveryRecordInOrderAndOpenProbesGetTheirEnds) {
  // A thread that records a lot reuses its stage, its largest segment:
  // each full lap is written to a section of its own and the stage starts
  // over. Probes open across laps (one for the whole window, one per block)
  // get their ends in the written copies.
  const int blocks = 4, perBlock = 50000; // 6.4 MB of records: ~4 laps.
  ASSERT_EQ(tpuprof_enable(2 * blocks * (perBlock + 1), 0), 0); // Dims too.
  __tpuprof_begin(30);
  for (int b = 0; b < blocks; ++b) {
    __tpuprof_begin(31);
    for (int i = 0; i < perBlock; ++i) {
      int64_t dim = int64_t(b) * perBlock + i;
      __tpuprof_begin_dims(32, &dim, 1);
      __tpuprof_end(32);
    }
    __tpuprof_end(31);
  }
  __tpuprof_end(30);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  EXPECT_EQ(d.header.dropped, 0u);
  ASSERT_EQ(d.threads.size(), 1u);
  const ThreadSection &t = d.threads[0];
  EXPECT_GT(t.segments, 10u); // 6 mapped segments, the stage, its laps.
  const std::vector<Record> &r = t.records;
  ASSERT_EQ(r.size(), size_t(1 + blocks * (perBlock + 1)));
  ASSERT_EQ(r[0].rec.probe, 30u);
  size_t k = 1;
  uint64_t prevEnd = r[0].rec.begin;
  for (int b = 0; b < blocks; ++b) {
    const Record &block = r[k++];
    ASSERT_EQ(block.rec.probe, 31u) << b;
    ASSERT_EQ(block.rec.depth, 1u) << b;
    ASSERT_LE(prevEnd, block.rec.begin) << b;
    for (int i = 0; i < perBlock; ++i, ++k) {
      ASSERT_EQ(r[k].rec.probe, 32u) << k;
      ASSERT_EQ(r[k].rec.depth, 2u) << k;
      ASSERT_EQ(r[k].dims.size(), 1u) << k;
      ASSERT_EQ(r[k].dims[0], int64_t(b) * perBlock + i) << k;
      ASSERT_LE(prevEnd, r[k].rec.begin) << k;
      ASSERT_LE(r[k].rec.begin, r[k].rec.end) << k;
      prevEnd = r[k].rec.end;
    }
    ASSERT_LE(prevEnd, block.rec.end) << b; // Its end, written later.
    prevEnd = block.rec.end;
  }
  EXPECT_LE(prevEnd, r[0].rec.end);
  EXPECT_LE(r[0].rec.end, d.header.window_end);

  // The record limit still counts exactly when it falls in a later lap.
  const int limit = 150000;
  ASSERT_EQ(tpuprof_enable(limit, 0), 0);
  for (int i = 0; i < limit + 77; ++i)
    pair(5);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump limited = lastDump();
  ASSERT_EQ(limited.threads.size(), 1u);
  EXPECT_EQ(limited.threads[0].records.size(), size_t(limit));
  EXPECT_EQ(limited.threads[0].droppedFull, 77u);
}

TEST_F(Close, ProbeOpenAcrossALapAndTheCloseStaysUnfinished) {
  // Its record was written with the lap; an end after the close goes to
  // no dump, in place or in the file.
  ASSERT_EQ(tpuprof_enable(1u << 20, 0), 0);
  __tpuprof_begin(33);
  for (int i = 0; i < 150000; ++i)
    pair(34);
  ASSERT_EQ(tpuprof_flush(), 0);
  __tpuprof_end(33);
  pair(35);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump first;
  ASSERT_EQ(parseDump(Dir + "/tpuprof_data_dev0-0", first), "");
  ASSERT_EQ(first.threads.size(), 1u);
  ASSERT_EQ(first.threads[0].records.size(), 150001u);
  EXPECT_EQ(first.threads[0].records[0].rec.probe, 33u);
  EXPECT_EQ(first.threads[0].records[0].rec.end, 0u);
  Dump second;
  ASSERT_EQ(parseDump(Dir + "/tpuprof_data_dev0-1", second), "");
  ASSERT_EQ(second.threads.size(), 1u);
  ASSERT_EQ(second.threads[0].records.size(), 1u);
  EXPECT_EQ(second.threads[0].records[0].rec.probe, 35u);
}

TEST_F(Close, RingKeepsTheNewestRecordsInOrder) {
  // The ring reuses whole segments, a quarter of the limit each: it keeps
  // at least three quarters of the limit, the newest, oldest first.
  ASSERT_EQ(tpuprof_set_buffer_policy(TPUPROF_BUFFER_RING), 0);
  for (uint32_t n : {1000u, 1030u, 1060u, 1099u}) {
    ASSERT_EQ(tpuprof_enable(100, 0), 0);
    for (uint32_t i = 0; i < n; ++i)
      pair(1000 + i);
    ASSERT_EQ(tpuprof_disable(), 0);
    Dump d = lastDump();
    ASSERT_EQ(d.threads.size(), 1u);
    const ThreadSection &t = d.threads[0];
    EXPECT_GE(t.records.size(), 75u) << n;
    EXPECT_LE(t.records.size(), 100u) << n;
    EXPECT_EQ(t.records.size() + t.droppedOverwritten, n);
    EXPECT_EQ(t.head.dropped, t.droppedOverwritten);
    for (size_t k = 0; k < t.records.size(); ++k) {
      ASSERT_EQ(t.records[k].rec.probe,
                uint32_t(1000 + n - t.records.size() + k))
          << n << " " << k;
    }
  }
  ASSERT_EQ(tpuprof_set_buffer_policy(TPUPROF_BUFFER_STOP), 0);
}

TEST_F(Close, ProbeOpenAtTheCloseKeepsEndZero) {
  ASSERT_EQ(tpuprof_set_events("perf::TASK-CLOCK"), 0);
  ASSERT_EQ(tpuprof_enable(64, 1), 0);
  __tpuprof_begin(31); // Open at the close: its words hold begin readings.
  __tpuprof_begin(32);
  spinFor(std::chrono::microseconds(2000));
  __tpuprof_end(32);
  ASSERT_EQ(tpuprof_disable(), 0);
  __tpuprof_end(31); // Into memory no dump reads.
  Dump d = lastDump();
  ASSERT_EQ(d.threads.size(), 1u);
  ASSERT_EQ(d.threads[0].records.size(), 2u);
  const Record *open = &d.threads[0].records[0];
  const Record *done = &d.threads[0].records[1];
  ASSERT_EQ(open->rec.probe, 31u);
  ASSERT_EQ(done->rec.probe, 32u);
  EXPECT_EQ(open->rec.end, 0u);
  ASSERT_NE(done->rec.end, 0u);
  ASSERT_EQ(done->counters.size(), 4u);
  EXPECT_GT(done->counters[0], 0u); // Task clock of 2 ms of spinning.
  EXPECT_GT(done->counters[1], 0u);
}

TEST_F(Close, RingWithRecordsOfDifferentSizesStaysInItsSegments) {
  // A small ring whose records alternate between no dims and 20 dims: a
  // segment taken for a small record is too small for a large one when
  // it is reused. Nothing is written outside the segments, and every
  // record is kept or counted.
  ASSERT_EQ(tpuprof_set_buffer_policy(TPUPROF_BUFFER_RING), 0);
  ASSERT_EQ(tpuprof_enable(10, 0), 0);
  int64_t dims[20] = {};
  const uint32_t n = 2000;
  for (uint32_t i = 0; i < n; ++i) {
    dims[0] = i;
    __tpuprof_begin_dims(500, dims, i % 2 ? 20 : 0);
    __tpuprof_end(500);
  }
  ASSERT_EQ(tpuprof_disable(), 0);
  ASSERT_EQ(tpuprof_set_buffer_policy(TPUPROF_BUFFER_STOP), 0);
  Dump d = onlyDump();
  ASSERT_EQ(d.threads.size(), 1u);
  const ThreadSection &t = d.threads[0];
  EXPECT_GT(t.records.size(), 0u);
  EXPECT_EQ(t.records.size() + t.head.dropped, n);
  int64_t prev = -1;
  for (const Record &r : t.records) {
    ASSERT_NE(r.rec.end, 0u);
    if (!r.dims.empty()) { // Newest last, in order.
      EXPECT_GT(r.dims[0], prev);
      prev = r.dims[0];
    }
  }
}
