//===- DumpParser.h - Strict dump reader for tests ------------ -*- C++ -*-===//
//
// An independent reader of the dump layout in format.h, written from the
// header rather than shared with the report library, so that the runtime's
// tests catch a writer that drifts from the contract. It checks every size,
// every reserved field and every padding byte, and says what is wrong.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TEST_RUNTIME_DUMPPARSER_H
#define TPUPROF_TEST_RUNTIME_DUMPPARSER_H

#include "tpuprof/format.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace tpuprof_test {

struct Record {
  tpuprof_record rec;
  std::vector<int64_t> dims;
  std::vector<uint64_t> counters;
  /// A memory record (version 5): `mem` holds it whole.
  bool isMemory = false;
  tpuprof_memory_record mem{};
};

/// A thread's records. Version 4 dumps spread them over SEGMENT sections;
/// `head` then sums them (tid, dropped, num_records, stream_size) and the
/// counts below keep the reasons.
struct ThreadSection {
  tpuprof_thread_section head;
  std::vector<Record> records;
  uint32_t segments = 0; ///< SEGMENT sections (0 for a THREAD section).
  uint64_t droppedFull = 0, droppedOverwritten = 0, droppedDepth = 0,
           droppedNoSpace = 0, unwound = 0;
};

/// A SEGMENT section as read, before it joins its thread.
struct SegmentSection {
  tpuprof_segment_section head;
  uint64_t sectionSize = 0;
  std::vector<Record> records;
};

struct ModuleSection {
  tpuprof_module_section head;
  std::string table; ///< Exactly table_size bytes.
};

struct Dump {
  tpuprof_dump_header header;
  std::vector<ModuleSection> modules;
  std::vector<uint32_t> sectionKinds; ///< In file order.
  uint32_t numEvents = 0;
  std::vector<std::string> eventNames;
  std::vector<ThreadSection> threads;
  bool hasCalibration = false;
  tpuprof_calibration_section calibration{};
  /// Per counter word (EVENTS order), or empty (mode 0, older dumps).
  std::vector<tpuprof_calibration_counts> calibrationCounts;
  /// SEGMENT sections in file order (version 4).
  std::vector<SegmentSection> segments;
  /// The PROCESS section, when there is one.
  bool hasProcess = false;
  tpuprof_process_section process{};
  /// The DEVICE section (version 6), when there is one.
  bool hasDevice = false;
  tpuprof_device_section device{};
  std::vector<tpuprof_device_clock> deviceClocks;
  std::vector<tpuprof_device_queue> deviceQueues;
  std::vector<tpuprof_device_record> deviceRecords;
  std::string deviceNames;
};

/// Parses `count` records in [p, end) of `bytes`; "" or what is wrong.
inline std::string parseRecords(const std::string &bytes, size_t p, size_t end,
                                uint32_t numEvents, std::vector<Record> &out) {
  while (p < end) {
    Record r;
    if (end - p < sizeof(r.rec))
      return "record header past the stream end";
    std::memcpy(&r.rec, bytes.data() + p, sizeof(r.rec));
    uint64_t len = TPUPROF_RECORD_BYTES(r.rec.num_dims, r.rec.num_counters);
    if (len > end - p)
      return "record words past the stream end";
    const char *w = bytes.data() + p + sizeof(r.rec);
    r.dims.resize(r.rec.num_dims);
    if (r.rec.num_dims)
      std::memcpy(r.dims.data(), w, 8 * r.rec.num_dims);
    r.counters.resize(r.rec.num_counters);
    if (r.rec.num_counters)
      std::memcpy(r.counters.data(), w + 8 * r.rec.num_dims,
                  8 * r.rec.num_counters);
    if (r.rec.probe == TPUPROF_RECORD_MEMORY) {
      if (len != sizeof(r.mem))
        return "memory record of another size than 40 bytes";
      r.isMemory = true;
      std::memcpy(&r.mem, bytes.data() + p, sizeof(r.mem));
      if (r.mem.reserved != 0)
        return "memory record reserved field not zero";
      if (r.mem.event != TPUPROF_MEMORY_ALLOC &&
          r.mem.event != TPUPROF_MEMORY_FREE)
        return "memory record of an unknown event";
      if (r.mem.source > TPUPROF_MEMORY_SOURCE_MAX)
        return "memory record of an unknown source";
      if (r.mem.time == 0)
        return "memory record without a time";
    } else if (r.rec.num_counters != numEvents) {
      return "record num_counters differs from the event count";
    }
    out.push_back(std::move(r));
    p += len;
  }
  return "";
}

inline bool allZero(const std::string &b, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i)
    if (b[i] != 0)
      return false;
  return true;
}

/// Parses `bytes` into `d`. Returns "" or what is wrong.
inline std::string parseDumpBytes(const std::string &bytes, Dump &d) {
  const size_t n = bytes.size();
  if (n < sizeof(tpuprof_dump_header))
    return "file smaller than the header";
  std::memcpy(&d.header, bytes.data(), sizeof(d.header));
  const tpuprof_dump_header &h = d.header;
  if (std::memcmp(h.magic, TPUPROF_DUMP_MAGIC, 8) != 0)
    return "bad magic";
  if (h.version != TPUPROF_DUMP_VERSION)
    return "bad version";
  if (h.header_size != sizeof(tpuprof_dump_header))
    return "bad header_size";
  if (h.reserved != 0)
    return "header reserved not zero";
  size_t off = h.header_size;
  uint64_t droppedSum = 0;
  for (uint32_t s = 0; s < h.num_sections; ++s) {
    if (n - off < sizeof(tpuprof_section_header))
      return "section header past the end, section " + std::to_string(s);
    tpuprof_section_header sh;
    std::memcpy(&sh, bytes.data() + off, sizeof(sh));
    off += sizeof(sh);
    if (sh.reserved != 0)
      return "section reserved not zero";
    if (sh.size % 8 != 0)
      return "section size not a multiple of 8";
    if (sh.size > n - off)
      return "section payload past the end";
    const size_t payload = off, payloadEnd = off + sh.size;
    d.sectionKinds.push_back(sh.kind);
    switch (sh.kind) {
    case TPUPROF_SECTION_MODULE: {
      ModuleSection m;
      if (sh.size < sizeof(m.head))
        return "module section too small";
      std::memcpy(&m.head, bytes.data() + payload, sizeof(m.head));
      size_t used = sizeof(m.head) + m.head.table_size;
      if (m.head.table_size > sh.size || used > sh.size || sh.size - used >= 8)
        return "module table_size disagrees with the section size";
      m.table = bytes.substr(payload + sizeof(m.head), m.head.table_size);
      if (!allZero(bytes, payload + used, payloadEnd))
        return "module padding not zero";
      d.modules.push_back(std::move(m));
      break;
    }
    case TPUPROF_SECTION_EVENTS: {
      tpuprof_events_section ev;
      if (sh.size < sizeof(ev))
        return "events section too small";
      std::memcpy(&ev, bytes.data() + payload, sizeof(ev));
      if (ev.reserved != 0)
        return "events reserved not zero";
      d.numEvents = ev.count;
      size_t p = payload + sizeof(ev);
      for (uint32_t i = 0; i < ev.count; ++i) {
        size_t z = bytes.find('\0', p);
        if (z == std::string::npos || z >= payloadEnd)
          return "event name not terminated";
        d.eventNames.push_back(bytes.substr(p, z - p));
        p = z + 1;
      }
      if (payloadEnd - p >= 8 || !allZero(bytes, p, payloadEnd))
        return "events padding wrong";
      break;
    }
    case TPUPROF_SECTION_THREAD: {
      ThreadSection t;
      if (sh.size < sizeof(t.head))
        return "thread section too small";
      std::memcpy(&t.head, bytes.data() + payload, sizeof(t.head));
      if (t.head.stream_size != sh.size - sizeof(t.head))
        return "stream_size disagrees with the section size";
      std::string bad = parseRecords(bytes, payload + sizeof(t.head),
                                     payloadEnd, d.numEvents, t.records);
      if (!bad.empty())
        return bad;
      if (t.records.size() != t.head.num_records)
        return "num_records disagrees with the stream";
      droppedSum += t.head.dropped;
      d.threads.push_back(std::move(t));
      break;
    }
    case TPUPROF_SECTION_CALIBRATION: {
      if (d.hasCalibration)
        return "second calibration section";
      // The counts follow when the EVENTS section (written before) names
      // any counter words.
      uint64_t counts =
          sh.size == sizeof(d.calibration) ? 0 : uint64_t(d.numEvents);
      if (sh.size !=
          sizeof(d.calibration) + counts * sizeof(tpuprof_calibration_counts))
        return "calibration section size wrong";
      if (!d.threads.empty())
        return "calibration section after a thread section";
      std::memcpy(&d.calibration, bytes.data() + payload,
                  sizeof(d.calibration));
      d.calibrationCounts.resize(counts);
      if (counts)
        std::memcpy(d.calibrationCounts.data(),
                    bytes.data() + payload + sizeof(d.calibration),
                    counts * sizeof(tpuprof_calibration_counts));
      if (d.calibration.read_ticks > d.calibration.nested_ticks)
        return "calibration read_ticks exceeds nested_ticks";
      d.hasCalibration = true;
      break;
    }
    case TPUPROF_SECTION_SEGMENT: {
      SegmentSection g;
      if (sh.size < sizeof(g.head))
        return "segment section too small";
      std::memcpy(&g.head, bytes.data() + payload, sizeof(g.head));
      g.sectionSize = sh.size;
      if (g.head.stream_size > sh.size - sizeof(g.head))
        return "segment stream_size past its section";
      size_t p = payload + sizeof(g.head);
      std::string bad = parseRecords(bytes, p, p + g.head.stream_size,
                                     d.numEvents, g.records);
      if (!bad.empty())
        return bad;
      d.segments.push_back(std::move(g));
      break;
    }
    case TPUPROF_SECTION_PROCESS: {
      if (d.hasProcess)
        return "second process section";
      if (sh.size != sizeof(d.process))
        return "process section size wrong";
      if (!d.threads.empty() || !d.segments.empty())
        return "process section after a record section";
      std::memcpy(&d.process, bytes.data() + payload, sizeof(d.process));
      if (d.process.rank_source >= TPUPROF_RANK_SOURCE_COUNT)
        return "process rank source unknown";
      if (d.process.host[sizeof(d.process.host) - 1] != '\0' ||
          d.process.job_id[sizeof(d.process.job_id) - 1] != '\0')
        return "process string not terminated";
      d.hasProcess = true;
      break;
    }
    case TPUPROF_SECTION_DEVICE: {
      if (d.hasDevice)
        return "second DEVICE section";
      if (sh.size < sizeof(d.device))
        return "DEVICE section too small";
      std::memcpy(&d.device, bytes.data() + payload, sizeof(d.device));
      const tpuprof_device_section &h = d.device;
      uint64_t need = sizeof(h) + h.num_clocks * sizeof(tpuprof_device_clock) +
                      h.num_queues * sizeof(tpuprof_device_queue) +
                      h.num_records * sizeof(tpuprof_device_record) +
                      h.names_size;
      if (need > sh.size || sh.size - need >= 8)
        return "DEVICE section size does not match its counts";
      size_t p = payload + sizeof(h);
      d.deviceClocks.resize(h.num_clocks);
      std::memcpy(d.deviceClocks.data(), bytes.data() + p,
                  h.num_clocks * sizeof(tpuprof_device_clock));
      p += h.num_clocks * sizeof(tpuprof_device_clock);
      d.deviceQueues.resize(h.num_queues);
      std::memcpy(d.deviceQueues.data(), bytes.data() + p,
                  h.num_queues * sizeof(tpuprof_device_queue));
      p += h.num_queues * sizeof(tpuprof_device_queue);
      d.deviceRecords.resize(h.num_records);
      std::memcpy(d.deviceRecords.data(), bytes.data() + p,
                  h.num_records * sizeof(tpuprof_device_record));
      p += h.num_records * sizeof(tpuprof_device_record);
      d.deviceNames = bytes.substr(p, h.names_size);
      for (const tpuprof_device_record &r : d.deviceRecords)
        if (r.kind != TPUPROF_RECORD_DEVICE || r.num_words != 6 ||
            r.queue >= h.num_queues || r.name >= h.names_size ||
            r.end < r.start)
          return "bad device record";
      d.hasDevice = true;
      break;
    }
    default:
      return "unknown section kind " + std::to_string(sh.kind);
    }
    off = payloadEnd;
  }
  if (off != n)
    return "bytes after the last section";
  // Segments join their threads: by thread number, then in seq order.
  std::vector<const SegmentSection *> order;
  for (const SegmentSection &g : d.segments)
    order.push_back(&g);
  std::sort(order.begin(), order.end(), [](auto *a, auto *b) {
    return a->head.thread != b->head.thread ? a->head.thread < b->head.thread
                                            : a->head.seq < b->head.seq;
  });
  for (size_t i = 0; i < order.size(); ++i) {
    const tpuprof_segment_section &g = order[i]->head;
    if (i == 0 || order[i - 1]->head.thread != g.thread) {
      if (g.thread != (i == 0 ? 0 : order[i - 1]->head.thread + 1))
        return "thread numbers are not 0, 1, 2, ...";
      d.threads.emplace_back();
      std::memset(&d.threads.back().head, 0, sizeof(tpuprof_thread_section));
      d.threads.back().head.tid = g.tid;
    } else if (order[i - 1]->head.seq >= g.seq) {
      return "segment seq not ascending";
    } else if (order[i - 1]->head.tid != g.tid) {
      return "a thread's segments name two tids";
    }
    ThreadSection &t = d.threads.back();
    uint64_t dropped = g.dropped_full + g.dropped_overwritten +
                       g.dropped_depth + g.dropped_no_space;
    t.head.dropped += dropped;
    t.head.num_records += order[i]->records.size();
    t.head.stream_size += g.stream_size;
    t.droppedFull += g.dropped_full;
    t.droppedOverwritten += g.dropped_overwritten;
    t.droppedDepth += g.dropped_depth;
    t.droppedNoSpace += g.dropped_no_space;
    t.unwound += g.unwound;
    ++t.segments;
    t.records.insert(t.records.end(), order[i]->records.begin(),
                     order[i]->records.end());
    droppedSum += dropped;
  }
  // A thread that took a segment and never recorded (the enabling thread
  // takes its first one when the window opens) is no thread of the dump.
  d.threads.erase(std::remove_if(d.threads.begin(), d.threads.end(),
                                 [](const ThreadSection &t) {
                                   return t.records.empty() &&
                                          !t.head.dropped && !t.unwound;
                                 }),
                  d.threads.end());
  if (h.dropped < droppedSum)
    return "header dropped is less than the threads' sum";
  return "";
}

inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

/// Reads and parses the dump at `path`. Returns "" or what is wrong.
inline std::string parseDump(const std::string &path, Dump &d) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return "cannot open " + path;
  return parseDumpBytes(readFile(path), d);
}

/// ns of tick value `t`, by the header's calibration formula.
inline double ticksToNs(const tpuprof_dump_header &h, uint64_t t) {
  double scale = double(h.calib_ns1 - h.calib_ns0) /
                 double(h.calib_ticks1 - h.calib_ticks0);
  return double(h.calib_ns0) + (double(t) - double(h.calib_ticks0)) * scale;
}

} // namespace tpuprof_test

#endif // TPUPROF_TEST_RUNTIME_DUMPPARSER_H
