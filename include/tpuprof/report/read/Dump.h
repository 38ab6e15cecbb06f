//===- tpuprof/report/read/Dump.h - Read dump files -------------*- C++ -*-===//
//
// The report library's view of a dump (include/tpuprof/format.h,
// docs/formats.md). Two ways in:
//
//   - DumpReader validates a whole dump when it is opened and then lets the
//     caller visit the records of each thread in place, without copying them.
//     Aggregation uses it, so its memory grows with distinct rows, not records.
//   - readDump() decodes everything into an owning Dump value, for tests and
//     for tools that want all records at hand.
//
// Every error is one line, "<file>: <what is wrong> at offset <N>", and no
// input, however corrupt, makes the reader crash, hang or allocate more than
// the input's size justifies.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_READ_DUMP_H
#define TPUPROF_REPORT_READ_DUMP_H

#include "tpuprof/format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tpuprof {
namespace report {

/// Records not kept, by reason (version 4 dumps count each reason; older
/// ones only a total, in `unknown`).
struct DropCounts {
  uint64_t full = 0;        ///< The thread's record limit was reached.
  uint64_t overwritten = 0; ///< A ring buffer reused their space.
  uint64_t depth = 0;       ///< More than 256 probes were open.
  uint64_t noSpace = 0;     ///< No room: the file system was full (or a
                            ///< file size limit or quota), no memory.
  uint64_t unknown = 0;     ///< Versions 1-3: a full buffer or too many
                            ///< open probes, not told apart.

  uint64_t total() const {
    return full + overwritten + depth + noSpace + unknown;
  }
  DropCounts &operator+=(const DropCounts &o) {
    full += o.full;
    overwritten += o.overwritten;
    depth += o.depth;
    noSpace += o.noSpace;
    unknown += o.unknown;
    return *this;
  }
};

/// A device clock's conversion to ticks (format.h, tpuprof_device_clock).
struct DeviceClock {
  uint32_t domain = 0; ///< tpuprof_device_clock_domain
  uint64_t device0 = 0, ticks0 = 0, device1 = 0, ticks1 = 0;
  uint64_t errorNs = 0; ///< Conversion error bound.
};

/// A device queue (format.h, tpuprof_device_queue).
struct DeviceQueue {
  uint32_t api = 0;   ///< tpuprof_device_api
  uint32_t clock = 0; ///< Index into DeviceData::clocks.
  uint32_t number = 0;
  std::string deviceName;
};

/// One device interval (format.h, tpuprof_device_record); times in ticks.
struct DeviceRecord {
  uint16_t op = 0; ///< tpuprof_device_op
  uint64_t start = 0, end = 0, queued = 0, submitted = 0;
  uint32_t queue = 0; ///< Index into DeviceData::queues.
  std::string name;
  uint32_t launchThread = UINT32_MAX; ///< Dump thread number, or none.
  uint32_t launchProbe = UINT32_MAX;
  uint64_t launchBegin = 0;
  uint64_t bytes = 0;
  bool hasLaunch() const { return launchThread != UINT32_MAX; }
};

/// The DEVICE section (version 6): what ran on devices in the window.
struct DeviceData {
  bool present = false;
  std::vector<DeviceClock> clocks;
  std::vector<DeviceQueue> queues;
  std::vector<DeviceRecord> records; ///< In start order.
  uint64_t dropped = 0;              ///< Commands that got no interval.
  /// The largest conversion error bound of the clocks the queues use.
  uint64_t errorNs() const {
    uint64_t e = 0;
    for (const DeviceQueue &q : queues)
      if (q.clock < clocks.size())
        e = std::max(e, clocks[q.clock].errorNs);
    return e;
  }
};

/// The dump header's fields, host-endian.
struct DumpInfo {
  uint32_t version = 0;
  uint32_t headerSize = 0;
  uint32_t mode = 0;
  uint32_t device = 0;
  uint32_t pid = 0;
  uint32_t callNum = 0;
  uint32_t clockSource = 0; ///< tpuprof_clock_source
  uint32_t flags = 0;       ///< tpuprof_dump_flags
  uint64_t calibTicks0 = 0;
  uint64_t calibNs0 = 0;
  uint64_t calibTicks1 = 0;
  uint64_t calibNs1 = 0;
  uint64_t windowBegin = 0; ///< Ticks.
  uint64_t windowEnd = 0;   ///< Ticks.
  uint64_t dropped = 0;
  uint32_t numSections = 0;
  /// `dropped` by reason: the threads' counts, and what the header counts
  /// beyond them (threads that got no buffer at all: noSpace).
  DropCounts drops;
  /// Probes closed by a non-local exit (longjmp, exception, thread exit):
  /// their records are unfinished. Version 4 dumps only.
  uint64_t unwound = 0;
  /// The CALIBRATION section (format.h), version 2 dumps only: the
  /// runtime's own cost per probe pair, in ticks.
  bool hasCalibration = false;
  uint64_t calibSelfTicks = 0;   ///< Inside an empty record's interval.
  uint64_t calibNestedTicks = 0; ///< Added to the enclosing record's.
  uint32_t calibPairs = 0;       ///< Empty pairs the runtime measured.
  /// Mean READ_TICKS of those pairs (part of calibNestedTicks, never more);
  /// 0 when records carry no read cost of their own.
  uint64_t calibReadTicks = 0;
  /// Version 3: what the probes add to each counter word (EVENTS order,
  /// format.h tpuprof_calibration_counts); empty when the dump has none.
  struct CounterCalibration {
    uint64_t self = 0;   ///< In every record's own delta.
    uint64_t nested = 0; ///< Per record nested inside.
  };
  std::vector<CounterCalibration> calibCounts;
  /// Version 6: the DEVICE section, when the dump has one.
  DeviceData deviceData;

  /// Records whose end tick is before their begin: a clock that stepped
  /// back between the two reads. Kept, and read as 0 ticks long.
  uint64_t backwards = 0;
  /// The PROCESS section (format.h tpuprof_process_section): who wrote the
  /// dump and its clock pairs; hasProcess is false in dumps without one.
  struct ProcessInfo {
    uint32_t rank = TPUPROF_RANK_UNKNOWN;
    uint32_t worldSize = 0;
    uint32_t localRank = TPUPROF_RANK_UNKNOWN;
    uint32_t rankSource = TPUPROF_RANK_NONE; ///< tpuprof_rank_source
    std::string host;
    std::string jobId;
    uint64_t realtimeNs0 = 0, monotonicNs0 = 0; ///< At the window's begin.
    uint64_t realtimeNs1 = 0, monotonicNs1 = 0; ///< At its end (0: none).
    struct Offset {
      int64_t offsetNs = 0; ///< Reference minus this process's monotonic.
      uint64_t atNs = 0;    ///< When measured; 0: not measured.
      uint64_t errorNs = 0;
      bool measured() const { return atNs != 0; }
    };
    Offset offsets[TPUPROF_OFFSET_SLOT_COUNT];
    /// Whether the process had a rank (a launcher or TPUPROF_RANK).
    bool ranked() const { return rank != TPUPROF_RANK_UNKNOWN; }
  };
  bool hasProcess = false;
  ProcessInfo process;

  /// True when the writer finished the dump (TPUPROF_DUMP_COMPLETE).
  bool isComplete() const { return flags & TPUPROF_DUMP_COMPLETE; }

  /// Converts a tick *interval* to nanoseconds with the calibration pair,
  /// rounded to nearest. The reader guarantees a positive tick delta.
  uint64_t ticksToNs(uint64_t ticks) const;

  /// Window length in nanoseconds.
  uint64_t windowNs() const { return ticksToNs(windowEnd - windowBegin); }

  /// Clock frequency in ticks per nanosecond (GHz).
  double ticksPerNs() const;
};

/// One probe descriptor. Its strings point into the string table of the
/// ProbeTable it came from and stay valid while any copy of that table lives.
struct Probe {
  uint64_t hash = 0;
  uint64_t flops = 0;
  uint64_t bytes = 0;
  llvm::StringRef name;
  llvm::StringRef shapes; ///< '?' for each dynamic dimension.
  llvm::StringRef location;
  /// The name part of the op's location (TPUPROF_PROBE_NODE), "" when none.
  llvm::StringRef node;
  llvm::StringRef function;
  /// The op's result shapes (TPUPROF_PROBE_OUT_SHAPES), "" when unknown.
  llvm::StringRef outShapes;
  uint8_t kind = TPUPROF_KIND_OP;
  uint8_t numDynDims = 0;
  uint8_t numOuts = 0; ///< Trailing `shapes` entries that are outputs.
  /// A communication probe every rank of its communicator calls together
  /// (TPUPROF_PROBE_COLLECTIVE).
  bool collective = false;
  /// A nonblocking communication call (TPUPROF_PROBE_STARTS_REQUEST).
  bool startsRequest = false;
  /// Completes requests, its first dim how many
  /// (TPUPROF_PROBE_COMPLETES_REQUESTS).
  bool completesRequests = false;
};

/// A parsed probe table (the payload of a MODULE section after its header).
///
/// Probes refer to one shared copy of the string table rather than owning
/// their strings: tables intern strings, and copying them per probe would let
/// a small corrupt table (many probes naming one huge string) blow up memory.
struct ProbeTable {
  std::shared_ptr<const std::string> strings; ///< Keeps the StringRefs alive.
  llvm::StringRef moduleName;
  std::vector<Probe> probes;
};

/// One registered module: global probe ids [firstProbe, firstProbe + size).
struct Module {
  uint32_t moduleId = 0;
  uint32_t firstProbe = 0;
  ProbeTable table;
};

/// A THREAD section's header and where its record stream lies in the dump.
struct ThreadInfo {
  uint64_t tid = 0;
  /// The thread's number in the dump (SEGMENT `thread`; for versions 1-3
  /// its THREAD section's position): what device records name.
  uint32_t number = 0;
  uint64_t dropped = 0;
  uint64_t numRecords = 0;
  uint64_t streamSize = 0;
  uint64_t streamOffset = 0; ///< File offset of the first record.
  /// An incomplete dump's wrapped ring buffer: its previous lap's
  /// `lapRecords` records at `lapOffset` come first (they are older), then
  /// numRecords - lapRecords at streamOffset. 0 otherwise.
  uint64_t lapOffset = 0;
  uint64_t lapRecords = 0;
  /// Version 4: where the thread's records lie, in stream order: one part
  /// per SEGMENT section (the fields above then sum them). Empty for a
  /// THREAD section.
  struct Part {
    uint64_t offset = 0;  ///< File offset of the first record.
    uint64_t records = 0; ///< Records there, memory records included.
  };
  std::vector<Part> parts;
  DropCounts drops;     ///< `dropped` by reason.
  uint64_t unwound = 0; ///< As DumpInfo::unwound, for this thread.
  /// Version 5: memory records in the stream (not in numRecords, which
  /// counts probe pairs).
  uint64_t numMemoryEvents = 0;
};

/// One record, viewed in place in the dump's bytes (which need not be
/// aligned, hence accessors rather than arrays).
struct RecordView {
  uint32_t probe = 0;
  uint16_t depth = 0;
  uint8_t numDims = 0;
  uint8_t numCounters = 0;
  uint64_t begin = 0;             ///< Ticks.
  uint64_t end = 0;               ///< Ticks; 0 if the probe never ended.
  uint64_t offset = 0;            ///< File offset of the record.
  const char *trailing = nullptr; ///< numDims dims, then numCounters counters.

  bool isFinished() const { return end != 0; }
  int64_t dim(unsigned i) const;
  /// Counter word `i`; 0 for an unfinished record (its words are begin
  /// readings, not deltas).
  uint64_t counter(unsigned i) const;
};

/// One memory record (format.h tpuprof_memory_record), viewed in place.
struct MemoryEventView {
  uint64_t time = 0;  ///< Ticks.
  uint32_t probe = 0; ///< Innermost open probe, UINT32_MAX for none.
  uint16_t depth = 0; ///< Open probes on its thread.
  uint8_t event = 0;  ///< tpuprof_memory_event
  uint8_t source = 0; ///< tpuprof_memory_source
  uint64_t address = 0;
  uint64_t size = 0;   ///< 0 for a free.
  uint64_t offset = 0; ///< File offset of the record.
  bool isAlloc() const { return event == TPUPROF_MEMORY_ALLOC; }
};

/// "heap", "memref", "stack" or "device" for a tpuprof_memory_source.
llvm::StringRef memorySourceName(uint8_t source);

/// Parses and validates a probe table blob. `fileName` and `baseOffset`
/// (the blob's offset in its file) only shape error messages.
llvm::Expected<ProbeTable> parseProbeTable(llvm::StringRef bytes,
                                           llvm::StringRef fileName,
                                           uint64_t baseOffset = 0);

class InputFile;

/// A validated dump whose records are read in place.
class DumpReader {
public:
  /// Opens and validates the dump at `path`.
  static llvm::Expected<DumpReader> open(llvm::StringRef path);

  /// Same, streaming: the file stays open and its record streams are read
  /// from it a chunk at a time (kStreamChunk bytes per visit), both to
  /// validate them and to visit them, so memory does not grow with the
  /// dump's records. Everything else (header, probe tables, PROCESS, DEVICE)
  /// is read as open() reads it; the same checks give the same errors. A
  /// file changed between validation and a visit ends that visit early at
  /// the first record it no longer frames; it never reads out of bounds.
  static llvm::Expected<DumpReader> openStreaming(llvm::StringRef path);
  static constexpr uint64_t kStreamChunk = 1 << 20;
  /// Whether records are read from the file (openStreaming).
  bool isStreaming() const { return streamed != nullptr; }

  /// Validates the dump in `buffer`; its identifier names it in errors.
  static llvm::Expected<DumpReader>
  fromBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer);

  /// Convenience for tests and fuzzers: validates a copy of `bytes`.
  static llvm::Expected<DumpReader>
  fromBytes(llvm::StringRef bytes, llvm::StringRef name = "<buffer>");

  llvm::StringRef path() const { return buffer->getBufferIdentifier(); }
  const DumpInfo &info() const { return header; }
  llvm::ArrayRef<Module> modules() const { return moduleList; }
  llvm::ArrayRef<std::string> events() const { return eventNames; }
  llvm::ArrayRef<ThreadInfo> threads() const { return threadList; }

  /// The probe with global id `id`, or null when no module declares it.
  const Probe *findProbe(uint32_t id) const;

  /// Calls `fn` for each record of `thread` in stream (begin) order. The
  /// stream was validated by open(), so this cannot fail.
  void forEachRecord(const ThreadInfo &thread,
                     llvm::function_ref<void(const RecordView &)> fn) const;
  /// Same, with the thread's memory records (version 5) in their places
  /// among the pairs; `onMemory` may be null.
  void forEachEvent(
      const ThreadInfo &thread, llvm::function_ref<void(const RecordView &)> fn,
      llvm::function_ref<void(const MemoryEventView &)> onMemory) const;
  /// Whether any thread has memory records.
  bool hasMemoryEvents() const;

private:
  explicit DumpReader(std::unique_ptr<llvm::MemoryBuffer> buffer)
      : buffer(std::move(buffer)) {}
  llvm::Error parse();

  /// Holds the whole dump, or (streaming) nothing but its name.
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  /// Streaming: the open file and the sections' bytes read from it.
  struct Streamed;
  std::shared_ptr<const Streamed> streamed;
  DumpInfo header;
  std::vector<Module> moduleList; ///< Sorted by firstProbe.
  std::vector<std::string> eventNames;
  std::vector<ThreadInfo> threadList;
};

/// A record decoded into owned storage.
struct Record {
  uint32_t probe = 0;
  uint16_t depth = 0;
  uint64_t begin = 0;
  uint64_t end = 0;
  llvm::SmallVector<int64_t, 4> dims;
  llvm::SmallVector<uint64_t, 4> counters;
};

/// A thread with all of its records.
struct Thread {
  uint64_t tid = 0;
  uint64_t dropped = 0;
  std::vector<Record> records;
};

/// A whole dump decoded into memory.
struct Dump {
  std::string path;
  DumpInfo info;
  std::vector<Module> modules;
  std::vector<std::string> events;
  std::vector<Thread> threads;
};

/// Reads, validates and decodes the dump at `path`.
llvm::Expected<Dump> readDump(llvm::StringRef path);

/// Same for an in-memory image; `name` stands for the file in errors.
llvm::Expected<Dump> readDumpBuffer(llvm::StringRef bytes,
                                    llvm::StringRef name = "<buffer>");

/// "op", "launch" or "user" for a tpuprof_probe_kind ("unknown" otherwise),
/// as the exports and the trace spell it (tpuprof_probe_kind_name()).
llvm::StringRef kindName(uint8_t kind);

/// The tpuprof_probe_kind that kindName() spells `name`, or std::nullopt.
std::optional<uint8_t> parseKindName(llvm::StringRef name);

/// Every kind's name in kind order, ", "-separated: "op, launch, user".
std::string kindNames();

/// An op hash as every view writes it: 16 lowercase hex digits
/// (docs/hash.md).
std::string hashName(uint64_t hash);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_READ_DUMP_H
