//===- test/reliability/CloseCrashTest.cpp - Killed while closing -*- C++ -*-===//
//
// The in-place close edits the dump the process recorded into; a process
// killed between any two of its steps must still leave a dump the report
// reads, with every record (docs/reliability.md, "Closing a window"). A
// forked child records, leaves one probe open and closes its window with the
// runtime's test hook set to SIGKILL it just before step N.
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
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace tpuprof::report;

extern "C" int __tpuprof_rt_kill_before_step;

namespace {

std::vector<std::string> namesIn(const std::string &dir) {
  std::vector<std::string> out;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
        out.push_back(e->d_name);
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

constexpr int Pairs = 100;

/// In a child: one window of `Pairs` pairs with a dim and one probe still
/// open, closed with the kill hook at `step` (0: no kill). Returns the
/// child's wait status.
int closeInChild(const std::string &dir, int step) {
  pid_t pid = fork();
  if (pid == 0) {
    tpuprof_set_output(dir.c_str(), 0);
    if (tpuprof_enable(4 * Pairs, 0) != 0)
      _exit(2);
    for (int64_t i = 0; i < Pairs; ++i) {
      __tpuprof_begin_dims(50, &i, 1);
      __tpuprof_end(50);
    }
    __tpuprof_begin(51); // Open at the close: end stays 0.
    __tpuprof_rt_kill_before_step = step;
    _exit(tpuprof_disable() == 0 ? 0 : 3);
  }
  int status = -1;
  waitpid(pid, &status, 0);
  return status;
}

class CloseCrash : public ::testing::TestWithParam<int> {
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

TEST_P(CloseCrash, KilledDuringAnInPlaceCloseLeavesEveryRecord) {
  const int step = GetParam();
  int status = closeInChild(Dir, step);
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
  EXPECT_EQ(d->info.isComplete(), step == 0 || step == 6);
  ASSERT_EQ(d->threads.size(), 1u);
  const std::vector<Record> &r = d->threads[0].records;
  ASSERT_EQ(r.size(), size_t(Pairs + 1));
  for (int i = 0; i < Pairs; ++i) {
    ASSERT_EQ(r[i].probe, 50u) << i;
    ASSERT_EQ(r[i].dims.size(), 1u) << i;
    ASSERT_EQ(r[i].dims[0], i) << i;
    ASSERT_GE(r[i].end, r[i].begin) << i;
  }
  EXPECT_EQ(r[Pairs].probe, 51u);
  EXPECT_EQ(r[Pairs].end, 0u);
}

// 0: not killed; 1..6: killed just before the walk, the header, the THREAD
// counts, the truncation, the complete flag, the close.
INSTANTIATE_TEST_SUITE_P(Steps, CloseCrash, ::testing::Range(0, 7));
