//===- RuntimeTest.cpp - libtpuprof_rt behaviour -------------- -*- C++ -*-===//
//
// Windows, dump files, records and threads, checked through the public API
// and a strict reader of the dump (DumpParser.h). Each test writes into its
// own temporary directory (tpuprof_set_output). The runtime's state is
// process-wide, so tests leave no window open and make no assumption about
// module ids or thread states left by earlier tests in the same process.
//
//===----------------------------------------------------------------------===//

#include "DumpParser.h"
#include "FsUtil.h"
#include "OutputDirTest.h"
#include "rt_internal.h"
#include "tpuprof/ProbeTable.h"
#include "tpuprof/tpuprof.h"
#include "tpuprof/tpuprof.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <set>
#include <string>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tpuprof_test;

using tpuprof::test::listDir;

namespace {

uint64_t gettid_() { return (uint64_t)syscall(SYS_gettid); }

void writeFile(const std::string &path, const std::string &data) {
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(data.data(), 1, data.size(), f);
  std::fclose(f);
}

/// Per-test output directory and a clean runtime state.
class Runtime : public tpuprof::test::OutputDirTest {
protected:
  /// The THREAD section of thread `tid`, or nullptr.
  static const ThreadSection *threadOf(const Dump &d, uint64_t tid) {
    for (const ThreadSection &t : d.threads)
      if (t.head.tid == tid)
        return &t;
    return nullptr;
  }
};

void pair(uint32_t id) {
  __tpuprof_begin(id);
  __tpuprof_end(id);
}

} // namespace

//===----------------------------------------------------------------------===//
// Windows and dump files
//===----------------------------------------------------------------------===//

TEST_F(Runtime, WindowWritesExactlyOneDumpNamedByDevice) {
  tpuprof_set_output(Dir.c_str(), 3);
  EXPECT_FALSE(tpuprof_is_enabled());
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  EXPECT_TRUE(tpuprof_is_enabled());
  EXPECT_EQ(__tpuprof_enabled, 1u);
  pair(1);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_FALSE(tpuprof_is_enabled());
  EXPECT_EQ(__tpuprof_enabled, 0u);
  EXPECT_EQ(listDir(Dir), std::vector<std::string>{"tpuprof_data_dev3-0"});
  EXPECT_EQ(std::string(tpuprof_last_dump_path()), path("tpuprof_data_dev3-0"));
  struct stat st;
  ASSERT_EQ(stat(path("tpuprof_data_dev3-0").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  Dump d = onlyDump();
  EXPECT_EQ(d.header.device, 3u);
  EXPECT_EQ(d.header.call_num, 0u);
}

TEST_F(Runtime, SecondWindowGetsNextCallNumber) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(tpuprof_enable(16, 0), 0);
    pair(1);
    ASSERT_EQ(tpuprof_disable(), 0);
    Dump d = lastDump();
    EXPECT_EQ(d.header.call_num, (uint32_t)i);
  }
  EXPECT_EQ(listDir(Dir), (std::vector<std::string>{"tpuprof_data_dev0-0",
                                                    "tpuprof_data_dev0-1",
                                                    "tpuprof_data_dev0-2"}));
}

TEST_F(Runtime, ExistingFilesAreNeverOverwritten) {
  writeFile(path("tpuprof_data_dev0-0"), "someone else's dump");
  writeFile(path("tpuprof_data_dev0-2"), "another one");
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(std::string(tpuprof_last_dump_path()), path("tpuprof_data_dev0-1"));
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(std::string(tpuprof_last_dump_path()), path("tpuprof_data_dev0-3"));
  EXPECT_EQ(readFile(path("tpuprof_data_dev0-0")), "someone else's dump");
  EXPECT_EQ(readFile(path("tpuprof_data_dev0-2")), "another one");
  Dump d = lastDump();
  EXPECT_EQ(d.header.call_num, 3u);
}

// A directory of many dumps: the search skips the run of taken names in a
// few dozen checks instead of trying each, so a free name inside the run
// (5 here) is passed over, and nothing there is touched.
TEST_F(Runtime, ManyExistingDumpsAreSkippedNotEachTried) {
  for (int n = 0; n < 1000; ++n)
    if (n != 5)
      writeFile(path("tpuprof_data_dev0-" + std::to_string(n)), "old");
  writeFile(path("tpuprof_data_dev0-1001"), "old");
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(std::string(tpuprof_last_dump_path()),
            path("tpuprof_data_dev0-1000"));
  EXPECT_EQ(lastDump().header.call_num, 1000u);
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(std::string(tpuprof_last_dump_path()),
            path("tpuprof_data_dev0-1002"));
  EXPECT_EQ(readFile(path("tpuprof_data_dev0-1001")), "old");
  EXPECT_EQ(readFile(path("tpuprof_data_dev0-999")), "old");
  EXPECT_EQ(listDir(Dir).size(), 1002u);
}

TEST_F(Runtime, UnwritableOutputFailsEnableInOneLine) {
  std::string file = Dir + "/plain";
  FILE *f = fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fclose(f);
  tpuprof_set_output((file + "/sub").c_str(), -1);
  // Said once; no window opens, so none loses its records.
  testing::internal::CaptureStderr();
  EXPECT_EQ(tpuprof_enable(16, 0), -1);
  EXPECT_FALSE(tpuprof_is_enabled());
  pair(1);
  EXPECT_EQ(tpuprof_enable(16, 0), -1);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "tpuprof: cannot create dump '" + file +
                     "/sub/tpuprof_data_dev0-0': Not a directory; this "
                     "window's records are not kept\n");
  std::remove(file.c_str());
  tpuprof_set_output(Dir.c_str(), -1);
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(listDir(Dir), std::vector<std::string>{"tpuprof_data_dev0-0"});
}

TEST_F(Runtime, MissingOutputDirectoriesAreCreated) {
  std::string deep = Dir + "/missing/deeper";
  tpuprof_set_output(deep.c_str(), -1);
  testing::internal::CaptureStderr();
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  pair(1);
  EXPECT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(listDir(deep), std::vector<std::string>{"tpuprof_data_dev0-0"});
  std::remove((deep + "/tpuprof_data_dev0-0").c_str());
  rmdir(deep.c_str());
  rmdir((Dir + "/missing").c_str());
  tpuprof_set_output(Dir.c_str(), -1);
}

TEST_F(Runtime, ControlErrors) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(tpuprof_disable(), -1);
  EXPECT_EQ(tpuprof_flush(), -1);
  EXPECT_EQ(tpuprof_enable(16, 3), -1);
  EXPECT_EQ(tpuprof_enable(16, -1), -1);
  EXPECT_EQ(tpuprof_enable(TPUPROF_RT_MAX_RECORDS + 1, 0), -1);
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  EXPECT_EQ(tpuprof_enable(16, 0), -1);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("tpuprof_disable: no profiling window is open"),
            std::string::npos);
  EXPECT_NE(err.find("mode 3 is not 0, 1 or 2"), std::string::npos);
  EXPECT_NE(err.find("already open"), std::string::npos);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 6);
  EXPECT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(listDir(Dir).size(), 1u);
}

TEST_F(Runtime, ModesAreRecordedInTheHeader) {
  for (int mode = 0; mode <= 2; ++mode) {
    ASSERT_EQ(tpuprof_enable(16, mode), 0);
    pair(1);
    ASSERT_EQ(tpuprof_disable(), 0);
    Dump d = lastDump();
    EXPECT_EQ(d.header.mode, (uint32_t)mode);
    // Mode 0: no counters. Modes 1/2: whatever opened here (CountersTest
    // checks which), and mode 2 always has the CPU word.
    if (mode == 0) {
      EXPECT_EQ(d.numEvents, 0u);
    }
    if (mode == 2) {
      EXPECT_GE(d.numEvents, 1u);
    }
    for (const ThreadSection &t : d.threads)
      for (const Record &r : t.records) {
        EXPECT_EQ(r.rec.num_counters, d.numEvents);
      }
  }
}

TEST_F(Runtime, FlushSplitsTheWindow) {
  ASSERT_EQ(tpuprof_enable(64, 0), 0);
  for (int i = 0; i < 5; ++i)
    pair(10);
  ASSERT_EQ(tpuprof_flush(), 0);
  EXPECT_TRUE(tpuprof_is_enabled());
  Dump first = lastDump();
  for (int i = 0; i < 7; ++i)
    pair(11);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump second = lastDump();
  EXPECT_EQ(first.header.call_num, 0u);
  EXPECT_EQ(second.header.call_num, 1u);
  const ThreadSection *a = threadOf(first, gettid_());
  const ThreadSection *b = threadOf(second, gettid_());
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->records.size(), 5u);
  ASSERT_EQ(b->records.size(), 7u);
  EXPECT_EQ(a->records[0].rec.probe, 10u);
  EXPECT_EQ(b->records[0].rec.probe, 11u);
  EXPECT_EQ(second.header.window_begin, first.header.window_end);
  EXPECT_LE(a->records.back().rec.end, first.header.window_end);
  EXPECT_GE(b->records.front().rec.begin, second.header.window_begin);
}

TEST_F(Runtime, ProbesOutsideAWindowRecordNothing) {
  pair(5);
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  ASSERT_EQ(tpuprof_disable(), 0);
  pair(5);
  Dump d = onlyDump();
  EXPECT_TRUE(d.threads.empty());
  EXPECT_TRUE(d.hasCalibration);
  // Modules, calibration, events, process, and the enabling thread's first
  // segment, taken when the window opened and left empty.
  EXPECT_EQ(d.header.num_sections, d.modules.size() + 1 + 1 + 1 + 1);
  EXPECT_TRUE(d.hasProcess);
  ASSERT_EQ(d.segments.size(), 1u);
  EXPECT_EQ(d.segments[0].head.stream_size, 0u);
}

namespace {
/// (thread, ticks) of each segment taken while the hook is set: the hook
/// runs under the thread-list lock, as the segment is taken.
std::vector<std::pair<uint64_t, uint64_t>> segmentsTaken;
void noteSegment() { segmentsTaken.push_back({gettid_(), __tpuprof_rt_now()}); }
} // namespace

TEST_F(Runtime, EnablingThreadsSetUpIsNotWindowTime) {
  segmentsTaken.clear();
  __tpuprof_rt_test_segment_hook = noteSegment;
  ASSERT_EQ(tpuprof_enable(1000, 0), 0);
  size_t atEnable = segmentsTaken.size();
  pair(1);
  size_t afterFirstProbe = segmentsTaken.size();
  uint64_t other = 0;
  std::thread([&] {
    other = gettid_();
    pair(2);
  }).join();
  ASSERT_EQ(tpuprof_disable(), 0);
  __tpuprof_rt_test_segment_hook = nullptr;
  Dump d = onlyDump();
  // The enabling thread took its first segment in tpuprof_enable, before
  // the window's clock started, and its first probe took no slow path.
  ASSERT_EQ(atEnable, 1u);
  EXPECT_EQ(segmentsTaken[0].first, gettid_());
  EXPECT_LT(segmentsTaken[0].second, d.header.window_begin);
  EXPECT_EQ(afterFirstProbe, atEnable);
  const ThreadSection *self = threadOf(d, gettid_());
  ASSERT_NE(self, nullptr);
  EXPECT_GE(self->records.front().rec.begin, d.header.window_begin);
  // A thread that first records later takes the slow path in the window,
  // before its first record's begin is read: the set-up is the thread's
  // time before that record, never inside it.
  ASSERT_EQ(segmentsTaken.size(), 2u);
  EXPECT_EQ(segmentsTaken[1].first, other);
  EXPECT_GT(segmentsTaken[1].second, d.header.window_begin);
  const ThreadSection *later = threadOf(d, other);
  ASSERT_NE(later, nullptr);
  EXPECT_LT(segmentsTaken[1].second, later->records.front().rec.begin);
}

TEST_F(Runtime, ProfileWindowRAII) {
  {
    tpuprof::ProfileWindow w(32, 0);
    EXPECT_TRUE(w.active());
    EXPECT_TRUE(tpuprof_is_enabled());
    testing::internal::CaptureStderr();
    tpuprof::ProfileWindow nested; // Cannot open a second window ...
    testing::internal::GetCapturedStderr();
    EXPECT_FALSE(nested.active()); // ... and will not close the first.
    pair(3);
    EXPECT_EQ(w.flush(), 0);
    pair(3);
  }
  EXPECT_FALSE(tpuprof_is_enabled());
  EXPECT_EQ(listDir(Dir).size(), 2u);
  EXPECT_EQ(std::string(tpuprof::ProfileWindow::lastDumpPath()),
            path("tpuprof_data_dev0-1"));
}

//===----------------------------------------------------------------------===//
// Records
//===----------------------------------------------------------------------===//

TEST_F(Runtime, BufferLimitCountsEveryDroppedRecord) {
  ASSERT_EQ(tpuprof_enable(100, 0), 0);
  for (int i = 0; i < 150; ++i)
    pair(7);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  const ThreadSection *t = threadOf(d, gettid_());
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->records.size(), 100u);
  EXPECT_EQ(t->head.dropped, 50u);
  EXPECT_EQ(d.header.dropped, 50u);
  for (const Record &r : t->records) {
    EXPECT_NE(r.rec.end, 0u); // The ends of dropped begins wrote nothing.
  }
}

TEST_F(Runtime, RecordsWithDimsTakeMoreSpace) {
  // 10 timing-only records = 240 bytes; a record with 2 dims is 40 bytes.
  ASSERT_EQ(tpuprof_enable(10, 0), 0);
  for (int64_t i = 0; i < 10; ++i) {
    int64_t dims[2] = {i, -i * 1000};
    __tpuprof_begin_dims(21, dims, 2);
    __tpuprof_end(21);
  }
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  const ThreadSection *t = threadOf(d, gettid_());
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->records.size(), 6u);
  EXPECT_EQ(t->head.dropped, 4u);
  EXPECT_EQ(t->head.stream_size, 6u * TPUPROF_RECORD_BYTES(2, 0));
  for (int64_t i = 0; i < 6; ++i) {
    const Record &r = t->records[i];
    EXPECT_EQ(r.rec.probe, 21u);
    ASSERT_EQ(r.rec.num_dims, 2u);
    EXPECT_EQ(r.dims[0], i);
    EXPECT_EQ(r.dims[1], -i * 1000);
  }
}

TEST_F(Runtime, NestedProbesRecordDepthAndOrder) {
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  __tpuprof_begin(1);
  __tpuprof_begin(2);
  __tpuprof_begin(3);
  __tpuprof_end(3);
  __tpuprof_end(2);
  __tpuprof_begin(4);
  __tpuprof_end(4);
  __tpuprof_end(1);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  const ThreadSection *t = threadOf(d, gettid_());
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->records.size(), 4u);
  const uint32_t probes[] = {1, 2, 3, 4}, depths[] = {0, 1, 2, 1};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(t->records[i].rec.probe, probes[i]);
    EXPECT_EQ(t->records[i].rec.depth, depths[i]);
    EXPECT_LE(t->records[i].rec.begin, t->records[i].rec.end);
  }
  const tpuprof_record &r1 = t->records[0].rec, &r2 = t->records[1].rec,
                       &r3 = t->records[2].rec, &r4 = t->records[3].rec;
  EXPECT_LE(r1.begin, r2.begin);
  EXPECT_LE(r2.begin, r3.begin);
  EXPECT_LE(r3.end, r2.end);
  EXPECT_LE(r2.end, r4.begin);
  EXPECT_LE(r4.end, r1.end);
}

TEST_F(Runtime, StackOverflowIsCountedAsDropped) {
  const uint32_t n = TPUPROF_RT_STACK_DEPTH + 44;
  ASSERT_EQ(tpuprof_enable(1000, 0), 0);
  for (uint32_t i = 0; i < n; ++i)
    __tpuprof_begin(i);
  for (uint32_t i = n; i-- > 0;)
    __tpuprof_end(i);
  pair(9999); // The stack is balanced again: depth 0.
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  const ThreadSection *t = threadOf(d, gettid_());
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->records.size(), TPUPROF_RT_STACK_DEPTH + 1);
  EXPECT_EQ(t->head.dropped, 44u);
  for (uint32_t i = 0; i < TPUPROF_RT_STACK_DEPTH; ++i) {
    EXPECT_EQ(t->records[i].rec.depth, i);
    EXPECT_NE(t->records[i].rec.end, 0u) << i;
  }
  EXPECT_EQ(t->records.back().rec.depth, 0u);
}

TEST_F(Runtime, MismatchedEndsAreHandledGracefully) {
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  __tpuprof_begin(1);
  __tpuprof_begin(2); // Never ended (think longjmp out of it).
  __tpuprof_end(1);   // Closes 2 unended and ends 1.
  __tpuprof_begin(3);
  __tpuprof_end(99); // Not open at all: ignored.
  __tpuprof_end(3);
  __tpuprof_end(3); // Stray end at depth 0: ignored.
  pair(4);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  const ThreadSection *t = threadOf(d, gettid_());
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->records.size(), 4u);
  EXPECT_NE(t->records[0].rec.end, 0u);
  EXPECT_EQ(t->records[1].rec.end, 0u);
  EXPECT_EQ(t->records[1].rec.depth, 1u);
  EXPECT_EQ(t->records[2].rec.depth, 0u);
  EXPECT_NE(t->records[2].rec.end, 0u);
  EXPECT_EQ(t->records[3].rec.depth, 0u);
}

TEST_F(Runtime, EndFromAnEarlierWindowLeavesTheNewOneAlone) {
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  __tpuprof_begin(1); // Open across the window boundary.
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump first = lastDump();
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  __tpuprof_begin(2);
  __tpuprof_end(2);
  __tpuprof_end(1); // Its record is in the first window's (reset) buffer.
  pair(3);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump second = lastDump();
  const ThreadSection *a = threadOf(first, gettid_());
  const ThreadSection *b = threadOf(second, gettid_());
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->records.size(), 1u);
  EXPECT_EQ(a->records[0].rec.end, 0u); // Never ended inside its window.
  ASSERT_EQ(b->records.size(), 2u);
  EXPECT_EQ(b->records[0].rec.probe, 2u);
  EXPECT_EQ(b->records[0].rec.depth, 1u); // Probe 1 is still open.
  EXPECT_NE(b->records[0].rec.end, 0u);
  EXPECT_EQ(b->records[1].rec.probe, 3u);
  EXPECT_EQ(b->records[1].rec.depth, 0u);
}

TEST_F(Runtime, CalibrationConvertsTicksToNanoseconds) {
  // Each way to read ticks, the TSC's ordered end read both ways (rdtscp
  // where the CPU has it, lfence; rdtsc where a VM hides it).
  struct Way {
    uint32_t source;
    int forceTicks; // 0: as the runtime chose.
  };
  std::vector<Way> ways = {{TPUPROF_CLOCK_MONOTONIC, 0}};
  if (__tpuprof_rt_cpu_has_invariant_tsc()) {
    ways.push_back({TPUPROF_CLOCK_TSC, 0});
    ways.push_back({TPUPROF_CLOCK_TSC, TPUPROF_RT_TICKS_TSC_LFENCE});
  }
  uint32_t saved = __tpuprof_rt_clock_source();
  for (Way way : ways) {
    uint32_t src = way.source;
    __tpuprof_rt_set_clock_source(src);
    if (way.forceTicks)
      __tpuprof_rt_use_tsc = way.forceTicks;
    ASSERT_EQ(tpuprof_enable(16, 0), 0);
    __tpuprof_begin(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    __tpuprof_end(1);
    ASSERT_EQ(tpuprof_disable(), 0);
    Dump d = lastDump();
    EXPECT_EQ(d.header.clock_source, src);
    const ThreadSection *t = threadOf(d, gettid_());
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(t->records.size(), 1u);
    double ns = ticksToNs(d.header, t->records[0].rec.end) -
                ticksToNs(d.header, t->records[0].rec.begin);
    EXPECT_GE(ns, 19e6) << "clock " << src << " ticks " << way.forceTicks;
    EXPECT_LE(ns, 500e6) << "clock " << src << " ticks " << way.forceTicks;
  }
  __tpuprof_rt_set_clock_source(saved);
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Probe-cost calibration (calibrate.c)
//===----------------------------------------------------------------------===//

/// ns of a tick interval by the dump's calibration pair.
double calibTicksToNs(const tpuprof_dump_header &h, uint64_t ticks) {
  if (h.clock_source == TPUPROF_CLOCK_MONOTONIC)
    return double(ticks);
  return double(ticks) * double(h.calib_ns1 - h.calib_ns0) /
         double(h.calib_ticks1 - h.calib_ticks0);
}

TEST_F(Runtime, WindowCarriesItsProbeCostAndNoCalibrationRecords) {
  for (int mode = 0; mode <= 1; ++mode) {
    ASSERT_EQ(tpuprof_enable(100, mode), 0);
    __tpuprof_begin(1);
    pair(2);
    __tpuprof_end(1);
    ASSERT_EQ(tpuprof_disable(), 0);
    Dump d = lastDump();
    ASSERT_TRUE(d.hasCalibration) << "mode " << mode;
    const tpuprof_calibration_section &c = d.calibration;
    // Mode 0 measures 512 pairs; modes 1/2 (counter reads) 96.
    EXPECT_EQ(c.pairs, mode == 0 ? 512u : 96u);
    // A pair's own interval lies inside the span from its begin to the next
    // pair's begin, so self <= nested holds pair by pair, and so for the
    // means of the fastest 90 % too. Both are clock reads apart: > 0.
    EXPECT_GT(c.nested_ticks, 0u);
    EXPECT_LE(c.self_ticks, c.nested_ticks);
    // Modes 1/2 read counters (the software ones at least open here), and
    // that read is part of a nested pair; mode 0 reads none.
    if (mode == 0) {
      EXPECT_EQ(c.read_ticks, 0u);
      EXPECT_TRUE(d.calibrationCounts.empty());
    } else {
      EXPECT_GT(c.read_ticks, 0u);
      EXPECT_LE(c.read_ticks, c.nested_ticks);
      EXPECT_EQ(d.calibrationCounts.size(), d.numEvents);
    }
    // Sanity, not speed: a probe pair is nowhere near a millisecond.
    EXPECT_LT(calibTicksToNs(d.header, c.nested_ticks), 1e6);
    // Only the program's two records reach the dump.
    ASSERT_EQ(d.threads.size(), 1u);
    ASSERT_EQ(d.threads[0].records.size(), 2u);
    EXPECT_EQ(d.threads[0].records[0].rec.probe, 1u);
    EXPECT_EQ(d.threads[0].records[1].rec.probe, 2u);
    EXPECT_EQ(d.threads[0].records[1].rec.depth, 1u);
  }
}

TEST_F(Runtime, CalibrationCanBeTurnedOff) {
  int saved = __tpuprof_rt_calibration_on;
  __tpuprof_rt_calibration_on = 0;
  ASSERT_EQ(tpuprof_enable(100, 0), 0);
  pair(3);
  ASSERT_EQ(tpuprof_disable(), 0);
  __tpuprof_rt_calibration_on = saved;
  Dump d = onlyDump();
  EXPECT_FALSE(d.hasCalibration);
  for (uint32_t kind : d.sectionKinds) {
    EXPECT_NE(kind, (uint32_t)TPUPROF_SECTION_CALIBRATION);
  }
  ASSERT_EQ(d.threads.size(), 1u);
  EXPECT_EQ(d.threads[0].records.size(), 1u);
}

TEST_F(Runtime, FlushedWindowsKeepTheCalibration) {
  ASSERT_EQ(tpuprof_enable(100, 0), 0);
  pair(3);
  ASSERT_EQ(tpuprof_flush(), 0);
  Dump first = lastDump();
  pair(3);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump second = lastDump();
  ASSERT_TRUE(first.hasCalibration);
  ASSERT_TRUE(second.hasCalibration);
  EXPECT_EQ(first.calibration.self_ticks, second.calibration.self_ticks);
  EXPECT_EQ(first.calibration.nested_ticks, second.calibration.nested_ticks);
}

TEST_F(Runtime, ManyThreadsRecordExactCounts) {
  const int threads = 8, perThread = 10000;
  ASSERT_EQ(tpuprof_enable(perThread, 0), 0);
  std::atomic<int> ready{0};
  std::vector<uint64_t> tids(threads);
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i)
    pool.emplace_back([&, i] {
      tids[i] = gettid_();
      ready.fetch_add(1);
      while (ready.load() < threads) // Start together, record at once.
        std::this_thread::yield();
      for (int k = 0; k < perThread / 2; ++k) { // Two records a turn.
        __tpuprof_begin(100 + i);
        __tpuprof_begin(200 + i);
        __tpuprof_end(200 + i);
        __tpuprof_end(100 + i);
      }
    });
  for (std::thread &t : pool)
    t.join();
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  EXPECT_EQ(d.header.dropped, 0u);
  std::set<uint64_t> seen;
  for (int i = 0; i < threads; ++i) {
    const ThreadSection *t = threadOf(d, tids[i]);
    ASSERT_NE(t, nullptr) << i;
    seen.insert(t->head.tid);
    ASSERT_EQ(t->records.size(), (size_t)perThread);
    EXPECT_EQ(t->head.dropped, 0u);
    for (size_t k = 0; k < t->records.size(); ++k) {
      const tpuprof_record &r = t->records[k].rec;
      ASSERT_EQ(r.probe, (k % 2 ? 200u : 100u) + i);
      ASSERT_EQ(r.depth, k % 2);
      ASSERT_NE(r.end, 0u);
    }
  }
  EXPECT_EQ(seen.size(), (size_t)threads);
}

TEST_F(Runtime, ThreadThatExitsKeepsItsRecords) {
  ASSERT_EQ(tpuprof_enable(256, 0), 0);
  uint64_t tid = 0;
  std::thread([&] {
    tid = gettid_();
    for (int i = 0; i < 100; ++i)
      pair(42);
  }).join();
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump first = lastDump();
  const ThreadSection *t = threadOf(first, tid);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->records.size(), 100u);
  // Its state was freed with that flush: it is in no later dump.
  ASSERT_EQ(tpuprof_enable(256, 0), 0);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(threadOf(lastDump(), tid), nullptr);
}

TEST_F(Runtime, ThreadsRecordWhileWindowsAreFlushed) {
  // The flusher reads buffers their owners are writing; TSan checks this.
  ASSERT_EQ(tpuprof_enable(4096, 0), 0);
  std::atomic<bool> stop{false};
  std::vector<std::thread> pool;
  for (int i = 0; i < 3; ++i)
    pool.emplace_back([&, i] {
      int64_t dims[1] = {i};
      while (!stop.load(std::memory_order_relaxed)) {
        __tpuprof_begin(300 + i);
        __tpuprof_begin_dims(310 + i, dims, 1);
        __tpuprof_end(310 + i);
        __tpuprof_end(300 + i);
      }
    });
  for (int f = 0; f < 10; ++f) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ASSERT_EQ(tpuprof_flush(), 0);
  }
  stop = true;
  for (std::thread &t : pool)
    t.join();
  ASSERT_EQ(tpuprof_disable(), 0);
  // A window no thread recorded in leaves no dump.
  std::vector<std::string> names = listDir(Dir);
  EXPECT_GE(names.size(), 1u);
  EXPECT_LE(names.size(), 11u);
  for (const std::string &n : names) {
    Dump d;
    ASSERT_EQ(parseDump(path(n), d), "") << n;
    for (const ThreadSection &t : d.threads)
      for (const Record &r : t.records) {
        ASSERT_LT(r.rec.depth, 2u);
        ASSERT_TRUE(r.rec.end == 0 || r.rec.end >= r.rec.begin);
        ASSERT_EQ(r.rec.num_dims, r.rec.probe >= 310 ? 1u : 0u);
      }
  }
}

//===----------------------------------------------------------------------===//
// Modules and the full round trip
//===----------------------------------------------------------------------===//

namespace {

std::string makeTable(const std::string &module, int n) {
  std::vector<tpuprof::ProbeInfo> probes;
  for (int i = 0; i < n; ++i) {
    tpuprof::ProbeInfo p;
    p.name = i % 2 ? "tosa.matmul" : "tosa.add";
    p.shapes = "f32[?, 784], f32[784, 128]";
    p.location = module + ".mlir:" + std::to_string(i + 1) + ":3";
    p.function = "main";
    p.hash = 0x1234567890abcdefull + i;
    p.flops = 1000u * i;
    p.bytes = 64u * i;
    p.kind = TPUPROF_KIND_OP;
    p.numDynDims = 1;
    probes.push_back(p);
  }
  return tpuprof::serializeProbeTable(module, probes);
}

} // namespace

TEST_F(Runtime, ModulesGetContiguousIdRanges) {
  std::string a = makeTable("a", 3), b = makeTable("b", 5);
  uint32_t firstA = 0, firstB = 0;
  __tpuprof_register_module(a.data(), a.size(), &firstA);
  __tpuprof_register_module(b.data(), b.size(), &firstB);
  EXPECT_LT(firstA, TPUPROF_IGNORED_PROBE_BASE);
  EXPECT_EQ(firstB, firstA + 3);
}

TEST_F(Runtime, BadTablesAreIgnoredWithAWarning) {
  std::string good = makeTable("good", 2);
  std::string badMagic = good;
  badMagic[0] = 'X';
  std::string badVersion = good;
  badVersion[4] = 9;
  std::string truncated = good.substr(0, good.size() - 8);
  std::string unterminated = good;
  unterminated.back() = 'x';
  uint32_t before = __tpuprof_rt_num_modules();
  for (const std::string *t :
       {&badMagic, &badVersion, &truncated, &unterminated}) {
    uint32_t first = 0;
    testing::internal::CaptureStderr();
    __tpuprof_register_module(t->data(), t->size(), &first);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(first, TPUPROF_IGNORED_PROBE_BASE);
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_EQ(err.rfind("tpuprof: ignoring probe table of module '", 0), 0u)
        << err;
  }
  uint32_t first = 0;
  testing::internal::CaptureStderr();
  __tpuprof_register_module(nullptr, 0, &first);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(first, TPUPROF_IGNORED_PROBE_BASE);
  EXPECT_EQ(__tpuprof_rt_num_modules(), before);

  // The bad module's probes cost nothing and record nothing; ids nobody
  // registered are recorded (the report flags them).
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  pair(TPUPROF_IGNORED_PROBE_BASE);
  pair(TPUPROF_IGNORED_PROBE_BASE + 1);
  pair(0x00abcdef);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  const ThreadSection *t = threadOf(d, gettid_());
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->records.size(), 1u);
  EXPECT_EQ(t->records[0].rec.probe, 0x00abcdefu);
  EXPECT_EQ(t->head.dropped, 0u);
}

TEST_F(Runtime, DumpRoundTripChecksEveryField) {
  std::string table = makeTable("roundtrip", 2);
  uint32_t first = 0;
  __tpuprof_register_module(table.data(), table.size(), &first);
  // The table was copied: scribbling over ours must not change the dump.
  std::string original = table;
  std::fill(table.begin(), table.end(), '\xee');

  tpuprof_set_output(Dir.c_str(), 7);
  // One software event: opens on any Linux, so the layout is fixed.
  ASSERT_EQ(tpuprof_set_events("perf::PAGE-FAULTS"), 0);
  ASSERT_EQ(tpuprof_enable(100, 1), 0);
  int64_t dims[1] = {32};
  __tpuprof_begin_dims(first + 0, dims, 1);
  __tpuprof_begin(first + 1);
  __tpuprof_end(first + 1);
  __tpuprof_end(first + 0);
  ASSERT_EQ(tpuprof_disable(), 0);

  Dump d = onlyDump();
  const tpuprof_dump_header &h = d.header;
  EXPECT_EQ(std::string(h.magic, 8), std::string("TPUPROF\0", 8));
  EXPECT_EQ(h.version, TPUPROF_DUMP_VERSION);
  EXPECT_EQ(h.header_size, sizeof(tpuprof_dump_header));
  EXPECT_EQ(h.mode, 1u);
  EXPECT_EQ(h.device, 7u);
  EXPECT_EQ(h.pid, (uint32_t)getpid());
  EXPECT_EQ(h.call_num, 0u);
  EXPECT_EQ(h.clock_source, __tpuprof_rt_clock_source());
  EXPECT_EQ(h.flags, (uint32_t)TPUPROF_DUMP_COMPLETE);
  EXPECT_LE(h.calib_ticks0, h.window_begin);
  EXPECT_LE(h.window_begin, h.window_end);
  EXPECT_LE(h.window_end, h.calib_ticks1);
  EXPECT_LT(h.calib_ns0, h.calib_ns1);
  EXPECT_EQ(h.dropped, 0u);
  EXPECT_EQ(h.reserved, 0u);

  // Sections: every module, then EVENTS, CALIBRATION, PROCESS, the
  // thread's one SEGMENT (it took it at its first record).
  uint32_t modules = __tpuprof_rt_num_modules();
  ASSERT_EQ(h.num_sections, modules + 1 + 1 + 1 + 1);
  ASSERT_EQ(d.sectionKinds.size(), h.num_sections);
  for (uint32_t i = 0; i < modules; ++i) {
    EXPECT_EQ(d.sectionKinds[i], (uint32_t)TPUPROF_SECTION_MODULE);
  }
  EXPECT_EQ(d.sectionKinds[modules], (uint32_t)TPUPROF_SECTION_EVENTS);
  EXPECT_EQ(d.sectionKinds[modules + 1], (uint32_t)TPUPROF_SECTION_CALIBRATION);
  EXPECT_EQ(d.sectionKinds[modules + 2], (uint32_t)TPUPROF_SECTION_PROCESS);
  EXPECT_EQ(d.sectionKinds[modules + 3], (uint32_t)TPUPROF_SECTION_SEGMENT);
  // A single process: no rank; the window's clock pairs in order.
  ASSERT_TRUE(d.hasProcess);
  EXPECT_EQ(d.process.rank, TPUPROF_RANK_UNKNOWN);
  EXPECT_NE(d.process.monotonic_ns0, 0u);
  EXPECT_LE(d.process.monotonic_ns0, d.process.monotonic_ns1);
  EXPECT_LE(d.process.realtime_ns0, d.process.realtime_ns1);
  ASSERT_EQ(d.segments.size(), 1u);
  const tpuprof_segment_section &seg = d.segments[0].head;
  EXPECT_EQ(seg.tid, gettid_());
  EXPECT_EQ(seg.thread, 0u);
  EXPECT_EQ(seg.seq, 0u);
  EXPECT_EQ(seg.dropped_full + seg.dropped_overwritten + seg.dropped_depth +
                seg.dropped_no_space + seg.unwound,
            0u);
  // The file's last section: its unused room was cut at the close.
  EXPECT_EQ(d.segments[0].sectionSize,
            sizeof(tpuprof_segment_section) + seg.stream_size);
  ASSERT_EQ(d.modules.size(), modules);
  for (uint32_t i = 0; i < modules; ++i) {
    EXPECT_EQ(d.modules[i].head.module_id, i);
  }
  const ModuleSection &m = d.modules.back();
  EXPECT_EQ(m.head.first_probe, first);
  EXPECT_EQ(m.head.table_size, original.size());
  EXPECT_EQ(m.table, original);
  tpuprof_set_events(nullptr);
  EXPECT_EQ(d.numEvents, 4u);
  EXPECT_EQ(d.eventNames, (std::vector<std::string>{"perf::PAGE-FAULTS",
                                                    TPUPROF_EVENT_TIME_ENABLED,
                                                    TPUPROF_EVENT_TIME_RUNNING,
                                                    TPUPROF_EVENT_READ_TICKS}));

  ASSERT_EQ(d.threads.size(), 1u);
  const ThreadSection &t = d.threads[0];
  EXPECT_EQ(t.head.tid, gettid_());
  EXPECT_EQ(t.head.dropped, 0u);
  EXPECT_EQ(t.head.num_records, 2u);
  EXPECT_EQ(t.head.stream_size,
            TPUPROF_RECORD_BYTES(1, 4) + TPUPROF_RECORD_BYTES(0, 4));
  ASSERT_EQ(t.records.size(), 2u);
  const Record &outer = t.records[0], &inner = t.records[1];
  EXPECT_EQ(outer.rec.probe, first);
  EXPECT_EQ(outer.rec.num_dims, 1u);
  EXPECT_EQ(outer.rec.num_counters, 4u);
  EXPECT_EQ(inner.rec.num_counters, 4u);
  EXPECT_GE(outer.counters[1], inner.counters[1]); // time enabled nests
  EXPECT_EQ(outer.rec.depth, 0u);
  EXPECT_EQ(outer.dims, std::vector<int64_t>{32});
  EXPECT_EQ(inner.rec.probe, first + 1);
  EXPECT_EQ(inner.rec.num_dims, 0u);
  EXPECT_EQ(inner.rec.depth, 1u);
  EXPECT_GE(outer.rec.begin, h.window_begin);
  EXPECT_LE(outer.rec.begin, inner.rec.begin);
  EXPECT_LE(inner.rec.begin, inner.rec.end);
  EXPECT_LE(inner.rec.end, outer.rec.end);
  EXPECT_LE(outer.rec.end, h.window_end);
}

//===----------------------------------------------------------------------===//
// The environment, end to end (env_child.c, linked to the shared library)
//===----------------------------------------------------------------------===//

#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

namespace {

struct ChildResult {
  pid_t pid = -1;
  int status = -1;
  std::string err;   ///< Its stderr.
  long maxRssKb = 0; ///< Its peak resident memory.
};

/// Runs env_child with `args` and exactly the environment `env`.
ChildResult runChild(const std::vector<std::string> &args,
                     const std::vector<std::string> &env,
                     const std::string &errPath) {
  ChildResult r;
  std::vector<std::string> argStore = {TPUPROF_RT_ENV_CHILD};
  argStore.insert(argStore.end(), args.begin(), args.end());
  std::vector<std::string> envStore = env;
  tpuprof::test::keepSanitizerEnv(envStore);
  std::vector<char *> argv = tpuprof::test::cStrings(argStore);
  std::vector<char *> envp = tpuprof::test::cStrings(envStore);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, errPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  struct rusage ru{};
  if (posix_spawn(&r.pid, argv[0], &fa, nullptr, argv.data(), envp.data()) == 0)
    wait4(r.pid, &r.status, 0, &ru);
  r.maxRssKb = ru.ru_maxrss;
  posix_spawn_file_actions_destroy(&fa);
  r.err = readFile(errPath);
  std::remove(errPath.c_str());
  return r;
}

} // namespace

TEST_F(Runtime, LargestRecordSizeCostsOnlyWhatIsKept) {
  // The documented maximum, 2^30 records per thread (24 GiB), caps what is
  // kept and allocates nothing: 1000 records make a small file, and the
  // process grows by little more than their pages (compared with the same
  // program not profiled, so that sanitizer runtimes cancel out).
  ChildResult off = runChild({"1000"}, {}, Dir + ".stderr");
  ChildResult c = runChild({"1000"},
                           {"TPUPROF_ENABLE=1", "TPUPROF_OUTPUT=" + Dir,
                            "TPUPROF_RECORD_SIZE=1073741824"},
                           Dir + ".stderr");
  ASSERT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0) << c.err;
  EXPECT_EQ(c.err, "");
  Dump d = onlyDump();
  ASSERT_EQ(d.threads.size(), 1u);
  EXPECT_EQ(d.threads[0].records.size(), 1000u);
  struct stat st;
  ASSERT_EQ(stat(path(listDir(Dir).at(0)).c_str(), &st), 0);
  EXPECT_LT(st.st_size, 64 * 1024);
  EXPECT_LT(c.maxRssKb - off.maxRssKb, 16 * 1024);
}

TEST_F(Runtime, EnvironmentProfilesTheWholeRun) {
  ChildResult c =
      runChild({"10"},
               {"TPUPROF_ENABLE=1", "TPUPROF_OUTPUT=" + Dir, "TPUPROF_DEVICE=5",
                "PROFILE_MODE=2", "PROFILE_RECORD_SIZE=8",
                // A software event: opens everywhere, so no
                // fallback warning on stderr.
                "TPUPROF_EVENTS=perf::PAGE-FAULTS"},
               Dir + ".stderr");
  ASSERT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0) << c.err;
  EXPECT_EQ(c.err, "");
  EXPECT_EQ(listDir(Dir), std::vector<std::string>{"tpuprof_data_dev5-0"});
  Dump d = onlyDump();
  EXPECT_EQ(d.header.pid, (uint32_t)c.pid);
  EXPECT_EQ(d.header.mode, 2u);
  EXPECT_EQ(d.header.device, 5u);
  // Mode 2 tracks memory.
  EXPECT_EQ(d.header.flags,
            (uint32_t)(TPUPROF_DUMP_COMPLETE | TPUPROF_DUMP_MEMORY));
  ASSERT_EQ(d.threads.size(), 1u);
  EXPECT_EQ(d.threads[0].head.tid, (uint64_t)c.pid); // The main thread.
  EXPECT_EQ(d.threads[0].records.size(), 8u);
  EXPECT_EQ(d.threads[0].head.dropped, 2u);
  EXPECT_EQ(d.header.dropped, 2u);
}

TEST_F(Runtime, RankedProcessNamesItsDumpAndSaysWhoItIs) {
  ChildResult c =
      runChild({"4"},
               {"TPUPROF_ENABLE=1", "TPUPROF_OUTPUT=" + Dir,
                "OMPI_COMM_WORLD_RANK=3", "OMPI_COMM_WORLD_SIZE=4",
                "OMPI_COMM_WORLD_LOCAL_RANK=1", "SLURM_JOB_ID=4242"},
               Dir + ".stderr");
  ASSERT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0) << c.err;
  EXPECT_EQ(c.err, "");
  EXPECT_EQ(listDir(Dir),
            std::vector<std::string>{"tpuprof_data_dev0-rank3-0"});
  Dump d = onlyDump();
  ASSERT_TRUE(d.hasProcess);
  EXPECT_EQ(d.process.rank, 3u);
  EXPECT_EQ(d.process.world_size, 4u);
  EXPECT_EQ(d.process.local_rank, 1u);
  EXPECT_EQ(d.process.rank_source, (uint32_t)TPUPROF_RANK_OPENMPI);
  EXPECT_STREQ(d.process.job_id, "4242");
  char host[64] = {};
  ASSERT_EQ(gethostname(host, sizeof(host) - 1), 0);
  EXPECT_STREQ(d.process.host, host);
  // The window's clock pairs: both clocks move forward together, and the
  // monotonic readings bracket the window (the header's ns pair).
  EXPECT_LE(d.process.monotonic_ns0, d.process.monotonic_ns1);
  EXPECT_LE(d.header.calib_ns0, d.process.monotonic_ns0);
  EXPECT_LE(d.process.monotonic_ns1, d.header.calib_ns1);
  EXPECT_GT(d.process.realtime_ns0, 0u);
  // No MPI library: no offset was measured.
  EXPECT_EQ(d.process.offsets[0].at_ns, 0u);
  EXPECT_EQ(d.process.offsets[1].at_ns, 0u);
}

TEST_F(Runtime, ClockOffsetsReachTheDump) {
  EXPECT_EQ(tpuprof_set_clock_offset(TPUPROF_OFFSET_SLOT_COUNT, 1, 1, 1), -1);
  EXPECT_EQ(tpuprof_set_clock_offset(0, 1, 0, 1), -1);
  ASSERT_EQ(tpuprof_enable(16, 0), 0);
  ASSERT_EQ(tpuprof_set_clock_offset(TPUPROF_OFFSET_FINALIZE, -12345, 777, 9),
            0);
  pair(1);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = onlyDump();
  ASSERT_TRUE(d.hasProcess);
  const tpuprof_clock_offset &o = d.process.offsets[TPUPROF_OFFSET_FINALIZE];
  EXPECT_EQ(o.offset_ns, -12345);
  EXPECT_EQ(o.at_ns, 777u);
  EXPECT_EQ(o.error_ns, 9u);
}

TEST_F(Runtime, EnvironmentBadValuesWarnAndRunWithDefaults) {
  ChildResult c = runChild({"3"},
                           {"TPUPROF_ENABLE=1", "TPUPROF_OUTPUT=" + Dir,
                            "TPUPROF_MODE=x", "TPUPROF_RECORD_SIZE=lots"},
                           Dir + ".stderr");
  ASSERT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0) << c.err;
  EXPECT_EQ(c.err, "tpuprof: TPUPROF_MODE='x' is not 0, 1 or 2; using 0\n"
                   "tpuprof: TPUPROF_RECORD_SIZE='lots' is not a record count "
                   "from 1 to 1073741824; using 131072\n");
  Dump d = onlyDump();
  EXPECT_EQ(d.header.mode, 0u);
  ASSERT_EQ(d.threads.size(), 1u);
  EXPECT_EQ(d.threads[0].records.size(), 3u);
}

TEST_F(Runtime, EnvironmentUnsetMeansNoDump) {
  ChildResult c = runChild({"3"}, {"TPUPROF_OUTPUT=" + Dir}, Dir + ".stderr");
  ASSERT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0) << c.err;
  EXPECT_EQ(c.err, "");
  EXPECT_TRUE(listDir(Dir).empty());
}

TEST_F(Runtime, ForkedChildWritesItsOwnDump) {
  ChildResult c =
      runChild({"4", "fork"}, {"TPUPROF_ENABLE=1", "TPUPROF_OUTPUT=" + Dir},
               Dir + ".stderr");
  ASSERT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0) << c.err;
  std::vector<std::string> names = listDir(Dir);
  ASSERT_EQ(names.size(), 2u);
  int parents = 0, children = 0;
  for (const std::string &n : names) {
    Dump d;
    ASSERT_EQ(parseDump(path(n), d), "") << n;
    ASSERT_EQ(d.threads.size(), 1u) << n;
    const ThreadSection &t = d.threads[0];
    EXPECT_EQ(t.head.tid, d.header.pid);
    if (d.header.pid == (uint32_t)c.pid) {
      ++parents;
      ASSERT_EQ(t.records.size(), 4u);
      EXPECT_EQ(t.records[0].rec.probe, 1u);
    } else {
      ++children;
      ASSERT_EQ(t.records.size(), 3u);
      EXPECT_EQ(t.records[0].rec.probe, 2u);
    }
  }
  EXPECT_EQ(parents, 1);
  EXPECT_EQ(children, 1);
}
