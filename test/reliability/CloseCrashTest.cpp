//===- test/reliability/CloseCrashTest.cpp - Killed while closing -*- C++ -*-===//
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

#include "tpuprof/report/Dump.h"
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
#include <tuple>
#include <sys/wait.h>
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

class CloseCrash : public ::testing::TestWithParam<std::tuple<int, bool>> {
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
};

} // namespace

TEST_P(CloseCrash, KilledDuringTheCloseLeavesEveryRecord) {
  const int step = std::get<0>(GetParam());
  const bool second = std::get<1>(GetParam());
  int status = closeInChild(Dir, step, second);
  if (step == 0)
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  else
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << status;
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
