//===- tpuprof/report/model/Json.h - Reading JSON inputs safely -*- C++ -*-===//
//
// Every JSON file the report reads (exports, the roofline machine file, an
// external Chrome trace) goes through parseJson(): llvm::json::parse
// recurses once per nesting level, so a file of some 50 000 '[' overflows
// the stack. parseJson() refuses nesting deeper than kMaxJsonDepth first, in
// one pass, with one line that says where.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_JSON_H
#define TPUPROF_REPORT_MODEL_JSON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace tpuprof {
namespace report {

/// Deeper than any file tpuprof writes or reads needs (an export is 5
/// levels deep, a Chrome trace's args a few more), far below what
/// overflows a thread's stack.
constexpr unsigned kMaxJsonDepth = 512;

/// `text` parsed, or an error: "nested deeper than 512 levels at offset N"
/// or llvm::json's own message (the caller names the file).
llvm::Expected<llvm::json::Value> parseJson(llvm::StringRef text);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_JSON_H
