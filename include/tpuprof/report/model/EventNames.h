//===- tpuprof/report/model/EventNames.h - Event names ----------*- C++ -*-===//
//
// A dump's EVENTS section names each counter word: libpfm4 event names in
// any spelling, then the runtime's pseudo-events (format.h). The table's
// derived columns and the overhead correction both need to know which is
// which. Defined in report/CounterColumns.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_EVENTNAMES_H
#define TPUPROF_REPORT_MODEL_EVENTNAMES_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tpuprof {
namespace report {

/// Whether `name` is one of the runtime's pseudo-events (not a PMU event).
bool isPseudoEvent(llvm::StringRef name);

/// The event an (any-spelling) libpfm4 name counts, for derived columns:
/// "cycles", "instructions", "cache-misses", "branch-misses", "task-clock",
/// or "" when it is none of those. "perf::CYCLES:u", "CPU-CYCLES" and
/// "PERF_COUNT_HW_CPU_CYCLES" are all "cycles".
std::string canonicalEvent(llvm::StringRef name);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_EVENTNAMES_H
