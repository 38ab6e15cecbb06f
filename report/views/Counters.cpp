//===- report/views/Counters.cpp - Raw and derived counter columns --------===//
//
// Derived columns appear only when their inputs were recorded, so a VM with
// software events only shows Task-clock % but no IPC. docs/report.md lists
// every column and its formula.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Counters.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

std::vector<CounterColumn>
tpuprof::report::counterColumns(const Profile &profile, ArrayRef<Row> rows,
                                bool &anyScaled) {
  std::vector<CounterColumn> out;
  int cycles = -1, instructions = -1, taskClock = -1;
  std::vector<std::pair<std::string, int>> misses;
  auto value = [](const Row &row, unsigned e) -> uint64_t {
    return e < row.counters.size() ? row.counters[e] : 0;
  };
  auto flags = [](const Row &row, unsigned e) -> uint8_t {
    return e < row.counterFlags.size() ? row.counterFlags[e] : 0;
  };
  auto scaled = [&](const Row &row, unsigned e) {
    return (flags(row, e) & Row::CounterScaled) != 0;
  };
  auto recorded = [&](const Row &row, unsigned e) {
    return (flags(row, e) & Row::CounterRecorded) != 0;
  };
  for (unsigned e = 0; e != profile.events.size(); ++e) {
    StringRef name = profile.events[e];
    if (isPseudoEvent(name))
      continue;
    CounterColumn col;
    col.title = name.str();
    for (const Row &row : rows) {
      // "-": no record of this row counted the event (e.g. a mode-0 dump).
      std::string cell = recorded(row, e) ? utostr(value(row, e)) : "-";
      if (scaled(row, e)) {
        cell += "*";
        anyScaled = true;
      }
      col.cells.push_back(std::move(cell));
    }
    out.push_back(std::move(col));
    std::string c = canonicalEvent(name);
    if (c == "cycles" && cycles < 0)
      cycles = e;
    else if (c == "instructions" && instructions < 0)
      instructions = e;
    else if (c == "task-clock" && taskClock < 0)
      taskClock = e;
    else if (c == "cache-misses" || c == "branch-misses")
      misses.push_back({c, e});
  }
  auto derived = [&](std::string title, auto fn) {
    CounterColumn col;
    col.title = std::move(title);
    for (const Row &row : rows)
      col.cells.push_back(fn(row));
    out.push_back(std::move(col));
  };
  auto ratio = [&](const Row &row, int numE, int denE, double times) {
    if ((numE >= 0 && !recorded(row, numE)) ||
        (denE >= 0 && !recorded(row, denE)))
      return std::string("-");
    double num = value(row, numE);
    double den = denE >= 0 ? double(value(row, denE)) : double(row.durationNs);
    bool mark = scaled(row, numE) || (denE >= 0 && scaled(row, denE));
    if (den <= 0)
      return std::string("-");
    return formatv("{0:F2}", times * num / den).str() + (mark ? "*" : "");
  };
  if (cycles >= 0 && instructions >= 0)
    derived("IPC", [&](const Row &row) {
      return ratio(row, instructions, cycles, 1.0);
    });
  if (instructions >= 0)
    for (auto &[name, e] : misses)
      derived(name + "/1k instr", [&, e = e](const Row &row) {
        return ratio(row, e, instructions, 1000.0);
      });
  if (taskClock >= 0)
    derived("Task-clock %", [&](const Row &row) {
      // Of the op's wall time, how much its thread spent on a CPU.
      return ratio(row, taskClock, -1, 100.0);
    });
  return out;
}
