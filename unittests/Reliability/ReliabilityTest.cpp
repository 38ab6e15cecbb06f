//===- ReliabilityTest.cpp - No record lost ---------------------*- C++ -*-===//
//
// Records survive a process that dies (SIGKILL, abort(), SIGSEGV)
// with its window open, and the report reads such a dump as incomplete with
// every record the process completed. The dying program is crash_child.c,
// linked to the shared runtime; it tells the test through a pipe how many
// probe pairs it completed before it died.
//
//===----------------------------------------------------------------------===//

#include "FsUtil.h"
#include "tpuprof/report/read/Dump.h"
#include "tpuprof/tpuprof.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <signal.h>
#include <spawn.h>
#include <string>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tpuprof::report;

using tpuprof::test::listDir;

namespace {

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
    std::string err;       ///< Its stderr, when asked for.
    uint64_t reported = 0; ///< Pairs it completed, from the pipe.
    bool gotReport = false;
  };

  /// Runs crash_child N HOW with a pipe on fd 3.
  Child run(uint64_t n, const std::string &how,
            std::vector<std::string> env = {}, bool wantErr = false,
            const std::string &output = "", unsigned threads = 0) {
    Child c;
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    std::vector<std::string> args = {TPUPROF_CRASH_CHILD, std::to_string(n),
                                     how, "3"};
    if (threads)
      args.push_back(std::to_string(threads));
    env.push_back("TPUPROF_ENABLE=1");
    env.push_back("TPUPROF_OUTPUT=" + (output.empty() ? Dir : output));
    bool sized = false;
    for (const std::string &e : env)
      sized |= e.rfind("TPUPROF_RECORD_SIZE=", 0) == 0;
    if (!sized)
      env.push_back("TPUPROF_RECORD_SIZE=" + std::to_string(n + 16));
    tpuprof::test::keepSanitizerEnv(env);
    std::vector<char *> argv = tpuprof::test::cStrings(args);
    std::vector<char *> envp = tpuprof::test::cStrings(env);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    // Close the read end first: it may be fd 3 itself.
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 3);
    // Sanitizer reports of the deliberate crash are not test output.
    std::string errPath = wantErr ? Dir + ".stderr" : "/dev/null";
    posix_spawn_file_actions_addopen(&fa, 2, errPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = -1;
    EXPECT_EQ(
        posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data()), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    c.gotReport =
        read(fds[0], &c.reported, sizeof(c.reported)) == sizeof(c.reported);
    close(fds[0]);
    if (pid > 0)
      waitpid(pid, &c.status, 0);
    if (wantErr) {
      if (FILE *f = fopen(errPath.c_str(), "r")) {
        char buf[4096];
        size_t got;
        while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
          c.err.append(buf, got);
        fclose(f);
      }
      std::remove(errPath.c_str());
    }
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
    const uint64_t n = 200000; // 2.4 MB a thread: stage laps (runtime.md).
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

//===----------------------------------------------------------------------===//
// Full buffers: TPUPROF_BUFFER=stop|ring
//===----------------------------------------------------------------------===//

namespace {

/// Opens a window of `cap` records with `policy`, records `n` pairs of
/// probes 0..n-1 on this thread and returns the dump.
Dump recordPairs(const std::string &dir, int policy, uint64_t cap, uint64_t n) {
  tpuprof_set_output(dir.c_str(), 0);
  EXPECT_EQ(tpuprof_set_buffer_policy(policy), 0);
  EXPECT_EQ(tpuprof_enable(cap, 0), 0);
  for (uint32_t i = 0; i < n; ++i) {
    __tpuprof_begin(i);
    __tpuprof_end(i);
  }
  EXPECT_EQ(tpuprof_disable(), 0);
  tpuprof_set_buffer_policy(TPUPROF_BUFFER_STOP);
  llvm::Expected<Dump> d = readDump(tpuprof_last_dump_path());
  if (!d) {
    ADD_FAILURE() << llvm::toString(d.takeError());
    return Dump();
  }
  return std::move(*d);
}

} // namespace

TEST_F(Reliability, StopPolicyKeepsTheFirstRecords) {
  Dump d = recordPairs(Dir, TPUPROF_BUFFER_STOP, 100, 250);
  ASSERT_EQ(d.threads.size(), 1u);
  ASSERT_EQ(d.threads[0].records.size(), 100u);
  EXPECT_EQ(d.threads[0].records.front().probe, 0u);
  EXPECT_EQ(d.threads[0].records.back().probe, 99u);
  EXPECT_EQ(d.threads[0].dropped, 150u);
  EXPECT_EQ(d.info.dropped, 150u);
}

TEST_F(Reliability, RingPolicyKeepsTheNewestRecords) {
  // A ring reuses its oldest segment, a quarter of the limit: of 100 it
  // keeps the newest 75 to 100 records, oldest first, and counts every
  // other one as overwritten.
  for (uint64_t n : {99u, 100u, 101u, 199u, 200u, 250u, 1000u, 1013u}) {
    Dump d = recordPairs(Dir, TPUPROF_BUFFER_RING, 100, n);
    ASSERT_EQ(d.threads.size(), 1u);
    const std::vector<Record> &r = d.threads[0].records;
    uint64_t kept = r.size();
    EXPECT_GE(kept, std::min<uint64_t>(n, 75)) << n;
    EXPECT_LE(kept, 100u) << n;
    for (uint64_t i = 0; i < kept; ++i) {
      EXPECT_EQ(r[i].probe, n - kept + i) << n;
      EXPECT_NE(r[i].end, 0u);
    }
    EXPECT_EQ(d.threads[0].dropped, n - kept) << n;
    EXPECT_EQ(d.info.dropped, n - kept) << n;
    EXPECT_EQ(d.info.drops.overwritten, n - kept) << n;
  }
}

TEST_F(Reliability, RingKeepsNestedProbesConsistent) {
  // An outer probe whose record is overwritten while it is open must not
  // write its end into a newer record.
  tpuprof_set_output(Dir.c_str(), 0);
  ASSERT_EQ(tpuprof_set_buffer_policy(TPUPROF_BUFFER_RING), 0);
  ASSERT_EQ(tpuprof_enable(10, 0), 0);
  __tpuprof_begin(1000);
  for (uint32_t i = 0; i < 50; ++i) {
    __tpuprof_begin(i);
    __tpuprof_end(i);
  }
  __tpuprof_end(1000);
  ASSERT_EQ(tpuprof_disable(), 0);
  tpuprof_set_buffer_policy(TPUPROF_BUFFER_STOP);
  llvm::Expected<Dump> d = readDump(tpuprof_last_dump_path());
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  ASSERT_EQ(d->threads.size(), 1u);
  const std::vector<Record> &r = d->threads[0].records;
  // 51 records in 10 slots of 2-record segments: the outer one went first.
  ASSERT_GE(r.size(), 8u);
  ASSERT_LE(r.size(), 10u);
  for (uint64_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r[i].probe, 50 - r.size() + i);
    EXPECT_EQ(r[i].depth, 1u);
    EXPECT_NE(r[i].end, 0u);
    EXPECT_LE(r[i].begin, r[i].end);
    if (i) {
      EXPECT_LE(r[i - 1].end, r[i].begin);
    }
  }
  EXPECT_EQ(d->threads[0].dropped, 51u - r.size());
}

TEST_F(Reliability, BadBufferPolicyIsRejected) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(tpuprof_set_buffer_policy(7), -1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "tpuprof: tpuprof_set_buffer_policy: 7 is not TPUPROF_BUFFER_STOP "
            "or TPUPROF_BUFFER_RING\n");
}

TEST_F(Reliability, KilledRingKeepsTheNewestRecordsOfEachThread) {
  const uint64_t n = 20000, slots = 999;
  Child c = run(
      n, "kill",
      {"TPUPROF_BUFFER=ring", "TPUPROF_RECORD_SIZE=" + std::to_string(slots)});
  ASSERT_TRUE(c.gotReport);
  Dump d = onlyDump();
  EXPECT_FALSE(d.info.isComplete());
  ASSERT_EQ(d.threads.size(), 2u);
  for (const Thread &t : d.threads) {
    // 10000 records in a ring of 999: the newest three quarters or more,
    // oldest first, and every other one counted as overwritten.
    EXPECT_GE(t.records.size(), slots * 3 / 4);
    EXPECT_LE(t.records.size(), slots);
    EXPECT_EQ(t.records.size() + t.dropped, n / 2);
    for (size_t i = 1; i < t.records.size(); ++i) {
      EXPECT_EQ(t.records[i].probe, t.records[0].probe);
      EXPECT_LE(t.records[i - 1].end, t.records[i].begin); // Oldest first.
    }
  }
}

//===----------------------------------------------------------------------===//
// Output safety: one line, and the program carries on
//===----------------------------------------------------------------------===//

namespace {

bool exitedZero(int status) {
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace

TEST_F(Reliability, MissingOutputDirectoryIsCreated) {
  std::string missing = Dir + "/missing";
  Child c = run(100, "exit", {}, true, missing);
  EXPECT_TRUE(exitedZero(c.status)) << c.err;
  EXPECT_EQ(c.err, "");
  std::vector<std::string> names = listDir(missing);
  EXPECT_EQ(names, std::vector<std::string>{"tpuprof_data_dev0-0"});
  for (const std::string &n : names)
    std::remove((missing + "/" + n).c_str());
  rmdir(missing.c_str());
}

TEST_F(Reliability, OutputThatIsAFileGivesOneLine) {
  std::string file = Dir + "/plain";
  FILE *f = fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs("not a directory", f);
  fclose(f);
  Child c = run(100, "exit", {}, true, file);
  EXPECT_TRUE(exitedZero(c.status)) << c.err;
  EXPECT_EQ(c.err, "tpuprof: cannot create dump '" + file +
                       "/tpuprof_data_dev0-0': Not a directory; this "
                       "window's records are not kept\n");
}

TEST_F(Reliability, UnwritableOutputGivesOneLine) {
  // Permission bits do not stop root; /proc refuses new files to anyone.
  Child c = run(100, "exit", {}, true, "/proc");
  EXPECT_TRUE(exitedZero(c.status)) << c.err;
  EXPECT_EQ(
      c.err.rfind("tpuprof: cannot create dump '/proc/tpuprof_data_dev0-", 0),
      0u)
      << c.err;
  EXPECT_EQ(std::count(c.err.begin(), c.err.end(), '\n'), 1) << c.err;
}

namespace {

/// What a dump that ran out of room must say: complete, every pair either
/// kept or counted as dropped for want of space, and at least one of each.
void expectOutOfRoom(const Dump &d, uint64_t pairs) {
  EXPECT_TRUE(d.info.isComplete());
  uint64_t kept = 0;
  for (const Thread &t : d.threads)
    for (const Record &r : t.records) {
      ++kept;
      EXPECT_NE(r.end, 0u);
    }
  EXPECT_GT(kept, 0u);
  EXPECT_GT(d.info.drops.noSpace, 0u);
  EXPECT_EQ(d.info.dropped, d.info.drops.noSpace);
  EXPECT_EQ(kept + d.info.dropped, pairs);
}

} // namespace

TEST_F(Reliability, FileSizeLimitGivesOneLineAndACompleteDump) {
  // RLIMIT_FSIZE of 64 KiB: growing the file past it fails (EFBIG), so the
  // threads take no more segments; the records that fit are kept, the
  // others counted. Once with SIGXFSZ ignored, once with its default
  // action, which would kill the program if the runtime tried.
  for (const char *how : {"fsize", "fsize-default"}) {
    SCOPED_TRACE(how);
    Child c = run(20000, how, {}, true);
    EXPECT_TRUE(exitedZero(c.status)) << c.status << " " << c.err;
    EXPECT_EQ(c.err, "tpuprof: dump '" + Dir +
                         "/tpuprof_data_dev0-0': File too large; this "
                         "window's further records are counted as dropped\n");
    std::vector<std::string> names = listDir(Dir);
    ASSERT_EQ(names, std::vector<std::string>{"tpuprof_data_dev0-0"});
    struct stat st;
    ASSERT_EQ(stat((Dir + "/" + names[0]).c_str(), &st), 0);
    EXPECT_LE(st.st_size, 64 * 1024);
    expectOutOfRoom(onlyDump(), 20000);
    std::remove((Dir + "/" + names[0]).c_str());
  }
}

TEST_F(Reliability, FullFileSystemGivesOneLineAndACompleteDump) {
  // A real full file system: a 2 MiB tmpfs, and four threads recording
  // 200 000 pairs each (19 MB of records) into it.
  std::string mnt = Dir + "/tmpfs";
  ASSERT_EQ(mkdir(mnt.c_str(), 0700), 0);
  if (mount("tpuprof-test", mnt.c_str(), "tmpfs", 0, "size=2m") != 0) {
    int err = errno;
    rmdir(mnt.c_str());
    GTEST_SKIP() << "cannot mount a tmpfs here (" << strerror(err)
                 << "; needs root or CAP_SYS_ADMIN): the file size limit "
                    "test covers the same path";
  }
  const uint64_t n = 800000;
  Child c = run(n, "exit", {"TPUPROF_RECORD_SIZE=1000000"}, true, mnt, 4);
  std::vector<std::string> names = listDir(mnt);
  Dump d;
  if (names.size() == 1) {
    llvm::Expected<Dump> e = readDump(mnt + "/" + names[0]);
    if (e)
      d = std::move(*e);
    else
      ADD_FAILURE() << llvm::toString(e.takeError());
  }
  for (const std::string &name : names)
    std::remove((mnt + "/" + name).c_str());
  umount2(mnt.c_str(), MNT_DETACH);
  rmdir(mnt.c_str());
  EXPECT_TRUE(exitedZero(c.status)) << c.status << " " << c.err;
  ASSERT_EQ(names, std::vector<std::string>{"tpuprof_data_dev0-0"});
  EXPECT_EQ(c.err, "tpuprof: dump '" + mnt +
                       "/tpuprof_data_dev0-0': No space left on device; this "
                       "window's further records are counted as dropped\n");
  // Each thread keeps what its segments held (a thread that started late
  // may have found the file system full already).
  EXPECT_GE(d.threads.size(), 1u);
  EXPECT_LE(d.threads.size(), 4u);
  expectOutOfRoom(d, n);
}

TEST_F(Reliability, DumpsAreOwnerOnlyEvenWithAPermissiveUmask) {
  mode_t old = umask(0);
  Dump d = recordPairs(Dir, TPUPROF_BUFFER_STOP, 16, 4);
  umask(old);
  struct stat st;
  ASSERT_EQ(stat(d.path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

TEST_F(Reliability, SixteenThreadsTimesAMillionProbesLoseNothing) {
  // 16 x 1 Mi records of 24 bytes: 384 MiB of buffers, mapped from the dump
  // file, so the dump goes to tmpfs when there is one.
  constexpr unsigned kThreads = 16;
  constexpr uint32_t kProbes = 1u << 20;
  std::string dir = Dir;
  char shm[] = "/dev/shm/tpuprof-rel-XXXXXX";
  bool onShm = mkdtemp(shm) != nullptr;
  if (onShm)
    dir = shm;
  tpuprof_set_output(dir.c_str(), 0);
  ASSERT_EQ(tpuprof_enable(kProbes, 0), 0);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kThreads; ++t)
    threads.emplace_back([t] {
      for (uint32_t i = 0; i < kProbes; ++i) {
        __tpuprof_begin(t);
        __tpuprof_end(t);
      }
    });
  for (std::thread &t : threads)
    t.join(); // All of them have exited before the window closes.
  ASSERT_EQ(tpuprof_disable(), 0);
  std::string path = tpuprof_last_dump_path();
  {
    llvm::Expected<DumpReader> r = DumpReader::open(path);
    ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
    EXPECT_TRUE(r->info().isComplete());
    EXPECT_EQ(r->info().dropped, 0u);
    ASSERT_EQ(r->threads().size(), kThreads);
    std::vector<uint64_t> perProbe(kThreads);
    for (const ThreadInfo &t : r->threads()) {
      EXPECT_EQ(t.numRecords, kProbes);
      EXPECT_EQ(t.dropped, 0u);
      uint64_t bad = 0;
      r->forEachRecord(t, [&](const RecordView &v) {
        if (v.probe < kThreads)
          ++perProbe[v.probe];
        bad += v.end == 0 || v.end < v.begin || v.depth != 0;
      });
      EXPECT_EQ(bad, 0u);
    }
    for (unsigned t = 0; t < kThreads; ++t) {
      EXPECT_EQ(perProbe[t], kProbes) << t;
    }
  }
  std::remove(path.c_str());
  if (onShm)
    rmdir(shm);
}

TEST_F(Reliability, ThreadsThatStartAndExitDuringAWindowLoseNothing) {
  tpuprof_set_output(Dir.c_str(), 0);
  ASSERT_EQ(tpuprof_enable(1000, 0), 0);
  constexpr unsigned kWaves = 8, kPerWave = 8, kPairs = 500;
  for (unsigned w = 0; w < kWaves; ++w) {
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < kPerWave; ++t)
      threads.emplace_back([w] {
        for (unsigned i = 0; i < kPairs; ++i) {
          __tpuprof_begin(100 + w);
          __tpuprof_end(100 + w);
        }
      });
    for (std::thread &t : threads)
      t.join();
  }
  ASSERT_EQ(tpuprof_disable(), 0);
  llvm::Expected<Dump> d = readDump(tpuprof_last_dump_path());
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  EXPECT_EQ(d->threads.size(), kWaves * kPerWave);
  std::map<uint32_t, uint64_t> perProbe;
  for (const Thread &t : d->threads) {
    EXPECT_EQ(t.records.size(), kPairs);
    EXPECT_EQ(t.dropped, 0u);
    for (const Record &r : t.records)
      ++perProbe[r.probe];
  }
  for (unsigned w = 0; w < kWaves; ++w) {
    EXPECT_EQ(perProbe[100 + w], uint64_t(kPerWave) * kPairs) << w;
  }
}

//===----------------------------------------------------------------------===//
// Modules (dlopen, dlclose) and fork
//===----------------------------------------------------------------------===//

namespace {

struct Program {
  pid_t pid = -1;
  int status = -1;
  std::string err;
};

Program runProgram(const std::string &dir, std::vector<std::string> args) {
  Program p;
  std::vector<std::string> env = {"TPUPROF_ENABLE=1", "TPUPROF_OUTPUT=" + dir};
  tpuprof::test::keepSanitizerEnv(env);
  std::vector<char *> argv = tpuprof::test::cStrings(args);
  std::vector<char *> envp = tpuprof::test::cStrings(env);
  std::string errPath = dir + ".stderr";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, errPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (posix_spawn(&p.pid, argv[0], &fa, nullptr, argv.data(), envp.data()) == 0)
    waitpid(p.pid, &p.status, 0);
  posix_spawn_file_actions_destroy(&fa);
  if (FILE *f = fopen(errPath.c_str(), "r")) {
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
      p.err.append(buf, got);
    fclose(f);
  }
  std::remove(errPath.c_str());
  return p;
}

/// Records per probe name, through the dump's own tables.
std::map<std::string, uint64_t> countByName(const std::string &path) {
  std::map<std::string, uint64_t> out;
  llvm::Expected<DumpReader> r = DumpReader::open(path);
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    return out;
  }
  for (const ThreadInfo &t : r->threads())
    r->forEachRecord(t, [&](const RecordView &v) {
      const Probe *p = r->findProbe(v.probe);
      ++out[p ? p->name.str() : "<unknown " + std::to_string(v.probe) + ">"];
    });
  return out;
}

} // namespace

TEST_F(Reliability, DlopenedAndDlclosedModulesKeepTheirNames) {
  Program p =
      runProgram(Dir, {TPUPROF_MODULE_MAIN, "dlopen", TPUPROF_MODULE_B});
  ASSERT_TRUE(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0) << p.err;
  EXPECT_EQ(p.err, "");
  std::vector<std::string> names = listDir(Dir);
  ASSERT_EQ(names.size(), 1u);
  std::string path = Dir + "/" + names[0];
  // Modules m, a and b (b registers again if the second dlopen really
  // loaded it anew; glibc may keep it): their id ranges do not overlap (the
  // reader rejects overlaps) and every record names its op, including those
  // of the unloaded library.
  llvm::Expected<DumpReader> r = DumpReader::open(path);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  std::map<std::string, unsigned> modules;
  for (const Module &m : r->modules())
    ++modules[m.table.moduleName.str()];
  EXPECT_EQ(modules["mod_a"], 1u);
  EXPECT_EQ(modules["mod_m"], 1u);
  EXPECT_GE(modules["mod_b"], 1u);
  EXPECT_LE(modules["mod_b"], 2u);
  EXPECT_EQ(modules.size(), 3u);
  std::map<std::string, uint64_t> counts = countByName(path);
  EXPECT_EQ(counts, (std::map<std::string, uint64_t>{{"op_a_0", 2},
                                                     {"op_a_1", 2},
                                                     {"op_b_0", 7},
                                                     {"op_b_1", 7},
                                                     {"op_m_0", 4},
                                                     {"op_m_1", 4}}));
}

TEST_F(Reliability, ForkGivesTheChildItsOwnDumpAndLeavesTheParentsAlone) {
  Program p = runProgram(Dir, {TPUPROF_MODULE_MAIN, "fork"});
  ASSERT_TRUE(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0) << p.err;
  std::vector<std::string> names = listDir(Dir);
  ASSERT_EQ(names.size(), 2u);
  int parents = 0, children = 0;
  for (const std::string &n : names) {
    llvm::Expected<Dump> d = readDump(Dir + "/" + n);
    ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
    EXPECT_TRUE(d->info.isComplete());
    std::map<std::string, uint64_t> counts = countByName(Dir + "/" + n);
    if (d->info.pid == (uint32_t)p.pid) {
      ++parents;
      // Its 2 pairs of each probe, and m0 open across the fork, ended by
      // the parent: the child's end of it changed nothing.
      EXPECT_EQ(counts, (std::map<std::string, uint64_t>{{"op_m_0", 3},
                                                         {"op_m_1", 2}}));
      for (const Thread &t : d->threads)
        for (const Record &r : t.records) {
          EXPECT_NE(r.end, 0u);
        }
    } else {
      ++children;
      EXPECT_EQ(counts, (std::map<std::string, uint64_t>{{"op_a_0", 3},
                                                         {"op_a_1", 3}}));
    }
  }
  EXPECT_EQ(parents, 1);
  EXPECT_EQ(children, 1);
}

TEST_F(Reliability, CrashDumpsNameEveryRecord) {
  // TPUPROF_ENABLE opens the window in the shared runtime's constructor,
  // before the program's modules register (the program itself, a library
  // it links, and one it dlopens mid-window): each is written into the
  // crash-safe file as it registers, so a dump the process never closed
  // still names every record. One thread, then four more at once.
  for (const char *how : {"kill", "segv", "abort"}) {
    for (unsigned threads : {0u, 4u}) {
      SCOPED_TRACE(std::string(how) + " " + std::to_string(threads));
      Program p = runProgram(Dir, {TPUPROF_MODULE_MAIN, "crash", how,
                                   TPUPROF_MODULE_B, std::to_string(threads)});
      EXPECT_TRUE(WIFSIGNALED(p.status) ||
                  (WIFEXITED(p.status) && WEXITSTATUS(p.status) != 0))
          << p.status << " " << p.err;
      std::vector<std::string> names = listDir(Dir);
      ASSERT_EQ(names.size(), 1u);
      std::string path = Dir + "/" + names[0];
      llvm::Expected<Dump> d = readDump(path);
      ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
      EXPECT_FALSE(d->info.isComplete());
      EXPECT_EQ(d->threads.size(), 1u + threads);
      uint64_t m = 2 + 3 * threads, a = 2 + 3 * threads, b = 5 + 3 * threads;
      EXPECT_EQ(countByName(path),
                (std::map<std::string, uint64_t>{{"op_a_0", a},
                                                 {"op_a_1", a},
                                                 {"op_b_0", b},
                                                 {"op_b_1", b},
                                                 {"op_m_0", m},
                                                 {"op_m_1", m}}));
      std::remove(path.c_str());
    }
  }
}

TEST_F(Reliability, ChildrenLeaveADumpOnlyWhenTheyRecord) {
  // fork: the child's own dump (ForkGivesTheChildItsOwnDump... above);
  // a forked child that records nothing, and one that execs, leave none;
  // an exec'd program that records writes its own.
  struct Case {
    const char *how;
    std::map<std::string, uint64_t> child; ///< Empty: no child dump.
  };
  for (const Case &k : {Case{"fork-idle", {}}, Case{"vfork-exec", {}},
                        Case{"fork-exec", {{"op_m_0", 1}, {"op_m_1", 1}}}}) {
    SCOPED_TRACE(k.how);
    Program p = runProgram(Dir, {TPUPROF_MODULE_MAIN, "spawn", k.how});
    ASSERT_TRUE(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0) << p.err;
    EXPECT_EQ(p.err, "");
    std::vector<std::string> names = listDir(Dir);
    ASSERT_EQ(names.size(), k.child.empty() ? 1u : 2u);
    for (const std::string &n : names) {
      llvm::Expected<Dump> d = readDump(Dir + "/" + n);
      ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
      EXPECT_TRUE(d->info.isComplete());
      std::map<std::string, uint64_t> counts = countByName(Dir + "/" + n);
      if (d->info.pid == (uint32_t)p.pid) {
        EXPECT_EQ(counts, (std::map<std::string, uint64_t>{{"op_m_0", 3},
                                                           {"op_m_1", 3}}));
      } else
        EXPECT_EQ(counts, k.child);
      std::remove((Dir + "/" + n).c_str());
    }
  }
}
