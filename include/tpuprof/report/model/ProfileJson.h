//===- tpuprof/report/model/ProfileJson.h - The JSON export -----*- C++ -*-===//
//
// Both directions of `export --format json`: a Profile written as the
// export (views/Export.h's writeProfileJson() puts it in a file) and read
// back (readProfileJson(), declared in Load.h). The keys are
// ExportKeys.def's; docs/report.md documents the schema.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_PROFILEJSON_H
#define TPUPROF_REPORT_MODEL_PROFILEJSON_H

#include "tpuprof/report/model/Aggregate.h"

#include "llvm/Support/JSON.h"

namespace tpuprof {
namespace report {

/// Writes `profile` as the export's top-level object.
void writeExportJson(const Profile &profile, llvm::json::OStream &j);

/// Writes the attributes of the export's "totals" object into the object
/// `j` has open.
void writeExportTotals(const Profile &profile, llvm::json::OStream &j);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_PROFILEJSON_H
