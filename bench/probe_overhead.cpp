//===- bench/probe_overhead.cpp - Cost of a probe pair against peers ------===//
//
// Per-call cost of a tiny function, measured side by side in one run:
//   (a) the bare call (baseline);
//   (b) with tpuprof probes compiled in, profiling disabled: the inline
//       `if (__tpuprof_enabled)` test instrumented code carries;
//   (c) tpuprof probes enabled, mode 0 (timing): the hot path, in a ring
//       window whose segments are in place (reused, not taken anew);
//   (c2) the same keeping every record: segments of the dump file are
//       taken as the records fill them (the pages the kernel provides are
//       the cost beyond the hot path; bench/whole_process.py has it whole);
//   (d) tpuprof probes enabled, mode 1 with 3 software events per pair;
//   (e) the same function with XRay sleds, unpatched;
//   (f) XRay FDR mode, patched and logging in memory;
//   (g) XRay basic mode, patched, every call logged in memory;
//   (h) -finstrument-functions with a minimal clock_gettime hook;
//   (i) PAPI_read of the same 3 events before and after the function;
//   (j) the two clock reads of a mode-0 pair alone, the end one ordered
//       after the op's work as the runtime orders it: the floor under (c);
//   (k) the same reads with the end unordered, (l) ordered by lfence; rdtsc:
//       what the order costs, and what rdtscp saves.
// Every variant runs in every round, interleaved, so drift hits all alike;
// the table gives min and median ns/call over the rounds, and the overhead
// over the baseline. Targets (docs/performance.md): (b) <= 2 ns,
// (c) <= 30 ns and <= 1/3 of (f), (d) <= 0.5 x (i). Besides the human table,
// one `suite|...` line per figure for bench/suite.py.
//
//   probe_overhead [--calls N] [--rounds R]
//
//===----------------------------------------------------------------------===//

#include "tpuprof/format.h"
#include "tpuprof/tpuprof.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <sched.h>
#include <string>
#include <time.h>
#include <unistd.h>
#include <vector>

#if TPUPROF_BENCH_HAVE_XRAY
#include <xray/xray_interface.h>
#include <xray/xray_log_interface.h>

// XRay's basic mode cannot be initialized again once finalized (compiler-rt
// 19), and only one handler is installed at a time. So both modes are
// initialized once, and the rounds switch between them with the public
// __xray_set_handler and the two runtimes' own entry points, chosen the way
// basicLoggingInit chooses (real TSC when the CPU has it).
namespace __xray {
bool probeRequiredCPUFeatures();
void fdrLoggingHandleArg0(int32_t, XRayEntryType);
void basicLoggingHandleArg0RealTSC(int32_t, XRayEntryType);
void basicLoggingHandleArg0EmulateTSC(int32_t, XRayEntryType);
} // namespace __xray
#endif

extern "C" {
int bench_tiny(int);
int bench_tiny_probed(int);
int bench_tiny_cyg(int);
int bench_clock_init(void);
int bench_tiny_clocks(int);
int bench_tiny_clocks_unordered(int);
int bench_tiny_clocks_lfence(int);
int bench_cyg_reset(size_t);
size_t bench_cyg_count(void);
#if TPUPROF_BENCH_HAVE_XRAY
int bench_tiny_xray(int);
#endif
#if TPUPROF_BENCH_HAVE_PAPI
int bench_papi_start(const char *, char *, size_t);
int bench_tiny_papi(int);
#endif
}

namespace {

/// The software events every Linux kernel has: what mode 1 and PAPI count
/// in this comparison (a VM without a hardware PMU has nothing else).
constexpr const char *kEvents =
    "perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES";

volatile int Sink;

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

/// ns per call of F over `calls` calls. Each call takes the previous
/// result, so calls cannot overlap: this is latency per call, as an op's
/// probes add it.
template <int (*F)(int)> double timeLoop(uint64_t calls) {
  int x = 0;
  uint64_t t0 = nowNs();
  for (uint64_t i = 0; i < calls; ++i)
    x = F(x);
  uint64_t t1 = nowNs();
  Sink = x;
  return double(t1 - t0) / double(calls);
}

/// One variant: its per-round figures, or why it was not measured.
struct Row {
  const char *name;
  std::vector<double> ns;
  std::string why; ///< Non-empty: not measured, and why.
  bool have() const { return why.empty() && !ns.empty(); }
  double min() const { return *std::min_element(ns.begin(), ns.end()); }
  double median() const {
    std::vector<double> v = ns;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
};

/// What an enabled round's dump says: records, drops, clock source and the
/// number of counter words per record (PMU events + pseudo-events).
struct DumpFacts {
  bool ok = false;
  uint64_t records = 0, dropped = 0;
  uint32_t clock = 0, events = 0;
};

DumpFacts readDump(const char *path) {
  DumpFacts f;
  std::ifstream in(path, std::ios::binary);
  std::string b((std::istreambuf_iterator<char>(in)),
                std::istreambuf_iterator<char>());
  tpuprof_dump_header h;
  if (b.size() < sizeof(h))
    return f;
  std::memcpy(&h, b.data(), sizeof(h));
  f.dropped = h.dropped;
  f.clock = h.clock_source;
  size_t off = h.header_size;
  for (uint32_t s = 0; s < h.num_sections; ++s) {
    tpuprof_section_header sh;
    if (b.size() - off < sizeof(sh))
      return f;
    std::memcpy(&sh, b.data() + off, sizeof(sh));
    off += sizeof(sh);
    if (b.size() - off < sh.size)
      return f;
    if (sh.kind == TPUPROF_SECTION_SEGMENT) {
      tpuprof_segment_section g;
      std::memcpy(&g, b.data() + off, sizeof(g));
      for (uint64_t r = 0; r + sizeof(tpuprof_record) <= g.stream_size;
           ++f.records) {
        tpuprof_record rec;
        std::memcpy(&rec, b.data() + off + sizeof(g) + r, sizeof(rec));
        r += TPUPROF_RECORD_BYTES(rec.num_dims, rec.num_counters);
      }
    } else if (sh.kind == TPUPROF_SECTION_EVENTS) {
      tpuprof_events_section es;
      std::memcpy(&es, b.data() + off, sizeof(es));
      f.events = es.count;
    }
    off += sh.size;
  }
  f.ok = off == b.size();
  return f;
}

/// Records a ring window keeps: 1.5 MiB of segments, hot in the caches.
constexpr uint64_t kRingRecords = 1u << 16;

/// Runs one enabled tpuprof round of `calls` calls in `mode`, checks the
/// dump and returns ns/call, or a negative value with `why` set. Keeping
/// every record (`ring` false), every call is recorded and none dropped.
/// In a ring (true), two laps run first, untimed, so that the timed calls
/// reuse segments in place; every call is kept or counted as overwritten.
double enabledRound(int mode, uint64_t calls, bool ring, DumpFacts &facts,
                    std::string &why) {
  tpuprof_set_buffer_policy(ring ? TPUPROF_BUFFER_RING : TPUPROF_BUFFER_STOP);
  if (tpuprof_enable(ring ? kRingRecords : calls + 16, mode) != 0) {
    why = "tpuprof_enable failed";
    return -1;
  }
  uint64_t warm = ring ? 2 * kRingRecords : 1;
  timeLoop<bench_tiny_probed>(warm); // The thread's first segment(s).
  double ns = timeLoop<bench_tiny_probed>(calls);
  int closed = tpuprof_disable();
  tpuprof_set_buffer_policy(TPUPROF_BUFFER_STOP);
  if (closed != 0) {
    why = "tpuprof_disable failed";
    return -1;
  }
  facts = readDump(tpuprof_last_dump_path());
  std::remove(tpuprof_last_dump_path());
  uint64_t total = calls + warm;
  if (!facts.ok || facts.records + facts.dropped != total ||
      (!ring && facts.dropped != 0)) {
    why = "mode " + std::to_string(mode) + " round recorded " +
          std::to_string(facts.records) + " records, dropped " +
          std::to_string(facts.dropped) + " (expected " +
          std::to_string(total) + (ring ? " in all)" : ", 0)");
    return -1;
  }
  return ns;
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0)
      return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

/// Removes the scratch directory and whatever XRay's basic mode left in it.
void removeScratch(const char *dir) {
  if (DIR *d = opendir(dir)) {
    while (dirent *e = readdir(d))
      if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, ".."))
        unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
  }
  rmdir(dir);
}

/// One machine-readable line for bench/suite.py (fields may be empty):
/// suite|section|metric|tpuprof|peer|peer value|unit|ratio|target|verdict
void suiteLine(const char *metric, double value, const char *peer,
               const Row *peerRow, double peerValue, const char *target,
               double limit) {
  std::string peerText, ratioText, verdict = "n/a";
  if (peerRow && !peerRow->have()) {
    std::printf("suite|probe|%s|%.2f|%s|skipped: %s|ns||%s|n/a\n", metric,
                value, peer, peerRow->why.c_str(), target);
    return;
  }
  double measure = value;
  if (peerRow) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.2f", peerValue);
    peerText = buf;
    double ratio = peerValue > 0 ? value / peerValue : 0;
    std::snprintf(buf, sizeof(buf), "%.3f", ratio);
    ratioText = buf;
    measure = ratio;
  }
  if (limit > 0)
    verdict = measure <= limit ? "met" : "NOT met";
  std::printf("suite|probe|%s|%.2f|%s|%s|ns|%s|%s|%s\n", metric, value,
              peerRow ? peer : "", peerText.c_str(), ratioText.c_str(), target,
              verdict.c_str());
}

} // namespace

int main(int argc, char **argv) {
  uint64_t calls = 1u << 20;
  int rounds = 9;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--calls") && i + 1 < argc)
      calls = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--calls N] [--rounds R]\n", argv[0]);
      return 2;
    }
  }
  if (calls == 0 || rounds <= 0 || rounds > 1000) {
    std::fprintf(stderr, "probe_overhead: --calls must be > 0 and --rounds "
                         "in 1..1000\n");
    return 2;
  }
  // The slow variants (a syscall or a log record per side) take fewer calls
  // per round: per-call latency does not depend on the count, and XRay
  // basic's buffer must hold every round's records (see below).
  const uint64_t slowCalls = std::min<uint64_t>(calls, 1u << 16);

  // One CPU for the whole run: no migration between variants.
  int cpu = sched_getcpu();
  if (cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof(set), &set);
  }

  // Dumps of the enabled rounds (and XRay basic's log file, created in the
  // working directory) go to a scratch directory, tmpfs when there is one.
  char dir[] = "/dev/shm/tpuprof-bench-XXXXXX";
  char dirTmp[] = "/tmp/tpuprof-bench-XXXXXX";
  const char *out = mkdtemp(dir);
  if (!out)
    out = mkdtemp(dirTmp);
  if (!out) {
    std::fprintf(stderr, "probe_overhead: mkdtemp: %s\n", std::strerror(errno));
    return 1;
  }
  tpuprof_set_output(out, 0);
  std::string oldCwd;
  if (char *cwd = getcwd(nullptr, 0)) {
    oldCwd = cwd;
    std::free(cwd);
  }
  if (chdir(out) != 0) {
    std::fprintf(stderr, "probe_overhead: chdir %s: %s\n", out,
                 std::strerror(errno));
    return 1;
  }

  Row base{"(a) tiny function call (baseline)", {}, {}};
  Row disabled{"(b)  + tpuprof probes, disabled", {}, {}};
  Row mode0{"(c)  + tpuprof probes, mode 0, hot path", {}, {}};
  Row keep0{"(c2) + mode 0 keeping every record", {}, {}};
  Row mode1{"(d)  + tpuprof probes, mode 1 (3 events)", {}, {}};
  Row sleds{"(e) XRay sleds, unpatched", {}, {}};
  Row fdr{"(f) XRay FDR mode, patched", {}, {}};
  Row basic{"(g) XRay basic mode, patched", {}, {}};
  Row cyg{"(h) -finstrument-functions + clock_gettime", {}, {}};
  Row papi{"(i) PAPI_read x 2 (3 events)", {}, {}};
  Row clocks{"(j) the pair's two clock reads alone", {}, {}};
  Row unordered{"(k) the same, end read unordered", {}, {}};
  Row lfenced{"(l) the same, end read by lfence; rdtsc", {}, {}};
  if (bench_clock_init() != 0)
    clocks.why = unordered.why = lfenced.why = "no TSC on this architecture";

  const char *noXray = "not built with XRay (needs clang on x86-64, no "
                       "sanitizers)";
  sleds.why = fdr.why = basic.why = noXray;
#if TPUPROF_BENCH_HAVE_XRAY
  sleds.why.clear();
  void (*basicHandler)(int32_t, XRayEntryType) =
      __xray::probeRequiredCPUFeatures()
          ? __xray::basicLoggingHandleArg0RealTSC
          : __xray::basicLoggingHandleArg0EmulateTSC;
  // Basic mode keeps records in a per-thread buffer and writes it to its
  // log file when full. Sized for every timed round (two records per call:
  // no duration filter, so every call is logged, as tpuprof and FDR do), it
  // is filled exactly once before the rounds, so the timing sees neither
  // the file nor the buffer's first-touch page faults.
  const uint64_t basicRecords = 2 * slowCalls * uint64_t(rounds) + 64;
  {
    std::string cfg = "func_duration_threshold_us=0:max_stack_depth=64:"
                      "thread_buffer_size=" +
                      std::to_string(basicRecords);
    XRayLogRegisterStatus sel = __xray_log_select_mode("xray-basic");
    XRayLogInitStatus st = sel == XRayLogRegisterStatus::XRAY_REGISTRATION_OK
                               ? __xray_log_init_mode("xray-basic", cfg.c_str())
                               : XRayLogInitStatus::XRAY_LOG_UNINITIALIZED;
    if (sel != XRayLogRegisterStatus::XRAY_REGISTRATION_OK)
      basic.why = "__xray_log_select_mode(\"xray-basic\") failed";
    else if (st != XRayLogInitStatus::XRAY_LOG_INITIALIZED)
      basic.why = "__xray_log_init_mode(\"xray-basic\") returned " +
                  std::to_string(int(st));
    else
      basic.why.clear();
  }
  {
    XRayLogRegisterStatus sel = __xray_log_select_mode("xray-fdr");
    // Large enough never to run out; no_file_flush: nothing hits the disk.
    XRayLogInitStatus st =
        sel == XRayLogRegisterStatus::XRAY_REGISTRATION_OK
            ? __xray_log_init_mode(
                  "xray-fdr",
                  "buffer_size=65536:buffer_max=64:no_file_flush=true")
            : XRayLogInitStatus::XRAY_LOG_UNINITIALIZED;
    if (sel != XRayLogRegisterStatus::XRAY_REGISTRATION_OK)
      fdr.why = "__xray_log_select_mode(\"xray-fdr\") failed";
    else if (st != XRayLogInitStatus::XRAY_LOG_INITIALIZED)
      fdr.why = "__xray_log_init_mode(\"xray-fdr\") returned " +
                std::to_string(int(st));
    else
      fdr.why.clear();
  }
  auto patched = [](Row &row, void (*handler)(int32_t, XRayEntryType),
                    uint64_t n) {
    if (!row.why.empty())
      return;
    __xray_set_handler(handler);
    XRayPatchingStatus ps = __xray_patch();
    if (ps != XRayPatchingStatus::SUCCESS) {
      row.why = "__xray_patch() returned " + std::to_string(int(ps));
      return;
    }
    row.ns.push_back(timeLoop<bench_tiny_xray>(n));
    __xray_unpatch();
  };
  if (basic.why.empty()) {
    // The fill described above, outside the timing.
    patched(basic, basicHandler, basicRecords / 2 + 1);
    basic.ns.clear();
  }
#endif

  // tpuprof mode 1 on the software events (a window whose counters cannot
  // be opened goes on timing only; the first round's dump tells).
  if (tpuprof_set_events(kEvents) != 0)
    mode1.why = "tpuprof_set_events rejected the events";

  if (bench_cyg_reset(2 * calls) != 0)
    cyg.why = "out of memory for the hook's buffer";

  papi.why = "built without libpapi-dev (papi.h not found)";
#if TPUPROF_BENCH_HAVE_PAPI
  {
    char why[512] = "";
    if (bench_papi_start(kEvents, why, sizeof(why)) == 0)
      papi.why.clear();
    else
      papi.why = why;
  }
#endif

  // Warm up: page in code and data, let the CPU settle.
  timeLoop<bench_tiny>(calls);
  timeLoop<bench_tiny_probed>(calls);

  uint32_t clockSource = 0;
  for (int r = 0; r < rounds; ++r) {
    base.ns.push_back(timeLoop<bench_tiny>(calls));
    disabled.ns.push_back(timeLoop<bench_tiny_probed>(calls));

    DumpFacts facts;
    std::string why;
    double ns = enabledRound(0, calls, true, facts, why);
    double keep = ns < 0 ? ns : enabledRound(0, calls, false, facts, why);
    if (ns < 0 || keep < 0) {
      std::fprintf(stderr, "probe_overhead: %s\n", why.c_str());
      removeScratch(out);
      return 1;
    }
    mode0.ns.push_back(ns);
    keep0.ns.push_back(keep);
    clockSource = facts.clock;

    if (mode1.why.empty()) {
      ns = enabledRound(1, slowCalls, false, facts, why);
      if (ns < 0)
        mode1.why = why;
      else if (facts.events < 3)
        mode1.why = "the window could not open the events here (timing "
                    "only; see the runtime's warning)";
      else
        mode1.ns.push_back(ns);
    }

#if TPUPROF_BENCH_HAVE_XRAY
    sleds.ns.push_back(timeLoop<bench_tiny_xray>(calls));
    patched(fdr, __xray::fdrLoggingHandleArg0, calls);
    patched(basic, basicHandler, slowCalls);
#endif

    if (cyg.why.empty()) {
      bench_cyg_reset(2 * calls);
      cyg.ns.push_back(timeLoop<bench_tiny_cyg>(calls));
      if (bench_cyg_count() != 2 * calls)
        cyg.why = "the hook recorded " + std::to_string(bench_cyg_count()) +
                  " events, expected " + std::to_string(2 * calls);
    }

#if TPUPROF_BENCH_HAVE_PAPI
    if (papi.why.empty())
      papi.ns.push_back(timeLoop<bench_tiny_papi>(slowCalls));
#endif
    if (clocks.why.empty()) {
      clocks.ns.push_back(timeLoop<bench_tiny_clocks>(calls));
      unordered.ns.push_back(timeLoop<bench_tiny_clocks_unordered>(calls));
      lfenced.ns.push_back(timeLoop<bench_tiny_clocks_lfence>(calls));
    }
  }
#if TPUPROF_BENCH_HAVE_XRAY
  if (fdr.have() || basic.have())
    __xray_log_finalize(); // No flush: nothing was meant for a file.
#endif
  removeScratch(out);
  if (!oldCwd.empty() && chdir(oldCwd.c_str()) != 0)
    std::fprintf(stderr, "probe_overhead: chdir back: %s\n",
                 std::strerror(errno));

  std::printf("probe_overhead: %llu calls (%llu for the slow rows d, g, i) x "
              "%d rounds, one thread on CPU %d (%s)\n",
              (unsigned long long)calls, (unsigned long long)slowCalls, rounds,
              cpu, cpuModel().c_str());
  std::printf("tpuprof clock source: %s; events (d, i): %s\n\n",
              clockSource == TPUPROF_CLOCK_TSC ? "tsc" : "monotonic", kEvents);
  std::printf("%-46s %12s %12s %14s\n", "variant", "min ns/call", "median ns",
              "overhead ns");
  const double b = base.median();
  for (const Row *row : {&base, &disabled, &mode0, &keep0, &mode1, &sleds, &fdr,
                         &basic, &cyg, &papi, &clocks, &unordered, &lfenced}) {
    if (!row->have()) {
      std::printf("%-46s %12s %12s %14s\n", row->name, "-", "-", "n/a");
      continue;
    }
    std::printf("%-46s %12.2f %12.2f %14.2f\n", row->name, row->min(),
                row->median(), row->median() - b);
  }
  std::printf("\n(overhead = median - baseline median)\n");
  for (const Row *row : {&mode1, &sleds, &fdr, &basic, &cyg, &papi, &clocks,
                         &unordered, &lfenced})
    if (!row->have())
      std::printf("%s: not measured: %s\n", row->name, row->why.c_str());

  auto cost = [&](const Row &row) { return row.median() - b; };
  double offCost = cost(disabled), onCost = cost(mode0);
  std::printf(
      "\ntpuprof disabled probes: %7.2f ns/call   target <= 2 ns:  %s\n",
      offCost, offCost <= 2.0 ? "met" : "NOT met");
  std::printf("tpuprof mode-0 pair:     %7.2f ns/call   target <= 30 ns: %s\n",
              onCost, onCost <= 30.0 ? "met" : "NOT met");
  if (fdr.have()) {
    double ratio = cost(fdr) > 0 ? onCost / cost(fdr) : 0;
    std::printf("ratio mode 0 / XRay FDR:  %.3f (%.2f / %.2f ns)   target <= "
                "0.333: %s\n",
                ratio, onCost, cost(fdr), ratio <= 1.0 / 3 ? "met" : "NOT met");
  }
  if (clocks.have())
    std::printf("mode-0 pair = clock reads %.2f + bookkeeping %.2f ns/call "
                "(the ordered end read is the floor: (j))\n"
                "ordering the end read costs %.2f ns ((j) - (k)); rdtscp "
                "saves %.2f ns over lfence; rdtsc ((l) - (j))\n",
                cost(clocks), onCost - cost(clocks),
                clocks.median() - unordered.median(),
                lfenced.median() - clocks.median());
  if (mode1.have() && papi.have()) {
    double ratio = cost(papi) > 0 ? cost(mode1) / cost(papi) : 0;
    std::printf("ratio mode 1 / PAPI_read: %.3f (%.2f / %.2f ns)   target <= "
                "0.5: %s\n",
                ratio, cost(mode1), cost(papi),
                ratio <= 0.5 ? "met" : "NOT met");
  }

  // Machine lines for bench/suite.py: overheads over the baseline, ns/call.
  std::printf("\n");
  suiteLine("disabled probe pair", offCost, "", nullptr, 0, "<= 2 ns", 2.0);
  suiteLine("mode 0 probe pair", onCost, "", nullptr, 0, "<= 30 ns", 30.0);
  suiteLine("mode 0 pair vs XRay FDR", onCost, "XRay FDR", &fdr,
            fdr.have() ? cost(fdr) : 0, "<= 0.333x", 1.0 / 3);
  suiteLine("mode 0 pair keeping every record vs XRay FDR", cost(keep0),
            "XRay FDR", &fdr, fdr.have() ? cost(fdr) : 0, "", 0);
  suiteLine("mode 0 pair vs XRay basic", onCost, "XRay basic", &basic,
            basic.have() ? cost(basic) : 0, "", 0);
  suiteLine("mode 0 pair vs -finstrument-functions", onCost,
            "-finstrument-functions + clock_gettime", &cyg,
            cyg.have() ? cost(cyg) : 0, "", 0);
  if (clocks.have())
    suiteLine("mode 0 pair vs its two clock reads alone", onCost,
              "the pair's clock reads", &clocks, cost(clocks), "", 0);
  suiteLine("disabled pair vs XRay sleds", offCost, "XRay sleds, unpatched",
            &sleds, sleds.have() ? cost(sleds) : 0, "", 0);
  if (mode1.have())
    suiteLine("mode 1 pair (3 sw events) vs PAPI_read x2", cost(mode1),
              "PAPI_read x2", &papi, papi.have() ? cost(papi) : 0, "<= 0.5x",
              0.5);
  else
    std::printf("suite|probe|mode 1 pair (3 sw events) vs PAPI_read x2|"
                "skipped: %s|PAPI_read x2||ns||<= 0.5x|n/a\n",
                mode1.why.c_str());
  return 0;
}
