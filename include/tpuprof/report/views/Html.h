//===- tpuprof/report/views/Html.h - The HTML report ------------*- C++ -*-===//
//
// `tpuprof-report html`: one HTML file with the timeline, the op table, the
// IR pane, the summary and the diff against a baseline. The page's script and
// style are compiled into the library and its data is JSON inside a
// <script type="application/json"> element, so the file opens from disk with
// no network. docs/report.md ("HTML report") is the user guide.
//
// Everything that comes from dumps or IR is text to the page: the JSON is
// escaped so that no string can close its <script> element, and the page's
// script renders data through textContent only.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_HTML_H
#define TPUPROF_REPORT_VIEWS_HTML_H

#include "tpuprof/report/model/Load.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tpuprof {
namespace report {

struct HtmlOptions {
  /// The model's IR (or source) for the IR pane; empty: no IR pane.
  std::string irPath;
  /// The run to compare against (dumps or JSON exports); null: no diff.
  const Input *baseline = nullptr;
  /// Up to this many records the timeline carries every record; above it,
  /// per-lane time buckets (busy time and top op per bucket) instead.
  uint64_t maxEvents = 200000;
  /// Buckets per lane when the timeline is aggregated.
  unsigned buckets = 4096;
  /// The page's title and heading; empty: "tpuprof report" (and the
  /// inputs, in the title).
  std::string title;
};

/// Writes the report on `in`'s records (JSON exports have none and are
/// rejected). Inputs, the IR file and the baseline are all read before
/// anything is written.
llvm::Error writeHtmlReport(const Input &in, const HtmlOptions &opts,
                            llvm::raw_ostream &os);

/// `s` as HTML text: & < > " ' become character references.
std::string escapeHtml(llvm::StringRef s);

/// A stream for JSON that goes inside an HTML <script> element: writes to
/// `out` with '<', '>', '&', U+2028 and U+2029 replaced by \uXXXX escapes.
/// Those characters only occur inside JSON strings, where the escapes mean
/// the same, so the JSON parses to the same value, and no "</script>" or
/// "<!--" can end the element early. Call finish() (or destroy the stream)
/// before using `out` again: a UTF-8 sequence split across writes is held
/// back until its end is known.
class ScriptJsonStream : public llvm::raw_ostream {
public:
  explicit ScriptJsonStream(llvm::raw_ostream &out);
  ~ScriptJsonStream() override;
  /// Flushes everything, including held-back bytes, to `out`.
  void finish();

private:
  void write_impl(const char *ptr, size_t size) override;
  uint64_t current_pos() const override { return written; }

  llvm::raw_ostream &out;
  llvm::SmallString<4> pending; ///< A possible U+2028/9 prefix: E2 or E2 80.
  uint64_t written = 0;
};

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_HTML_H
