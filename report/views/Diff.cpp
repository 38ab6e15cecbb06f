//===- report/views/Diff.cpp - Compare two runs ---------------------------===//
//
// The rows of both sides (model/Compare.h) on total time: Delta = B - A.
// Rows only in B are "new", only in A "missing"; a side whose time is below
// what its clock and correction resolve shows "< N ns" and is never called
// -100 % or new ("unresolved" unless the other side is clearly beyond it).
// Sorted by Delta descending, so regressions come first. docs/report.md
// ("diff") describes the columns.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Diff.h"
#include "tpuprof/report/model/Compare.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/views/Terminal.h"
#include "tpuprof/report/views/TextTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

std::string us(double ns) { return formatv("{0:F2}", ns / 1000.0).str(); }

std::string sideCell(const DiffSide &s) {
  if (!s.present)
    return "-";
  // The bound per call, as the table gives it.
  return s.resolved() || !s.count
             ? timeCell(s.ns, 0)
             : totalTimeCell(s.ns, s.count, s.floorNs / s.count);
}

/// "+12.50", or a bound ("> +900.00") where one side is below resolution.
std::string pctCell(const DiffRow &d) {
  int bound = 0;
  std::optional<double> pct = d.deltaPct(&bound);
  if (!pct)
    return d.status() == DiffRow::Status::New ? "new" : "-";
  std::string s = formatv("{0}{1:F2}", *pct > 0 ? "+" : "", *pct).str();
  return bound > 0 ? "> " + s : bound < 0 ? "< " + s : s;
}

} // namespace

Expected<bool> tpuprof::report::printDiff(const Input &inA, const Input &inB,
                                          const DiffOptions &opts,
                                          raw_ostream &os) {
  const Profile &a = inA.profile, &b = inB.profile;
  // Two runs on a side would be added up silently.
  if (Error err = needOneRun(a, "diff (A)"))
    return std::move(err);
  if (Error err = needOneRun(b, "diff (B)"))
    return std::move(err);
  std::vector<DiffRow> rows = compareProfiles(a, b);
  std::vector<std::string> events;
  for (const Profile *p : {&a, &b})
    for (const std::string &e : p->events)
      if (!isPseudoEvent(e) && !is_contained(events, e))
        events.push_back(e);

  TextTable table;
  using Align = TextTable::Align;
  const std::pair<const char *, Align> titles[] = {
      {"Name", Align::Left},
      {"A (us)", Align::Right},
      {"B (us)", Align::Right},
      {"Delta (us)", Align::Right},
      {"Delta %", Align::Right},
      {"Count A", Align::Right},
      {"Count B", Align::Right},
      {"Status", Align::Left},
      {"Argument Shapes", Align::Left},
      {"Hash", Align::Left}};
  for (auto [title, align] : titles)
    table.addColumn(title, align);
  for (const std::string &e : events)
    table.addColumn("Delta " + e, TextTable::Align::Right);
  size_t printed = 0;
  std::vector<const DiffRow *> failed;
  for (const DiffRow &d : rows) {
    DiffRow::Status status = d.status();
    std::optional<double> pct = d.deltaPct();
    bool considered = d.a.present && d.b.present &&
                      std::max(d.a.ns, d.b.ns) >= opts.minTimeNs;
    if (opts.failAbovePct >= 0 && considered && pct && *pct > opts.failAbovePct)
      failed.push_back(&d);
    if (opts.top && printed == opts.top)
      continue;
    ++printed;
    bool exact = d.a.resolved() && d.b.resolved();
    std::vector<std::string> l = {
        d.name,
        sideCell(d.a),
        sideCell(d.b),
        exact ? formatv("{0}{1}", d.delta() > 0 ? "+" : "", us(d.delta())).str()
              : "-",
        pctCell(d),
        utostr(d.a.count),
        utostr(d.b.count),
        statusName(status).str(),
        d.shapes.empty() ? "-" : d.shapes,
        d.hash};
    for (const std::string &e : events) {
      int64_t delta = int64_t(d.b.counters.count(e) ? d.b.counters.at(e) : 0) -
                      int64_t(d.a.counters.count(e) ? d.a.counters.at(e) : 0);
      l.push_back(formatv("{0}{1}", delta > 0 ? "+" : "", delta).str());
    }
    table.addRow(std::move(l));
  }
  // Totals: the runs' covered time (nested time once).
  int64_t totalDelta = int64_t(b.coveredNs) - int64_t(a.coveredNs);

  table.print(os);
  if (opts.top && rows.size() > opts.top)
    os << "(" << rows.size() - opts.top << " more rows not shown; --top "
       << opts.top << ")\n";
  os << "Sum A: " << us(a.coveredNs) << " us  Sum B: " << us(b.coveredNs)
     << " us  Delta: " << (totalDelta > 0 ? "+" : "") << us(totalDelta)
     << " us";
  if (a.coveredNs)
    os << formatv(" ({0}{1:F2}%)", totalDelta > 0 ? "+" : "",
                  100.0 * double(totalDelta) / double(a.coveredNs));
  os << '\n';
  // Records a full buffer dropped make a side's sums smaller: say so.
  os << "Dropped records A: " << a.dropped << "  B: " << b.dropped << '\n';
  if (opts.failAbovePct >= 0) {
    if (failed.empty()) {
      os << formatv("OK: no op slower by more than {0}%\n", opts.failAbovePct);
    } else {
      os << formatv("FAIL: {0} op(s) slower by more than {1}%:", failed.size(),
                    opts.failAbovePct);
      for (const DiffRow *d : failed)
        os << formatv(" {0} [{1}] ({2:F2}%)", printable(d->name),
                      d->shapes.empty() ? "-" : printable(d->shapes),
                      *d->deltaPct());
      os << '\n';
    }
  }
  return !failed.empty();
}
