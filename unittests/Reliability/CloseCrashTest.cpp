//===- unittests/Reliability/CloseCrashTest.cpp - Killed while closing ----===//
//
// The close finalizes in place the dump the process recorded into; a
// process killed between any two of its steps must still leave a dump the
// report reads, with every record (docs/reliability.md, "Closing a
// window"). A forked child records (on one thread, or on two whose
// segments interleave in the file, with a module registered after them),
// leaves one probe open and closes its window with the runtime's test hook
// set to SIGKILL it just before step N.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/read/Dump.h"
#include "tpuprof/tpuprof.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace tpuprof::report;

extern "C" int __tpuprof_rt_kill_before_step;

namespace {

/// Names in `dir`, sorted; hidden ones (temporary files) only if asked.
std::vector<std::string> namesIn(const std::string &dir, bool hidden = true) {
  std::vector<std::string> out;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != ".." &&
          (hidden || e->d_name[0] != '.'))
        out.push_back(e->d_name);
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

constexpr int Pairs = 3000; // Several segments per thread.

void *recordPairs(void *) {
  for (int64_t i = 0; i < Pairs; ++i) {
    __tpuprof_begin_dims(50, &i, 1);
    __tpuprof_end(50);
  }
  return nullptr;
}

/// In a child: one window of `Pairs` pairs with a dim and one probe still
/// open, closed with the kill hook at `step` (0: no kill); with `second`, a
/// second thread records `Pairs` pairs at the same time and a user range
/// registers a module after both. Returns the child's wait status.
int closeInChild(const std::string &dir, int step, bool second) {
  pid_t pid = fork();
  if (pid == 0) {
    tpuprof_set_output(dir.c_str(), 0);
    if (tpuprof_enable(4 * Pairs, 0) != 0)
      _exit(2);
    pthread_t other;
    if (second && pthread_create(&other, nullptr, recordPairs, nullptr) != 0)
      _exit(4);
    recordPairs(nullptr);
    if (second && pthread_join(other, nullptr) != 0)
      _exit(4);
    if (second) // A MODULE section after the segments.
      (void)tpuprof_range_id("after-the-segments");
    __tpuprof_begin(51); // Open at the close: end stays 0.
    __tpuprof_rt_kill_before_step = step;
    _exit(tpuprof_disable() == 0 ? 0 : 3);
  }
  int status = -1;
  waitpid(pid, &status, 0);
  return status;
}

/// A fresh directory for the child's dump.
class CrashDir : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tpuprof-closecrash-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    Dir = tmpl;
  }
  void TearDown() override {
    for (const std::string &n : namesIn(Dir))
      std::remove((Dir + "/" + n).c_str());
    rmdir(Dir.c_str());
  }
  std::string Dir;

  /// The one dump in Dir, read by the report library.
  Dump onlyDump() {
    std::vector<std::string> names = namesIn(Dir);
    EXPECT_EQ(names.size(), 1u);
    if (names.empty())
      return Dump();
    llvm::Expected<Dump> d = readDump(Dir + "/" + names[0]);
    EXPECT_TRUE(bool(d)) << llvm::toString(d.takeError());
    return d ? std::move(*d) : Dump();
  }
};

class CloseCrash : public CrashDir,
                   public ::testing::WithParamInterface<std::tuple<int, bool>> {
};

using StageCrash = CrashDir;

/// In a child: probe 60 open, then pairs of probe 61 with their index as a
/// dim until it dies; with `endFirst`, 60 ends after `pairs` pairs and 62
/// stays open over `pairs` more, then SIGKILL. Without, the kill hook
/// fires at the first stage lap written (the lap then is in the file twice).
int stageInChild(const std::string &dir, int64_t pairs, bool endFirst) {
  pid_t pid = fork();
  if (pid == 0) {
    tpuprof_set_output(dir.c_str(), 0);
    if (tpuprof_enable(1u << 22, 0) != 0)
      _exit(2);
    if (!endFirst)
      __tpuprof_rt_kill_before_step = 6;
    __tpuprof_begin(60);
    int64_t i = 0;
    for (; i < pairs; ++i) {
      __tpuprof_begin_dims(61, &i, 1);
      __tpuprof_end(61);
    }
    if (endFirst) {
      __tpuprof_end(60);
      __tpuprof_begin(62);
      for (; i < 2 * pairs; ++i) {
        __tpuprof_begin_dims(61, &i, 1);
        __tpuprof_end(61);
      }
      raise(SIGKILL);
    }
    _exit(3);
  }
  int status = -1;
  waitpid(pid, &status, 0);
  return status;
}

/// Checks that `r` holds probe 61's pairs 0..n-1 once each, in order, from
/// index `from`; returns n.
size_t expectPairsInOrder(const std::vector<Record> &r, size_t from) {
  size_t n = 0;
  for (size_t k = from; k < r.size() && r[k].probe == 61; ++k, ++n) {
    EXPECT_EQ(r[k].dims.size(), 1u) << k;
    if (r[k].dims.size() != 1 || r[k].dims[0] != int64_t(n)) {
      ADD_FAILURE() << "record " << k << " is pair " << r[k].dims[0]
                    << ", expected " << n;
      break;
    }
    EXPECT_NE(r[k].end, 0u) << k;
  }
  return n;
}

} // namespace

TEST_F(StageCrash, KilledAsALapIsWrittenKeepsItOnce) {
  // Just after a stage lap reached its own section, before the stage
  // starts over: the lap is in the file twice, and the reader keeps one.
  int status = stageInChild(Dir, 1000000, false);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  Dump d = onlyDump();
  EXPECT_FALSE(d.info.isComplete());
  ASSERT_EQ(d.threads.size(), 1u);
  const std::vector<Record> &r = d.threads[0].records;
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r[0].probe, 60u);
  EXPECT_EQ(r[0].end, 0u); // Open when the process died.
  size_t n = expectPairsInOrder(r, 1);
  EXPECT_EQ(1 + n, r.size());
  // More than the mapped segments before the stage hold (16 + 32 + 64 +
  // 128 KiB of 32-byte records).
  EXPECT_GT(n, size_t(240u << 10) / 32);
  EXPECT_EQ(d.threads[0].dropped, 0u);
}

TEST_F(StageCrash, KilledAfterLapsKeepsEveryRecordAndEveryEnd) {
  // Probe 60 was open across laps and ended: its end reached the written
  // copy of its record. Probe 62, open across later laps, stays unfinished.
  const int64_t pairs = 100000; // 32-byte records: 3.2 MB each half.
  int status = stageInChild(Dir, pairs, true);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  Dump d = onlyDump();
  EXPECT_FALSE(d.info.isComplete());
  ASSERT_EQ(d.threads.size(), 1u);
  const std::vector<Record> &r = d.threads[0].records;
  ASSERT_EQ(r.size(), size_t(2 * pairs + 2));
  ASSERT_EQ(r[0].probe, 60u);
  EXPECT_EQ(expectPairsInOrder(r, 1), size_t(pairs));
  ASSERT_NE(r[0].end, 0u);
  EXPECT_GE(r[0].end, r[pairs].end);
  ASSERT_EQ(r[pairs + 1].probe, 62u);
  EXPECT_LE(r[0].end, r[pairs + 1].begin);
  EXPECT_EQ(r[pairs + 1].end, 0u);
  for (int64_t k = pairs + 2; k < 2 * pairs + 2; ++k) {
    ASSERT_EQ(r[k].probe, 61u) << k;
    ASSERT_EQ(r[k].dims.size(), 1u) << k;
    ASSERT_EQ(r[k].dims[0], k - 2) << k;
    ASSERT_NE(r[k].end, 0u) << k;
  }
}

TEST_P(CloseCrash, KilledDuringTheCloseLeavesEveryRecord) {
  const int step = std::get<0>(GetParam());
  const bool second = std::get<1>(GetParam());
  int status = closeInChild(Dir, step, second);
  if (step == 0) {
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  } else
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  std::vector<std::string> names = namesIn(Dir);
  ASSERT_EQ(names.size(), 1u); // In place: no temporary file, ever.
  llvm::Expected<Dump> d = readDump(Dir + "/" + names[0]);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  // Complete once the flag is set (killed before the close of the fd).
  EXPECT_EQ(d->info.isComplete(), step == 0 || step == 5);
  ASSERT_EQ(d->threads.size(), second ? 2u : 1u);
  size_t open = 0;
  for (const Thread &t : d->threads) {
    const std::vector<Record> &r = t.records;
    ASSERT_GE(r.size(), size_t(Pairs));
    for (int i = 0; i < Pairs; ++i) {
      ASSERT_EQ(r[i].probe, 50u) << i;
      ASSERT_EQ(r[i].dims.size(), 1u) << i;
      ASSERT_EQ(r[i].dims[0], i) << i;
      ASSERT_GE(r[i].end, r[i].begin) << i;
    }
    if (r.size() > size_t(Pairs)) {
      ASSERT_EQ(r.size(), size_t(Pairs + 1));
      EXPECT_EQ(r[Pairs].probe, 51u);
      EXPECT_EQ(r[Pairs].end, 0u);
      ++open;
    }
  }
  EXPECT_EQ(open, 1u);
  if (second) {
    // Every module, including the one registered after the segments.
    llvm::Expected<DumpReader> reader = DumpReader::open(Dir + "/" + names[0]);
    ASSERT_TRUE(bool(reader)) << llvm::toString(reader.takeError());
    bool found = false;
    for (const Module &m : reader->modules())
      for (const Probe &p : m.table.probes)
        found |= p.name == "after-the-segments";
    EXPECT_TRUE(found);
  }
}

// 0: not killed; 1..5: killed just before the segments' sizes, the unused
// room, the header, the complete flag, the close.
INSTANTIATE_TEST_SUITE_P(Steps, CloseCrash,
                         ::testing::Combine(::testing::Range(0, 6),
                                            ::testing::Bool()));
