//===- report/views/Export.cpp - JSON and CSV exports ---------------------===//
//
// JSON is the lossless one: it carries every field the row views use
// (including the duration sketches and the dumps' headers), so
// `tpuprof-report table report.json` prints the same table as the dumps
// (model/ProfileJson.cpp writes it and reads it back, with the keys of
// ExportKeys.def). CSV is one line per row for spreadsheets.
// docs/report.md documents both schemas.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/ProfileJson.h"
#include "tpuprof/report/views/Columns.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

void tpuprof::report::writeTotalsJson(const Profile &p, json::OStream &j) {
  writeExportTotals(p, j);
}

void tpuprof::report::writeProfileJson(const Input &in, raw_ostream &os) {
  json::OStream j(os, 1);
  writeExportJson(in.profile, j);
  os << '\n';
}

//===----------------------------------------------------------------------===//
// CSV
//===----------------------------------------------------------------------===//

std::string tpuprof::report::csvField(StringRef s) {
  // A spreadsheet takes a cell that starts with = + - @ (or a tab or CR
  // before one) for a formula. As OWASP's CSV injection guidance says, such
  // a cell gets a leading ' and quotes, so it reads as the text it is.
  bool formula = !s.empty() && StringRef("=+-@\t\r").contains(s.front());
  if (!formula && s.find_first_of(",\"\r\n") == StringRef::npos)
    return s.str();
  std::string out = formula ? "\"'" : "\"";
  for (char c : s) {
    if (c == '"')
      out += '"';
    out += c;
  }
  out += '"';
  return out;
}

void tpuprof::report::writeCsv(const Input &in, raw_ostream &os) {
  const Profile &p = in.profile;
  std::vector<const Column *> columns = exportColumns();
  // The runtime's own words are inputs to the figures, not counters.
  std::vector<size_t> events;
  for (size_t i = 0; i != p.events.size(); ++i)
    if (!isPseudoEvent(p.events[i]))
      events.push_back(i);
  // Lines end in CRLF as RFC 4180 says; fields are separated by commas.
  ListSeparator sep(",");
  for (const Column *c : columns)
    os << sep << c->exportName;
  for (size_t e : events)
    os << ',' << csvField(p.events[e]);
  os << "\r\n";
  std::vector<uint64_t> runTotal = runTotals(p);
  ColumnContext ctx{p};
  for (const Row &r : p.rows) {
    ctx.totalNs = runTotal[std::min<size_t>(r.run, runTotal.size() - 1)];
    ListSeparator cells(",");
    for (const Column *c : columns) {
      ExportCell cell = c->exportCell(r, ctx);
      os << cells
         << (cell.kind == ExportCell::Text ? csvField(cell.text) : cell.str());
    }
    for (size_t e : events)
      os << ',' << (e < r.counters.size() ? r.counters[e] : 0);
    os << "\r\n";
  }
}
