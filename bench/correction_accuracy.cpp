//===- bench/correction_accuracy.cpp - Measurement truth --------*- C++ -*-===//
//
// Does a recorded time mean the op's time? Two scenarios, each one mode-0
// window with the runtime's probe-cost calibration on, whose dump is read
// back through the report library (Aggregator, the same path as
// `tpuprof-report table`), once with the overhead correction and once
// without. The ops' work is throughput-bound (an elementwise loop) in the
// first and a latency-bound dependent chain in the second, where a probe's
// instructions partly hide in the chain's idle cycles; a third repeats the
// first in mode 1, where a pair costs two counter-group reads (each a
// system call with software events) and the correction uses each nested
// record's own read cost (READ_TICKS). The first and the third are judged
// against the targets; the second shows the method's limit.
// Each has:
//   (1) an empty op (a probe pair around nothing): its corrected median
//       should be ~0, against a raw median of the probe's own cost;
//   (2) an op doing a fixed ~5 us of work: corrected median within 5 % of
//       the same work timed uninstrumented;
//   (3) a parent op around 100 children of ~250 ns each (each child with
//       its probe pair): the parent's corrected median within 5 % of the
//       same 100 pieces of work timed uninstrumented, where the raw time
//       also holds 100 probe pairs.
// Every batch times the uninstrumented work and runs the instrumented ops,
// in alternating order (a round is kBatches batches, so that the suite's
// small round counts still give enough ratios); uninstrumented times are
// batches of calls timed as one and divided, so clock reads do not inflate
// them. Errors are the median over batches of (batch's recorded median /
// batch's uninstrumented time - 1), so load that changes between batches
// cancels out. Besides the human table, one `suite|...` line per figure for
// bench/suite.py.
//
// --startup measures instead what the calibration costs when a window opens:
// tpuprof_enable's time with TPUPROF_CALIBRATE=1 against =0, in mode 0 and
// mode 1, for the first window of a process and a later one. The runtime
// reads TPUPROF_CALIBRATE once per process, so each run of a variant is a
// child process (this program, re-executed with --startup-child MODE).
//
//   correction_accuracy [--rounds N]    (N rounds of kBatches batches each,
//                                        default 5: 30 batches)
//   correction_accuracy --startup [--rounds N]
//                                       (N rounds of 6 runs of each of the
//                                        4 variants, default 5: 120 children)
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/tpuprof.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace tpuprof::report;

namespace {

/// Probe kinds. Each round has its own probe ids (kindId), so that every
/// report row holds few enough records for its durations to stay exact
/// (DurationSketch::kExactSamples) and the medians below are exact too.
enum Kind : uint32_t { EmptyOp = 0, WorkOp = 1, ParentOp = 2, ChildOp = 3 };
constexpr uint32_t kKinds = 4;
uint32_t kindId(Kind k, unsigned round) { return 16 + round * kKinds + k; }

constexpr unsigned kBatches = 6;      ///< Batches per round.
constexpr unsigned kWorkCalls = 20;   ///< Work ops per batch.
constexpr unsigned kParentCalls = 5;  ///< Parent ops per round.
constexpr unsigned kChildren = 100;   ///< Children per parent.
constexpr unsigned kEmptyCalls = 100; ///< Empty ops per round.
constexpr double kWorkNs = 5000;      ///< Target work op time.
constexpr double kChildNs = 250;      ///< Target child work time.

volatile uint64_t Sink;

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

/// The op's work: `n` units, threading `x` through so calls cannot overlap.
using WorkFn = uint64_t (*)(uint64_t n, uint64_t x);

/// Throughput-bound work, like a small elementwise op: y = 0.5 y + x over
/// 256 floats in L1, `n` times. Many independent operations keep the
/// execution units busy, so a probe's instructions compete with the op's.
alignas(64) float X[256], Y[256];
__attribute__((noinline)) uint64_t elementwise(uint64_t n, uint64_t x) {
  for (uint64_t r = 0; r < n; ++r) {
    float *y = Y;
    asm volatile("" : "+r"(y) : : "memory");
    for (int i = 0; i < 256; ++i)
      y[i] = y[i] * 0.5f + X[i];
  }
  return x + n;
}

/// Latency-bound work: a dependent chain of `n` integer multiply-adds. The
/// core idles between links, and a probe's instructions run in those idle
/// slots, so here a probe pair costs its parent less than it does alone.
__attribute__((noinline)) uint64_t chain(uint64_t n, uint64_t x) {
  for (uint64_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    asm volatile("" : "+r"(x));
  }
  return x;
}

WorkFn spin = elementwise;

/// The probes as instrumented code has them: an inline flag test each.
inline void begin(uint32_t id) {
  if (__tpuprof_enabled)
    __tpuprof_begin(id);
}
inline void end(uint32_t id) {
  if (__tpuprof_enabled)
    __tpuprof_end(id);
}

__attribute__((noinline)) void parentBare(uint64_t childIters) {
  uint64_t x = 1;
  for (unsigned c = 0; c < kChildren; ++c)
    x = spin(childIters, x);
  Sink = x;
}

__attribute__((noinline)) void parentProbed(uint64_t childIters,
                                            uint32_t parent, uint32_t child) {
  uint64_t x = 1;
  begin(parent);
  for (unsigned c = 0; c < kChildren; ++c) {
    begin(child);
    x = spin(childIters, x);
    end(child);
  }
  end(parent);
  Sink = x;
}

/// spin() units that take about `ns`.
uint64_t itersFor(double ns) {
  const uint64_t probe = spin == chain ? 200000 : 2000;
  double best = 1e18;
  for (int i = 0; i < 5; ++i) {
    uint64_t t0 = nowNs();
    Sink = spin(probe, 1);
    best = std::min(best, double(nowNs() - t0));
  }
  return std::max<uint64_t>(1, uint64_t(ns * double(probe) / best));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// One kind's records, read back from the dump: median and mean ns over
/// all of them, and the median of each round.
struct Recorded {
  double median = 0, mean = 0;
  uint64_t count = 0;
  std::vector<double> roundMedian;
  /// Sums over all records (modes 1/2): task clock and duration, ns.
  double taskClockNs = 0, durationNs = 0;
  bool hasTaskClock = false;

  /// The task clock's share of the wall time, %, as `Task-clock %`.
  double taskClockPct() const {
    return durationNs > 0 ? 100.0 * taskClockNs / durationNs : 0;
  }
};

double median(std::vector<uint64_t> v) {
  std::vector<double> d(v.begin(), v.end());
  return median(d);
}

/// The calibration as the report sees it.
struct Calibration {
  std::string description;
  double selfNs = 0, nestedNs = 0;
};

std::vector<Recorded> readBack(const std::string &dump, bool corrected,
                               unsigned rounds, Calibration &calib) {
  Aggregator agg(corrected);
  if (llvm::Error err = agg.addFile(dump)) {
    llvm::errs() << "correction_accuracy: " << llvm::toString(std::move(err))
                 << '\n';
    std::exit(1);
  }
  const Profile &p = agg.profile();
  const DumpSummary &d = p.dumps.at(0);
  calib.description = describeCorrection(d.correction, d.info);
  calib.selfNs = calibSelfNs(d.info);
  calib.nestedNs = calibNestedNs(d.info);
  std::vector<std::vector<uint64_t>> samples(kKinds);
  std::vector<Recorded> out(kKinds);
  for (Recorded &o : out)
    o.roundMedian.assign(rounds, 0);
  int taskClock = -1;
  for (size_t i = 0; i != p.events.size(); ++i)
    if (canonicalEvent(p.events[i]) == "task-clock")
      taskClock = int(i);
  for (const Row &r : p.rows) {
    if (r.probeId < 16 || !r.count)
      continue;
    uint32_t kind = (r.probeId - 16) % kKinds;
    unsigned round = (r.probeId - 16) / kKinds;
    Recorded &o = out[kind];
    o.durationNs += double(r.durationNs);
    if (taskClock >= 0 && size_t(taskClock) < r.counters.size()) {
      o.taskClockNs += double(r.counters[taskClock]);
      o.hasTaskClock = true;
    }
    o.mean += double(r.durationNs);
    o.count += r.count;
    if (round < rounds)
      o.roundMedian[round] = double(r.durations.quantile(0.5));
    if (r.durations.isExact())
      samples[kind].insert(samples[kind].end(),
                           r.durations.exactSamples().begin(),
                           r.durations.exactSamples().end());
  }
  for (uint32_t k = 0; k != kKinds; ++k) {
    if (out[k].count)
      out[k].mean /= double(out[k].count);
    if (!samples[k].empty())
      out[k].median = median(samples[k]);
  }
  return out;
}

/// `suite|truth|metric|value|peer|peer value|unit|ratio|target|verdict`.
/// `peerValue` < 0: no peer (name and value stay empty); `ratio` NaN: none;
/// `met` < 0: no target (n/a).
void suiteRow(const std::string &metric, double value, const char *peer,
              double peerValue, const char *unit, double ratio,
              const char *target, int met) {
  std::printf("suite|truth|%s|%.2f|", metric.c_str(), value);
  if (peerValue >= 0)
    std::printf("%s|%.2f", peer, peerValue);
  else
    std::printf("|");
  std::printf("|%s|", unit);
  if (!std::isnan(ratio))
    std::printf("%.3f", ratio);
  std::printf("|%s|%s\n", target, met < 0 ? "n/a" : met ? "met" : "NOT met");
}

/// A figure in ns against the uninstrumented time; `errPct` NaN: no ratio.
void suiteLine(const std::string &metric, double value, double peerValue,
               double errPct, const char *target, int met) {
  suiteRow(metric, value, "uninstrumented", peerValue, "ns",
           1.0 + errPct / 100.0, target, met);
}

} // namespace

/// One window of `rounds` batches with `fn` as the ops' work; prints the
/// table and the suite lines (metric names get `tag`). Without `targeted`
/// the lines carry no target (n/a): the figures are shown, not judged.
int scenario(WorkFn fn, const char *label, const char *tag, unsigned rounds,
             bool targeted, int mode = 0) {
  spin = fn;
  char dir[] = "/tmp/tpuprof-correction-XXXXXX";
  if (!mkdtemp(dir)) {
    std::perror("correction_accuracy: mkdtemp");
    return 1;
  }
  tpuprof_set_output(dir, 0);

  uint64_t workIters = itersFor(kWorkNs);
  uint64_t childIters = itersFor(kChildNs);
  std::vector<double> bareWork, bareParent;
  uint64_t records =
      uint64_t(rounds) *
      (kWorkCalls + kParentCalls * (kChildren + 1) + kEmptyCalls);
  // The window opens once: its calibration is what the report subtracts.
  if (rounds > (TPUPROF_IGNORED_PROBE_BASE - 16) / kKinds ||
      tpuprof_enable(records + 16, mode) != 0)
    return 1;
  for (unsigned r = 0; r < rounds; ++r) {
    // Uninstrumented, batched: no probe and no clock read inside.
    auto bare = [&] {
      uint64_t t0 = nowNs();
      uint64_t x = 1;
      for (unsigned i = 0; i < kWorkCalls; ++i)
        x = spin(workIters, x);
      Sink = x;
      bareWork.push_back(double(nowNs() - t0) / kWorkCalls);
      t0 = nowNs();
      for (unsigned i = 0; i < kParentCalls; ++i)
        parentBare(childIters);
      bareParent.push_back(double(nowNs() - t0) / kParentCalls);
    };
    auto probed = [&] {
      uint64_t x = 1;
      uint32_t workId = kindId(WorkOp, r), emptyId = kindId(EmptyOp, r);
      for (unsigned i = 0; i < kWorkCalls; ++i) {
        begin(workId);
        x = spin(workIters, x);
        end(workId);
      }
      Sink = x;
      for (unsigned i = 0; i < kParentCalls; ++i)
        parentProbed(childIters, kindId(ParentOp, r), kindId(ChildOp, r));
      for (unsigned i = 0; i < kEmptyCalls; ++i) {
        begin(emptyId);
        end(emptyId);
      }
    };
    // Alternate which goes first, so neither always runs on a warmer or
    // colder machine.
    if (r % 2) {
      probed();
      bare();
    } else {
      bare();
      probed();
    }
  }
  if (tpuprof_disable() != 0)
    return 1;
  std::string dump = tpuprof_last_dump_path();

  Calibration calib, ignored;
  std::vector<Recorded> cor = readBack(dump, true, rounds, calib);
  std::vector<Recorded> raw = readBack(dump, false, rounds, ignored);
  unlink(dump.c_str());
  rmdir(dir);
  if (!cor[EmptyOp].count || !cor[WorkOp].count || !cor[ParentOp].count ||
      raw[ParentOp].count != uint64_t(rounds) * kParentCalls) {
    std::fprintf(stderr, "correction_accuracy: the dump lacks records\n");
    return 1;
  }
  double work = median(bareWork), parent = median(bareParent);
  // Errors against uninstrumented time: the median over rounds of each
  // round's recorded median / its own uninstrumented time, so that load
  // changing between rounds (a shared machine) cancels out.
  auto errorPct = [&](const Recorded &rec, const std::vector<double> &bare) {
    std::vector<double> ratios;
    for (unsigned r = 0; r < rounds; ++r)
      if (bare[r] > 0)
        ratios.push_back(rec.roundMedian[r] / bare[r]);
    return 100.0 * (median(ratios) - 1.0);
  };

  std::printf("Measurement truth, %s work: %u batches, mode %d, window "
              "calibrated\n",
              label, rounds, mode);
  std::printf("probe overhead correction: %s\n\n", calib.description.c_str());
  std::printf("%-32s %10s %10s %10s %10s %10s\n", "op (medians, ns)", "raw",
              "corrected", "bare", "raw err %", "corr err %");
  std::printf("%-32s %10.1f %10.1f %10s %10s %10s\n", "empty op",
              raw[EmptyOp].median, cor[EmptyOp].median, "0", "", "");
  std::printf("%-32s %10.2f %10.2f %10s %10s %10s\n", "empty op (mean)",
              raw[EmptyOp].mean, cor[EmptyOp].mean, "0", "", "");
  double workRaw = errorPct(raw[WorkOp], bareWork);
  double workCor = errorPct(cor[WorkOp], bareWork);
  double parentRaw = errorPct(raw[ParentOp], bareParent);
  double parentCor = errorPct(cor[ParentOp], bareParent);
  std::printf("%-32s %10.1f %10.1f %10.1f %+10.2f %+10.2f\n", "5 us op",
              raw[WorkOp].median, cor[WorkOp].median, work, workRaw, workCor);
  std::printf("%-32s %10.1f %10.1f %10.1f %+10.2f %+10.2f\n",
              "parent of 100 x 250 ns children", raw[ParentOp].median,
              cor[ParentOp].median, parent, parentRaw, parentCor);
  std::printf("(err %%: median over batches of recorded / uninstrumented - "
              "1)\n");
  // Counters: the task clock against the duration, as the table's
  // Task-clock % (corrected: both corrected, the task clock capped at the
  // duration; raw: the counters include the probes' own reads).
  bool taskClock = cor[WorkOp].hasTaskClock && cor[ParentOp].hasTaskClock;
  if (taskClock)
    std::printf("task clock / duration: 5 us op %.1f %% (raw %.1f %%), "
                "parent %.1f %% (raw %.1f %%)\n",
                cor[WorkOp].taskClockPct(), raw[WorkOp].taskClockPct(),
                cor[ParentOp].taskClockPct(), raw[ParentOp].taskClockPct());
  std::printf("\n");

  // The empty op: its corrected median is at most 5 % of what a probe pair
  // costs (the calibrated nested cost), or 1 ns, the resolution of the
  // report's durations (integer ns).
  double emptyLimit = std::max(0.05 * calib.nestedNs, 1.0);
  auto metric = [&](const char *what) { return std::string(what) + tag; };
  suiteLine(metric("empty op, corrected"), cor[EmptyOp].median, 0, NAN,
            "<= 5 % of probe pair (1 ns resolution)",
            cor[EmptyOp].median <= emptyLimit);
  suiteLine(metric("empty op, raw"), raw[EmptyOp].median, 0, NAN, "", -1);
  auto judge = [&](double errPct) {
    return targeted ? int(std::fabs(errPct) <= 5) : -1;
  };
  const char *within = targeted ? "within 5 %" : "";
  suiteLine(metric("5 us op, corrected"), cor[WorkOp].median, work, workCor,
            within, judge(workCor));
  suiteLine(metric("5 us op, raw"), raw[WorkOp].median, work, workRaw, "", -1);
  suiteLine(metric("parent of 100 children, corrected"), cor[ParentOp].median,
            parent, parentCor, within, judge(parentCor));
  suiteLine(metric("parent of 100 children, raw"), raw[ParentOp].median, parent,
            parentRaw, "", -1);
  if (taskClock) {
    for (Kind k : {WorkOp, ParentOp}) {
      const char *what = k == WorkOp ? "5 us op" : "parent of 100 children";
      suiteRow(
          metric((std::string(what) + ", task clock %, corrected").c_str()),
          cor[k].taskClockPct(), "", -1, "%", NAN, "", -1);
      suiteRow(metric((std::string(what) + ", task clock %, raw").c_str()),
               raw[k].taskClockPct(), "", -1, "%", NAN, "", -1);
    }
  }
  suiteLine(metric("calibrated self per probe pair"), calib.selfNs, -1, NAN, "",
            -1);
  suiteLine(metric("calibrated nested per probe pair"), calib.nestedNs, -1, NAN,
            "", -1);
  std::printf("\n");
  return 0;
}

//===----------------------------------------------------------------------===//
// Start-up cost of the calibration (--startup)
//===----------------------------------------------------------------------===//

namespace {

/// Runs of each variant per --rounds round, as the scenarios have batches.
constexpr unsigned kStartupRunsPerRound = 6;
/// The window's buffer: small, because preparing it is part of
/// tpuprof_enable in both variants, and the default buffer's first-touch
/// page faults (≈ 5 ms in this VM) would bury a ≈ 0.1 ms difference.
constexpr uint64_t kStartupRecords = 4096;

/// What one child saw: tpuprof_enable's time for the first window of the
/// process and for a second one, whether both dumps carry a CALIBRATION
/// section (1 both, 0 neither, -1 mixed) and how many counter events the
/// window had.
struct StartupSample {
  double firstNs = 0, laterNs = 0;
  int calibrated = -1;
  unsigned events = 0;
};

/// Whether `dump` has a CALIBRATION section; its event count in `events`.
/// -1 when it cannot be read (the message is printed).
int dumpCalibrated(const std::string &dump, unsigned &events) {
  Aggregator agg;
  if (llvm::Error err = agg.addFile(dump)) {
    llvm::errs() << "correction_accuracy: " << llvm::toString(std::move(err))
                 << '\n';
    return -1;
  }
  events = 0;
  for (const std::string &e : agg.profile().events)
    events += e.rfind("tpuprof::", 0) != 0; // Not a pseudo-event.
  return agg.profile().dumps.at(0).info.hasCalibration ? 1 : 0;
}

/// The child (--startup-child MODE): opens a window twice, timing each
/// tpuprof_enable (where the calibration runs), and prints
/// `startup-child|first ns|later ns|calibrated|events`. TPUPROF_CALIBRATE
/// comes from the parent through the environment.
int startupChild(int mode) {
  char dir[] = "/tmp/tpuprof-startup-XXXXXX";
  if (!mkdtemp(dir)) {
    std::perror("correction_accuracy: mkdtemp");
    return 1;
  }
  tpuprof_set_output(dir, 0);
  StartupSample s;
  int calibrated[2] = {-1, -1};
  for (int w = 0; w < 2; ++w) {
    uint64_t t0 = nowNs();
    int rc = tpuprof_enable(kStartupRecords, mode);
    uint64_t t1 = nowNs();
    if (rc != 0 || tpuprof_disable() != 0)
      return 1;
    (w ? s.laterNs : s.firstNs) = double(t1 - t0);
    std::string dump = tpuprof_last_dump_path();
    calibrated[w] = dumpCalibrated(dump, s.events);
    unlink(dump.c_str());
    if (calibrated[w] < 0)
      return 1;
  }
  rmdir(dir);
  s.calibrated = calibrated[0] == calibrated[1] ? calibrated[0] : -1;
  std::printf("startup-child|%.0f|%.0f|%d|%u\n", s.firstNs, s.laterNs,
              s.calibrated, s.events);
  return 0;
}

/// Runs this program again as a child for one mode and TPUPROF_CALIBRATE
/// value and reads its line into `out`. The runtime reads its environment
/// once, when it loads, so every variant needs a fresh process. The child's
/// other output (the runtime's warnings, the same in every child) goes to
/// stderr once per distinct text, collected in `seen`.
bool runStartupChild(int mode, bool calibrate, StartupSample &out,
                     std::vector<std::string> &seen) {
  setenv("TPUPROF_CALIBRATE", calibrate ? "1" : "0", 1);
  int fds[2];
  if (pipe(fds) != 0) {
    std::perror("correction_accuracy: pipe");
    return false;
  }
  char modeArg[] = "0";
  modeArg[0] = char('0' + mode);
  char name[] = "correction_accuracy", flag[] = "--startup-child";
  char *argv[] = {name, flag, modeArg, nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  pid_t pid;
  int err =
      posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err != 0) {
    close(fds[0]);
    std::fprintf(stderr, "correction_accuracy: cannot start a child: %s\n",
                 std::strerror(err));
    return false;
  }
  std::string text;
  char buf[256];
  for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) != 0;) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      break;
    text.append(buf, size_t(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // The result line; everything else is the child's messages.
  std::string other;
  int fields = 0;
  for (size_t at = 0; at < text.size();) {
    size_t eol = std::min(text.find('\n', at), text.size());
    std::string line = text.substr(at, eol - at);
    at = eol + 1;
    if (line.rfind("startup-child|", 0) == 0)
      fields =
          std::sscanf(line.c_str(), "startup-child|%lf|%lf|%d|%u", &out.firstNs,
                      &out.laterNs, &out.calibrated, &out.events);
    else
      other += line + "\n";
  }
  if (!other.empty() &&
      std::find(seen.begin(), seen.end(), other) == seen.end()) {
    std::fputs(other.c_str(), stderr);
    seen.push_back(other);
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || fields != 4) {
    std::fprintf(stderr,
                 "correction_accuracy: the mode %d child with "
                 "TPUPROF_CALIBRATE=%d failed\n",
                 mode, int(calibrate));
    return false;
  }
  if (out.calibrated != int(calibrate)) {
    std::fprintf(stderr,
                 "correction_accuracy: the mode %d child with "
                 "TPUPROF_CALIBRATE=%d wrote dumps %s a CALIBRATION section\n",
                 mode, int(calibrate),
                 calibrate ? "without" : "with (or only some with)");
    return false;
  }
  return true;
}

} // namespace

/// --startup: what the calibration adds to opening a window. Four variants
/// (mode 0 and 1, each with TPUPROF_CALIBRATE=1 and =0), one child process
/// per variant and run, the variants interleaved within each round in an
/// order that rotates every round, so that drift hits all of them alike.
int startup(unsigned rounds) {
  unsigned runs = rounds * kStartupRunsPerRound;
  // The runtime's constructor would open a window of its own in the child.
  unsetenv("TPUPROF_ENABLE");
  unsetenv("TPUPROF_SCHEDULE");
  struct Variant {
    int mode;
    bool calibrate;
    std::vector<double> first, later;
    unsigned events = 0;
  };
  Variant v[4] = {{0, true, {}, {}},
                  {0, false, {}, {}},
                  {1, true, {}, {}},
                  {1, false, {}, {}}};
  std::vector<std::string> seen;
  for (unsigned r = 0; r < runs; ++r) {
    for (unsigned i = 0; i < 4; ++i) {
      Variant &x = v[(r + i) % 4];
      StartupSample s;
      if (!runStartupChild(x.mode, x.calibrate, s, seen))
        return 1;
      x.first.push_back(s.firstNs / 1000);
      x.later.push_back(s.laterNs / 1000);
      x.events = s.events;
    }
  }
  unsetenv("TPUPROF_CALIBRATE");

  // Per mode: medians with and without, their difference, and the median of
  // the differences within each run (the two children ran milliseconds
  // apart).
  std::printf("Calibration start-up cost: tpuprof_enable(%llu records), %u "
              "runs per variant,\none child process per run "
              "(TPUPROF_CALIBRATE is read once per process), interleaved\n\n",
              (unsigned long long)kStartupRecords, runs);
  std::printf("%-34s %10s %10s %10s %10s\n", "window open (medians, us)",
              "calibrated", "CALIB=0", "difference", "paired");
  struct Line {
    std::string label;
    double on, off, diff, paired;
  };
  std::vector<Line> lines;
  for (int m = 0; m < 2; ++m) {
    const Variant &on = v[2 * m], &off = v[2 * m + 1];
    std::string mode = "mode " + std::to_string(m);
    if (m)
      mode += " (" + std::to_string(on.events) + " events)";
    for (int later = 0; later < 2; ++later) {
      const std::vector<double> &a = later ? on.later : on.first;
      const std::vector<double> &b = later ? off.later : off.first;
      std::vector<double> paired;
      for (unsigned r = 0; r < runs; ++r)
        paired.push_back(a[r] - b[r]);
      Line l{mode + (later ? ", later window" : ", first window"), median(a),
             median(b), 0, median(paired)};
      l.diff = l.on - l.off;
      std::printf("%-34s %10.1f %10.1f %+10.1f %+10.1f\n", l.label.c_str(),
                  l.on, l.off, l.diff, l.paired);
      lines.push_back(l);
    }
  }
  std::printf("(first window: the process's first tpuprof_enable; later: its "
              "second, after\nthe first closed; a run is one child of each "
              "variant, back to back; paired:\nmedian over runs of the run's "
              "calibrated - CALIB=0)\n\n");
  // The cost is the paired figure: it is steadier than the difference of
  // the medians where the window's own opening time varies by milliseconds
  // (the first mode-1 window).
  for (const Line &l : lines) {
    suiteRow("window open, " + l.label, l.on, "TPUPROF_CALIBRATE=0", l.off,
             "us", l.off > 0 ? l.on / l.off : NAN, "", -1);
    suiteRow("calibration cost, " + l.label, l.paired, "", -1, "us", NAN, "",
             -1);
  }
  std::printf("\n");
  return 0;
}

int main(int argc, char **argv) {
  unsigned rounds = 5;
  bool startupOnly = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--startup-child") && i + 1 < argc &&
        (!std::strcmp(argv[i + 1], "0") || !std::strcmp(argv[i + 1], "1"))) {
      return startupChild(argv[i + 1][0] - '0');
    } else if (!std::strcmp(argv[i], "--startup")) {
      startupOnly = true;
    } else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) {
      char *endp = nullptr;
      long v = std::strtol(argv[++i], &endp, 10);
      if (*endp || v < 1 || v > 100000) {
        std::fprintf(stderr,
                     "correction_accuracy: --rounds '%s' is not a "
                     "count from 1 to 100000\n",
                     argv[i]);
        return 2;
      }
      rounds = unsigned(v);
    } else {
      std::fprintf(stderr,
                   "usage: correction_accuracy [--startup] [--rounds N]\n");
      return 2;
    }
  }
  if (startupOnly)
    return startup(rounds);

  // Ones, so the elementwise op converges (y -> 2) and never denormalizes.
  std::fill(std::begin(X), std::end(X), 1.0f);
  std::fill(std::begin(Y), std::end(Y), 1.0f);
  unsigned batches = rounds * kBatches;
  // The target is judged on throughput-bound work, what graph ops mostly
  // are, in modes 0 and 1; the latency-bound chain shows the method's limit
  // (docs/performance.md, "Measurement truth").
  int rc = scenario(elementwise, "elementwise", "", batches, true);
  if (rc == 0)
    rc = scenario(chain, "dependent chain", " (latency-bound)", batches, false);
  if (rc == 0)
    rc = scenario(elementwise, "elementwise", " (mode 1)", batches, true, 1);
  return rc;
}
