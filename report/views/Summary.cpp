//===- report/views/Summary.cpp - Per device and thread summary -----------===//
//
// One block per dump (a device's window), one line per thread: how much of
// the window probes covered (busy) and by which kind of probe, what no probe
// covered (unattributed), dropped records; then the device's top ops and
// counter totals. Time shares count only top-level records (nested time is
// part of its parent), so they add up to 100% per thread; the busy share
// over all threads is of threads x window.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Summary.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/views/Device.h"
#include "tpuprof/report/views/Terminal.h"
#include "tpuprof/report/views/TextTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

std::string us(uint64_t ns) {
  return formatv("{0:F2}", double(ns) / 1000.0).str();
}
std::string pct(uint64_t part, uint64_t whole) {
  return formatv("{0:F2}", whole ? 100.0 * double(part) / double(whole) : 0.0)
      .str();
}

} // namespace

namespace {

/// Whether the summary of `d` has a column for kind bucket `k`: every kind
/// but communication, which only dumps with communication probes show.
bool showKind(const DumpSummary &d, uint32_t k) {
  if (k != TPUPROF_KIND_COMM)
    return true;
  for (const ThreadSummary &t : d.threadStats)
    if (t.busyNs[k])
      return true;
  return false;
}

/// The dump blocks, top ops and counter totals of one run (or of all, when
/// runs are not kept apart): `inRun` says which dumps and rows belong.
void printRun(const Profile &p, unsigned top, raw_ostream &os,
              function_ref<bool(uint32_t run)> inRun) {
  // Counter totals per device (top-level records: nested counts once), as
  // the table counts them; the runtime's own words are not counters.
  std::map<uint32_t, std::map<std::string, uint64_t>> counterTotals;
  for (const DumpSummary &d : p.dumps) {
    if (!inRun(d.run))
      continue;
    const DumpInfo &info = d.info;
    uint64_t window = d.windowNs;
    auto &totals = counterTotals[info.device];
    for (size_t i = 0; i != d.events.size(); ++i)
      if (!isPseudoEvent(d.events[i]))
        totals[d.events[i]] += d.topLevelCounters[i];

    os << "Device " << info.device << ", pid " << info.pid << ", call "
       << info.callNum << " (" << printable(d.path) << ")"
       << (info.isComplete() ? "" : " incomplete: not closed by a clean flush")
       << "\n";
    TextTable table(2);
    table.addColumn("Thread", TextTable::Align::Left);
    for (const char *title : {"Window (us)", "Busy (us)", "Busy %"})
      table.addColumn(title, TextTable::Align::Right);
    for (uint32_t k = 0; k != TPUPROF_KIND_BUCKETS; ++k)
      if (showKind(d, k))
        table.addColumn(kKindColumns[k].title, TextTable::Align::Right);
    for (const char *title :
         {"Unattributed %", "Records", "Unfinished", "Dropped"})
      table.addColumn(title, TextTable::Align::Right);
    for (const ThreadSummary &t : d.threadStats) {
      uint64_t busy = t.totalBusyNs();
      uint64_t idle = window > busy ? window - busy : 0;
      std::vector<std::string> cells = {utostr(t.tid), us(window), us(busy),
                                        pct(busy, window)};
      for (uint32_t k = 0; k != TPUPROF_KIND_BUCKETS; ++k)
        if (showKind(d, k))
          cells.push_back(pct(t.busyNs[k], window));
      for (std::string cell : {pct(idle, window), utostr(t.records),
                               utostr(t.unfinished), utostr(t.dropped)})
        cells.push_back(std::move(cell));
      table.addRow(cells);
    }
    table.print(os);
    os << "  Dropped records (header): " << info.dropped;
    if (std::string why = dropReasons(info.drops); !why.empty())
      os << " (" << why << ")";
    os << "\n";
    if (info.unwound)
      os << "  Unfinished by a non-local exit (longjmp, exception, thread "
            "exit): "
         << info.unwound << "\n";
    if (info.backwards)
      os << "  Clock stepped back: " << info.backwards
         << " records end before they begin (read as 0 ns long)\n";
    os << "  Probe overhead correction: "
       << describeCorrection(d.correction, info) << "\n";
    if (const MemorySummary &m = d.memory; m.tracked) {
      os << "  Memory: peak " << m.peakBytes << " B";
      if (m.peakBytes)
        os << " at " << us(m.peakNs) << " us, "
           << (m.peakOp.empty() ? "outside every op"
                                : "in " + printable(m.peakOp));
      os << "; " << m.allocs << " allocations (" << m.allocBytes << " B), "
         << m.frees << " frees (" << m.freedBytes << " B";
      if (m.untrackedFrees)
        os << ", " << m.untrackedFrees << " of buffers not tracked";
      os << "), " << m.liveAtEnd << " B live at the end\n";
    }
    os << "\n";
  }
  // The run's peak: the highest of its windows'.
  const DumpSummary *peak = nullptr;
  for (const DumpSummary &d : p.dumps)
    if (inRun(d.run) && d.memory.tracked &&
        (!peak || d.memory.peakBytes > peak->memory.peakBytes))
      peak = &d;
  if (peak)
    os << "Peak memory: " << peak->memory.peakBytes << " B live (device "
       << peak->info.device << ", call " << peak->info.callNum << ", "
       << (peak->memory.peakOp.empty() ? "outside every op"
                                       : "in " + printable(peak->memory.peakOp))
       << ")\n\n";

  // Top ops and counter totals per device.
  std::map<uint32_t, std::vector<const Row *>> byDevice;
  for (const Row &r : p.rows)
    if (inRun(r.run))
      byDevice[r.device].push_back(&r);
  for (auto &[device, rows] : byDevice) {
    llvm::sort(rows, [](const Row *a, const Row *b) {
      if (a->durationNs != b->durationNs)
        return a->durationNs > b->durationNs;
      return std::tie(a->name, a->shapes) < std::tie(b->name, b->shapes);
    });
    uint64_t deviceWindow = 0;
    for (const DumpSummary &d : p.dumps)
      if (d.info.device == device && inRun(d.run))
        deviceWindow += d.windowNs;
    os << "Top ops on device " << device << ":\n";
    TextTable table(2);
    for (const char *title : {"#", "Duration (us)", "Percent", "Count"})
      table.addColumn(title, TextTable::Align::Right);
    table.addColumn("Name", TextTable::Align::Left);
    table.addColumn("Argument Shapes", TextTable::Align::Left);
    uint64_t resolution = resolutionNs(p);
    for (size_t i = 0; i != rows.size() && (!top || i != top); ++i)
      table.addRow(
          {utostr(i + 1),
           totalTimeCell(rows[i]->durationNs, rows[i]->count, resolution),
           pct(rows[i]->durationNs, deviceWindow), utostr(rows[i]->count),
           rows[i]->name, rows[i]->shapes.empty() ? "-" : rows[i]->shapes});
    table.print(os);
    auto &totals = counterTotals[device];
    if (!totals.empty()) {
      os << "Counter totals on device " << device << ":";
      for (auto &[event, value] : totals)
        os << "\n  " << printable(event) << " = " << value;
      os << '\n';
    }
    // Mode 2's CPU word: records that moved to another CPU.
    uint64_t migrations = 0;
    bool cpu = false;
    for (const Row *r : rows) {
      migrations += r->migrations;
      cpu |= r->cpuRecorded;
    }
    if (cpu)
      os << "CPU migrations on device " << device << ": " << migrations
         << " (records that ended on another CPU than they began)\n";
    os << '\n';
  }
}

} // namespace

Error tpuprof::report::printSummary(const Input &in, unsigned top,
                                    raw_ostream &os) {
  // Per-thread figures come from the aggregation's walk (DumpSummary), so
  // JSON exports, which do not carry them, cannot be summarized.
  if (Error err = in.needDumps("summary"))
    return err;
  const Profile &p = in.profile;
  os << "Summary\n=======\n";
  if (p.runs.size() > 1)
    os << "Runs: " << p.runs.size()
       << (p.runsMerged ? " (added up: --merge-runs)"
                        : " (kept apart: --run N shows one, --merge-runs adds "
                          "them up)")
       << "\n";
  // Busy time adds up over threads: its share is of every thread's window
  // (threads x window), so it never passes 100 %.
  uint64_t threadWindowsNs = 0;
  for (const DumpSummary &d : p.dumps)
    threadWindowsNs += d.threads * d.windowNs;
  os << "Dumps: " << p.dumps.size() << "  Threads: " << p.threads
     << "  Records: " << p.records << "  Window: " << us(p.totalNs)
     << " us  Busy: " << us(p.coveredNs) << " us, summed over threads ("
     << pct(p.coveredNs, threadWindowsNs)
     << "% of threads x window)  Dropped records: " << p.dropped
     << "  Unfinished: " << p.unfinished << "\n";
  unsigned incomplete = llvm::count_if(
      p.dumps, [](const DumpSummary &d) { return !d.info.isComplete(); });
  if (incomplete)
    os << "Incomplete dumps: " << incomplete
       << " (not closed by a clean flush; records may be missing)\n";
  os << "\n";
  if (!p.runsApart()) {
    printRun(p, top, os, [](uint32_t) { return true; });
  } else {
    for (uint32_t r = 0; r != p.runs.size(); ++r) {
      std::string title = describeRun(p, r);
      title[0] = 'R';
      os << title << "\n" << std::string(title.size(), '-') << "\n";
      printRun(p, top, os, [r](uint32_t run) { return run == r; });
    }
  }
  // Engine utilization: each device queue's busy and idle time.
  printDeviceQueues(p, os);
  return Error::success();
}
