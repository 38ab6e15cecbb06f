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
  /// merge; its timestamps are CLOCK_MONOTONIC microseconds.
  std::string externalTrace;
  /// Added to the external trace's timestamps before alignment (µs).
  double externalOffsetUs = 0;
};

/// Writes the trace of `in`'s dumps.
llvm::Error writeTrace(const Input &in, const TraceOptions &opts,
                       llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_TRACE_H
