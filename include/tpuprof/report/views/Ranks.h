//===- tpuprof/report/views/Ranks.h - A job merged by rank ------*- C++ -*-===//
//
// `tpuprof-report ranks`: a job's dumps merged by rank (model/Ranks.h) as
// text (per-rank totals, ops across ranks, collective waits, a summary that
// names the worst ranks and ops), JSON (keys: ExportKeys.def,
// TPUPROF_RANKS_KEY) or CSV (one line per rank and op). docs/mpi.md.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_RANKS_H
#define TPUPROF_REPORT_VIEWS_RANKS_H

#include "tpuprof/report/model/Ranks.h"

#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
namespace report {

/// The text report, `top` ops (0: all).
void printRanks(const JobProfile &job, unsigned top, llvm::raw_ostream &os);
/// The JSON document.
void writeRanksJson(const JobProfile &job, llvm::raw_ostream &os);
/// rank,host,op,kind,collective,calls,total_ns,wait_ns: one line per rank
/// and op (wait_ns: the collective's wait on that rank, else 0).
void writeRanksCsv(const JobProfile &job, llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_RANKS_H
