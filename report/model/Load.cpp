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
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
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
  into.memoryRecorded |= from.memoryRecorded;
  into.allocBytes += from.allocBytes;
  into.selfAllocBytes += from.selfAllocBytes;
  into.freedBytes += from.freedBytes;
  into.peakBytes = std::max(into.peakBytes, from.peakBytes);
  into.deviceNs += from.deviceNs;
  into.deviceSelfNs += from.deviceSelfNs;
  into.deviceCommands += from.deviceCommands;
  into.queueDelayNs += from.queueDelayNs;
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
  if (from.node != into.node)
    into.node = "*";
}

} // namespace

void tpuprof::report::mergeProfile(Profile &into, const Profile &from) {
  // Rows whose runs were added up cannot be told apart by run again, so
  // either side's merged runs merge the other's too.
  Profile merged;
  const Profile *src = &from;
  if (from.runsMerged && !into.runsMerged)
    into = mergeRuns(into);
  if (into.runsMerged && !from.runsMerged) {
    merged = mergeRuns(from);
    src = &merged;
  }
  // Run and event slots of `src` in `into`.
  SmallVector<uint32_t, 4> runSlot;
  for (const RunId &r : src->runs) {
    auto it = find(into.runs, r);
    runSlot.push_back(uint32_t(it - into.runs.begin()));
    if (it == into.runs.end())
      into.runs.push_back(r);
  }
  auto runOf = [&](uint32_t run) {
    return into.runsMerged || run >= runSlot.size() ? 0 : runSlot[run];
  };
  SmallVector<unsigned, 8> slot;
  for (const std::string &e : src->events) {
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
  std::map<RowKey, size_t> index;
  for (size_t i = 0; i != into.rows.size(); ++i)
    index.emplace(rowKey(into.rows[i]), i);
  for (const Row &row : src->rows) {
    Row copy = row;
    copy.run = runOf(row.run);
    auto [it, inserted] = index.try_emplace(rowKey(copy), into.rows.size());
    if (inserted) {
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
  for (const DumpSummary &d : src->dumps) {
    into.dumps.push_back(d);
    into.dumps.back().run = runOf(d.run);
  }
  for (DeviceRow d : src->deviceRows) {
    d.run = runOf(d.run);
    mergeDeviceRow(into.deviceRows, d);
  }
  for (DeviceQueueStat q : src->deviceQueues) {
    q.run = runOf(q.run);
    into.deviceQueues.push_back(std::move(q));
  }
  into.coveredNs += src->coveredNs;
  into.totalNs += src->totalNs;
  into.unfinished += src->unfinished;
  into.dropped += src->dropped;
  into.drops += src->drops;
  into.unwound += src->unwound;
  into.threads += src->threads;
  into.records += src->records;
  sortRuns(into);
}

Profile tpuprof::report::mergeRuns(const Profile &p) {
  if (p.runsMerged)
    return p;
  Profile out;
  out.events = p.events;
  out.runs = p.runs;
  out.runsMerged = true;
  out.dumps = p.dumps;
  for (DumpSummary &d : out.dumps)
    d.run = 0;
  sumDumps(out);
  for (DeviceRow d : p.deviceRows) {
    d.run = 0;
    mergeDeviceRow(out.deviceRows, d);
  }
  out.deviceQueues = p.deviceQueues;
  for (DeviceQueueStat &q : out.deviceQueues)
    q.run = 0;
  SmallVector<unsigned, 8> slot;
  for (unsigned i = 0; i != p.events.size(); ++i)
    slot.push_back(i);
  std::map<RowKey, size_t> index;
  for (const Row &row : p.rows) {
    Row copy = row;
    copy.run = 0;
    auto [it, inserted] = index.try_emplace(rowKey(copy), out.rows.size());
    if (inserted) {
      out.rows.push_back(std::move(copy));
      continue;
    }
    Row &target = out.rows[it->second];
    bool hashMixed = target.mixedHash;
    mergeRow(target, copy, slot);
    target.mixedHash = hashMixed;
  }
  return out;
}

Profile tpuprof::report::selectRun(const Profile &p, uint32_t run) {
  Profile out;
  out.events = p.events;
  if (run < p.runs.size())
    out.runs = {p.runs[run]};
  for (const Row &r : p.rows)
    if (r.run == run) {
      out.rows.push_back(r);
      out.rows.back().run = 0;
    }
  for (const DumpSummary &d : p.dumps)
    if (d.run == run) {
      out.dumps.push_back(d);
      out.dumps.back().run = 0;
    }
  for (const DeviceRow &d : p.deviceRows)
    if (d.run == run) {
      out.deviceRows.push_back(d);
      out.deviceRows.back().run = 0;
    }
  for (const DeviceQueueStat &q : p.deviceQueues)
    if (q.run == run) {
      out.deviceQueues.push_back(q);
      out.deviceQueues.back().run = 0;
    }
  sumDumps(out);
  return out;
}

std::vector<uint64_t> tpuprof::report::runTotals(const Profile &p) {
  std::vector<uint64_t> totals(
      p.runsMerged ? 1 : std::max<size_t>(1, p.runs.size()));
  for (const DumpSummary &d : p.dumps)
    if (d.run < totals.size())
      totals[d.run] += d.windowNs;
  return totals;
}

std::string tpuprof::report::describeRun(const Profile &p, uint32_t run) {
  if (run >= p.runs.size())
    return "run " + utostr(run + 1);
  const RunId &r = p.runs[run];
  std::string s = formatv("run {0} (pid {1}", run + 1, r.pid).str();
  if (run > 0) {
    uint64_t after = r.startNs - std::min(r.startNs, p.runs[0].startNs);
    s += formatv(", started {0:F3} s after run 1", double(after) / 1e9).str();
  }
  return s + ")";
}

Error tpuprof::report::needOneRun(const Profile &p, StringRef view) {
  if (!p.runsApart())
    return Error::success();
  std::string runs;
  for (uint32_t r = 0; r != p.runs.size(); ++r)
    runs += (r ? "; " : "") + describeRun(p, r);
  return createStringError(
      view + " needs one set of rows, but the inputs hold " +
      Twine(p.runs.size()) + " runs (" + runs +
      "): choose one with --run N or add them up with --merge-runs");
}

Expected<Input> tpuprof::report::loadInput(ArrayRef<std::string> inputs,
                                           const LoadOptions &opts) {
  Input in;
  in.args = inputs.vec();
  in.progress = opts.progress;
  in.overheadCorrection = opts.overheadCorrection;
  std::vector<std::string> dumpArgs;
  for (const std::string &arg : inputs)
    (isJsonExport(arg) ? in.exports : dumpArgs).push_back(arg);
  if (!dumpArgs.empty()) {
    Expected<std::vector<std::string>> files = expandDumpPaths(dumpArgs);
    if (!files)
      return files.takeError();
    auto sizeOf = [](const std::string &f) {
      uint64_t size = 0;
      return sys::fs::file_size(f, size) ? 0 : size;
    };
    uint64_t bytes = 0;
    for (const std::string &f : *files)
      bytes += sizeOf(f);
    Progress bar(opts.progress, "reading dumps", bytes);
    Aggregator agg(opts.overheadCorrection);
    size_t kept = 0;
    for (const std::string &file : *files) {
      Expected<DumpReader> reader = DumpReader::open(file);
      if (!reader)
        return reader.takeError();
      bar.advance(sizeOf(file));
      if (!opts.ranks.empty()) {
        const DumpInfo &info = reader->info();
        if (!info.hasProcess ||
            !llvm::is_contained(opts.ranks, info.process.rank))
          continue;
        ++kept;
      }
      if (opts.rows)
        agg.add(*reader);
      else
        agg.addSummary(*reader);
    }
    if (!opts.ranks.empty() && !kept)
      return createStringError("no dump of the ranks asked for (--rank, "
                               "--ranks) among the inputs");
    in.profile = agg.take();
  }
  if (opts.rows)
    for (const std::string &path : in.exports) {
      Expected<Profile> p = readProfileJson(path);
      if (!p)
        return p.takeError();
      mergeProfile(in.profile, *p);
    }
  if (opts.mergeRuns) {
    in.profile = mergeRuns(in.profile);
  } else if (opts.run) {
    if (opts.run > in.profile.runs.size())
      return createStringError("--run " + Twine(opts.run) +
                               ": the inputs hold " +
                               Twine(in.profile.runs.size()) + " run" +
                               (in.profile.runs.size() == 1 ? "" : "s"));
    in.profile = selectRun(in.profile, opts.run - 1);
  }
  return in;
}

Error Input::needDumps(StringRef view) const {
  if (exports.empty())
    return Error::success();
  return createStringError(exports.front() + ": " + view +
                           " needs dumps (a JSON export has rows, not "
                           "records)");
}

Error Input::forEachDump(
    StringRef view,
    function_ref<Error(const DumpReader &, const DumpSummary &)> fn) const {
  if (Error err = needDumps(view))
    return err;
  Progress bar(progress, view, profile.dumps.size());
  for (const DumpSummary &d : profile.dumps) {
    if (!d.hasRecords)
      continue;
    Expected<DumpReader> reader = DumpReader::open(d.path);
    if (!reader)
      return reader.takeError();
    if (Error err = fn(*reader, d))
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
  if (name == "node")
    return GroupBy::Node;
  return createStringError("unknown grouping '" + name +
                           "' (expected one of: op, name, function, "
                           "location, shape, node)");
}

std::vector<Row> tpuprof::report::groupRows(ArrayRef<Row> rows, GroupBy by) {
  if (by == GroupBy::Op)
    return rows.vec();
  // (key text, shapes for GroupBy::Shape, device, run)
  using Key = std::tuple<std::string, std::string, uint32_t, uint32_t>;
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
    case GroupBy::Node:
      name = row.node.empty() ? "-" : row.node;
      break;
    }
    auto [it, inserted] =
        index.try_emplace(Key(name, shapes, row.device, row.run), out.size());
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
    if (row.mixedShapes) {
      row.shapes = "*";
      row.numOuts = 0;
      row.outShapes = "*";
    }
    if (row.count) {
      row.flops = uint64_t(flops[i] / double(row.count) + 0.5);
      row.bytes = uint64_t(bytes[i] / double(row.count) + 0.5);
    }
  }
  return out;
}
