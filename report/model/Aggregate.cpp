//===- report/model/Aggregate.cpp - Fold records into per-op rows ---------===//
//
// One walk over each dump (Walk.h): a record is counted when it opens and
// its corrected time booked into its row when it closes.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/model/Memory.h"
#include "tpuprof/report/model/Walk.h"

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

#include <glob.h>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

/// Adds each location of `probe` (a kernel's lists one per source op,
/// format.h's TPUPROF_LOCATION_SEPARATOR between) that `locations` lacks.
static void addLocations(std::vector<std::string> &locations,
                         StringRef probeLocation) {
  SmallVector<StringRef, 4> parts;
  probeLocation.split(parts, TPUPROF_LOCATION_SEPARATOR, -1,
                      /*KeepEmpty=*/false);
  for (StringRef loc : parts)
    if (!llvm::is_contained(locations, loc))
      locations.push_back(loc.str());
}

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

RowKey tpuprof::report::rowKey(const Row &row) {
  return RowKey(!row.unknownProbe, row.unknownProbe ? row.probeId : row.hash,
                row.shapes, row.device, row.run, row.node);
}

void tpuprof::report::sortRuns(Profile &p) {
  std::vector<uint32_t> order(p.runs.size());
  for (uint32_t i = 0; i != order.size(); ++i)
    order[i] = i;
  // Runs are distinct, so this order is total.
  llvm::sort(order,
             [&](uint32_t a, uint32_t b) { return p.runs[a] < p.runs[b]; });
  std::vector<uint32_t> newIndex(order.size());
  std::vector<RunId> runs;
  for (uint32_t i = 0; i != order.size(); ++i) {
    newIndex[order[i]] = i;
    runs.push_back(p.runs[order[i]]);
  }
  p.runs = std::move(runs);
  if (p.runsMerged)
    return;
  for (Row &r : p.rows)
    r.run = newIndex[r.run];
  for (DumpSummary &d : p.dumps)
    d.run = newIndex[d.run];
}

Profile Aggregator::take() {
  sortRuns(result);
  return std::move(result);
}

uint32_t Aggregator::runOf(const DumpInfo &info) {
  RunId id{info.pid, info.calibNs0, info.process.rank};
  auto it = llvm::find(result.runs, id);
  if (it != result.runs.end())
    return uint32_t(it - result.runs.begin());
  result.runs.push_back(id);
  return uint32_t(result.runs.size() - 1);
}

size_t Aggregator::rowFor(const DumpReader &dump, uint32_t run,
                          const RecordView &record, const Probe *probe) {
  uint32_t device = dump.info().device;
  RowKey key;
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
    key = RowKey(true, probe->hash, std::move(shapes), device, run,
                 probe->node.str());
  } else {
    key =
        RowKey(false, record.probe, std::string(), device, run, std::string());
  }

  auto [it, inserted] = rowIndex.try_emplace(std::move(key), 0);
  if (!inserted)
    return it->second;
  it->second = result.rows.size();
  Row row;
  row.device = device;
  row.run = run;
  row.probeId = record.probe;
  row.counters.assign(result.events.size(), 0);
  row.counterFlags.assign(result.events.size(), 0);
  if (probe) {
    row.name = probe->name.str();
    row.shapes = std::get<2>(it->first);
    row.numOuts = probe->numOuts;
    row.outShapes = probe->outShapes.str();
    addLocations(row.locations, probe->location);
    row.node = probe->node.str();
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

/// What the summary says of `dump`'s memory records.
static MemorySummary summarizeMemory(const DumpReader &dump,
                                     const MemoryTimeline &t) {
  MemorySummary m;
  const DumpInfo &info = dump.info();
  m.tracked = (info.flags & TPUPROF_DUMP_MEMORY) || !t.empty();
  m.allocs = t.allocs;
  m.allocBytes = t.allocBytes;
  m.frees = t.frees;
  m.freedBytes = t.freedBytes;
  m.untrackedFrees = t.untrackedFrees;
  m.peakBytes = t.peakBytes;
  m.liveAtEnd = t.liveAtEnd();
  if (t.peakBytes) {
    m.peakNs = t.peakTicks > info.windowBegin
                   ? info.ticksToNs(t.peakTicks - info.windowBegin)
                   : 0;
    const Probe *p =
        t.peakProbe == kNoProbe ? nullptr : dump.findProbe(t.peakProbe);
    if (p) {
      m.peakOp = p->name.str();
      if (!p->shapes.empty())
        m.peakOp += " [" + p->shapes.str() + "]";
      if (!p->location.empty())
        m.peakOp += " at " + p->location.str();
    } else if (t.peakProbe != kNoProbe) {
      m.peakOp = ("<unknown probe " + Twine(t.peakProbe) + ">").str();
    }
  }
  return m;
}

DumpSummary Aggregator::summarize(const DumpReader &dump) {
  DumpSummary summary;
  summary.path = dump.path().str();
  summary.run = runOf(dump.info());
  summary.hasRecords = true;
  summary.info = dump.info();
  summary.windowNs = dump.info().windowNs();
  summary.threads = dump.threads().size();
  for (const Module &m : dump.modules())
    summary.probes += m.table.probes.size();
  summary.correction =
      OverheadCorrection::forDump(dump.info(), overheadCorrection).state;
  return summary;
}

/// Adds the figures of `d` to the sums of `p`.
static void addToSums(Profile &p, const DumpSummary &d) {
  p.coveredNs += d.coveredNs;
  p.totalNs += d.windowNs;
  p.unfinished += d.unfinished;
  p.dropped += d.info.dropped;
  p.drops += d.info.drops;
  p.unwound += d.info.unwound;
  p.threads += d.threads;
  p.records += d.records;
}

void tpuprof::report::sumDumps(Profile &p) {
  p.coveredNs = p.totalNs = p.unfinished = p.dropped = p.threads = p.records =
      p.unwound = 0;
  p.drops = DropCounts();
  for (const DumpSummary &d : p.dumps)
    addToSums(p, d);
}

void Aggregator::book(DumpSummary summary) {
  addToSums(result, summary);
  result.dumps.push_back(std::move(summary));
}

void Aggregator::addSummary(const DumpReader &dump) {
  DumpSummary summary = summarize(dump);
  for (const ThreadInfo &t : dump.threads())
    summary.records += t.numRecords;
  book(std::move(summary));
}

void Aggregator::add(const DumpReader &dump) {
  DumpSummary summary = summarize(dump);

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

  /// Folds each record into its row as the walk closes it.
  struct Folder : WalkVisitor {
    Aggregator &agg;
    const DumpReader &dump;
    DumpSummary &summary;
    ArrayRef<unsigned> eventSlot;
    const MemoryTimeline &memoryTimeline;
    // The tpuprof::CPU word: CPU ids, not a count.
    int cpuWord = -1;
    // Rows of records without dims depend only on the probe id, so most
    // records skip building a shapes string and the map lookup: by index
    // for the common small ids (SIZE_MAX until first seen), else keyed by
    // uint64_t (every uint32_t is a valid probe id, including DenseMap's
    // reserved keys for uint32_t).
    std::vector<size_t> denseRow;
    DenseMap<uint64_t, size_t> staticRow;
    // (probe id, row) pairs already merged, so each probe's location is
    // added to its row once rather than compared on every record.
    DenseSet<std::pair<uint64_t, size_t>> merged;

    Folder(Aggregator &agg, const DumpReader &dump, DumpSummary &summary,
           ArrayRef<unsigned> eventSlot, const MemoryTimeline &memoryTimeline,
           const DeviceJoin &deviceJoin)
        : agg(agg), dump(dump), summary(summary), eventSlot(eventSlot),
          memoryTimeline(memoryTimeline),
          cpuWord(CounterWords(dump.events()).cpuWord()),
          deviceJoin(deviceJoin) {}

    void mergeLocation(const RecordView &record, const Probe *probe,
                       size_t rowIdx) {
      Row &row = agg.result.rows[rowIdx];
      if (probe && merged.insert({record.probe, rowIdx}).second)
        addLocations(row.locations, probe->location);
    }

    size_t rowOf(const RecordView &record, const Probe *probe) {
      constexpr uint32_t kDenseIds = 1u << 16;
      if (record.numDims == 0 && record.probe < kDenseIds) {
        if (denseRow.size() <= record.probe)
          denseRow.resize(record.probe + 1, SIZE_MAX);
        size_t &row = denseRow[record.probe];
        if (row == SIZE_MAX) {
          row = agg.rowFor(dump, summary.run, record, probe);
          mergeLocation(record, probe, row);
        }
        return row;
      }
      if (record.numDims == 0) {
        auto [it, inserted] = staticRow.try_emplace(record.probe, 0);
        if (inserted) {
          it->second = agg.rowFor(dump, summary.run, record, probe);
          mergeLocation(record, probe, it->second);
        }
        return it->second;
      }
      size_t row = agg.rowFor(dump, summary.run, record, probe);
      mergeLocation(record, probe, row);
      return row;
    }

    // Device commands of the records open on this thread, innermost last:
    // what their subtrees launched so far (time, commands, queue delay).
    const DeviceJoin &deviceJoin;
    struct DeviceSums {
      uint64_t ns = 0, commands = 0, delayNs = 0;
    };
    std::vector<DeviceSums> deviceStack;
    uint32_t threadNumber = 0;

    void thread(const ThreadInfo &t) {
      threadNumber = t.number;
      deviceStack.clear();
      summary.threadStats.emplace_back();
      summary.threadStats.back().tid = t.tid;
      summary.threadStats.back().dropped = t.dropped;
    }

    void open(WalkFrame &f, const WalkFrame *) {
      if (!deviceJoin.empty())
        deviceStack.emplace_back();
      f.user = rowOf(f.record, f.probe);
      Row &row = agg.result.rows[f.user];
      row.memoryRecorded |= summary.memory.tracked;
      if (f.finished) {
        ++row.count;
      } else {
        ++row.unfinished;
        ++summary.unfinished;
      }
      ++summary.records;
    }

    /// The device commands `f` launched, into its row's Self, and its
    /// subtree's, into its row's Total and its parent's subtree.
    void closeDevice(const WalkFrame &f) {
      if (deviceJoin.empty() || deviceStack.empty())
        return;
      DeviceSums sums = deviceStack.back();
      deviceStack.pop_back();
      const DumpInfo &info = dump.info();
      Row &row = agg.result.rows[f.user];
      for (uint32_t i : deviceJoin.launchedBy(threadNumber, f.record.begin,
                                              f.record.probe)) {
        const DeviceRecord &r = info.deviceData.records[i];
        uint64_t ns = info.ticksToNs(r.end - r.start);
        row.deviceSelfNs += ns;
        sums.ns += ns;
        ++sums.commands;
        if (r.start > r.queued)
          sums.delayNs += info.ticksToNs(r.start - r.queued);
      }
      row.deviceNs += sums.ns;
      row.deviceCommands += sums.commands;
      row.queueDelayNs += sums.delayNs;
      if (!deviceStack.empty()) {
        deviceStack.back().ns += sums.ns;
        deviceStack.back().commands += sums.commands;
        deviceStack.back().delayNs += sums.delayNs;
      }
    }

    void close(const WalkFrame &f, ArrayRef<WalkFrame>) {
      closeDevice(f);
      ThreadSummary &t = summary.threadStats.back();
      ++t.records;
      t.unfinished += !f.finished;
      if (f.topLevel())
        t.busyNs[f.probe ? tpuprof_kind_bucket(f.probe->kind)
                         : TPUPROF_KIND_BUCKET_UNKNOWN] += f.durationNs;
      if (summary.memory.tracked) {
        Row &row = agg.result.rows[f.user];
        uint64_t end = f.finished ? f.record.end : dump.info().windowEnd;
        row.peakBytes = std::max(
            row.peakBytes, memoryTimeline.peakDuring(f.record.begin, end));
      }
      if (!f.finished)
        return;
      uint64_t ns = f.durationNs;
      Row &row = agg.result.rows[f.user];
      row.durationNs += ns;
      row.durations.add(ns);
      row.selfNs += f.selfNs();
      addCounters(row, f);
      if (!f.coveredAbove)
        summary.coveredNs += ns;
    }

    // An allocation counts for every record open around it, and as "self"
    // for the innermost; a free (its size from the allocation it matches)
    // for every record open around it.
    void memory(const MemoryEventView &m, ArrayRef<WalkFrame> open) {
      if (open.empty())
        return;
      uint64_t bytes =
          m.isAlloc() ? m.size : memoryTimeline.freedSize(m.offset);
      for (const WalkFrame &f : open) {
        Row &row = agg.result.rows[f.user];
        (m.isAlloc() ? row.allocBytes : row.freedBytes) += bytes;
      }
      if (m.isAlloc())
        agg.result.rows[open.back().user].selfAllocBytes += bytes;
    }

    // A finished record's counter words as every view shows them (scaled
    // for multiplexing, less the probes' own counts: WalkFrame::count()); a
    // top-level record's also go to the dump's totals.
    void addCounters(Row &row, const WalkFrame &f) {
      const RecordView &record = f.record;
      for (unsigned i = 0; i != record.numCounters; ++i) {
        if (int(i) == cpuWord) {
          // CPU ids (begin: low half, end: high half), not a count.
          uint64_t v = record.counter(i);
          uint32_t from = uint32_t(v), to = uint32_t(v >> 32);
          row.cpuRecorded = true;
          row.migrations +=
              from != UINT32_MAX && to != UINT32_MAX && from != to;
          continue;
        }
        CounterValue v = f.count(i);
        if (!v.counted)
          continue;
        if (v.scaled)
          row.counterFlags[eventSlot[i]] |= Row::CounterScaled;
        row.counterFlags[eventSlot[i]] |= Row::CounterRecorded;
        row.counters[eventSlot[i]] += v.value;
        if (f.topLevel())
          summary.topLevelCounters[i] += v.value;
      }
    }
  };
  MemoryTimeline memoryTimeline(dump);
  summary.memory = summarizeMemory(dump, memoryTimeline);
  DeviceJoin deviceJoin(dump.info());
  Folder folder(*this, dump, summary, eventSlot, memoryTimeline, deviceJoin);
  summary.events = dump.events().vec();
  summary.topLevelCounters.assign(summary.events.size(), 0);
  walkDump(dump, folder, /*timeline=*/false, overheadCorrection);
  addDeviceRows(dump.info(), summary.run, result.deviceRows,
                result.deviceQueues);
  book(std::move(summary));
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
    // A glob the shell left alone (quoted, or too many files for a command
    // line): its matches, sorted; one that matches nothing stays as it is
    // and fails, with its name, on open.
    if (!sys::fs::exists(path) &&
        path.find_first_of("*?[") != std::string::npos) {
      glob_t g;
      if (glob(path.c_str(), 0, nullptr, &g) == 0) {
        std::vector<std::string> matches(g.gl_pathv, g.gl_pathv + g.gl_pathc);
        globfree(&g);
        Expected<std::vector<std::string>> expanded = expandDumpPaths(matches);
        if (!expanded)
          return expanded.takeError();
        llvm::append_range(out, *expanded);
        continue;
      }
      globfree(&g);
    }
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
      return createStringError(path + ": no tpuprof_data_dev* dumps in "
                                      "directory");
    llvm::sort(found);
    llvm::append_range(out, found);
  }
  return out;
}

Expected<Profile> tpuprof::report::aggregateDumps(ArrayRef<std::string> paths,
                                                  bool overheadCorrection) {
  Expected<std::vector<std::string>> files = expandDumpPaths(paths);
  if (!files)
    return files.takeError();
  Aggregator agg(overheadCorrection);
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

namespace {
/// The ", "-separated entries of a shapes string; separators inside
/// brackets (a shape's dims) do not split.
SmallVector<StringRef, 8> shapeEntries(StringRef shapes) {
  SmallVector<StringRef, 8> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i != shapes.size(); ++i) {
    char c = shapes[i];
    if (c == '[' || c == '<' || c == '(')
      ++depth;
    else if (c == ']' || c == '>' || c == ')')
      --depth;
    else if (depth == 0 && c == ',' && shapes.substr(i, 2) == ", ") {
      out.push_back(shapes.slice(start, i));
      start = i + 2;
    }
  }
  if (!shapes.empty())
    out.push_back(shapes.substr(start));
  return out;
}
} // namespace

std::string tpuprof::report::argumentShapes(const Row &row) {
  SmallVector<StringRef, 8> entries = shapeEntries(row.shapes);
  if (!row.numOuts || row.numOuts > entries.size())
    return row.shapes;
  return join(ArrayRef<StringRef>(entries).drop_back(row.numOuts), ", ");
}

std::string tpuprof::report::outputShapes(const Row &row) {
  SmallVector<StringRef, 8> entries = shapeEntries(row.shapes);
  if (row.numOuts && row.numOuts <= entries.size())
    return join(ArrayRef<StringRef>(entries).take_back(row.numOuts), ", ");
  return row.outShapes;
}

uint64_t tpuprof::report::resolutionNs(const Profile &p) {
  uint64_t res = 1;
  for (const DumpSummary &d : p.dumps)
    res = std::max(res, resolutionNs(d.info, d.correction));
  return res;
}

uint64_t tpuprof::report::approxBelowNs(const Profile &p) {
  uint64_t below = 0;
  for (const DumpSummary &d : p.dumps)
    below = std::max(below, approxBelowNs(d.info));
  return below;
}

std::string tpuprof::report::lossSummary(const Profile &p) {
  if (p.dropped == 0)
    return "";
  DropCounts d = p.drops;
  if (d.total() < p.dropped) // Counted without a reason.
    d.unknown += p.dropped - d.total();
  return (Twine(p.dropped) +
          (p.dropped == 1 ? " record was" : " records were") + " dropped (" +
          dropReasons(d) + "); the figures leave " +
          (p.dropped == 1 ? "it" : "them") + " out")
      .str();
}
