//===- HostSafetyTest.cpp - The runtime is a guest --------------*- C++ -*-===//
//
// The program the runtime lives in may close descriptors it did not open,
// start and end threads, have its dump truncated by another process, run
// probes in signal handlers, enable on a small thread, change directory and
// end with _exit(). Each test runs one scenario of host_child.c, with a
// time limit (a deadlock fails the test, it never hangs it), and checks the
// program was neither harmed nor blocked, and what the runtime said.
//
//===----------------------------------------------------------------------===//

#include "FsUtil.h"
#include "tpuprof/format.h"
#include "tpuprof/report/read/Dump.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tpuprof::report;
using tpuprof::test::listDir;

namespace {

std::string readFile(const std::string &path) {
  std::string s;
  if (FILE *f = fopen(path.c_str(), "r")) {
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
      s.append(buf, got);
    fclose(f);
  }
  return s;
}

void removeTree(const std::string &path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0)
    return;
  if (S_ISDIR(st.st_mode)) {
    for (const std::string &n : listDir(path))
      removeTree(path + "/" + n);
    rmdir(path.c_str());
  } else {
    std::remove(path.c_str());
  }
}

class HostSafety : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tpuprof-host-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    Dir = tmpl;
  }
  void TearDown() override { removeTree(Dir); }

  struct Result {
    int status = -1;
    bool timedOut = false;
    std::string out, err;
  };

  /// Runs host_child with `args` in directory `cwd` (Dir when empty), the
  /// environment `env` added; kills it after `limit` (a deadlock).
  Result run(std::vector<std::string> args, std::vector<std::string> env = {},
             const std::string &cwd = "",
             std::chrono::seconds limit = std::chrono::seconds(120)) {
    Result r;
    args.insert(args.begin(), TPUPROF_HOST_CHILD);
    bool hasOutput = false;
    for (const std::string &e : env)
      hasOutput |= e.rfind("TPUPROF_OUTPUT=", 0) == 0;
    if (!hasOutput)
      env.push_back("TPUPROF_OUTPUT=" + Dir);
    tpuprof::test::keepSanitizerEnv(env);
    std::vector<char *> argv = tpuprof::test::cStrings(args);
    std::vector<char *> envp = tpuprof::test::cStrings(env);
    std::string outPath = Dir + ".stdout", errPath = Dir + ".stderr";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, outPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, errPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::string where = cwd.empty() ? Dir : cwd;
    posix_spawn_file_actions_addchdir_np(&fa, where.c_str());
    pid_t pid = -1;
    EXPECT_EQ(
        posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()), 0);
    posix_spawn_file_actions_destroy(&fa);
    if (pid > 0) {
      auto deadline = std::chrono::steady_clock::now() + limit;
      while (waitpid(pid, &r.status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
          r.timedOut = true;
          kill(pid, SIGKILL);
          waitpid(pid, &r.status, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    r.out = readFile(outPath);
    r.err = readFile(errPath);
    std::remove(outPath.c_str());
    std::remove(errPath.c_str());
    return r;
  }

  /// The dumps in `dir`.
  static std::vector<std::string> dumps(const std::string &dir) {
    std::vector<std::string> names;
    for (const std::string &n : listDir(dir))
      if (n.rfind("tpuprof_data_", 0) == 0)
        names.push_back(n);
    return names;
  }

  static bool exitedWith(const Result &r, int code) {
    return !r.timedOut && WIFEXITED(r.status) && WEXITSTATUS(r.status) == code;
  }

  static size_t lines(const std::string &s) {
    return (size_t)std::count(s.begin(), s.end(), '\n');
  }

  std::string Dir;
};

#define EXPECT_UNHARMED(r)                                                     \
  EXPECT_TRUE(exitedWith(r, 0))                                                \
      << "status " << r.status << (r.timedOut ? " (timed out)" : "") << ": "   \
      << r.out << r.err

TEST_F(HostSafety, ClosedDescriptorsAreNeverTheProgramsFiles) {
  // The runtime's dump descriptor stays out of the numbers the program's
  // own open() gets, and is checked before each use and reopened.
  Result r = run({"closefrom", "0", Dir});
  EXPECT_UNHARMED(r);
  EXPECT_EQ(r.err, "");
  std::vector<std::string> names = dumps(Dir);
  ASSERT_EQ(names.size(), 1u);
  llvm::Expected<Dump> d = readDump(Dir + "/" + names[0]);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_TRUE(d->info.flags & TPUPROF_DUMP_COMPLETE);
}

TEST_F(HostSafety, ClosedCounterDescriptorsNeverReadTheProgramsPipe) {
  // Mode 1: a counter descriptor the program closed is never read again;
  // the counters are opened anew at the next segment.
  Result r = run({"closefrom", "1", Dir});
  EXPECT_UNHARMED(r);
  std::vector<std::string> names = dumps(Dir);
  ASSERT_EQ(names.size(), 1u);
  llvm::Expected<Dump> d = readDump(Dir + "/" + names[0]);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_TRUE(d->info.flags & TPUPROF_DUMP_COMPLETE);
}

TEST_F(HostSafety, ExitedThreadsCloseTheirCounters) {
  Result r = run({"threads", Dir});
  if (exitedWith(r, 77))
    GTEST_SKIP() << "no perf event opens here";
  EXPECT_UNHARMED(r);
  EXPECT_EQ(r.err.find("cannot open its counter group"), std::string::npos)
      << r.err;
}

TEST_F(HostSafety, TruncatedDumpLosesTheWindowNotTheProgram) {
  Result r = run({"truncate", Dir});
  EXPECT_UNHARMED(r);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(
      r.err.rfind("tpuprof: dump '" + Dir +
                      "/tpuprof_data_dev0-0' was "
                      "truncated by another process; this window's records "
                      "are lost\n",
                  0),
      0u)
      << r.err;
}

TEST_F(HostSafety, RemovedAndClosedDumpIsLostInOneLine) {
  // The program removed the dump, closed every descriptor and created a
  // file of its own under the dump's name: the runtime cannot reopen its
  // file, says so once, and never writes the program's.
  Result r = run({"gone", Dir});
  EXPECT_UNHARMED(r);
  EXPECT_EQ(r.err, "tpuprof: dump '" + Dir +
                       "/tpuprof_data_dev0-0' was closed by the program and "
                       "cannot be reopened; this window's records are lost\n");
}

TEST_F(HostSafety, ProbeInASignalHandlerInsideTheRuntimeNeverWaits) {
  Result r = run({"signal", Dir}, {}, "", std::chrono::seconds(60));
  EXPECT_UNHARMED(r);
  EXPECT_EQ(r.err, "");
  std::vector<std::string> names = dumps(Dir);
  ASSERT_EQ(names.size(), 1u);
  llvm::Expected<Dump> d = readDump(Dir + "/" + names[0]);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  // The handler's records were dropped, and counted.
  EXPECT_GT(d->info.dropped, 0u);
}

TEST_F(HostSafety, EnableOnASmallStack) {
  Result r = run({"smallstack", Dir});
  EXPECT_UNHARMED(r);
  EXPECT_EQ(dumps(Dir).size(), 1u);
}

TEST_F(HostSafety, RelativeOutputIsResolvedAtStartUp) {
  Result r = run({"chdir"}, {"TPUPROF_OUTPUT=out"});
  EXPECT_UNHARMED(r);
  EXPECT_EQ(dumps(Dir + "/out").size(), 1u);
  EXPECT_EQ(listDir(Dir + "/sub"), std::vector<std::string>{});
}

TEST_F(HostSafety, FlushThenExitLeavesNoEmptyDump) {
  Result r = run({"flushexit", Dir});
  EXPECT_UNHARMED(r);
  EXPECT_EQ(r.err, "");
  std::vector<std::string> names = dumps(Dir);
  ASSERT_EQ(names.size(), 1u);
  llvm::Expected<Dump> d = readDump(Dir + "/" + names[0]);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_TRUE(d->info.flags & TPUPROF_DUMP_COMPLETE);
}

TEST_F(HostSafety, EnableCreatesTheOutputDirectory) {
  Result r = run({"newdir", Dir});
  EXPECT_UNHARMED(r);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(dumps(Dir + "/a/b").size(), 1u);
}

TEST_F(HostSafety, TheProgramsOwnSigbusReachesItsHandler) {
  // The runtime's SIGBUS handler passes on what is not its own mappings'.
  Result r = run({"ownbus", "handler", Dir});
  EXPECT_UNHARMED(r);
  EXPECT_EQ(r.err, "");
}

TEST_F(HostSafety, TheProgramsOwnSigbusStillKillsItByDefault) {
  Result r = run({"ownbus", "default", Dir});
  ASSERT_FALSE(r.timedOut);
  bool diedOfIt = WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGBUS;
  // Under a sanitizer the program's handler before the runtime's is the
  // sanitizer's: it reports the signal and exits.
  bool sanitizerGotIt =
      r.err.find("Sanitizer:DEADLYSIGNAL") != std::string::npos &&
      WIFEXITED(r.status) && WEXITSTATUS(r.status) != 0;
  EXPECT_TRUE(diedOfIt || sanitizerGotIt)
      << "status " << r.status << ": " << r.out << r.err;
}

} // namespace
