//===- tpuprof/report/views/Otf2.h - A job as an OTF2 archive ---*- C++ -*-===//
//
// `tpuprof-report ranks --otf2 DIR`: a job's records as an OTF2 archive
// (Debian's libotf2), which Vampir, Score-P's tools and otf2-print read: one
// location group per rank (on a system-tree node per host), one location
// per thread, one region per op, an Enter and a Leave event per record on
// the job's aligned clock (model/Ranks.h). docs/mpi.md.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_OTF2_H
#define TPUPROF_REPORT_VIEWS_OTF2_H

#include "tpuprof/report/model/Ranks.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace tpuprof {
namespace report {

/// What writeOtf2 wrote.
struct Otf2Summary {
  uint64_t locations = 0;
  uint64_t events = 0;
  std::string anchor; ///< The archive's .otf2 file.
};

/// Whether this build writes OTF2 (libotf2 was found).
bool haveOtf2();

/// Writes the records of `job`'s ranks into a new OTF2 archive in `dir`
/// (which must not exist): `dir`/traces.otf2 and its files.
llvm::Expected<Otf2Summary> writeOtf2(const JobProfile &job,
                                      llvm::StringRef dir);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_OTF2_H
