//===- tpuprof/report/model/Aggregate.h - Per-op rows -----------*- C++ -*-===//
//
// Folds the records of one or more dumps into rows keyed by (op hash, actual
// argument shapes, device, node), the unit every report view shows: the per-op
// table, and later the summary, export and diff subcommands.
//
// Aggregation streams: it visits records in place (DumpReader) and keeps only
// the rows, one open-probe stack per thread, and the dumps' probe tables, so
// its memory grows with the number of distinct rows, not records.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_AGGREGATE_H
#define TPUPROF_REPORT_MODEL_AGGREGATE_H

#include "tpuprof/report/model/Correction.h"
#include "tpuprof/report/model/Device.h"
#include "tpuprof/report/model/Stats.h"
#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace tpuprof {
namespace report {

/// A run: one process's profiling, told apart from another by its pid and
/// the time its runtime started (the dump header's pid and calib_ns0). The
/// dumps of one run share both; two runs into one directory differ in one.
struct RunId {
  uint32_t pid = 0;
  uint64_t startNs = 0; ///< CLOCK_MONOTONIC ns when its runtime started.
  /// The process's rank in its job (its dumps' PROCESS section), or
  /// TPUPROF_RANK_UNKNOWN; it names the run, it does not tell runs apart.
  uint32_t rank = TPUPROF_RANK_UNKNOWN;
  bool operator==(const RunId &o) const {
    return pid == o.pid && startNs == o.startNs;
  }
  /// Runs are numbered in the order they started.
  bool operator<(const RunId &o) const {
    return std::tie(startNs, pid) < std::tie(o.startNs, o.pid);
  }
};

/// One line of the per-op table: every record of one op (by hash) with one
/// set of actual shapes on one device, from one node, in one run (unless
/// runs are merged).
struct Row {
  std::string name;   ///< Op name, or "<unknown probe N>".
  std::string shapes; ///< Actual shapes: the probe's '?'s replaced by dims.
  /// Trailing entries of `shapes` that are the op's outputs (destination-
  /// style inits: argumentShapes() and outputShapes() split them).
  uint8_t numOuts = 0;
  /// The op's result shapes from its probe ("" when unknown or numOuts).
  std::string outShapes;
  /// Distinct source locations of the probes folded into this row, in the
  /// order first seen. Ops with equal hashes share a row even when they sit
  /// at different places in the IR (the hash ignores locations by design).
  std::vector<std::string> locations;
  /// The node the row's probes carry (format.h TPUPROF_PROBE_NODE: the name
  /// part of their source location, e.g. an ONNX node; a kernel's source
  /// nodes joined by TPUPROF_LOCATION_SEPARATOR), "" when none. Part of the
  /// row's key: equal ops of two nodes are two rows. "*" once regrouping
  /// merged rows of different nodes.
  std::string node;
  std::string function;      ///< Enclosing function of the first probe seen.
  uint64_t hash = 0;         ///< Op hash; 0 for an unknown probe.
  bool unknownProbe = false; ///< No module declared the record's probe id.
  uint32_t probeId = 0; ///< Global probe id; meaningful for unknown probes.
  uint32_t device = 0;
  uint32_t run = 0; ///< Index into Profile::runs (0 when runs are merged).
  uint8_t kind = TPUPROF_KIND_OP;
  uint64_t flops = 0; ///< Static estimate per call, 0 when unknown.
  uint64_t bytes = 0; ///< Static estimate per call, 0 when unknown.

  uint64_t count = 0;      ///< Finished records (end != 0).
  uint64_t unfinished = 0; ///< Records whose probe never ended.
  /// Sum of end - begin over finished records, less the runtime's probe
  /// overhead where the dump is corrected (Correction.h).
  uint64_t durationNs = 0;
  /// Duration minus the durations of direct children (records nested one
  /// level deeper on the same thread), clamped at 0 per record.
  uint64_t selfNs = 0;
  /// Durations of the finished records (min/mean/percentiles/max).
  DurationSketch durations;
  /// Set by regrouping (groupRows, --by) when the rows merged into this one
  /// differ in that field; the table then shows "*".
  bool mixedHash = false, mixedShapes = false, mixedName = false;
  /// Summed counter deltas, indexed like Profile::events (0 where a dump did
  /// not record that event). PMU events are scaled for multiplexing per
  /// record (x time_enabled / time_running, format.h pseudo-events) and,
  /// where the dump's calibration has counts, less the probes' own counts
  /// (Correction.h); the pseudo-events themselves are summed raw, except
  /// tpuprof::CPU (0).
  std::vector<uint64_t> counters;
  /// Per event, CounterRecorded | CounterScaled bits: whether any record of
  /// this row carried the event, and whether one was scaled for multiplexing.
  std::vector<uint8_t> counterFlags;
  enum : uint8_t { CounterRecorded = 1, CounterScaled = 2 };
  /// Mode 2 (the tpuprof::CPU word): finished records that ended on
  /// another CPU than they began on; `cpuRecorded` says whether any record
  /// carried the word.
  uint64_t migrations = 0;
  bool cpuRecorded = false;
  /// Memory (dumps that tracked it, format.h version 5): bytes allocated
  /// while a record of this row was open, nested ops included ("Alloc"),
  /// and with it the innermost open probe ("Self Alloc"); bytes freed while
  /// one was open, nested included; the highest live bytes of the process
  /// while one ran (MemoryTimeline). `memoryRecorded`: some record of the
  /// row ran in a window that tracked memory (else the views show "-").
  bool memoryRecorded = false;
  uint64_t allocBytes = 0, selfAllocBytes = 0, freedBytes = 0, peakBytes = 0;
  /// Device time (docs/device.md): of the kernels and copies launched by
  /// this row's records or any record nested in them ("Device Total"), and
  /// by its records themselves ("Device Self"; summed over all rows, every
  /// command counts once); their number and summed queue delay (start -
  /// queued). All 0 where no device command was joined to the row.
  uint64_t deviceNs = 0, deviceSelfNs = 0, deviceCommands = 0;
  uint64_t queueDelayNs = 0;

  /// The first location, or "" when none is known.
  llvm::StringRef location() const {
    return locations.empty() ? llvm::StringRef() : locations.front();
  }
};

/// `row.shapes` without the outputs at its end: the Argument Shapes column.
std::string argumentShapes(const Row &row);
/// The row's output shapes (its trailing inits, or its probe's result
/// shapes), "" when unknown: the Output Shapes column.
std::string outputShapes(const Row &row);

/// One thread of a dump: what the summary prints per thread.
struct ThreadSummary {
  uint64_t tid = 0;
  uint64_t records = 0;
  uint64_t unfinished = 0;
  uint64_t dropped = 0;
  /// Corrected time of top-level records (WalkFrame::topLevel()) by probe
  /// kind, indexed by tpuprof_kind_bucket(): op, launch, user, comm, then
  /// records of an unknown probe (TPUPROF_KIND_COUNT).
  uint64_t busyNs[TPUPROF_KIND_BUCKETS] = {};
  /// The sum of busyNs.
  uint64_t totalBusyNs() const {
    uint64_t sum = 0;
    for (uint64_t ns : busyNs)
      sum += ns;
    return sum;
  }
};

/// The summary's share of the window per probe kind, one column per slot of
/// ThreadSummary::busyNs: its title in the text summary and its name in the
/// exports (the workbook's threads sheet).
struct KindColumn {
  const char *title;
  const char *exportName;
};
inline constexpr KindColumn kKindColumns[] = {
    {"Ops %", "ops_percent"},         {"Launches %", "launches_percent"},
    {"User %", "user_percent"},       {"Comm %", "comm_percent"},
    {"Unknown %", "unknown_percent"},
};
static_assert(std::size(kKindColumns) == TPUPROF_KIND_BUCKETS,
              "a summary column for every kind and the unknown slot");

/// A dump's memory records (MemoryTimeline), for the summary.
struct MemorySummary {
  bool tracked = false; ///< The window tracked memory (or has records of it).
  uint64_t allocs = 0, allocBytes = 0;
  uint64_t frees = 0, freedBytes = 0, untrackedFrees = 0;
  uint64_t peakBytes = 0;
  uint64_t peakNs = 0; ///< When the peak was reached, from the window's begin.
  /// The op innermost at the peak: "name [shapes] at location", "" when it
  /// was reached outside every probe.
  std::string peakOp;
  uint64_t liveAtEnd = 0; ///< Allocated in the window and never freed.
};

/// What the table's configuration block and the summary say about one dump.
struct DumpSummary {
  std::string path;
  DumpInfo info;
  uint32_t run = 0; ///< Index into Profile::runs (0 when runs are merged).
  /// Read from a dump file (views can walk its records), not from a JSON
  /// export.
  bool hasRecords = false;
  uint64_t threads = 0; ///< THREAD sections.
  uint64_t probes = 0;  ///< Probes its modules declare (dump files only).
  uint64_t records = 0;
  uint64_t unfinished = 0;
  uint64_t coveredNs = 0; ///< Sum of top-level finished durations.
  uint64_t windowNs = 0;
  /// Whether this dump's durations had the probe overhead subtracted
  /// (Correction.h); the calibration values are in `info`.
  OverheadCorrection::State correction =
      OverheadCorrection::State::NoCalibration;
  /// Per THREAD section, in dump order; empty when only the summary was
  /// added (Aggregator::addSummary) or read back from a JSON export.
  std::vector<ThreadSummary> threadStats;
  /// The dump's counter words summed over its top-level records as the
  /// rows count them (scaled, corrected; the CPU word not), in its EVENTS
  /// order (`events`).
  std::vector<std::string> events;
  std::vector<uint64_t> topLevelCounters;
  MemorySummary memory;
};

/// Rows and totals over all dumps added.
struct Profile {
  std::vector<Row> rows; ///< In the order first seen.
  std::vector<DumpSummary> dumps;
  /// The runs the dumps came from, in the order they started.
  std::vector<RunId> runs;
  /// Rows of different runs were added up (mergeRuns()): every row's and
  /// dump's run is 0, and `runs` still lists them all.
  bool runsMerged = false;
  std::vector<std::string> events; ///< Union of event names, first seen.
  /// Time covered by probes, nested time counted once: the sum of durations
  /// of finished records with no finished enclosing record (for well-formed
  /// streams, the depth-0 records). The table's "Sum".
  uint64_t coveredNs = 0;
  uint64_t totalNs = 0;    ///< Sum of the dumps' window lengths ("Total").
  uint64_t unfinished = 0; ///< Records whose probe never ended.
  uint64_t dropped = 0;    ///< Records dropped, per the dump headers.
  DropCounts drops;        ///< `dropped` by reason.
  uint64_t unwound = 0;    ///< Unfinished: closed by a non-local exit.
  uint64_t threads = 0;    ///< THREAD sections over all dumps.
  uint64_t records = 0;    ///< Records over all dumps.

  /// Device commands per kernel name and queue, and each queue's busy time
  /// (docs/device.md); empty without device records.
  std::vector<DeviceRow> deviceRows;
  std::vector<DeviceQueueStat> deviceQueues;
  /// More than one run, each with rows of its own.
  bool runsApart() const { return runs.size() > 1 && !runsMerged; }
};

/// The shortest per-record duration the dumps of `p` resolve, in ns: the
/// largest resolutionNs() over them (Correction.h). Views show a row's time
/// below its count times this as "< N ns" rather than a number that only
/// rounding produced.
uint64_t resolutionNs(const Profile &p);

/// The mean per-record duration below which the dumps of `p` do not measure
/// an op to 5 %: the largest approxBelowNs() over them (Correction.h), 0
/// when none has a calibration. Views mark such rows (the Approx column).
uint64_t approxBelowNs(const Profile &p);

/// Whether `row`'s times are marked as approximate under `approxBelowNs`.
inline bool isApprox(const Row &row, uint64_t approxBelowNs) {
  return row.count && row.durations.mean() < double(approxBelowNs);
}

/// What tells rows apart: (known probe?, hash or unknown probe id, actual
/// shapes, device, run, node).
using RowKey =
    std::tuple<bool, uint64_t, std::string, uint32_t, uint32_t, std::string>;
RowKey rowKey(const Row &row);

/// Accumulates dumps into a Profile.
class Aggregator {
public:
  /// `overheadCorrection`: subtract the probes' own cost where a dump has a
  /// calibration (Correction.h).
  explicit Aggregator(bool overheadCorrection = true)
      : overheadCorrection(overheadCorrection) {}
  /// Folds in one validated dump.
  void add(const DumpReader &dump);

  /// Adds only `dump`'s DumpSummary and the Profile totals its header and
  /// thread sections give (no rows, covered time or unfinished count):
  /// what views that only walk records need to know of each dump.
  void addSummary(const DumpReader &dump);

  /// Opens, validates and folds in the dump at `path`.
  llvm::Error addFile(llvm::StringRef path);

  /// The rows and dumps so far; runs are numbered in the order they were
  /// first seen until take() numbers them in the order they started.
  const Profile &profile() const { return result; }
  Profile take();

private:
  size_t rowFor(const DumpReader &dump, uint32_t run, const RecordView &record,
                const Probe *probe);
  uint32_t runOf(const DumpInfo &info);
  DumpSummary summarize(const DumpReader &dump);
  void book(DumpSummary summary);

  bool overheadCorrection;
  Profile result;
  std::map<RowKey, size_t> rowIndex;
  llvm::StringMap<unsigned> eventIndex;
};

/// Replaces each '?' of `shapes`, in order, by the next of `dims`. Extra
/// '?'s stay '?' and extra dims are ignored: a record whose dim count does
/// not match its probe still gets a row, and the mismatch stays visible.
std::string substituteShapes(llvm::StringRef shapes,
                             llvm::ArrayRef<int64_t> dims);

/// Expands the command line's dump arguments: a file stays as it is; a
/// directory becomes its files named tpuprof_data_dev*, sorted by name; a
/// glob that names no file (quoted: the shell left it) becomes what it
/// matches, sorted, each expanded again.
/// A directory without such files is an error.
llvm::Expected<std::vector<std::string>>
expandDumpPaths(llvm::ArrayRef<std::string> paths);

/// Expands `paths` and aggregates every dump they name (Aggregator).
llvm::Expected<Profile> aggregateDumps(llvm::ArrayRef<std::string> paths,
                                       bool overheadCorrection = true);

/// Sets the sums of Profile (covered, total, unfinished, dropped and why,
/// unwound, threads, records) to those over `p.dumps`.
void sumDumps(Profile &p);

/// Why records were dropped, reason by reason: "20 at the thread's record
/// limit (TPUPROF_RECORD_SIZE), 5 with more than 256 probes open". Empty
/// when none were.
std::string dropReasons(const DropCounts &d);

/// Numbers `p`'s runs in the order they started (RunId::operator<),
/// renumbering rows and dumps.
void sortRuns(Profile &p);

/// What `p`'s figures leave out, in one line, for outputs that have no
/// place to say it (CSV, annotated IR): "25 records were dropped (<the
/// reasons>); the figures leave them out". Empty when no record was
/// dropped. (Unfinished probes have their own column in every view.)
std::string lossSummary(const Profile &p);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_AGGREGATE_H
