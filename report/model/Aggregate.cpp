//===- report/model/Aggregate.cpp - Fold records into per-op rows ---------===//
//
// One pass over each thread's record stream. The stream is in begin order and
// each record carries its nesting depth, so a stack of open records gives
// every record its parent: that is all self time and "Sum" need.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/model/Correction.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

std::string tpuprof::report::substituteShapes(StringRef shapes,
                                              ArrayRef<int64_t> dims) {
  std::string out;
  out.reserve(shapes.size() + 8 * dims.size());
  raw_string_ostream os(out);
  size_t next = 0;
  for (char c : shapes) {
    if (c == '?' && next < dims.size())
      os << dims[next++];
    else
      os << c;
  }
  return out;
}

namespace {

/// A record still open on the per-thread stack while its nested records are
/// visited. Its time is booked when it is popped: only then is the number
/// of records nested inside it, which the overhead correction needs, known.
struct Frame {
  RecordView record;
  size_t row;
  /// A finished record encloses this one, so its time is already part of
  /// "Sum".
  bool coveredAbove;
  uint64_t pairTicks;       ///< Its probe pair's cost to enclosing records.
  uint64_t nestedTicks = 0; ///< pairTicks of the records nested inside.
  uint64_t descendants = 0; ///< Records nested inside, at any depth.
  uint64_t childrenNs = 0;  ///< Corrected durations of finished children.

  bool finished() const { return record.isFinished(); }
};

} // namespace

size_t Aggregator::rowFor(const DumpReader &dump, const RecordView &record,
                          const Probe *probe) {
  uint32_t device = dump.info().device;
  Key key;
  if (probe) {
    std::string shapes;
    if (record.numDims == 0) {
      shapes = probe->shapes.str();
    } else {
      SmallVector<int64_t, 8> dims;
      for (unsigned i = 0; i != record.numDims; ++i)
        dims.push_back(record.dim(i));
      shapes = substituteShapes(probe->shapes, dims);
    }
    key = Key(true, probe->hash, std::move(shapes), device);
  } else {
    key = Key(false, record.probe, std::string(), device);
  }

  auto [it, inserted] = rowIndex.try_emplace(std::move(key), 0);
  if (!inserted)
    return it->second;
  it->second = result.rows.size();
  Row row;
  row.device = device;
  row.probeId = record.probe;
  row.counters.assign(result.events.size(), 0);
  row.counterFlags.assign(result.events.size(), 0);
  if (probe) {
    row.name = probe->name.str();
    row.shapes = std::get<2>(it->first);
    if (!probe->location.empty())
      row.locations.push_back(probe->location.str());
    row.function = probe->function.str();
    row.hash = probe->hash;
    row.kind = probe->kind;
    row.flops = probe->flops;
    row.bytes = probe->bytes;
  } else {
    row.name = ("<unknown probe " + Twine(record.probe) + ">").str();
    row.unknownProbe = true;
  }
  result.rows.push_back(std::move(row));
  return it->second;
}

void Aggregator::add(const DumpReader &dump) {
  const DumpInfo &info = dump.info();
  DumpSummary summary;
  summary.path = dump.path().str();
  summary.info = info;
  summary.windowNs = info.windowNs();
  summary.threads = dump.threads().size();

  // Map this dump's event slots onto the profile's union of event names.
  SmallVector<unsigned, 8> eventSlot;
  for (const std::string &name : dump.events()) {
    auto [it, inserted] = eventIndex.try_emplace(name, result.events.size());
    if (inserted) {
      result.events.push_back(name);
      for (Row &row : result.rows) {
        row.counters.push_back(0);
        row.counterFlags.push_back(0);
      }
    }
    eventSlot.push_back(it->second);
  }
  // The runtime's time_enabled/time_running words (format.h): a PMU event
  // counted for only part of a probe (multiplexed) is scaled up by their
  // ratio; one never scheduled (running == 0) adds nothing.
  int enabledWord = -1, runningWord = -1, cpuWord = -1, readWord = -1;
  for (unsigned i = 0; i != dump.events().size(); ++i) {
    StringRef name = dump.events()[i];
    if (name == TPUPROF_EVENT_TIME_ENABLED)
      enabledWord = i;
    else if (name == TPUPROF_EVENT_TIME_RUNNING)
      runningWord = i;
    else if (name == TPUPROF_EVENT_CPU)
      cpuWord = i;
    else if (name == TPUPROF_EVENT_READ_TICKS)
      readWord = i;
  }
  bool scalable = enabledWord >= 0 && runningWord >= 0;

  // Rows of records without dims depend only on the probe id, so most
  // records skip building a shapes string and the map lookup.
  // Keyed by uint64_t: every uint32_t is a valid probe id, including
  // DenseMap's reserved empty and tombstone keys for uint32_t.
  DenseMap<uint64_t, size_t> staticRow;
  // The same for the common small ids, without hashing: probe and row of
  // each id below kDenseIds (row SIZE_MAX until first seen).
  constexpr uint32_t kDenseIds = 1u << 16;
  struct StaticEntry {
    size_t row = SIZE_MAX;
    const Probe *probe = nullptr;
  };
  std::vector<StaticEntry> denseRow;
  // (probe id, row) pairs already merged, so each probe's location is added
  // to its row once rather than compared on every record.
  DenseSet<std::pair<uint64_t, size_t>> merged;
  auto mergeLocation = [&](const RecordView &record, const Probe *probe,
                           size_t rowIdx) {
    Row &row = result.rows[rowIdx];
    if (probe && merged.insert({record.probe, rowIdx}).second &&
        !probe->location.empty() &&
        !llvm::is_contained(row.locations, probe->location))
      row.locations.push_back(probe->location.str());
  };

  OverheadCorrection correction =
      OverheadCorrection::forDump(info, dump.events());
  summary.correction = correction.state;
  // A finished record's counter deltas, scaled for multiplexing and less
  // the probes' own counts (Correction.h).
  auto addCounters = [&](Row &row, const Frame &f, uint64_t durationNs) {
    const RecordView &record = f.record;
    uint64_t enabled = scalable ? record.counter(enabledWord) : 0;
    uint64_t running = scalable ? record.counter(runningWord) : 0;
    for (unsigned i = 0; i != record.numCounters; ++i) {
      uint64_t v = record.counter(i);
      if (int(i) == cpuWord)
        continue; // CPU ids, not a count.
      if (scalable && int(i) != enabledWord && int(i) != runningWord &&
          int(i) != readWord && running < enabled) {
        if (running == 0)
          continue;
        v = uint64_t(double(v) * double(enabled) / double(running) + 0.5);
        row.counterFlags[eventSlot[i]] |= Row::CounterScaled;
      }
      row.counterFlags[eventSlot[i]] |= Row::CounterRecorded;
      row.counters[eventSlot[i]] +=
          correction.correctedCount(i, v, f.descendants, f.nestedTicks,
                                    durationNs);
    }
  };
  SmallVector<Frame, 32> stack;
  // Books a record once the records nested inside it are known.
  auto pop = [&]() {
    Frame f = stack.pop_back_val();
    Frame *parent = stack.empty() ? nullptr : &stack.back();
    if (parent) {
      parent->nestedTicks = addTicksSaturating(
          parent->nestedTicks, addTicksSaturating(f.pairTicks, f.nestedTicks));
      parent->descendants += 1 + f.descendants;
    }
    if (!f.finished())
      return;
    uint64_t ns = correction.correctedNs(f.record.end - f.record.begin,
                                         f.nestedTicks);
    Row &row = result.rows[f.row];
    row.durationNs += ns;
    row.durations.add(ns);
    row.selfNs += ns - std::min(f.childrenNs, ns);
    addCounters(row, f, ns);
    if (parent && parent->finished())
      parent->childrenNs += ns;
    if (!f.coveredAbove)
      summary.coveredNs += ns;
  };

  for (const ThreadInfo &thread : dump.threads()) {
    dump.forEachRecord(thread, [&](const RecordView &record) {
      const Probe *probe;
      size_t rowIdx;
      if (record.numDims == 0 && record.probe < kDenseIds) {
        if (denseRow.size() <= record.probe)
          denseRow.resize(record.probe + 1);
        StaticEntry &e = denseRow[record.probe];
        if (e.row == SIZE_MAX) {
          e.probe = dump.findProbe(record.probe);
          e.row = rowFor(dump, record, e.probe);
          mergeLocation(record, e.probe, e.row);
        }
        probe = e.probe;
        rowIdx = e.row;
      } else if (record.numDims == 0) {
        probe = dump.findProbe(record.probe);
        auto [it, inserted] = staticRow.try_emplace(record.probe, 0);
        if (inserted) {
          it->second = rowFor(dump, record, probe);
          mergeLocation(record, probe, it->second);
        }
        rowIdx = it->second;
      } else {
        probe = dump.findProbe(record.probe);
        rowIdx = rowFor(dump, record, probe);
        mergeLocation(record, probe, rowIdx);
      }
      Row &row = result.rows[rowIdx];

      // Close records that cannot enclose this one. Popping while depth >=
      // the new depth (rather than requiring exact depths) tolerates gaps,
      // e.g. a parent lost to a full buffer: the nearest shallower record
      // is then the parent.
      while (!stack.empty() && stack.back().record.depth >= record.depth)
        pop();
      Frame *parent = stack.empty() ? nullptr : &stack.back();

      bool coveredAbove =
          parent && (parent->finished() || parent->coveredAbove);
      if (record.isFinished()) {
        ++row.count;
      } else {
        ++row.unfinished;
        ++summary.unfinished;
      }
      ++summary.records;
      stack.push_back(
          {record, rowIdx, coveredAbove, correction.pairTicks(record)});
    });
    while (!stack.empty())
      pop();
  }

  result.coveredNs += summary.coveredNs;
  result.totalNs += summary.windowNs;
  result.unfinished += summary.unfinished;
  result.dropped += info.dropped;
  result.drops += info.drops;
  result.unwound += info.unwound;
  result.threads += summary.threads;
  result.records += summary.records;
  result.dumps.push_back(std::move(summary));
}

Error Aggregator::addFile(StringRef path) {
  Expected<DumpReader> reader = DumpReader::open(path);
  if (!reader)
    return reader.takeError();
  add(*reader);
  return Error::success();
}

Expected<std::vector<std::string>>
tpuprof::report::expandDumpPaths(ArrayRef<std::string> paths) {
  std::vector<std::string> out;
  for (const std::string &path : paths) {
    if (!sys::fs::is_directory(path)) {
      out.push_back(path); // Missing files fail, with their name, on open.
      continue;
    }
    std::vector<std::string> found;
    std::error_code ec;
    for (sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
         it.increment(ec)) {
      StringRef name = sys::path::filename(it->path());
      if (name.starts_with("tpuprof_data_dev") &&
          !sys::fs::is_directory(it->path()))
        found.push_back(it->path());
    }
    if (ec)
      return createStringError(
          ec, path + ": cannot list directory: " + ec.message());
    if (found.empty())
      return createStringError(inconvertibleErrorCode(),
                               path + ": no tpuprof_data_dev* dumps in "
                                      "directory");
    llvm::sort(found);
    llvm::append_range(out, found);
  }
  return out;
}

Expected<Profile> tpuprof::report::aggregateDumps(ArrayRef<std::string> paths) {
  Expected<std::vector<std::string>> files = expandDumpPaths(paths);
  if (!files)
    return files.takeError();
  Aggregator agg;
  for (const std::string &file : *files)
    if (Error err = agg.addFile(file))
      return std::move(err);
  return agg.take();
}

std::string tpuprof::report::dropReasons(const DropCounts &d) {
  std::string out;
  auto add = [&](uint64_t n, const char *why) {
    if (n)
      out += (out.empty() ? "" : ", ") + utostr(n) + " " + why;
  };
  add(d.full, "at the thread's record limit (TPUPROF_RECORD_SIZE)");
  add(d.overwritten, "overwritten by the ring buffer (TPUPROF_BUFFER=ring)");
  add(d.depth, "begun with more than 256 probes open");
  add(d.noSpace, "for want of space (file system full, file size limit, "
                 "no memory)");
  add(d.unknown, "when a buffer was full or more than 256 probes were open");
  return out;
}

std::string tpuprof::report::lossSummary(const Profile &p) {
  if (p.dropped == 0)
    return "";
  DropCounts d = p.drops;
  if (d.total() < p.dropped) // Counted without a reason.
    d.unknown += p.dropped - d.total();
  return (Twine(p.dropped) + (p.dropped == 1 ? " record was" : " records were") +
          " dropped (" + dropReasons(d) + "); the figures leave " +
          (p.dropped == 1 ? "it" : "them") + " out")
      .str();
}
