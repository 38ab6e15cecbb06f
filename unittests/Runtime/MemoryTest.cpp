//===- unittests/Runtime/MemoryTest.cpp - Memory records ------------------===//
//
// The memory entries of the probe ABI (format.h, "memory record"): what
// switches them on, what each records, and the records' frame in the
// thread's stream among the probe pairs.
//
//===----------------------------------------------------------------------===//

#include "DumpParser.h"
#include "OutputDirTest.h"
#include "tpuprof/tpuprof.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <vector>

using namespace tpuprof_test;

namespace {

class Memory : public tpuprof::test::OutputDirTest {
protected:
  void TearDown() override {
    tpuprof_set_memory(0);
    OutputDirTest::TearDown();
  }
  /// The memory records of every thread of `d`, in stream order.
  static std::vector<tpuprof_memory_record> memoryOf(const Dump &d) {
    std::vector<tpuprof_memory_record> out;
    for (const ThreadSection &t : d.threads)
      for (const Record &r : t.records)
        if (r.isMemory)
          out.push_back(r.mem);
    return out;
  }
};

/// A buffer's address as the records keep it.
uint64_t addr(const void *p) { return (uint64_t)(uintptr_t)p; }

TEST_F(Memory, OffUnlessAskedForOrMode2) {
  EXPECT_EQ(__tpuprof_memory, 0u);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  EXPECT_EQ(__tpuprof_memory, 0u);
  int x;
  __tpuprof_alloc(&x, 4, TPUPROF_SOURCE_HEAP); // Not recorded: tracking off.
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  EXPECT_TRUE(memoryOf(d).empty());
  EXPECT_EQ(d.header.flags & TPUPROF_DUMP_MEMORY, 0u);

  ASSERT_EQ(tpuprof_enable(0, 2), 0); // Mode 2 always tracks.
  EXPECT_NE(__tpuprof_memory, 0u);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(__tpuprof_memory, 0u); // Cleared with the window.
  EXPECT_NE(lastDump().header.flags & TPUPROF_DUMP_MEMORY, 0u);

  EXPECT_EQ(tpuprof_set_memory(1), 0);
  EXPECT_EQ(__tpuprof_memory, 0u); // No window yet.
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  EXPECT_NE(__tpuprof_memory, 0u);
  EXPECT_EQ(tpuprof_set_memory(0), 1); // At once, in the open window.
  EXPECT_EQ(__tpuprof_memory, 0u);
  ASSERT_EQ(tpuprof_disable(), 0);
}

TEST_F(Memory, EventsAreAttributedToTheInnermostOpenProbe) {
  tpuprof_set_memory(1);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  void *outside = std::malloc(16);
  __tpuprof_alloc(outside, 16, TPUPROF_SOURCE_HEAP);
  __tpuprof_begin(7);
  void *a = std::malloc(32768);
  __tpuprof_alloc(a, 32768, TPUPROF_SOURCE_MEMREF);
  __tpuprof_begin(8);
  __tpuprof_free(a, TPUPROF_SOURCE_MEMREF);
  std::free(a);
  __tpuprof_end(8);
  __tpuprof_end(7);
  __tpuprof_free(outside, TPUPROF_SOURCE_HEAP);
  std::free(outside);
  __tpuprof_alloc(nullptr, 8, TPUPROF_SOURCE_HEAP); // NULL: nothing.
  ASSERT_EQ(tpuprof_disable(), 0);

  Dump d = lastDump();
  ASSERT_GE(d.header.version, 5u); // Memory records since version 5.
  ASSERT_EQ(d.threads.size(), 1u);
  const std::vector<Record> &recs = d.threads[0].records;
  // Stream order: alloc(outside), pair 7, alloc(a), pair 8, free(a),
  // free(outside).
  ASSERT_EQ(recs.size(), 6u);
  const bool memory[] = {true, false, true, false, true, true};
  for (size_t i = 0; i != recs.size(); ++i) {
    EXPECT_EQ(recs[i].isMemory, memory[i]) << i;
  }
  const tpuprof_memory_record &m0 = recs[0].mem, &m2 = recs[2].mem,
                              &m4 = recs[4].mem, &m5 = recs[5].mem;
  EXPECT_EQ(m0.probe, UINT32_MAX);
  EXPECT_EQ(m0.depth, 0u);
  EXPECT_EQ(m0.event, TPUPROF_MEMORY_ALLOC);
  EXPECT_EQ(m0.size, 16u);
  EXPECT_EQ(m2.probe, 7u);
  EXPECT_EQ(m2.depth, 1u);
  EXPECT_EQ(m2.size, 32768u);
  EXPECT_EQ(m2.source, TPUPROF_SOURCE_MEMREF);
  EXPECT_EQ(m4.probe, 8u);
  EXPECT_EQ(m4.depth, 2u);
  EXPECT_EQ(m4.event, TPUPROF_MEMORY_FREE);
  EXPECT_EQ(m4.address, m2.address);
  EXPECT_EQ(m4.size, 0u);
  EXPECT_EQ(m5.probe, UINT32_MAX);
  EXPECT_EQ(m5.address, m0.address);
  // Times: inside the probes they are attributed to.
  EXPECT_LE(recs[1].rec.begin, m2.time);
  EXPECT_LE(m2.time, recs[3].rec.begin);
  EXPECT_LE(recs[3].rec.begin, m4.time);
  EXPECT_LE(m4.time, recs[3].rec.end);
  EXPECT_LE(recs[1].rec.end, m5.time);
}

TEST_F(Memory, ReallocAndStatusAllocators) {
  tpuprof_set_memory(1);
  ASSERT_EQ(tpuprof_enable(0, 1), 0); // Counter words do not reach them.
  char a, b, c;
  __tpuprof_realloc(nullptr, &a, 10, TPUPROF_SOURCE_HEAP); // malloc-like
  __tpuprof_realloc(&a, &b, 20, TPUPROF_SOURCE_HEAP);      // moved
  __tpuprof_realloc(&b, nullptr, 30, TPUPROF_SOURCE_HEAP); // failed: kept
  void *out = &c;
  __tpuprof_alloc_out(&out, 40, TPUPROF_SOURCE_DEVICE, 0);
  __tpuprof_alloc_out(&out, 50, TPUPROF_SOURCE_DEVICE, 2); // failed
  __tpuprof_alloc(&c, 1, 99); // Unknown source: nothing.
  ASSERT_EQ(tpuprof_disable(), 0);
  std::vector<tpuprof_memory_record> m = memoryOf(lastDump());
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].event, TPUPROF_MEMORY_ALLOC);
  EXPECT_EQ(m[0].address, addr(&a));
  EXPECT_EQ(m[0].size, 10u);
  EXPECT_EQ(m[1].event, TPUPROF_MEMORY_FREE);
  EXPECT_EQ(m[1].address, addr(&a));
  EXPECT_EQ(m[2].event, TPUPROF_MEMORY_ALLOC);
  EXPECT_EQ(m[2].address, addr(&b));
  EXPECT_EQ(m[2].size, 20u);
  EXPECT_EQ(m[3].address, addr(&c));
  EXPECT_EQ(m[3].size, 40u);
  EXPECT_EQ(m[3].source, TPUPROF_SOURCE_DEVICE);
}

TEST_F(Memory, ThreadsRecordIntoTheirOwnStreams) {
  tpuprof_set_memory(1);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  std::vector<std::thread> threads;
  for (int t = 0; t != 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i != 1000; ++i) {
        void *p = std::malloc(64);
        __tpuprof_alloc(p, 64, TPUPROF_SOURCE_HEAP);
        __tpuprof_free(p, TPUPROF_SOURCE_HEAP);
        std::free(p);
      }
    });
  for (std::thread &t : threads)
    t.join();
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  EXPECT_EQ(d.threads.size(), 4u);
  EXPECT_EQ(memoryOf(d).size(), 8000u);
}

} // namespace
