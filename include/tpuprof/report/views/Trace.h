//===- tpuprof/report/views/Trace.h - Chrome trace JSON ---------*- C++ -*-===//
//
// `tpuprof-report trace`: every record as a Chrome trace event, for Perfetto
// UI and chrome://tracing (docs/report.md, "Trace layout").
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_TRACE_H
#define TPUPROF_REPORT_VIEWS_TRACE_H

#include "tpuprof/report/model/Load.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tpuprof {
namespace report {

struct TraceOptions {
  /// A Chrome trace (JSON object with "traceEvents", or a bare array) to
  /// merge: its timestamps are microseconds on CLOCK_MONOTONIC, on
  /// CLOCK_REALTIME (mapped by the dumps' PROCESS clock pairs), or from its
  /// own start (placed at the dumps' first window, with a warning).
  std::string externalTrace;
  /// Added to the external trace's timestamps before alignment (µs).
  double externalOffsetUs = 0;
  /// Where a note on the external trace's clock goes ("warning: ..." when
  /// its timestamps are on none of the dumps' clocks); null: nowhere.
  llvm::raw_ostream *notes = nullptr;
};

/// Writes the trace of `in`'s dumps.
llvm::Error writeTrace(const Input &in, const TraceOptions &opts,
                       llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_TRACE_H
