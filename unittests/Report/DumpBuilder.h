//===- DumpBuilder.h - Build dump images by hand -------------- -*- C++ -*-===//
//
// Writes dump byte images per include/tpuprof/format.h, independently of the
// runtime's writer, so the reader is tested against the format rather than
// against one implementation of it. Defaults describe a small valid dump;
// tests change fields to produce the corruption they want.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TEST_REPORT_DUMPBUILDER_H
#define TPUPROF_TEST_REPORT_DUMPBUILDER_H

#include "tpuprof/ProbeTable.h"
#include "tpuprof/format.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace tpuprof {
namespace test {

struct TestRecord {
  uint32_t probe = 0;
  uint16_t depth = 0;
  uint64_t begin = 0;
  uint64_t end = 0;
  std::vector<int64_t> dims;
  std::vector<uint64_t> counters;
};

struct TestThread {
  uint64_t tid = 1;
  uint64_t dropped = 0;
  std::vector<TestRecord> records;
};

struct TestModule {
  uint32_t moduleId = 0;
  uint32_t firstProbe = 0;
  std::string table; ///< serializeProbeTable() output (or garbage).
};

/// Test clock: 2 ticks per ns, so tick values are twice the ns they mean.
constexpr uint64_t kTicksPerNs = 2;
constexpr uint64_t kTick0 = 1000;

/// Ticks at `ns` nanoseconds after the calibration origin.
inline uint64_t ticksAt(uint64_t ns) { return kTick0 + kTicksPerNs * ns; }

class DumpBuilder {
public:
  tpuprof_dump_header header;
  std::vector<TestModule> modules;
  std::optional<std::vector<std::string>> events; ///< No section if unset.
  /// CALIBRATION section (after EVENTS); none if unset.
  std::optional<tpuprof_calibration_section> calibration;
  /// Written after `calibration` (version 3): one per counter word.
  std::vector<tpuprof_calibration_counts> calibrationCounts;
  /// PROCESS section (after CALIBRATION); none if unset.
  std::optional<tpuprof_process_section> process;
  std::vector<TestThread> threads;
  /// A DEVICE section's payload (version 6), written last; none if unset.
  std::optional<std::string> device;

  DumpBuilder() {
    std::memset(&header, 0, sizeof(header));
    std::memcpy(header.magic, TPUPROF_DUMP_MAGIC, 8);
    header.version = TPUPROF_DUMP_VERSION;
    header.header_size = sizeof(tpuprof_dump_header);
    header.mode = 0;
    header.device = 0;
    header.pid = 4242;
    header.call_num = 0;
    header.clock_source = TPUPROF_CLOCK_TSC;
    header.flags = TPUPROF_DUMP_COMPLETE;
    header.calib_ticks0 = kTick0;
    header.calib_ns0 = 5000;
    header.calib_ticks1 = ticksAt(1000000); // 1 ms calibration span.
    header.calib_ns1 = 5000 + 1000000;
    header.window_begin = ticksAt(0);
    header.window_end = ticksAt(1000); // 1 us window by default.
  }

  /// Adds a CALIBRATION section: the probe cost in ns of the test clock
  /// (`readNs`: the mean READ_TICKS part of `nestedNs`).
  void calibrate(uint64_t selfNs, uint64_t nestedNs, uint32_t pairs = 1024,
                 uint32_t readNs = 0) {
    calibration = tpuprof_calibration_section{kTicksPerNs * selfNs,
                                              kTicksPerNs * nestedNs, pairs,
                                              uint32_t(kTicksPerNs * readNs)};
  }

  /// Adds a module whose probes get ids from `firstProbe`.
  void addModule(uint32_t id, uint32_t firstProbe, llvm::StringRef name,
                 llvm::ArrayRef<ProbeInfo> probes) {
    modules.push_back({id, firstProbe, serializeProbeTable(name, probes)});
  }

  /// The image; `sectionOffsets` (if given) receives each section header's
  /// file offset in the order modules, events, calibration, threads.
  std::string build(std::vector<uint64_t> *sectionOffsets = nullptr) const {
    std::vector<std::pair<uint32_t, std::string>> sections;
    for (const TestModule &m : modules) {
      tpuprof_module_section ms{m.moduleId, m.firstProbe, m.table.size()};
      sections.push_back({TPUPROF_SECTION_MODULE, raw(ms) + m.table});
    }
    if (events) {
      tpuprof_events_section es{uint32_t(events->size()), 0};
      std::string payload = raw(es);
      for (const std::string &e : *events)
        payload += e + '\0';
      sections.push_back({TPUPROF_SECTION_EVENTS, payload});
    }
    if (calibration) {
      std::string payload = raw(*calibration);
      for (const tpuprof_calibration_counts &c : calibrationCounts)
        payload += raw(c);
      sections.push_back({TPUPROF_SECTION_CALIBRATION, payload});
    }
    if (process)
      sections.push_back({TPUPROF_SECTION_PROCESS, raw(*process)});
    for (const TestThread &t : threads) {
      std::string stream;
      for (const TestRecord &r : t.records) {
        tpuprof_record rec;
        std::memset(&rec, 0, sizeof(rec));
        rec.probe = r.probe;
        rec.num_dims = uint8_t(r.dims.size());
        rec.num_counters = uint8_t(r.counters.size());
        rec.depth = r.depth;
        rec.begin = r.begin;
        rec.end = r.end;
        stream += raw(rec);
        for (int64_t d : r.dims)
          stream += raw(d);
        for (uint64_t c : r.counters)
          stream += raw(c);
      }
      tpuprof_thread_section ts{t.tid, t.dropped, t.records.size(),
                                stream.size()};
      sections.push_back({TPUPROF_SECTION_THREAD, raw(ts) + stream});
    }

    if (device)
      sections.push_back({TPUPROF_SECTION_DEVICE, *device});

    tpuprof_dump_header h = header;
    h.num_sections = uint32_t(sections.size());
    std::string out = raw(h);
    out.resize(header.header_size >= sizeof(h) ? header.header_size : sizeof(h),
               '\0');
    for (auto &[kind, payload] : sections) {
      while (payload.size() % 8)
        payload.push_back('\0');
      if (sectionOffsets)
        sectionOffsets->push_back(out.size());
      tpuprof_section_header sh{kind, 0, payload.size()};
      out += raw(sh) + payload;
    }
    return out;
  }

  template <typename T> static std::string raw(const T &v) {
    return std::string(reinterpret_cast<const char *>(&v), sizeof(v));
  }
};

/// Overwrites sizeof(T) bytes of `image` at `offset` with `v`.
template <typename T>
void patch(std::string &image, uint64_t offset, const T &v) {
  std::memcpy(&image[offset], &v, sizeof(v));
}

} // namespace test
} // namespace tpuprof

#endif // TPUPROF_TEST_REPORT_DUMPBUILDER_H
