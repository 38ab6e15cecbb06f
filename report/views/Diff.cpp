//===- report/views/Diff.cpp - Compare two runs ---------------------------===//
//
// Rows of both runs are keyed by (op hash, actual shapes), summed over
// devices, and compared on total time: Delta = B - A. Rows only in B are
// "new", only in A "missing". Sorted by Delta descending, so regressions
// come first. docs/report.md ("diff") describes the columns.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Diff.h"
#include "tpuprof/report/views/TextTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <map>
#include <tuple>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

struct Side {
  uint64_t ns = 0, count = 0;
  std::map<std::string, uint64_t> counters;
  bool present = false;
};

struct DiffRow {
  std::string name, shapes, hash;
  Side a, b;
  int64_t delta() const { return int64_t(b.ns) - int64_t(a.ns); }
  /// Delta in percent of A; +inf for new rows.
  double deltaPct() const {
    if (!a.ns)
      return b.ns ? INFINITY : 0.0;
    return 100.0 * double(delta()) / double(a.ns);
  }
};

std::string us(double ns) { return formatv("{0:F2}", ns / 1000.0).str(); }

} // namespace

Expected<bool> tpuprof::report::printDiff(const Input &inA, const Input &inB,
                                          const DiffOptions &opts,
                                          raw_ostream &os) {
  const Profile &a = inA.profile, &b = inB.profile;
  using Key = std::tuple<bool, uint64_t, std::string>;
  std::map<Key, DiffRow> rows;
  std::vector<std::string> events;
  auto addSide = [&](const Profile &p, bool isB) {
    for (const Row &r : p.rows) {
      Key key(r.unknownProbe, r.unknownProbe ? r.probeId : r.hash, r.shapes);
      DiffRow &d = rows[key];
      if (d.name.empty()) {
        d.name = r.name;
        d.shapes = r.shapes.empty() ? "-" : r.shapes;
        d.hash = r.unknownProbe ? "-" : utohexstr(r.hash, true, 16);
      }
      Side &s = isB ? d.b : d.a;
      s.present = true;
      s.ns += r.durationNs;
      s.count += r.count;
      for (size_t i = 0; i != r.counters.size() && i != p.events.size(); ++i)
        s.counters[p.events[i]] += r.counters[i];
    }
    for (const std::string &e : p.events)
      if (!is_contained(events, e))
        events.push_back(e);
  };
  addSide(a, false);
  addSide(b, true);

  std::vector<DiffRow *> order;
  for (auto &[key, d] : rows)
    order.push_back(&d);
  llvm::sort(order, [](const DiffRow *x, const DiffRow *y) {
    if (x->delta() != y->delta())
      return x->delta() > y->delta();
    return std::tie(x->name, x->shapes) < std::tie(y->name, y->shapes);
  });

  TextTable table;
  using Align = TextTable::Align;
  const std::pair<const char *, Align> titles[] = {
      {"Name", Align::Left},     {"A (us)", Align::Right},
      {"B (us)", Align::Right},  {"Delta (us)", Align::Right},
      {"Delta %", Align::Right}, {"Count A", Align::Right},
      {"Count B", Align::Right}, {"Status", Align::Left},
      {"Argument Shapes", Align::Left}, {"Hash", Align::Left}};
  for (auto [title, align] : titles)
    table.addColumn(title, align);
  for (const std::string &e : events)
    table.addColumn("Delta " + e, TextTable::Align::Right);
  size_t printed = 0;
  std::vector<const DiffRow *> failed;
  for (const DiffRow *d : order) {
    StringRef status = !d->a.present    ? "new"
                       : !d->b.present  ? "missing"
                       : d->delta() > 0 ? "slower"
                       : d->delta() < 0 ? "faster"
                                        : "same";
    double pct = d->deltaPct();
    bool considered = d->a.present && d->b.present &&
                      std::max(d->a.ns, d->b.ns) >= opts.minTimeNs;
    if (opts.failAbovePct >= 0 && considered && pct > opts.failAbovePct)
      failed.push_back(d);
    if (opts.top && printed == opts.top)
      continue;
    ++printed;
    std::vector<std::string> l = {
        d->name,
        d->a.present ? us(d->a.ns) : "-",
        d->b.present ? us(d->b.ns) : "-",
        formatv("{0}{1}", d->delta() > 0 ? "+" : "", us(d->delta())).str(),
        std::isinf(pct) ? "new"
                        : formatv("{0}{1:F2}", pct > 0 ? "+" : "", pct).str(),
        utostr(d->a.count),
        utostr(d->b.count),
        status.str(),
        d->shapes,
        d->hash};
    for (const std::string &e : events) {
      int64_t delta =
          int64_t(d->b.counters.count(e) ? d->b.counters.at(e) : 0) -
          int64_t(d->a.counters.count(e) ? d->a.counters.at(e) : 0);
      l.push_back(formatv("{0}{1}", delta > 0 ? "+" : "", delta).str());
    }
    table.addRow(std::move(l));
  }
  // Totals: the runs' covered time (nested time once).
  int64_t totalDelta = int64_t(b.coveredNs) - int64_t(a.coveredNs);

  table.print(os);
  if (opts.top && order.size() > opts.top)
    os << "(" << order.size() - opts.top << " more rows not shown; --top "
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
        os << formatv(" {0} [{1}] ({2:F2}%)", d->name, d->shapes,
                      d->deltaPct());
      os << '\n';
    }
  }
  return !failed.empty();
}
