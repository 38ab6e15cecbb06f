//===- report/model/Compare.cpp - Two runs side by side -------------------===//

#include "tpuprof/report/model/Compare.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <tuple>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

DiffRow::Status DiffRow::status() const {
  if (!a.present)
    return Status::New;
  if (!b.present)
    return Status::Missing;
  if (a.resolved() && b.resolved())
    return delta() > 0   ? Status::Slower
           : delta() < 0 ? Status::Faster
                         : Status::Same;
  // One side (or both) below resolution: only a change beyond its floor is
  // a change.
  if (!a.resolved() && b.resolved() && b.ns > a.floorNs)
    return Status::Slower;
  if (a.resolved() && !b.resolved() && a.ns > b.floorNs)
    return Status::Faster;
  return Status::Unresolved;
}

std::optional<double> DiffRow::deltaPct(int *bound) const {
  if (bound)
    *bound = 0;
  Status s = status();
  if (s == Status::New || s == Status::Missing || s == Status::Unresolved)
    return std::nullopt;
  if (!a.resolved()) { // B is at least this much slower.
    if (bound)
      *bound = +1;
    return 100.0 * (double(b.ns) - double(a.floorNs)) / double(a.floorNs);
  }
  if (!b.resolved()) { // B is at least this much faster.
    if (bound)
      *bound = -1;
    return 100.0 * (double(b.floorNs) - double(a.ns)) / double(a.ns);
  }
  if (!a.ns)
    return std::nullopt;
  return 100.0 * double(delta()) / double(a.ns);
}

StringRef tpuprof::report::statusName(DiffRow::Status s) {
  switch (s) {
  case DiffRow::Status::New:
    return "new";
  case DiffRow::Status::Missing:
    return "missing";
  case DiffRow::Status::Slower:
    return "slower";
  case DiffRow::Status::Faster:
    return "faster";
  case DiffRow::Status::Same:
    return "same";
  case DiffRow::Status::Unresolved:
    break;
  }
  return "unresolved";
}

std::vector<DiffRow> tpuprof::report::compareProfiles(const Profile &a,
                                                      const Profile &b) {
  using Key = std::tuple<bool, uint64_t, std::string>;
  std::map<Key, DiffRow> rows;
  auto addSide = [&](const Profile &p, bool isB) {
    uint64_t res = resolutionNs(p);
    for (const Row &r : p.rows) {
      Key key(r.unknownProbe, r.unknownProbe ? r.probeId : r.hash, r.shapes);
      DiffRow &d = rows[key];
      if (d.name.empty()) {
        d.name = r.name;
        d.shapes = r.shapes;
        d.hash = r.unknownProbe ? "-" : hashName(r.hash);
      }
      DiffSide &s = isB ? d.b : d.a;
      s.present = true;
      s.ns += r.durationNs;
      s.count += r.count;
      s.floorNs += r.count * res;
      for (size_t i = 0; i != r.counters.size() && i != p.events.size(); ++i)
        s.counters[p.events[i]] += r.counters[i];
    }
  };
  addSide(a, false);
  addSide(b, true);
  std::vector<DiffRow> out;
  for (auto &entry : rows)
    out.push_back(std::move(entry.second));
  llvm::sort(out, [](const DiffRow &x, const DiffRow &y) {
    if (x.delta() != y.delta())
      return x.delta() > y.delta();
    return std::tie(x.name, x.shapes) < std::tie(y.name, y.shapes);
  });
  return out;
}
