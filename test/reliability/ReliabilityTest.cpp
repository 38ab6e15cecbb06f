//===- test/reliability/ReliabilityTest.cpp - No record lost ----*- C++ -*-===//
//
// Issue 7: records survive a process that dies (SIGKILL, abort(), SIGSEGV)
// with its window open, and the report reads such a dump as incomplete with
// every record the process completed. The dying program is crash_child.c,
// linked to the shared runtime; it tells the test through a pipe how many
// probe pairs it completed before it died.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/Dump.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace tpuprof::report;

namespace {

std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..")
        names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

class Reliability : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tpuprof-rel-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    Dir = tmpl;
  }
  void TearDown() override {
    for (const std::string &n : listDir(Dir))
      std::remove((Dir + "/" + n).c_str());
    rmdir(Dir.c_str());
  }

  struct Child {
    int status = -1;
    uint64_t reported = 0; ///< Pairs it completed, from the pipe.
    bool gotReport = false;
  };

  /// Runs crash_child N HOW with a pipe on fd 3.
  Child run(uint64_t n, const std::string &how,
            std::vector<std::string> env = {}) {
    Child c;
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    std::vector<std::string> args = {TPUPROF_CRASH_CHILD, std::to_string(n),
                                     how, "3"};
    env.push_back("TPUPROF_ENABLE=1");
    env.push_back("TPUPROF_OUTPUT=" + Dir);
    env.push_back("TPUPROF_RECORD_SIZE=" + std::to_string(n + 16));
    for (const char *keep : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS",
                             "LD_LIBRARY_PATH"})
      if (const char *v = getenv(keep))
        env.push_back(std::string(keep) + "=" + v);
    std::vector<char *> argv, envp;
    for (std::string &a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    for (std::string &e : env)
      envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    // Close the read end first: it may be fd 3 itself.
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 3);
    // Sanitizer reports of the deliberate crash are not test output.
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    EXPECT_EQ(posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(),
                          envp.data()),
              0);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    c.gotReport =
        read(fds[0], &c.reported, sizeof(c.reported)) == sizeof(c.reported);
    close(fds[0]);
    if (pid > 0)
      waitpid(pid, &c.status, 0);
    return c;
  }

  /// Reads the only dump in Dir.
  Dump onlyDump() {
    std::vector<std::string> names = listDir(Dir);
    EXPECT_EQ(names.size(), 1u);
    Dump d;
    if (names.empty())
      return d;
    llvm::Expected<Dump> e = readDump(Dir + "/" + names[0]);
    if (!e) {
      ADD_FAILURE() << llvm::toString(e.takeError());
      return d;
    }
    return std::move(*e);
  }

  static uint64_t records(const Dump &d) {
    uint64_t n = 0;
    for (const Thread &t : d.threads)
      n += t.records.size();
    return n;
  }

  void expectSurvivor(const std::string &how, int sig) {
    const uint64_t n = 20000;
    Child c = run(n, how);
    ASSERT_TRUE(c.gotReport);
    EXPECT_EQ(c.reported, n);
    if (sig) {
      // Under ASan a fault ends in ASan's report and exit(1), not a signal.
      EXPECT_TRUE((WIFSIGNALED(c.status) && WTERMSIG(c.status) == sig) ||
                  (WIFEXITED(c.status) && WEXITSTATUS(c.status) != 0))
          << c.status;
    }
    Dump d = onlyDump();
    EXPECT_EQ(d.info.isComplete(), sig == 0);
    EXPECT_EQ(records(d), c.reported);
    ASSERT_EQ(d.threads.size(), 2u);
    uint64_t ones = 0, twos = 0;
    for (const Thread &t : d.threads)
      for (const Record &r : t.records) {
        EXPECT_NE(r.end, 0u);
        EXPECT_LE(r.begin, r.end);
        EXPECT_LE(r.end, d.info.windowEnd);
        ones += r.probe == 1;
        twos += r.probe == 2;
      }
    EXPECT_EQ(twos, n / 2);
    EXPECT_EQ(ones, n - n / 2);
    struct stat st;
    ASSERT_EQ(stat(d.path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
  }

  std::string Dir;
};

} // namespace

TEST_F(Reliability, CleanExitWritesACompleteDump) { expectSurvivor("exit", 0); }

TEST_F(Reliability, SigkillKeepsEveryCompletedRecord) {
  expectSurvivor("kill", SIGKILL);
}

TEST_F(Reliability, AbortKeepsEveryCompletedRecord) {
  expectSurvivor("abort", SIGABRT);
}

TEST_F(Reliability, SegfaultKeepsEveryCompletedRecord) {
  expectSurvivor("segv", SIGSEGV);
}
