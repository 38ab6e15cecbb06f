//===- report/read/DumpReader.cpp - Read and validate dump files ----------===//
//
// Validation happens once, when a dump is opened: the header, the framing of
// every section, each probe table and each record stream. Afterwards records
// are visited in place, so aggregating a dump costs memory for its rows and
// probe tables, and for the one dump being read (read into memory whole,
// not mapped: another process that shrinks the file cannot make the reader
// fault, InputFile.h). A streaming reader (openStreaming) holds everything
// but the record streams, and reads those a chunk at a time (StreamBytes)
// with the same parser: one reader of the format, two ways to get bytes.
//
// Every size in the file is checked against the bytes actually present
// before anything is allocated or read from it, and every loop advances by a
// fixed minimum per step, so corrupt input cannot make the reader crash,
// hang or over-allocate.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "tpuprof/report/read/Dump.h"
#include "tpuprof/report/read/InputFile.h"
#include "tpuprof/report/read/WideMath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <deque>
#include <optional>
#include <tuple>
#include <utility>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using tpuprof::report::detail::formatError;
using tpuprof::report::detail::readLE;

namespace {
constexpr uint64_t kHeaderSize = sizeof(tpuprof_dump_header);
constexpr uint64_t kSectionHeaderSize = sizeof(tpuprof_section_header);
constexpr uint64_t kRecordSize = sizeof(tpuprof_record);
/// The largest record: 255 dims and 255 counter words.
constexpr uint64_t kMaxRecordBytes = TPUPROF_RECORD_BYTES(255, 255);
static_assert(DumpReader::kStreamChunk >= kMaxRecordBytes,
              "a chunk holds any record");
} // namespace

/// A streaming reader's file, and the bytes of its sections other than
/// record streams (small: probe tables, names, section headers).
struct DumpReader::Streamed {
  explicit Streamed(InputFile file) : file(std::move(file)) {}
  InputFile file;
  /// Filled while the dump is parsed, before the reader is shared.
  mutable std::deque<std::string> pieces;
};

namespace {

/// The bytes of record streams, at file offsets: in the reader's buffer, or
/// read from the file one chunk at a time. `at(off, n)` gives n bytes (at
/// most kMaxRecordBytes) at `off`, or null (streaming) when they cannot be
/// read: a read error, or a file that shrank since it was opened (`failed`
/// says which). Callers ask only for bytes inside the file's size.
class StreamBytes {
public:
  explicit StreamBytes(const char *base) : base(base) {}
  explicit StreamBytes(const InputFile &file) : file(&file) {}

  const char *at(uint64_t off, uint64_t n) {
    if (base)
      return base + off;
    if (off < windowOff || off - windowOff > valid ||
        n > valid - (off - windowOff))
      refill(off);
    if (off - windowOff > valid || n > valid - (off - windowOff)) {
      if (!failed)
        failed = file->path().str() +
                 ": cannot read: the file shrank while it was read";
      return nullptr;
    }
    return window.data() + (off - windowOff);
  }
  /// Why bytes could not be read, if so (streaming).
  std::optional<std::string> failed;

private:
  void refill(uint64_t off) {
    window.resize(DumpReader::kStreamChunk);
    windowOff = off;
    valid = 0;
    if (failed)
      return;
    Expected<uint64_t> n = file->readAt(off, window.data(), window.size());
    if (n)
      valid = *n;
    else
      failed = toString(n.takeError());
  }

  const char *base = nullptr;
  const InputFile *file = nullptr;
  std::vector<char> window;
  uint64_t windowOff = 0;
  uint64_t valid = 0; ///< Bytes of `window` read from the file.
};

} // namespace

//===----------------------------------------------------------------------===//
// DumpInfo, RecordView
//===----------------------------------------------------------------------===//

uint64_t DumpInfo::ticksToNs(uint64_t ticks) const {
  // CLOCK_MONOTONIC ticks are nanoseconds (docs/formats.md): the calibration
  // formula is the identity, whatever the pairs say.
  if (clockSource == TPUPROF_CLOCK_MONOTONIC)
    return ticks;
  // 128-bit intermediate: ticks * ns-delta overflows 64 bits after a few
  // seconds of a GHz clock. The reader guarantees both deltas are positive.
  uint64_t dTicks = calibTicks1 - calibTicks0;
  if (dTicks == 0)
    return 0;
  return mulDivRound(ticks, calibNs1 - calibNs0, dTicks);
}

double DumpInfo::ticksPerNs() const {
  if (clockSource == TPUPROF_CLOCK_MONOTONIC)
    return 1.0;
  if (calibNs1 <= calibNs0)
    return 0;
  return double(calibTicks1 - calibTicks0) / double(calibNs1 - calibNs0);
}

int64_t RecordView::dim(unsigned i) const {
  assert(i < numDims && "dimension index out of range");
  return readLE<int64_t>(trailing + 8 * i);
}

uint64_t RecordView::counter(unsigned i) const {
  assert(i < numCounters && "counter index out of range");
  return end ? readLE<uint64_t>(trailing + 8 * (numDims + i)) : 0;
}

//===----------------------------------------------------------------------===//
// DumpReader
//===----------------------------------------------------------------------===//

Expected<DumpReader> DumpReader::open(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> buf = readInputFile(path);
  if (!buf)
    return buf.takeError();
  return fromBuffer(std::move(*buf));
}

Expected<DumpReader>
DumpReader::fromBuffer(std::unique_ptr<MemoryBuffer> buffer) {
  DumpReader reader(std::move(buffer));
  if (Error err = reader.parse())
    return std::move(err);
  return std::move(reader);
}

Expected<DumpReader> DumpReader::openStreaming(StringRef path) {
  Expected<InputFile> file = InputFile::open(path);
  if (!file)
    return file.takeError();
  DumpReader reader(MemoryBuffer::getMemBuffer("", path));
  reader.streamed = std::make_shared<Streamed>(std::move(*file));
  if (Error err = reader.parse())
    return std::move(err);
  return std::move(reader);
}

Expected<DumpReader> DumpReader::fromBytes(StringRef bytes, StringRef name) {
  return fromBuffer(MemoryBuffer::getMemBufferCopy(bytes, name));
}

const Probe *DumpReader::findProbe(uint32_t id) const {
  // Modules are sorted by first probe and do not overlap (parse() checks).
  auto it = llvm::upper_bound(moduleList, id, [](uint32_t v, const Module &m) {
    return v < m.firstProbe;
  });
  if (it == moduleList.begin())
    return nullptr;
  const Module &m = *std::prev(it);
  uint64_t local = uint64_t(id) - m.firstProbe;
  if (local >= m.table.probes.size())
    return nullptr;
  return &m.table.probes[local];
}

/// The record at `r` (file offset `off`).
static RecordView viewAt(const char *r, uint64_t off) {
  RecordView view;
  view.probe = TPUPROF_READ_FIELD(r, tpuprof_record, probe);
  view.numDims = TPUPROF_READ_FIELD(r, tpuprof_record, num_dims);
  view.numCounters = TPUPROF_READ_FIELD(r, tpuprof_record, num_counters);
  view.depth = TPUPROF_READ_FIELD(r, tpuprof_record, depth);
  view.begin = TPUPROF_READ_FIELD(r, tpuprof_record, begin);
  view.end = TPUPROF_READ_FIELD(r, tpuprof_record, end);
  // DumpInfo::backwards counts these; one bad clock read costs no dump.
  if (view.end != 0 && view.end < view.begin)
    view.end = view.begin;
  view.offset = off;
  view.trailing = r + kRecordSize;
  return view;
}

static MemoryEventView memoryViewAt(const char *r, uint64_t off) {
  using M = tpuprof_memory_record;
  MemoryEventView view;
  view.time = TPUPROF_READ_FIELD(r, M, time);
  view.probe = TPUPROF_READ_FIELD(r, M, probe);
  view.depth = TPUPROF_READ_FIELD(r, M, depth);
  view.event = TPUPROF_READ_FIELD(r, M, event);
  view.source = TPUPROF_READ_FIELD(r, M, source);
  view.address = TPUPROF_READ_FIELD(r, M, address);
  view.size = TPUPROF_READ_FIELD(r, M, size);
  view.offset = off;
  return view;
}

StringRef tpuprof::report::memorySourceName(uint8_t source) {
  return tpuprof_memory_source_name(source);
}

bool DumpReader::hasMemoryEvents() const {
  for (const ThreadInfo &t : threadList)
    if (t.numMemoryEvents)
      return true;
  return false;
}

void DumpReader::forEachRecord(
    const ThreadInfo &thread, function_ref<void(const RecordView &)> fn) const {
  forEachEvent(thread, fn, nullptr);
}

void DumpReader::forEachEvent(
    const ThreadInfo &thread, function_ref<void(const RecordView &)> fn,
    function_ref<void(const MemoryEventView &)> onMemory) const {
  StreamBytes bytes = streamed ? StreamBytes(streamed->file)
                               : StreamBytes(buffer->getBufferStart());
  const bool stream = streamed != nullptr;
  const size_t numEvents = eventNames.size();
  // The whole record at `off`. Streaming, the file may have changed since
  // it was validated: a record that no longer has the validated shape ends
  // the visit (null) rather than being misread.
  auto recordAt = [&](uint64_t off, bool segment,
                      bool &memory) -> const char * {
    const char *r = bytes.at(off, kRecordSize);
    if (!r)
      return nullptr;
    uint8_t numDims = TPUPROF_READ_FIELD(r, tpuprof_record, num_dims);
    uint8_t numCounters = TPUPROF_READ_FIELD(r, tpuprof_record, num_counters);
    memory =
        segment &&
        TPUPROF_READ_FIELD(r, tpuprof_record, probe) == TPUPROF_RECORD_MEMORY &&
        header.version >= 5;
    if (!stream)
      return r;
    if (memory ? numDims != 2 || numCounters != 0 : numCounters != numEvents)
      return nullptr;
    return bytes.at(off, TPUPROF_RECORD_BYTES(numDims, numCounters));
  };
  for (const ThreadInfo::Part &part : thread.parts) {
    uint64_t off = part.offset;
    for (uint64_t i = 0; i != part.records; ++i) {
      bool memory = false;
      const char *r = recordAt(off, true, memory);
      if (!r)
        return;
      RecordView view = viewAt(r, off);
      if (memory) {
        if (onMemory)
          onMemory(memoryViewAt(r, off));
      } else {
        fn(view);
      }
      off += TPUPROF_RECORD_BYTES(view.numDims, view.numCounters);
    }
  }
  if (!thread.parts.empty())
    return;
  uint64_t off = thread.lapRecords ? thread.lapOffset : thread.streamOffset;
  for (uint64_t i = 0; i != thread.numRecords; ++i) {
    if (thread.lapRecords && i == thread.lapRecords)
      off = thread.streamOffset; // From the older lap to the newer one.
    bool memory = false;
    const char *r = recordAt(off, false, memory);
    if (!r)
      return;
    RecordView view = viewAt(r, off);
    fn(view);
    off += TPUPROF_RECORD_BYTES(view.numDims, view.numCounters);
  }
}

//===----------------------------------------------------------------------===//
// DumpReader::parse, in stages
//===----------------------------------------------------------------------===//
//
//   readHeader     the fixed header: magic, version, sizes, clock
//   readSections   the framing of every section, and each section's payload
//                  (MODULE, EVENTS, THREAD, SEGMENT, CALIBRATION)
//   checkSections  what sections must agree on across each other
//   readStreams    each THREAD section's record stream: checked when the
//                  dump was finished, scanned when it was not
//   readSegments   version 4: the SEGMENT sections gathered into threads,
//                  their records checked (or scanned), drops by reason
//
// Only readHeader knows how versions differ in layout; a new dump version
// changes it (and the section readers of what it adds), not the others.

namespace {

/// A MODULE section waiting for the probe-id overlap check.
struct PendingModule {
  size_t index;        ///< Into the module list.
  uint64_t fileOffset; ///< Of the module section's payload (for errors).
};

/// An incomplete dump's wrapped ring buffer (formats.md, "Incomplete
/// dumps"): the previous lap's records lie at [tail, end) of the stream.
struct RingLap {
  size_t thread; ///< Index into the thread list.
  uint64_t tail; ///< Stream offset of the previous lap's oldest record.
  uint64_t end;  ///< Stream offset where that lap ends.
};

/// A SEGMENT section (version 4) waiting to be gathered into its thread.
struct Segment {
  uint64_t sectionOffset = 0; ///< Of its section header (for errors).
  uint64_t tid = 0;
  uint32_t thread = 0;
  uint32_t seq = 0;
  uint64_t offset = 0; ///< File offset of its first record.
  uint64_t size = 0;   ///< Its stream's bytes, or all its room when scanned.
  bool scan = false;   ///< An incomplete dump's open segment: scan it.
  DropCounts drops;
  uint64_t unwound = 0;
};

/// Sum of `d`'s counts, saturating (corrupt counts must not wrap).
uint64_t droppedTotal(const DropCounts &d) {
  uint64_t sum = 0;
  for (uint64_t v : {d.full, d.overwritten, d.depth, d.noSpace, d.unknown})
    sum = SaturatingAdd(sum, v);
  return sum;
}

/// One section as its header frames it.
struct Section {
  uint32_t kind = 0;
  std::string label;       ///< "section N", for messages.
  uint64_t offset = 0;     ///< Of the section header.
  uint64_t sizeOffset = 0; ///< Of its size field.
  uint64_t payloadOffset = 0;
  /// Its payload; streaming, only the fixed part of a THREAD or SEGMENT
  /// section (their record streams are read as they are visited).
  StringRef payload;
  uint64_t size = 0; ///< The payload's size in the file.
};

/// The reader's output fields and what the stages tell each other.
struct DumpParser {
  DumpParser(StringRef file, StringRef data, const InputFile *input,
             std::deque<std::string> *pieces, DumpInfo &h,
             std::vector<Module> &modules, std::vector<std::string> &events,
             std::vector<ThreadInfo> &threads)
      : file(file), data(data), input(input), pieces(pieces),
        size(input ? input->size() : data.size()), h(h), modules(modules),
        events(events), threads(threads) {}

  StringRef file;
  StringRef data;                  ///< The whole dump, unless streaming.
  const InputFile *input;          ///< Streaming: the file, read as needed.
  std::deque<std::string> *pieces; ///< Streaming: the bytes read, kept.
  const uint64_t size;             ///< Of the file.
  DumpInfo &h;
  std::vector<Module> &modules;
  std::vector<std::string> &events;
  std::vector<ThreadInfo> &threads;

  std::vector<PendingModule> pendingModules;
  std::vector<bool> scanThread; ///< Per thread: scan (incomplete dump).
  std::vector<RingLap> ringLaps;
  std::vector<Segment> segments;
  bool sawEvents = false;
  uint64_t calibCountsOff = 0; ///< File offset of the CALIBRATION counts.
  uint64_t threadDropped = 0;
  uint64_t sectionsEnd = 0; ///< File offset after the last section.

  /// The bytes [off, off + len) of the file, cut at its end; streaming,
  /// read and kept for the reader's life.
  Expected<StringRef> bytesAt(uint64_t off, uint64_t len);
  /// The record streams' bytes.
  StreamBytes streamBytes() const {
    return input ? StreamBytes(*input) : StreamBytes(data.data());
  }
  Error streamError(const StreamBytes &bytes) const {
    if (!bytes.failed)
      return Error::success();
    return createStringError(*bytes.failed);
  }

  Error readHeader();
  Error readSections();
  Error checkFixedPart(const Section &s, uint64_t size, StringRef kind) const;
  Error readModule(const Section &s);
  Error readEvents(const Section &s);
  Error readThread(const Section &s);
  Error readSegment(const Section &s);
  Error readCalibration(const Section &s);
  Error readProcess(const Section &s);
  Error readDevice(const Section &s);
  Error checkSections();
  Error readStreams();
  Error checkStream(ThreadInfo &t);
  Error scanStream(ThreadInfo &t, const RingLap *lap);
  Error readSegments();
};

Expected<StringRef> DumpParser::bytesAt(uint64_t off, uint64_t len) {
  len = std::min(len, size - std::min(off, size));
  if (!input)
    return data.substr(off, len);
  std::string &piece = pieces->emplace_back(len, '\0');
  Expected<uint64_t> got = input->readAt(off, piece.data(), len);
  if (!got)
    return got.takeError();
  if (*got != len)
    return createStringError(
        file + ": cannot read: the file shrank while it was read");
  return StringRef(piece);
}

Error DumpParser::readHeader() {
  Expected<StringRef> head = bytesAt(0, kHeaderSize);
  if (!head)
    return head.takeError();
  const char *p = head->data();
  // Magic first, even on a short file: "not a dump at all" is the more
  // useful message than "truncated" for, say, an empty or text file.
  static const char magic[8] = {'T', 'P', 'U', 'P', 'R', 'O', 'F', '\0'};
  if (std::memcmp(p, magic, std::min<uint64_t>(size, 8)) != 0 || size == 0)
    return formatError(file, 0, "bad magic (not a tpuprof dump)");
  if (size < kHeaderSize)
    return formatError(file, 0,
                       "truncated dump header (" + Twine(size) + " of " +
                           Twine(kHeaderSize) + " bytes)");

  using H = tpuprof_dump_header;
  h.version = TPUPROF_READ_FIELD(p, H, version);
  h.headerSize = TPUPROF_READ_FIELD(p, H, header_size);
  h.mode = TPUPROF_READ_FIELD(p, H, mode);
  h.device = TPUPROF_READ_FIELD(p, H, device);
  h.pid = TPUPROF_READ_FIELD(p, H, pid);
  h.callNum = TPUPROF_READ_FIELD(p, H, call_num);
  h.clockSource = TPUPROF_READ_FIELD(p, H, clock_source);
  h.flags = TPUPROF_READ_FIELD(p, H, flags);
  h.calibTicks0 = TPUPROF_READ_FIELD(p, H, calib_ticks0);
  h.calibNs0 = TPUPROF_READ_FIELD(p, H, calib_ns0);
  h.calibTicks1 = TPUPROF_READ_FIELD(p, H, calib_ticks1);
  h.calibNs1 = TPUPROF_READ_FIELD(p, H, calib_ns1);
  h.windowBegin = TPUPROF_READ_FIELD(p, H, window_begin);
  h.windowEnd = TPUPROF_READ_FIELD(p, H, window_end);
  h.dropped = TPUPROF_READ_FIELD(p, H, dropped);
  h.numSections = TPUPROF_READ_FIELD(p, H, num_sections);

  // Version 1 differs only by lacking the CALIBRATION section.
  if (h.version < 1 || h.version > TPUPROF_DUMP_VERSION)
    return formatError(file, offsetof(H, version),
                       "unsupported dump version " + Twine(h.version) +
                           " (this reader supports 1 to " +
                           Twine(TPUPROF_DUMP_VERSION) + ")");
  // A larger header is a newer writer's extension that sections skip over.
  if (h.headerSize < kHeaderSize)
    return formatError(file, offsetof(H, header_size),
                       "header size " + Twine(h.headerSize) +
                           " is smaller than the " + Twine(kHeaderSize) +
                           "-byte header");
  if (h.headerSize % 8)
    return formatError(file, offsetof(H, header_size),
                       "header size " + Twine(h.headerSize) +
                           " is not a multiple of 8");
  if (h.headerSize > size)
    return formatError(file, offsetof(H, header_size),
                       "header size " + Twine(h.headerSize) +
                           " runs past the end of the file (" + Twine(size) +
                           " bytes)");
  static_assert(TPUPROF_MODE_COUNT == 3, "the message below lists the modes");
  if (h.mode >= TPUPROF_MODE_COUNT)
    return formatError(file, offsetof(H, mode),
                       "unknown mode " + Twine(h.mode) +
                           " (expected 0, 1 or 2)");
  if (h.clockSource >= TPUPROF_CLOCK_SOURCE_COUNT)
    return formatError(file, offsetof(H, clock_source),
                       "unknown clock source " + Twine(h.clockSource));
  // Counter ticks go through the calibration; CLOCK_MONOTONIC ticks are ns.
  bool tsc = h.clockSource != TPUPROF_CLOCK_MONOTONIC;
  if (tsc && h.calibTicks1 == h.calibTicks0)
    return formatError(file, offsetof(H, calib_ticks0),
                       "clock calibration has a zero tick delta");
  if (tsc && h.calibTicks1 < h.calibTicks0)
    return formatError(file, offsetof(H, calib_ticks0),
                       "clock calibration ticks go backwards");
  if (tsc && h.calibNs1 <= h.calibNs0)
    return formatError(file, offsetof(H, calib_ns0),
                       "clock calibration has a non-positive nanosecond delta");
  if (h.windowEnd < h.windowBegin)
    return formatError(file, offsetof(H, window_begin),
                       "profiling window ends before it begins");
  return Error::success();
}

Error DumpParser::readSections() {
  uint64_t off = h.headerSize;
  for (uint32_t i = 0; i != h.numSections; ++i) {
    Section s;
    // Twines must not outlive their statement; keep the label as a string.
    s.label = ("section " + Twine(i)).str();
    s.offset = off;
    if (size - off < kSectionHeaderSize)
      return formatError(file, off,
                         "truncated header of " + s.label + " (" +
                             Twine(size - off) + " of " +
                             Twine(kSectionHeaderSize) + " bytes)");
    using SH = tpuprof_section_header;
    Expected<StringRef> sh = bytesAt(off, kSectionHeaderSize);
    if (!sh)
      return sh.takeError();
    s.kind = TPUPROF_READ_FIELD(sh->data(), SH, kind);
    uint64_t payloadSize = TPUPROF_READ_FIELD(sh->data(), SH, size);
    s.sizeOffset = TPUPROF_FIELD_OFFSET(off, SH, size);
    if (payloadSize % 8)
      return formatError(file, s.sizeOffset,
                         s.label + " size " + Twine(payloadSize) +
                             " is not a multiple of 8");
    s.payloadOffset = off + kSectionHeaderSize;
    if (payloadSize > size - s.payloadOffset)
      return formatError(file, s.sizeOffset,
                         s.label + " size " + Twine(payloadSize) +
                             " runs past the end of the file (" +
                             Twine(size - s.payloadOffset) + " bytes left)");
    s.size = payloadSize;
    // Streaming, a record stream stays in the file until it is read.
    uint64_t keep = payloadSize;
    if (input && s.kind == TPUPROF_SECTION_THREAD)
      keep = std::min<uint64_t>(payloadSize, sizeof(tpuprof_thread_section));
    if (input && s.kind == TPUPROF_SECTION_SEGMENT)
      keep = std::min<uint64_t>(payloadSize, sizeof(tpuprof_segment_section));
    Expected<StringRef> payload = bytesAt(s.payloadOffset, keep);
    if (!payload)
      return payload.takeError();
    s.payload = *payload;

    Error err = Error::success();
    switch (s.kind) {
    case TPUPROF_SECTION_MODULE:
      err = readModule(s);
      break;
    case TPUPROF_SECTION_EVENTS:
      err = readEvents(s);
      break;
    case TPUPROF_SECTION_THREAD:
      err = readThread(s);
      break;
    case TPUPROF_SECTION_SEGMENT:
      err = readSegment(s);
      break;
    case TPUPROF_SECTION_CALIBRATION:
      err = readCalibration(s);
      break;
    case TPUPROF_SECTION_PROCESS:
      err = readProcess(s);
      break;
    case TPUPROF_SECTION_DEVICE:
      err = readDevice(s);
      break;
    default:
      // Unknown kinds are corruption, not extensions: a new kind comes with
      // a new dump version.
      err = formatError(file, off,
                        "unknown kind " + Twine(s.kind) + " of " + s.label);
    }
    if (err)
      return err;
    off = s.payloadOffset + payloadSize;
  }
  sectionsEnd = off;
  return Error::success();
}

/// A section of `kind` is at least its fixed part (its kind's header).
Error DumpParser::checkFixedPart(const Section &s, uint64_t size,
                                 StringRef kind) const {
  if (s.payload.size() >= size)
    return Error::success();
  return formatError(file, s.payloadOffset,
                     Twine(kind) + " " + s.label + " is too small (" +
                         Twine(s.payload.size()) + " bytes) for its header");
}

Error DumpParser::readModule(const Section &s) {
  using M = tpuprof_module_section;
  const uint64_t payloadSize = s.payload.size();
  const uint64_t payloadOff = s.payloadOffset;
  const char *pp = s.payload.data();
  if (Error err = checkFixedPart(s, sizeof(M), "MODULE"))
    return err;
  Module m;
  m.moduleId = TPUPROF_READ_FIELD(pp, M, module_id);
  m.firstProbe = TPUPROF_READ_FIELD(pp, M, first_probe);
  uint64_t tableSize = TPUPROF_READ_FIELD(pp, M, table_size);
  if (tableSize > payloadSize - sizeof(M))
    return formatError(file, TPUPROF_FIELD_OFFSET(payloadOff, M, table_size),
                       "probe table size " + Twine(tableSize) + " of module " +
                           Twine(m.moduleId) + " exceeds its section (" +
                           Twine(payloadSize - sizeof(M)) + " bytes)");
  // table_size is exact; the section only pads it to 8 bytes.
  if (payloadSize - sizeof(M) - tableSize >= 8)
    return formatError(file, TPUPROF_FIELD_OFFSET(payloadOff, M, table_size),
                       "probe table size " + Twine(tableSize) + " of module " +
                           Twine(m.moduleId) + " leaves " +
                           Twine(payloadSize - sizeof(M) - tableSize) +
                           " unused bytes in its section (padding is under "
                           "8)");
  Expected<ProbeTable> table = parseProbeTable(
      s.payload.substr(sizeof(M), tableSize), file, payloadOff + sizeof(M));
  if (!table)
    return table.takeError();
  m.table = std::move(*table);
  if (uint64_t(m.firstProbe) + m.table.probes.size() > UINT32_MAX + 1ull)
    return formatError(file, TPUPROF_FIELD_OFFSET(payloadOff, M, first_probe),
                       "probe ids of module " + Twine(m.moduleId) +
                           " run past the 32-bit id space");
  pendingModules.push_back({modules.size(), payloadOff});
  modules.push_back(std::move(m));
  return Error::success();
}

Error DumpParser::readEvents(const Section &s) {
  using E = tpuprof_events_section;
  if (sawEvents)
    return formatError(file, s.offset,
                       "second EVENTS section (" + s.label + ")");
  sawEvents = true;
  if (Error err = checkFixedPart(s, sizeof(E), "EVENTS"))
    return err;
  uint32_t count = TPUPROF_READ_FIELD(s.payload.data(), E, count);
  StringRef names = s.payload.drop_front(sizeof(E));
  // Each name needs at least its NUL, which bounds the reservation.
  events.reserve(std::min<uint64_t>(count, names.size()));
  uint64_t nameOff = s.payloadOffset + sizeof(E);
  for (uint32_t i = 0; i != count; ++i) {
    size_t nul = names.find('\0');
    if (nul == StringRef::npos)
      return formatError(file, nameOff,
                         "EVENTS " + s.label + " names " + Twine(count) +
                             " events but holds only " + Twine(i) +
                             " NUL-terminated names");
    events.push_back(names.take_front(nul).str());
    names = names.drop_front(nul + 1);
    nameOff += nul + 1;
  }
  return Error::success();
}

Error DumpParser::readThread(const Section &s) {
  using T = tpuprof_thread_section;
  const uint64_t payloadSize = s.size;
  const uint64_t payloadOff = s.payloadOffset;
  const char *pp = s.payload.data();
  if (Error err = checkFixedPart(s, sizeof(T), "THREAD"))
    return err;
  ThreadInfo t;
  t.tid = TPUPROF_READ_FIELD(pp, T, tid);
  t.number = uint32_t(threads.size());
  t.dropped = TPUPROF_READ_FIELD(pp, T, dropped);
  t.numRecords = TPUPROF_READ_FIELD(pp, T, num_records);
  t.streamSize = TPUPROF_READ_FIELD(pp, T, stream_size);
  t.streamOffset = payloadOff + sizeof(T);
  // A dump the runtime never finished (the process was killed, aborted or
  // crashed while its window was open) is its crash-safe form: THREAD
  // sections whose record count and stream size were never written, to be
  // scanned (readStreams).
  const bool complete = h.isComplete();
  bool scan = !complete && t.numRecords == 0 && t.streamSize == 0;
  // A ring buffer that wrapped: bit 63 of num_records marks it; the
  // previous lap's records are [tail, wrap end), then the current lap's
  // from the stream's start (formats.md, "Incomplete dumps").
  bool ring = !complete && (t.numRecords >> 63) != 0;
  uint64_t ringTail = t.numRecords & ~(1ull << 63);
  uint64_t ringEnd = t.streamSize;
  if (ring &&
      (ringTail > ringEnd || ringEnd > payloadSize - sizeof(T) || ringTail % 8))
    return formatError(file, TPUPROF_FIELD_OFFSET(payloadOff, T, num_records),
                       "ring of thread " + Twine(t.tid) +
                           " has its oldest record at " + Twine(ringTail) +
                           " past its lap's end " + Twine(ringEnd));
  if (ring) {
    scan = true;
    ringLaps.push_back({threads.size(), ringTail, ringEnd});
  }
  if (scan)
    t.streamSize = payloadSize - sizeof(T); // Bounds the scan.
  else if (t.streamSize != payloadSize - sizeof(T))
    return formatError(file, TPUPROF_FIELD_OFFSET(payloadOff, T, stream_size),
                       "record stream size " + Twine(t.streamSize) +
                           " of thread " + Twine(t.tid) +
                           " does not match its section (" +
                           Twine(payloadSize - sizeof(T)) + " bytes)");
  threadDropped = SaturatingAdd(threadDropped, t.dropped);
  t.drops.unknown = t.dropped; // Versions 1-3 keep no reasons.
  threads.push_back(t);
  scanThread.push_back(scan);
  return Error::success();
}

Error DumpParser::readSegment(const Section &s) {
  using G = tpuprof_segment_section;
  const uint64_t payloadSize = s.size;
  const uint64_t payloadOff = s.payloadOffset;
  const char *pp = s.payload.data();
  if (h.version < 4)
    return formatError(file, s.offset,
                       "SEGMENT " + s.label + " in a version " +
                           Twine(h.version) + " dump");
  if (Error err = checkFixedPart(s, sizeof(G), "SEGMENT"))
    return err;
  Segment g;
  g.sectionOffset = s.offset;
  g.tid = TPUPROF_READ_FIELD(pp, G, tid);
  g.thread = TPUPROF_READ_FIELD(pp, G, thread);
  g.seq = TPUPROF_READ_FIELD(pp, G, seq);
  uint64_t streamSize = TPUPROF_READ_FIELD(pp, G, stream_size);
  g.drops.full = TPUPROF_READ_FIELD(pp, G, dropped_full);
  g.drops.overwritten = TPUPROF_READ_FIELD(pp, G, dropped_overwritten);
  g.drops.depth = TPUPROF_READ_FIELD(pp, G, dropped_depth);
  g.drops.noSpace = TPUPROF_READ_FIELD(pp, G, dropped_no_space);
  g.unwound = TPUPROF_READ_FIELD(pp, G, unwound);
  // The stream, then unused room (zeros) to the section's end.
  if (streamSize > payloadSize - sizeof(G))
    return formatError(file, TPUPROF_FIELD_OFFSET(payloadOff, G, stream_size),
                       "record stream size " + Twine(streamSize) +
                           " of thread " + Twine(g.thread) + "'s segment " +
                           Twine(g.seq) + " runs past its section (" +
                           Twine(payloadSize - sizeof(G)) + " bytes)");
  // An incomplete dump's open segment: its size is not written yet.
  g.scan = !h.isComplete() && streamSize == 0;
  g.offset = payloadOff + sizeof(G);
  g.size = g.scan ? payloadSize - sizeof(G) : streamSize;
  segments.push_back(g);
  return Error::success();
}

Error DumpParser::readProcess(const Section &s) {
  using P = tpuprof_process_section;
  using O = tpuprof_clock_offset;
  const char *pp = s.payload.data();
  if (h.hasProcess)
    return formatError(file, s.offset,
                       "second PROCESS section (" + s.label + ")");
  if (s.payload.size() != sizeof(P))
    return formatError(file, s.sizeOffset,
                       "PROCESS " + s.label + " size " +
                           Twine(s.payload.size()) + " is not " +
                           Twine(sizeof(P)));
  DumpInfo::ProcessInfo &pi = h.process;
  pi.rank = TPUPROF_READ_FIELD(pp, P, rank);
  pi.worldSize = TPUPROF_READ_FIELD(pp, P, world_size);
  pi.localRank = TPUPROF_READ_FIELD(pp, P, local_rank);
  pi.rankSource = TPUPROF_READ_FIELD(pp, P, rank_source);
  if (pi.rankSource >= TPUPROF_RANK_SOURCE_COUNT)
    return formatError(
        file, TPUPROF_FIELD_OFFSET(s.payloadOffset, P, rank_source),
        "PROCESS rank source " + Twine(pi.rankSource) + " is unknown");
  if (pi.ranked() && pi.worldSize && pi.rank >= pi.worldSize)
    return formatError(file, TPUPROF_FIELD_OFFSET(s.payloadOffset, P, rank),
                       "PROCESS rank " + Twine(pi.rank) +
                           " is not below its world size " +
                           Twine(pi.worldSize));
  // Strings: up to the first NUL, never past their field.
  auto field = [&](size_t off, size_t n) {
    StringRef f(pp + off, n);
    return f.take_until([](char c) { return c == '\0'; }).str();
  };
  pi.host = field(offsetof(P, host), sizeof(P::host));
  pi.jobId = field(offsetof(P, job_id), sizeof(P::job_id));
  pi.realtimeNs0 = TPUPROF_READ_FIELD(pp, P, realtime_ns0);
  pi.monotonicNs0 = TPUPROF_READ_FIELD(pp, P, monotonic_ns0);
  pi.realtimeNs1 = TPUPROF_READ_FIELD(pp, P, realtime_ns1);
  pi.monotonicNs1 = TPUPROF_READ_FIELD(pp, P, monotonic_ns1);
  for (unsigned i = 0; i != TPUPROF_OFFSET_SLOT_COUNT; ++i) {
    const char *o = pp + offsetof(P, offsets) + i * sizeof(O);
    pi.offsets[i].offsetNs = TPUPROF_READ_FIELD(o, O, offset_ns);
    pi.offsets[i].atNs = TPUPROF_READ_FIELD(o, O, at_ns);
    pi.offsets[i].errorNs = TPUPROF_READ_FIELD(o, O, error_ns);
  }
  h.hasProcess = true;
  return Error::success();
}

Error DumpParser::readCalibration(const Section &s) {
  using C = tpuprof_calibration_section;
  using N = tpuprof_calibration_counts;
  const uint64_t payloadSize = s.payload.size();
  const uint64_t payloadOff = s.payloadOffset;
  const char *pp = s.payload.data();
  if (h.version < 2)
    return formatError(file, s.offset,
                       "CALIBRATION " + s.label + " in a version 1 dump");
  if (h.hasCalibration)
    return formatError(file, s.offset,
                       "second CALIBRATION section (" + s.label + ")");
  // Version 3 may follow the struct with one count pair per counter word;
  // their number is checked against EVENTS in checkSections().
  if (payloadSize != sizeof(C) && (h.version < 3 || payloadSize < sizeof(C) ||
                                   (payloadSize - sizeof(C)) % sizeof(N) != 0))
    return formatError(file, s.sizeOffset,
                       "CALIBRATION " + s.label + " size " +
                           Twine(payloadSize) + " is not " + Twine(sizeof(C)) +
                           " bytes" +
                           (h.version < 3 ? "" : " plus 16 per counter"));
  calibCountsOff = payloadOff + sizeof(C);
  for (uint64_t o = sizeof(C); o != payloadSize; o += sizeof(N)) {
    const char *q = pp + o;
    h.calibCounts.push_back(
        {TPUPROF_READ_FIELD(q, N, self), TPUPROF_READ_FIELD(q, N, nested)});
  }
  h.hasCalibration = true;
  h.calibSelfTicks = TPUPROF_READ_FIELD(pp, C, self_ticks);
  h.calibNestedTicks = TPUPROF_READ_FIELD(pp, C, nested_ticks);
  h.calibPairs = TPUPROF_READ_FIELD(pp, C, pairs);
  h.calibReadTicks = TPUPROF_READ_FIELD(pp, C, read_ticks);
  if (h.calibPairs == 0)
    return formatError(file, TPUPROF_FIELD_OFFSET(payloadOff, C, pairs),
                       "CALIBRATION " + s.label + " measured no probe pairs");
  if (h.calibReadTicks > h.calibNestedTicks)
    return formatError(file, TPUPROF_FIELD_OFFSET(payloadOff, C, read_ticks),
                       "CALIBRATION " + s.label + " read_ticks " +
                           Twine(h.calibReadTicks) + " exceeds nested_ticks " +
                           Twine(h.calibNestedTicks) +
                           " (they are part of it)");
  return Error::success();
}

Error DumpParser::readDevice(const Section &s) {
  using H = tpuprof_device_section;
  using C = tpuprof_device_clock;
  using Q = tpuprof_device_queue;
  using R = tpuprof_device_record;
  const uint64_t size = s.payload.size();
  const uint64_t base = s.payloadOffset;
  const char *pp = s.payload.data();
  if (h.version < 6)
    return formatError(file, s.offset,
                       "DEVICE " + s.label + " in a version " +
                           Twine(h.version) + " dump");
  if (h.deviceData.present)
    return formatError(file, s.offset,
                       "second DEVICE section (" + s.label + ")");
  if (size < sizeof(H))
    return formatError(file, s.sizeOffset,
                       "DEVICE " + s.label + " size " + Twine(size) +
                           " is shorter than its header");
  const uint64_t numClocks = TPUPROF_READ_FIELD(pp, H, num_clocks);
  const uint64_t numQueues = TPUPROF_READ_FIELD(pp, H, num_queues);
  const uint64_t numRecords = TPUPROF_READ_FIELD(pp, H, num_records);
  const uint64_t namesSize = TPUPROF_READ_FIELD(pp, H, names_size);
  // Each count is checked against the bytes left before it is multiplied,
  // so no corrupt count can overflow or allocate past the file.
  uint64_t left = size - sizeof(H);
  auto take = [&](uint64_t count, uint64_t each, StringRef what) -> Error {
    if (count > left / each)
      return formatError(file, base,
                         "DEVICE " + s.label + " has " + Twine(count) + " " +
                             what + ", more than its " + Twine(size) +
                             " bytes hold");
    left -= count * each;
    return Error::success();
  };
  if (Error e = take(numClocks, sizeof(C), "clocks"))
    return e;
  if (Error e = take(numQueues, sizeof(Q), "queues"))
    return e;
  if (Error e = take(numRecords, sizeof(R), "records"))
    return e;
  if (namesSize > left)
    return formatError(file, TPUPROF_FIELD_OFFSET(base, H, names_size),
                       "DEVICE " + s.label + " names size " + Twine(namesSize) +
                           " runs past the section");
  DeviceData &d = h.deviceData;
  d.present = true;
  d.dropped = TPUPROF_READ_FIELD(pp, H, dropped);
  uint64_t off = sizeof(H);
  const uint64_t namesOff = off + numClocks * sizeof(C) +
                            numQueues * sizeof(Q) + numRecords * sizeof(R);
  StringRef names = s.payload.substr(namesOff, namesSize);
  auto nameAt = [&](uint64_t at, uint32_t offset, std::string &out) -> Error {
    size_t nul =
        offset < names.size() ? names.find('\0', offset) : StringRef::npos;
    if (nul == StringRef::npos)
      return formatError(file, base + at,
                         "DEVICE " + s.label + " name offset " + Twine(offset) +
                             " is not a string of its names");
    out = names.slice(offset, nul).str();
    return Error::success();
  };
  for (uint64_t i = 0; i != numClocks; ++i, off += sizeof(C)) {
    const char *q = pp + off;
    DeviceClock c;
    c.domain = TPUPROF_READ_FIELD(q, C, domain);
    c.device0 = TPUPROF_READ_FIELD(q, C, device0);
    c.ticks0 = TPUPROF_READ_FIELD(q, C, ticks0);
    c.device1 = TPUPROF_READ_FIELD(q, C, device1);
    c.ticks1 = TPUPROF_READ_FIELD(q, C, ticks1);
    c.errorNs = TPUPROF_READ_FIELD(q, C, error_ns);
    if (c.domain >= TPUPROF_DEVICE_CLOCK_DOMAIN_COUNT)
      return formatError(file, base + off,
                         "DEVICE " + s.label + " clock domain " +
                             Twine(c.domain) + " is unknown");
    d.clocks.push_back(c);
  }
  for (uint64_t i = 0; i != numQueues; ++i, off += sizeof(Q)) {
    const char *q = pp + off;
    DeviceQueue dq;
    dq.api = TPUPROF_READ_FIELD(q, Q, api);
    dq.clock = TPUPROF_READ_FIELD(q, Q, clock);
    dq.number = TPUPROF_READ_FIELD(q, Q, number);
    if (dq.api >= TPUPROF_DEVICE_API_COUNT || dq.clock >= numClocks)
      return formatError(file, base + off,
                         "DEVICE " + s.label + " queue " + Twine(i) +
                             " has an unknown API or clock");
    if (Error e =
            nameAt(off, TPUPROF_READ_FIELD(q, Q, device_name), dq.deviceName))
      return e;
    d.queues.push_back(std::move(dq));
  }
  d.records.reserve(numRecords);
  for (uint64_t i = 0; i != numRecords; ++i, off += sizeof(R)) {
    const char *q = pp + off;
    DeviceRecord r;
    if (TPUPROF_READ_FIELD(q, R, kind) != TPUPROF_RECORD_DEVICE ||
        TPUPROF_READ_FIELD(q, R, num_words) != 6 ||
        TPUPROF_READ_FIELD(q, R, num_counters) != 0)
      return formatError(file, base + off,
                         "DEVICE " + s.label + " record " + Twine(i) +
                             " is not framed as a device record");
    r.op = TPUPROF_READ_FIELD(q, R, op);
    r.start = TPUPROF_READ_FIELD(q, R, start);
    r.end = TPUPROF_READ_FIELD(q, R, end);
    r.queued = TPUPROF_READ_FIELD(q, R, queued);
    r.submitted = TPUPROF_READ_FIELD(q, R, submitted);
    r.queue = TPUPROF_READ_FIELD(q, R, queue);
    r.launchThread = TPUPROF_READ_FIELD(q, R, launch_thread);
    r.launchProbe = TPUPROF_READ_FIELD(q, R, launch_probe);
    r.launchBegin = TPUPROF_READ_FIELD(q, R, launch_begin);
    r.bytes = TPUPROF_READ_FIELD(q, R, bytes);
    if (r.op >= TPUPROF_DEVICE_OP_COUNT || r.queue >= numQueues ||
        r.end < r.start)
      return formatError(file, base + off,
                         "DEVICE " + s.label + " record " + Twine(i) +
                             " has an unknown op or queue, or ends before "
                             "it starts");
    if (Error e = nameAt(off, TPUPROF_READ_FIELD(q, R, name), r.name))
      return e;
    d.records.push_back(std::move(r));
  }
  return Error::success();
}

Error DumpParser::checkSections() {
  const bool complete = h.isComplete();
  // An unfinished dump may end in a section its header does not count yet
  // (the process died between growing the file and updating the header).
  if (sectionsEnd != size && complete)
    return formatError(file, sectionsEnd,
                       Twine(size - sectionsEnd) +
                           " trailing bytes after the last of " +
                           Twine(h.numSections) + " sections");

  if (!h.calibCounts.empty() && h.calibCounts.size() != events.size())
    return formatError(file, calibCountsOff,
                       "CALIBRATION section has counts for " +
                           Twine(h.calibCounts.size()) +
                           " counter words but the EVENTS section names " +
                           Twine(events.size()));

  // A thread's stage (its largest segment, which it reuses) whose records
  // were just written to a section of their own when the process died
  // shows them twice under one seq: the stage, to be scanned, and the
  // written copy, counted. The copy holds them.
  if (!complete) {
    std::vector<std::pair<uint32_t, uint32_t>> copies;
    for (const Segment &g : segments)
      if (!g.scan)
        copies.emplace_back(g.thread, g.seq);
    llvm::sort(copies);
    llvm::erase_if(segments, [&](const Segment &g) {
      return g.scan && std::binary_search(copies.begin(), copies.end(),
                                          std::make_pair(g.thread, g.seq));
    });
  }
  for (const Segment &g : segments)
    threadDropped = SaturatingAdd(threadDropped, droppedTotal(g.drops));

  // The header also counts records lost without a thread buffer. An
  // unfinished dump's header never got the threads' counts.
  if (!complete)
    h.dropped = std::max(h.dropped, threadDropped);
  if (h.dropped < threadDropped)
    return formatError(file, offsetof(tpuprof_dump_header, dropped),
                       "header counts " + Twine(h.dropped) +
                           " dropped records but its threads " +
                           Twine(threadDropped));

  // Probe ids of different modules must not overlap, or a record's probe
  // would be ambiguous.
  llvm::sort(pendingModules,
             [&](const PendingModule &a, const PendingModule &b) {
               return modules[a.index].firstProbe < modules[b.index].firstProbe;
             });
  for (size_t i = 1; i < pendingModules.size(); ++i) {
    const Module &prev = modules[pendingModules[i - 1].index];
    const Module &cur = modules[pendingModules[i].index];
    uint64_t prevEnd = uint64_t(prev.firstProbe) + prev.table.probes.size();
    if (prevEnd > cur.firstProbe)
      return formatError(
          file,
          TPUPROF_FIELD_OFFSET(pendingModules[i].fileOffset,
                               tpuprof_module_section, first_probe),
          "probe ids [" + Twine(cur.firstProbe) + ", " +
              Twine(uint64_t(cur.firstProbe) + cur.table.probes.size()) +
              ") of module " + Twine(cur.moduleId) + " overlap module " +
              Twine(prev.moduleId) + "'s [" + Twine(prev.firstProbe) + ", " +
              Twine(prevEnd) + ")");
  }
  std::vector<Module> sorted;
  sorted.reserve(modules.size());
  for (const PendingModule &pm : pendingModules)
    sorted.push_back(std::move(modules[pm.index]));
  modules = std::move(sorted);
  return Error::success();
}

Error DumpParser::readStreams() {
  for (size_t ti = 0; ti != threads.size(); ++ti) {
    const RingLap *lap = nullptr;
    for (const RingLap &l : ringLaps)
      if (l.thread == ti)
        lap = &l;
    if (Error err = scanThread[ti] ? scanStream(threads[ti], lap)
                                   : checkStream(threads[ti]))
      return err;
  }
  return Error::success();
}

Error DumpParser::scanStream(ThreadInfo &t, const RingLap *lap) {
  // Records were written in place, each one's begin (never 0) last, into
  // zeroed pages: the stream ends at the first slot whose begin is 0 or that
  // does not hold a whole, well-formed record.
  StreamBytes bytes = streamBytes();
  uint64_t roff = t.streamOffset;
  uint64_t limit = t.streamOffset + t.streamSize;
  if (lap) {
    // The previous lap first: intact records filling [tail, end) exactly.
    roff = t.streamOffset + lap->tail;
    limit = t.streamOffset + lap->end;
  }
  auto scan = [&] {
    uint64_t n = 0;
    while (limit - roff >= kRecordSize) {
      const char *r = bytes.at(roff, kRecordSize);
      if (!r)
        break; // Reported below.
      uint8_t numDims = TPUPROF_READ_FIELD(r, tpuprof_record, num_dims);
      uint8_t numCounters = TPUPROF_READ_FIELD(r, tpuprof_record, num_counters);
      uint64_t full = TPUPROF_RECORD_BYTES(numDims, numCounters);
      uint64_t begin = TPUPROF_READ_FIELD(r, tpuprof_record, begin);
      uint64_t end = TPUPROF_READ_FIELD(r, tpuprof_record, end);
      if (begin == 0 || full > limit - roff || numCounters != events.size() ||
          (end != 0 && end < begin))
        break;
      h.windowEnd = std::max(h.windowEnd, std::max(begin, end));
      roff += full;
      ++n;
    }
    return n;
  };
  uint64_t n = scan();
  if (Error err = streamError(bytes))
    return err;
  if (lap) {
    if (roff != limit)
      return formatError(file, roff,
                         "previous lap of the ring of thread " + Twine(t.tid) +
                             " ends inside a record");
    t.lapOffset = t.streamOffset + lap->tail;
    t.lapRecords = n;
    roff = t.streamOffset;
    limit = t.streamOffset + t.streamSize;
    n += scan();
  }
  t.numRecords = n;
  t.streamSize = roff - t.streamOffset;
  return streamError(bytes);
}

Error DumpParser::checkStream(ThreadInfo &t) {
  StreamBytes bytes = streamBytes();
  uint64_t roff = t.streamOffset;
  const uint64_t streamEnd = t.streamOffset + t.streamSize;
  auto thread = [&](uint64_t i) {
    return ("record " + Twine(i) + " of thread " + Twine(t.tid)).str();
  };
  for (uint64_t i = 0; i != t.numRecords; ++i) {
    uint64_t left = streamEnd - roff;
    if (left == 0)
      return formatError(file, roff,
                         "record stream of thread " + Twine(t.tid) +
                             " ends after " + Twine(i) + " of " +
                             Twine(t.numRecords) + " records");
    if (left < kRecordSize)
      return formatError(file, roff,
                         thread(i) + " is truncated (" + Twine(left) + " of " +
                             Twine(kRecordSize) + " bytes)");
    const char *r = bytes.at(roff, kRecordSize);
    if (!r)
      return streamError(bytes);
    uint8_t numDims = TPUPROF_READ_FIELD(r, tpuprof_record, num_dims);
    uint8_t numCounters = TPUPROF_READ_FIELD(r, tpuprof_record, num_counters);
    uint64_t full = TPUPROF_RECORD_BYTES(numDims, numCounters);
    if (full > left)
      return formatError(file, roff,
                         thread(i) + "'s " + Twine(unsigned(numDims)) +
                             " dims and " + Twine(unsigned(numCounters)) +
                             " counters run past the end of the stream");
    if (numCounters != events.size())
      return formatError(
          file, TPUPROF_FIELD_OFFSET(roff, tpuprof_record, num_counters),
          thread(i) + " has " + Twine(unsigned(numCounters)) +
              " counters but the dump names " + Twine(events.size()) +
              " events");
    uint64_t begin = TPUPROF_READ_FIELD(r, tpuprof_record, begin);
    uint64_t end = TPUPROF_READ_FIELD(r, tpuprof_record, end);
    h.backwards += end != 0 && end < begin;
    roff += full;
  }
  if (roff != streamEnd)
    return formatError(file, roff,
                       "record stream of thread " + Twine(t.tid) + " has " +
                           Twine(streamEnd - roff) + " bytes after its " +
                           Twine(t.numRecords) + " records");
  return Error::success();
}

/// Why the memory record at `r` is malformed, "" when its time is 0 (not
/// written yet: where a scan stops), or null when it is well-formed.
static const char *checkMemoryRecord(const char *r, uint8_t numWords,
                                     uint8_t numCounters) {
  using M = tpuprof_memory_record;
  if (numWords != 2 || numCounters != 0)
    return "is a memory record of another size than 40 bytes";
  if (TPUPROF_READ_FIELD(r, M, time) == 0)
    return "";
  uint8_t event = TPUPROF_READ_FIELD(r, M, event);
  if (event != TPUPROF_MEMORY_ALLOC && event != TPUPROF_MEMORY_FREE)
    return "is a memory record of an unknown event";
  if (TPUPROF_READ_FIELD(r, M, source) >= TPUPROF_MEMORY_SOURCE_COUNT)
    return "is a memory record of an unknown source";
  return nullptr;
}

Error DumpParser::readSegments() {
  StreamBytes bytes = streamBytes();
  const bool complete = h.isComplete();
  // A thread's segments in stream order; threads by number, which is the
  // order they first recorded in.
  llvm::sort(segments, [](const Segment &a, const Segment &b) {
    return std::tie(a.thread, a.seq) < std::tie(b.thread, b.seq);
  });
  for (size_t i = 0; i != segments.size(); ++i) {
    const Segment &g = segments[i];
    std::string where =
        ("segment " + Twine(g.seq) + " of thread " + Twine(g.thread)).str();
    if (i == 0 || segments[i - 1].thread != g.thread) {
      threads.emplace_back();
      threads.back().tid = g.tid;
      threads.back().number = g.thread;
      threads.back().streamOffset = g.offset;
    } else if (segments[i - 1].seq == g.seq) {
      return formatError(file, g.sectionOffset, "second " + where);
    } else if (segments[i - 1].tid != g.tid) {
      return formatError(file, g.sectionOffset,
                         where + " names thread id " + Twine(g.tid) +
                             ", its earlier segments " +
                             Twine(segments[i - 1].tid));
    }
    // Records follow one another. A scanned segment ends at the first slot
    // that holds no whole, well-formed record (records are written into
    // zeroed pages, begin last); a counted one must end exactly.
    uint64_t off = g.offset, limit = g.offset + g.size, n = 0;
    uint64_t memoryEvents = 0;
    while (off != limit) {
      uint64_t left = limit - off;
      // A memory record's fields lie past the common 24 bytes.
      const char *r = bytes.at(
          off, std::min<uint64_t>(left, sizeof(tpuprof_memory_record)));
      if (!r)
        return streamError(bytes);
      uint8_t numDims = 0, numCounters = 0;
      uint64_t full = 0, begin = 0, end = 0;
      uint32_t probe = 0;
      if (left >= kRecordSize) {
        probe = TPUPROF_READ_FIELD(r, tpuprof_record, probe);
        numDims = TPUPROF_READ_FIELD(r, tpuprof_record, num_dims);
        numCounters = TPUPROF_READ_FIELD(r, tpuprof_record, num_counters);
        full = TPUPROF_RECORD_BYTES(numDims, numCounters);
        begin = TPUPROF_READ_FIELD(r, tpuprof_record, begin);
        end = TPUPROF_READ_FIELD(r, tpuprof_record, end);
      }
      const char *bad = nullptr;
      const bool memory = probe == TPUPROF_RECORD_MEMORY && h.version >= 5 &&
                          left >= kRecordSize;
      if (left < kRecordSize)
        bad = "is truncated";
      else if (full > left)
        bad = "runs past the end of its segment's stream";
      else if (memory) {
        bad = checkMemoryRecord(r, numDims, numCounters);
        if (bad && !*bad && !g.scan)
          bad = "is a memory record without a time";
      } else if (probe >= TPUPROF_RECORD_KIND_BASE)
        bad = "is of a record kind this reader does not know";
      else if (numCounters != events.size())
        bad = "has a counter count other than the dump's event count";
      else if (g.scan && begin == 0)
        bad = "";
      if (bad && g.scan)
        break;
      if (bad)
        return formatError(file, off,
                           "record " + Twine(n) + " of " + where + " " + bad);
      if (!complete)
        h.windowEnd =
            std::max(h.windowEnd, memory ? begin : std::max(begin, end));
      off += full;
      ++n;
      memoryEvents += memory;
      h.backwards += !memory && end != 0 && end < begin;
    }
    ThreadInfo &t = threads.back();
    t.parts.push_back({g.offset, n});
    t.numRecords += n - memoryEvents;
    t.numMemoryEvents += memoryEvents;
    t.streamSize += off - g.offset;
    t.drops += g.drops;
    t.dropped = SaturatingAdd(t.dropped, droppedTotal(g.drops));
    t.unwound = SaturatingAdd(t.unwound, g.unwound);
  }
  // A thread whose segments hold nothing took one and never recorded: the
  // thread that opened the window takes its first segment then (so that its
  // set-up is not window time) and may record nothing. It is no thread of
  // the profile.
  llvm::erase_if(threads, [](const ThreadInfo &t) {
    return !t.numRecords && !t.numMemoryEvents && !t.dropped && !t.unwound;
  });
  // Drops by reason: the threads', and what the header counts beyond them
  // (threads that got no buffer at all).
  uint64_t counted = 0;
  for (const ThreadInfo &t : threads) {
    h.drops += t.drops;
    h.unwound = SaturatingAdd(h.unwound, t.unwound);
    counted = SaturatingAdd(counted, t.dropped);
  }
  if (h.dropped > counted)
    h.drops.noSpace = SaturatingAdd(h.drops.noSpace, h.dropped - counted);
  return Error::success();
}

} // namespace

Error DumpReader::parse() {
  DumpParser parser(path(), buffer->getBuffer(),
                    streamed ? &streamed->file : nullptr,
                    streamed ? &streamed->pieces : nullptr, header, moduleList,
                    eventNames, threadList);
  if (Error err = parser.readHeader())
    return err;
  if (Error err = parser.readSections())
    return err;
  if (Error err = parser.checkSections())
    return err;
  if (Error err = parser.readStreams())
    return err;
  return parser.readSegments();
}

//===----------------------------------------------------------------------===//
// readDump
//===----------------------------------------------------------------------===//

namespace {

Dump decode(const DumpReader &reader) {
  Dump dump;
  dump.path = reader.path().str();
  dump.info = reader.info();
  dump.modules = reader.modules().vec();
  dump.events = reader.events().vec();
  for (const ThreadInfo &t : reader.threads()) {
    Thread thread;
    thread.tid = t.tid;
    thread.dropped = t.dropped;
    thread.records.reserve(t.numRecords); // Validated against the stream.
    reader.forEachRecord(t, [&](const RecordView &v) {
      Record r;
      r.probe = v.probe;
      r.depth = v.depth;
      r.begin = v.begin;
      r.end = v.end;
      for (unsigned i = 0; i != v.numDims; ++i)
        r.dims.push_back(v.dim(i));
      for (unsigned i = 0; i != v.numCounters; ++i)
        r.counters.push_back(v.counter(i));
      thread.records.push_back(std::move(r));
    });
    dump.threads.push_back(std::move(thread));
  }
  return dump;
}

} // namespace

Expected<Dump> tpuprof::report::readDump(StringRef path) {
  Expected<DumpReader> reader = DumpReader::open(path);
  if (!reader)
    return reader.takeError();
  return decode(*reader);
}

Expected<Dump> tpuprof::report::readDumpBuffer(StringRef bytes,
                                               StringRef name) {
  Expected<DumpReader> reader = DumpReader::fromBytes(bytes, name);
  if (!reader)
    return reader.takeError();
  return decode(*reader);
}
