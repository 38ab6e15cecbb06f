//===- tpuprof/report/ExportKeys.h - The JSON export's keys -----*- C++ -*-===//
//
// ExportKeys.def as C++: one ExportKey per key of `export --format json`
// (Row keys are ExportKey::RowName, ExportKey::RowKind, ...), its JSON name
// and its part. model/ProfileJson.cpp spells every key through these.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_EXPORTKEYS_H
#define TPUPROF_REPORT_EXPORTKEYS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace tpuprof {
namespace report {

/// The export's "format" value.
#define TPUPROF_EXPORT_FORMAT(NAME)                                            \
  constexpr llvm::StringLiteral kExportFormat = NAME;
#include "tpuprof/report/ExportKeys.def"

/// One kind of JSON object in the export.
enum class ExportPart : uint8_t {
#define TPUPROF_EXPORT_PART(PART, WHERE) PART,
#include "tpuprof/report/ExportKeys.def"
};

/// Every key of every part, in ExportKeys.def's order.
enum class ExportKey : uint16_t {
#define TPUPROF_EXPORT_KEY(PART, KEY, NAME) PART##KEY,
#include "tpuprof/report/ExportKeys.def"
};

constexpr llvm::StringLiteral kExportKeyNames[] = {
#define TPUPROF_EXPORT_KEY(PART, KEY, NAME) NAME,
#include "tpuprof/report/ExportKeys.def"
};

constexpr ExportPart kExportKeyParts[] = {
#define TPUPROF_EXPORT_KEY(PART, KEY, NAME) ExportPart::PART,
#include "tpuprof/report/ExportKeys.def"
};

constexpr size_t kNumExportKeys = std::size(kExportKeyNames);

constexpr llvm::StringLiteral kExportPartWhere[] = {
#define TPUPROF_EXPORT_PART(PART, WHERE) WHERE,
#include "tpuprof/report/ExportKeys.def"
};

/// The key's name in the JSON export.
constexpr llvm::StringLiteral exportKeyName(ExportKey key) {
  return kExportKeyNames[size_t(key)];
}

/// The part (kind of object) the key belongs to.
constexpr ExportPart exportKeyPart(ExportKey key) {
  return kExportKeyParts[size_t(key)];
}

/// Where objects of `part` sit in the export ("rows[]", "totals", ...).
constexpr llvm::StringLiteral exportPartWhere(ExportPart part) {
  return kExportPartWhere[size_t(part)];
}

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_EXPORTKEYS_H
