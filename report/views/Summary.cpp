//===- report/views/Summary.cpp - Per device and thread summary -----------===//
//
// One block per dump (a device's window), one line per thread: how much of
// the window probes covered (busy) and by which kind of probe, what no probe
// covered (unattributed), dropped records; then the device's top ops and
// counter totals. Time shares count only top-level records (nested time is
// part of its parent), so they add up to 100% per thread.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Walk.h"

#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/views/Summary.h"
#include "tpuprof/report/views/TextTable.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/Progress.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>
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

struct ThreadStats {
  uint64_t tid = 0, records = 0, dropped = 0, unfinished = 0;
  std::array<uint64_t, 4> byKind{}; ///< op, launch, user, unknown probe.
};

} // namespace

Error tpuprof::report::printSummary(ArrayRef<std::string> dumpPaths,
                                    unsigned top, raw_ostream &os,
                                    bool progress) {
  Expected<std::vector<std::string>> files =
      dumpFilesFor(dumpPaths, "summary");
  if (!files)
    return files.takeError();
  Aggregator agg;
  // Counter totals per device (top-level records: nested counts once).
  std::map<uint32_t, std::map<std::string, uint64_t>> counterTotals;
  std::string body;
  raw_string_ostream out(body);
  Progress bar(progress, "summarizing", files->size());
  for (const std::string &file : *files) {
    Expected<DumpReader> reader = DumpReader::open(file);
    if (!reader)
      return reader.takeError();
    agg.add(*reader);
    const DumpInfo &info = reader->info();
    uint64_t window = info.windowNs();
    std::vector<ThreadStats> threads;
    auto &totals = counterTotals[info.device];
    ArrayRef<std::string> events = reader->events();
    walkDump(
        *reader,
        [&](const WalkFrame &f, ArrayRef<WalkFrame> up) {
          ThreadStats &t = threads.back();
          ++t.records;
          if (!f.finished) {
            ++t.unfinished;
            return;
          }
          if (!f.topLevel())
            return;
          unsigned k = f.probe ? std::min<unsigned>(f.probe->kind, 2) : 3;
          t.byKind[k] += f.durationNs;
          for (unsigned i = 0; i != f.record.numCounters && i != events.size();
               ++i)
            totals[events[i]] += f.record.counter(i);
        },
        [&](const ThreadInfo &ti) {
          threads.emplace_back();
          threads.back().tid = ti.tid;
          threads.back().dropped = ti.dropped;
        });

    out << "Device " << info.device << ", pid " << info.pid << ", call "
        << info.callNum << " (" << file << ")\n";
    TextTable table(2);
    table.addColumn("Thread", TextTable::Align::Left);
    for (const char *title :
         {"Window (us)", "Busy (us)", "Busy %", "Ops %", "Launches %",
          "User %", "Unknown %", "Unattributed %", "Records", "Unfinished",
          "Dropped"})
      table.addColumn(title, TextTable::Align::Right);
    for (const ThreadStats &t : threads) {
      uint64_t busy = t.byKind[0] + t.byKind[1] + t.byKind[2] + t.byKind[3];
      uint64_t idle = window > busy ? window - busy : 0;
      table.addRow({utostr(t.tid), us(window), us(busy), pct(busy, window),
                    pct(t.byKind[0], window), pct(t.byKind[1], window),
                    pct(t.byKind[2], window), pct(t.byKind[3], window),
                    pct(idle, window), utostr(t.records), utostr(t.unfinished),
                    utostr(t.dropped)});
    }
    table.print(out);
    out << "  Dropped records (header): " << info.dropped;
    if (std::string why = dropReasons(info.drops); !why.empty())
      out << " (" << why << ")";
    out << "\n";
    if (info.unwound)
      out << "  Unfinished by a non-local exit (longjmp, exception, thread "
             "exit): "
          << info.unwound << "\n";
    out << "  Probe overhead correction: " << describeCorrection(info)
        << "\n\n";
    bar.advance(1);
  }
  Profile p = agg.take();

  os << "Summary\n=======\n";
  os << "Dumps: " << p.dumps.size() << "  Threads: " << p.threads
     << "  Records: " << p.records << "  Window: " << us(p.totalNs)
     << " us  Busy: " << us(p.coveredNs) << " us ("
     << pct(p.coveredNs, p.totalNs) << "%)  Dropped records: " << p.dropped
     << "  Unfinished: " << p.unfinished << "\n\n";
  os << body;

  // Top ops and counter totals per device.
  std::map<uint32_t, std::vector<const Row *>> byDevice;
  for (const Row &r : p.rows)
    byDevice[r.device].push_back(&r);
  for (auto &[device, rows] : byDevice) {
    llvm::sort(rows, [](const Row *a, const Row *b) {
      if (a->durationNs != b->durationNs)
        return a->durationNs > b->durationNs;
      return std::tie(a->name, a->shapes) < std::tie(b->name, b->shapes);
    });
    uint64_t deviceWindow = 0;
    for (const DumpSummary &d : p.dumps)
      if (d.info.device == device)
        deviceWindow += d.windowNs;
    os << "Top ops on device " << device << ":\n";
    TextTable table(2);
    for (const char *title : {"#", "Duration (us)", "Percent", "Count"})
      table.addColumn(title, TextTable::Align::Right);
    table.addColumn("Name", TextTable::Align::Left);
    table.addColumn("Argument Shapes", TextTable::Align::Left);
    for (size_t i = 0; i != rows.size() && (!top || i != top); ++i)
      table.addRow({utostr(i + 1), us(rows[i]->durationNs),
                    pct(rows[i]->durationNs, deviceWindow),
                    utostr(rows[i]->count), rows[i]->name,
                    rows[i]->shapes.empty() ? "-" : rows[i]->shapes});
    table.print(os);
    auto &totals = counterTotals[device];
    if (!totals.empty()) {
      os << "Counter totals on device " << device << ":";
      for (auto &[event, value] : totals)
        os << "\n  " << event << " = " << value;
      os << '\n';
    }
    os << '\n';
  }
  return Error::success();
}
