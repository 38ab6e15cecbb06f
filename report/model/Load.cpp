//===- report/model/Load.cpp - Load, merge and regroup rows ---------------===//
//
// loadInput() is the common front of the views: it aggregates dumps with
// the streaming Aggregator and folds JSON exports in by key, so the table
// of an export equals the table of its dumps. groupRows() implements
// `table --by`.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/Progress.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <tuple>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

bool tpuprof::report::isJsonExport(StringRef path) {
  return path.ends_with_insensitive(".json");
}

namespace {

/// Adds `from` into `into`, whose counters are indexed by `slot`.
void mergeRow(Row &into, const Row &from, ArrayRef<unsigned> slot) {
  into.count += from.count;
  into.unfinished += from.unfinished;
  into.durationNs += from.durationNs;
  into.selfNs += from.selfNs;
  into.durations.merge(from.durations);
  for (size_t i = 0; i != from.counters.size() && i != slot.size(); ++i) {
    if (slot[i] >= into.counters.size())
      into.counters.resize(slot[i] + 1, 0);
    into.counters[slot[i]] += from.counters[i];
    if (i < from.counterFlags.size()) {
      if (slot[i] >= into.counterFlags.size())
        into.counterFlags.resize(slot[i] + 1, 0);
      into.counterFlags[slot[i]] |= from.counterFlags[i];
    }
  }
  for (const std::string &loc : from.locations)
    if (!is_contained(into.locations, loc))
      into.locations.push_back(loc);
  into.mixedHash |= from.mixedHash || from.hash != into.hash ||
                    from.unknownProbe != into.unknownProbe;
  into.mixedShapes |= from.mixedShapes || from.shapes != into.shapes;
  into.mixedName |= from.mixedName || from.name != into.name;
}

} // namespace

void tpuprof::report::mergeProfile(Profile &into, const Profile &from) {
  // Event slots of `from` in `into`.
  SmallVector<unsigned, 8> slot;
  for (const std::string &e : from.events) {
    auto it = find(into.events, e);
    if (it == into.events.end()) {
      into.events.push_back(e);
      for (Row &row : into.rows) {
        row.counters.push_back(0);
        row.counterFlags.push_back(0);
      }
      it = into.events.end() - 1;
    }
    slot.push_back(unsigned(it - into.events.begin()));
  }
  using Key = std::tuple<bool, uint64_t, std::string, uint32_t>;
  auto keyOf = [](const Row &r) {
    return Key(!r.unknownProbe, r.unknownProbe ? r.probeId : r.hash, r.shapes,
               r.device);
  };
  std::map<Key, size_t> index;
  for (size_t i = 0; i != into.rows.size(); ++i)
    index.emplace(keyOf(into.rows[i]), i);
  for (const Row &row : from.rows) {
    auto [it, inserted] = index.try_emplace(keyOf(row), into.rows.size());
    if (inserted) {
      Row copy = row;
      copy.counters.assign(into.events.size(), 0);
      copy.counterFlags.assign(into.events.size(), 0);
      for (size_t i = 0; i != row.counters.size() && i != slot.size(); ++i)
        copy.counters[slot[i]] = row.counters[i];
      for (size_t i = 0; i != row.counterFlags.size() && i != slot.size(); ++i)
        copy.counterFlags[slot[i]] = row.counterFlags[i];
      into.rows.push_back(std::move(copy));
      continue;
    }
    Row &target = into.rows[it->second];
    bool hashMixed = target.mixedHash;
    mergeRow(target, row, slot);
    // Same key, so the hash cannot differ (an unknown probe's 0 vs its id).
    target.mixedHash = hashMixed;
  }
  append_range(into.dumps, from.dumps);
  into.coveredNs += from.coveredNs;
  into.totalNs += from.totalNs;
  into.unfinished += from.unfinished;
  into.dropped += from.dropped;
  into.drops += from.drops;
  into.unwound += from.unwound;
  into.threads += from.threads;
  into.records += from.records;
}

Expected<Input> tpuprof::report::loadInput(ArrayRef<std::string> inputs,
                                           const LoadOptions &opts) {
  Input in;
  in.args = inputs.vec();
  in.progress = opts.progress;
  std::vector<std::string> dumpArgs;
  for (const std::string &arg : inputs)
    (isJsonExport(arg) ? in.exports : dumpArgs).push_back(arg);
  if (!dumpArgs.empty()) {
    Expected<std::vector<std::string>> files = expandDumpPaths(dumpArgs);
    if (!files)
      return files.takeError();
    in.dumpFiles = std::move(*files);
    auto sizeOf = [](const std::string &f) {
      uint64_t size = 0;
      return sys::fs::file_size(f, size) ? 0 : size;
    };
    uint64_t bytes = 0;
    for (const std::string &f : in.dumpFiles)
      bytes += sizeOf(f);
    Progress bar(opts.progress, "reading dumps", bytes);
    Aggregator agg;
    for (const std::string &file : in.dumpFiles) {
      Expected<DumpReader> reader = DumpReader::open(file);
      if (!reader)
        return reader.takeError();
      if (opts.rows)
        agg.add(*reader);
      else
        agg.addSummary(*reader);
      bar.advance(sizeOf(file));
    }
    in.profile = agg.take();
  }
  if (opts.rows)
    for (const std::string &path : in.exports) {
      Expected<Profile> p = readProfileJson(path);
      if (!p)
        return p.takeError();
      mergeProfile(in.profile, *p);
    }
  return in;
}

Error Input::needDumps(StringRef view) const {
  if (exports.empty())
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           exports.front() + ": " + view +
                               " needs dumps (a JSON export has rows, not "
                               "records)");
}

Error Input::forEachDump(StringRef view,
                         function_ref<Error(const DumpReader &)> fn) const {
  if (Error err = needDumps(view))
    return err;
  Progress bar(progress, view, dumpFiles.size());
  for (const std::string &file : dumpFiles) {
    Expected<DumpReader> reader = DumpReader::open(file);
    if (!reader)
      return reader.takeError();
    if (Error err = fn(*reader))
      return err;
    bar.advance(1);
  }
  return Error::success();
}

Expected<GroupBy> tpuprof::report::parseGroupBy(StringRef name) {
  if (name == "op")
    return GroupBy::Op;
  if (name == "name")
    return GroupBy::Name;
  if (name == "function")
    return GroupBy::Function;
  if (name == "location")
    return GroupBy::Location;
  if (name == "shape")
    return GroupBy::Shape;
  return createStringError(inconvertibleErrorCode(),
                           "unknown grouping '" + name +
                               "' (expected one of: op, name, function, "
                               "location, shape)");
}

std::vector<Row> tpuprof::report::groupRows(ArrayRef<Row> rows, GroupBy by) {
  if (by == GroupBy::Op)
    return rows.vec();
  // (key text, shapes for GroupBy::Shape, device)
  using Key = std::tuple<std::string, std::string, uint32_t>;
  std::map<Key, size_t> index;
  std::vector<Row> out;
  std::vector<double> flops, bytes; // Totals over calls, per output row.
  for (const Row &row : rows) {
    std::string name;
    std::string shapes;
    switch (by) {
    case GroupBy::Op:
    case GroupBy::Name:
      name = row.name;
      break;
    case GroupBy::Shape:
      name = row.name;
      shapes = row.shapes;
      break;
    case GroupBy::Function:
      name = row.function.empty() ? "-" : row.function;
      break;
    case GroupBy::Location:
      name = row.locations.empty() ? "-" : row.locations.front();
      break;
    }
    auto [it, inserted] =
        index.try_emplace(Key(name, shapes, row.device), out.size());
    double f = double(row.flops) * double(row.count);
    double b = double(row.bytes) * double(row.count);
    if (inserted) {
      Row copy = row;
      copy.name = name;
      out.push_back(std::move(copy));
      flops.push_back(f);
      bytes.push_back(b);
      continue;
    }
    Row &target = out[it->second];
    SmallVector<unsigned, 8> slot;
    for (unsigned i = 0; i != row.counters.size(); ++i)
      slot.push_back(i);
    std::string keepName = target.name;
    mergeRow(target, row, slot);
    target.name = keepName;
    target.mixedName = false;
    flops[it->second] += f;
    bytes[it->second] += b;
  }
  for (size_t i = 0; i != out.size(); ++i) {
    Row &row = out[i];
    if (row.mixedHash)
      row.hash = 0;
    if (row.mixedShapes)
      row.shapes = "*";
    if (row.count) {
      row.flops = uint64_t(flops[i] / double(row.count) + 0.5);
      row.bytes = uint64_t(bytes[i] / double(row.count) + 0.5);
    }
  }
  return out;
}
