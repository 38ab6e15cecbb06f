//===- tpuprof/report/views/Counters.h - Counter columns --------*- C++ -*-===//
//
// PMU counters in the per-op table: one raw column per event the dumps
// recorded, then derived ones (IPC, misses per 1k instructions, task-clock
// share of the op's wall time). Values are already scaled for multiplexing
// by the aggregator (Row::counterScaled marks where); a scaled cell ends in
// '*'. The runtime's pseudo-events (tpuprof::TIME_ENABLED/TIME_RUNNING/
// READ_TICKS/CPU, format.h) are inputs to the scaling and the overhead
// correction, not columns.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_COUNTERS_H
#define TPUPROF_REPORT_VIEWS_COUNTERS_H

#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/model/EventNames.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace report {

/// One extra table column: its title and one cell per row passed in.
struct CounterColumn {
  std::string title;
  std::vector<std::string> cells;
};

/// The counter columns for `rows` (in table order). Empty when no dump
/// recorded PMU events. Sets `anyScaled` when a cell is marked '*'.
std::vector<CounterColumn> counterColumns(const Profile &profile,
                                          llvm::ArrayRef<Row> rows,
                                          bool &anyScaled);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_COUNTERS_H
