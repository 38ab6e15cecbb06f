//===- tpuprof/report/model/Memory.h - Live bytes over a dump ---*- C++ -*-===//
//
// The memory records (format.h, version 5) of every thread of a dump in one
// time order: each buffer's lifetime, the live bytes after every event, the
// peak and where it happened, and the highest live bytes over any interval
// (an op's "Peak (B)").
//
// Live bytes count what was allocated in the window and not yet freed: a
// buffer allocated before the window, or by code that is not instrumented,
// is not in them, and a free of it is counted as untracked. A stack buffer
// (memref.alloca) has no free: it lives until the probe around it ends.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_MEMORY_H
#define TPUPROF_REPORT_MODEL_MEMORY_H

#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <vector>

namespace tpuprof {
namespace report {

/// No probe: an event outside every probe.
constexpr uint32_t kNoProbe = UINT32_MAX;

/// One allocation's lifetime.
struct AllocatedBuffer {
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t allocTicks = 0;
  /// When it was freed; 0 while it was still live at the window's end.
  uint64_t freeTicks = 0;
  uint32_t thread = 0;       ///< Index into DumpReader::threads() of the alloc.
  uint32_t probe = kNoProbe; ///< The probe that allocated it.
  uint8_t source = TPUPROF_SOURCE_HEAP; ///< tpuprof_memory_source
};

/// The live bytes right after an event.
struct MemoryPoint {
  uint64_t ticks = 0;
  uint64_t live = 0;
};

class MemoryTimeline {
public:
  /// Reads every memory record of `dump` (none: an empty timeline).
  explicit MemoryTimeline(const DumpReader &dump);

  bool empty() const { return points.empty(); }
  /// Buffers in the order they were allocated.
  llvm::ArrayRef<AllocatedBuffer> buffers() const { return bufferList; }
  /// Live bytes after each event, in time order.
  llvm::ArrayRef<MemoryPoint> timeline() const { return points; }

  uint64_t allocs = 0, allocBytes = 0;
  uint64_t frees = 0, freedBytes = 0;
  /// Frees of addresses no tracked allocation gave out.
  uint64_t untrackedFrees = 0;
  /// The highest live bytes and the first event that reached it: when, on
  /// which thread, inside which probe (kNoProbe: outside every probe).
  uint64_t peakBytes = 0;
  uint64_t peakTicks = 0;
  uint32_t peakThread = 0;
  uint32_t peakProbe = kNoProbe;
  /// Live bytes at the window's end.
  uint64_t liveAtEnd() const { return points.empty() ? 0 : points.back().live; }

  /// The bytes the free recorded at file offset `offset` released (0 for an
  /// untracked free).
  uint64_t freedSize(uint64_t offset) const {
    auto it = freedAt.find(offset);
    return it == freedAt.end() ? 0 : it->second;
  }
  /// The highest live bytes from `begin` to `end` (ticks, inclusive): at
  /// `begin` and after every event up to `end`.
  uint64_t peakDuring(uint64_t begin, uint64_t end) const;

private:
  std::vector<AllocatedBuffer> bufferList;
  std::vector<MemoryPoint> points;
  llvm::DenseMap<uint64_t, uint64_t> freedAt;
  /// A max segment tree over points' live bytes: leaves at [n, 2n).
  std::vector<uint64_t> tree;
};

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_MEMORY_H
