//===- report/model/Memory.cpp - Live bytes over a dump -------------------===//
//
// Every thread's memory records are gathered, a stack buffer gets a free at
// the end of the record around it, and the events are replayed in time
// order (ties: thread, then stream order) against a map of live buffers.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Memory.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <tuple>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

/// One event as the replay sees it.
struct Event {
  uint64_t ticks = 0;
  uint32_t thread = 0;
  uint64_t seq = 0; ///< Stream order within the thread.
  MemoryEventView view;
  bool implicitFree = false; ///< A stack buffer's end.
};

} // namespace

MemoryTimeline::MemoryTimeline(const DumpReader &dump) {
  if (!dump.hasMemoryEvents())
    return;
  std::vector<Event> events;
  uint32_t threadIndex = 0;
  for (const ThreadInfo &thread : dump.threads()) {
    uint64_t seq = 0;
    // The end of the latest record begun at each depth: a memory record at
    // depth d lies inside the latest one at depth d - 1.
    std::vector<uint64_t> endAtDepth;
    dump.forEachEvent(
        thread,
        [&](const RecordView &r) {
          if (endAtDepth.size() <= r.depth)
            endAtDepth.resize(r.depth + 1, 0);
          endAtDepth[r.depth] = r.end;
          ++seq;
        },
        [&](const MemoryEventView &m) {
          events.push_back({m.time, threadIndex, seq++, m, false});
          if (m.source != TPUPROF_SOURCE_STACK || !m.isAlloc())
            return;
          // Without a finished record around it, a stack buffer's end is
          // unknown: it leaves the live bytes at once.
          uint64_t end = m.depth && m.depth <= endAtDepth.size()
                             ? endAtDepth[m.depth - 1]
                             : 0;
          Event free{std::max(end, m.time), threadIndex, seq++, m, true};
          free.view.event = TPUPROF_MEMORY_FREE;
          events.push_back(free);
        });
    ++threadIndex;
  }
  llvm::stable_sort(events, [](const Event &a, const Event &b) {
    return std::tie(a.ticks, a.thread, a.seq) <
           std::tie(b.ticks, b.thread, b.seq);
  });

  DenseMap<uint64_t, uint32_t> live; // address -> buffer
  uint64_t bytes = 0;
  auto release = [&](uint32_t index, uint64_t ticks) {
    AllocatedBuffer &b = bufferList[index];
    b.freeTicks = ticks;
    bytes -= b.size;
    live.erase(b.address);
  };
  points.reserve(events.size());
  for (const Event &e : events) {
    const MemoryEventView &m = e.view;
    if (m.isAlloc()) {
      // The address was freed where nothing recorded it: that buffer ends.
      if (auto it = live.find(m.address); it != live.end())
        release(it->second, e.ticks);
      live[m.address] = uint32_t(bufferList.size());
      bufferList.push_back(
          {m.address, m.size, e.ticks, 0, e.thread, m.probe, m.source});
      bytes += m.size;
      ++allocs;
      allocBytes += m.size;
    } else if (auto it = live.find(m.address); it != live.end()) {
      uint64_t size = bufferList[it->second].size;
      release(it->second, e.ticks);
      if (!e.implicitFree) {
        freedAt[m.offset] = size;
        ++frees;
        freedBytes += size;
      }
    } else if (!e.implicitFree) {
      ++frees;
      ++untrackedFrees;
    }
    points.push_back({e.ticks, bytes});
    if (bytes > peakBytes) {
      peakBytes = bytes;
      peakTicks = e.ticks;
      peakThread = e.thread;
      peakProbe = m.probe;
    }
  }

  size_t n = points.size();
  tree.assign(2 * n, 0);
  for (size_t i = 0; i != n; ++i)
    tree[n + i] = points[i].live;
  for (size_t i = n; i-- > 1;)
    tree[i] = std::max(tree[2 * i], tree[2 * i + 1]);
}

uint64_t MemoryTimeline::peakDuring(uint64_t begin, uint64_t end) const {
  auto byTicks = [](const MemoryPoint &p, uint64_t t) { return p.ticks < t; };
  size_t lo = std::lower_bound(points.begin(), points.end(), begin, byTicks) -
              points.begin();
  size_t hi = std::upper_bound(points.begin(), points.end(), end,
                               [](uint64_t t, const MemoryPoint &p) {
                                 return t < p.ticks;
                               }) -
              points.begin();
  uint64_t best = lo ? points[lo - 1].live : 0;
  size_t n = points.size();
  for (size_t l = lo + n, r = hi + n; l < r; l >>= 1, r >>= 1) {
    if (l & 1)
      best = std::max(best, tree[l++]);
    if (r & 1)
      best = std::max(best, tree[--r]);
  }
  return best;
}
