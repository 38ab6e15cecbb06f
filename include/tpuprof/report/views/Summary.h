//===- tpuprof/report/views/Summary.h - Device and thread summary -*- C++ -*-=//
//
// `tpuprof-report summary`: per device and thread, busy vs idle, time
// shares by probe kind, top ops, dropped records and counter totals.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_SUMMARY_H
#define TPUPROF_REPORT_VIEWS_SUMMARY_H

#include "tpuprof/report/model/Load.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
namespace report {

/// Prints the summary of `in`'s dumps, with `top` ops per device (0: all).
llvm::Error printSummary(const Input &in, unsigned top, llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_SUMMARY_H
