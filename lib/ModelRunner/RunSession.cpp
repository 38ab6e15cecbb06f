//===- RunSession.cpp - Call a model's entry inside a profile -------------===//

#include "tpuprof/ModelRunner/RunSession.h"

#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/read/Dump.h"
#include "tpuprof/tpuprof.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include <csignal>
#include <cstring>
#include <iterator>
#include <unistd.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace tpuprof::run;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// Prints `Time per call: median M us, min N us, K calls`.
void printCallTimes(std::vector<double> seconds, llvm::raw_ostream &os) {
  std::sort(seconds.begin(), seconds.end());
  size_t n = seconds.size();
  double median =
      n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  os << llvm::format("Time per call: median %.3f us, min %.3f us, %zu calls\n",
                     median * 1e6, seconds.front() * 1e6, n);
}

/// Buffers the model frees go back to the heap and stay there, as in a
/// runtime's buffer pool. By default glibc maps blocks from 128 KiB up
/// afresh and unmaps them on free, or trims the heap's top: every call then
/// page-faults its intermediate tensors in again (100+ us on a conv net at
/// batch 8), and whether it does changed from run to run.
void keepFreedBuffers() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

/// While the model runs, a fault in it (an integer division by zero, a bad
/// access, a trap) ends the process with one line naming the signal and the
/// entry instead of LLVM's crash report, which would blame tpuprof-run.
/// What the window recorded so far stays in its dump file.
class FaultReport {
public:
  explicit FaultReport(const std::string &entry) {
    message = "tpuprof-run: error: @" + entry + " stopped on ";
    struct sigaction action = {};
    action.sa_handler = &FaultReport::handle;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kSignals); ++i)
      sigaction(kSignals[i].number, &action, &saved[i]);
  }
  ~FaultReport() {
    for (size_t i = 0; i < std::size(kSignals); ++i)
      sigaction(kSignals[i].number, &saved[i], nullptr);
  }

private:
  struct Signal {
    int number;
    const char *what;
  };
  static constexpr Signal kSignals[] = {
      {SIGFPE, "SIGFPE (an integer division by zero or overflow)"},
      {SIGSEGV, "SIGSEGV (an access outside its buffers)"},
      {SIGBUS, "SIGBUS (an access outside its buffers)"},
      {SIGILL, "SIGILL (a trap: unreachable code or a failed check)"},
      {SIGABRT, "SIGABRT (abort, e.g. a corrupt heap)"},
  };

  static void handle(int number) {
    // Only async-signal-safe calls from here on.
    const char *what = "a signal";
    for (const Signal &s : kSignals)
      if (s.number == number)
        what = s.what;
    ssize_t ignored = write(2, message.data(), message.size());
    ignored = write(2, what, strlen(what));
    ignored = write(2, "\n", 1);
    (void)ignored;
    _exit(1);
  }

  static inline std::string message;
  struct sigaction saved[std::size(kSignals)];
};

/// The record limit of tpuprof-run's window: what TPUPROF_RECORD_SIZE (or
/// its alias) says when it is set, else the runtime's largest. The limit
/// is a cap, never allocated (the dump grows with the records kept), so
/// every record of --repeat calls is kept without knowing how many a call
/// makes (ops in loops and called functions run more than once).
uint64_t windowRecords() {
  for (const char *name : {"TPUPROF_RECORD_SIZE", "PROFILE_RECORD_SIZE"})
    if (const char *v = getenv(name); v && *v)
      return 0; // The runtime reads (and checks) it.
  return TPUPROF_MAX_RECORD_SIZE;
}

/// One line on stderr when the window dropped records: how many, why, and
/// how to keep them. Nothing when the dump cannot be read (the table says
/// why) or dropped nothing.
void reportDrops(const std::string &dumpPath) {
  llvm::Expected<tpuprof::report::DumpReader> dump =
      tpuprof::report::DumpReader::open(dumpPath);
  if (!dump) {
    llvm::consumeError(dump.takeError());
    return;
  }
  const tpuprof::report::DumpInfo &info = dump->info();
  if (!info.dropped)
    return;
  std::string keep;
  if (info.drops.full || info.drops.unknown || info.drops.overwritten)
    keep = "; unset TPUPROF_RECORD_SIZE and TPUPROF_BUFFER to keep every "
           "record";
  else if (info.drops.noSpace)
    keep = "; free space where the dump is written to keep them";
  llvm::errs() << "tpuprof-run: warning: " << info.dropped
               << " records were not recorded ("
               << tpuprof::report::dropReasons(info.drops) << ")" << keep
               << "\n";
}

} // namespace

llvm::Error tpuprof::run::runSession(PackedEntry entry, EntryArguments &args,
                                     EntryResults &results,
                                     const SessionOptions &options,
                                     llvm::raw_ostream &os) {
  keepFreedBuffers();
  FaultReport faults(options.entryName);
  llvm::SmallVector<void *> packed = args.packedArguments();
  if (results.storage())
    packed.push_back(results.storage());

  // A window TPUPROF_ENABLE opened at load is closed before the warm-up
  // (it has recorded nothing, so it leaves no dump): ours replaces it.
  if (options.profile && tpuprof_is_enabled())
    tpuprof_disable();
  for (unsigned i = 0; i < options.warmup; ++i) {
    entry(packed.data());
    results.release(args);
  }

  // With --time each call is timed on its own (a steady_clock read on
  // either side costs tens of ns, against calls of µs and up), so the
  // median can shed calls that the machine interrupted. Made ready before
  // the window opens, and no clock is read without --time: the window holds
  // the model's calls and as little of this tool as can be (the first read
  // after the window's set-up took µs).
  std::vector<double> callSeconds;
  if (options.printTime)
    callSeconds.reserve(options.repeat);
  if (options.profile) {
    if (!options.outputDir.empty()) {
      if (std::error_code ec =
              llvm::sys::fs::create_directories(options.outputDir))
        return fail("cannot create output directory '" + options.outputDir +
                    "': " + ec.message());
      tpuprof_set_output(options.outputDir.c_str(), -1);
    }
    if (options.memory)
      tpuprof_set_memory(1);
    if (tpuprof_enable(windowRecords(), static_cast<int>(options.mode)) != 0)
      return fail("cannot enable profiling");
  }
  for (unsigned i = 0; i < options.repeat; ++i) {
    std::chrono::steady_clock::time_point start;
    if (options.printTime)
      start = std::chrono::steady_clock::now();
    entry(packed.data());
    // The last call's results are printed; release the others (inside the
    // window: with --memory their frees are the model's buffers' ends).
    if (i + 1 < options.repeat || !(options.printResult || options.keepResults))
      results.release(args);
    if (options.printTime)
      callSeconds.push_back(std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - start)
                                .count());
  }
  std::string dumpPath;
  if (options.profile) {
    if (tpuprof_disable() != 0)
      return fail("cannot write the profile dump");
    dumpPath = tpuprof_last_dump_path();
    reportDrops(dumpPath);
  }
  if (options.printTime && !callSeconds.empty())
    printCallTimes(callSeconds, os);
  if (options.printResult && options.repeat > 0) {
    results.print(os, options.resultValues);
    if (!options.keepResults)
      results.release(args);
  }
  if (!options.profile)
    return llvm::Error::success();
  os << "Dump: " << dumpPath << "\n";
  return report::printTable({dumpPath}, options.table, os, options.load);
}
