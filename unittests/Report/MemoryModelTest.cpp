//===- MemoryModelTest.cpp - Memory records in the report -----------------===//
//
// Memory records written by the real runtime, read back into the rows'
// Alloc / Self Alloc / Freed / Peak, the summary's peak and the live-bytes
// timeline: nested probes, a buffer freed by a later op, a free of a buffer
// the window never saw allocated, a stack buffer ending with its probe.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/ProbeTable.h"
#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/model/Memory.h"
#include "tpuprof/report/views/Table.h"
#include "tpuprof/tpuprof.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstddef>
#include <cstring>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// Distinct fake addresses: the runtime records them, never touches them.
const void *at(uintptr_t a) { return reinterpret_cast<const void *>(a); }

class MemoryModel : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tpuprof-mem", dir));
    std::string table = serializeProbeTable(
        "memory", {probe("func.call", "f32[64, 128]", "m.mlir:3:5", 0x100),
                   probe("tosa.add", "f32[64, 128]", "m.mlir:7:5", 0x200),
                   probe("tosa.mul", "f32[64, 128]", "m.mlir:8:5", 0x300)});
    __tpuprof_register_module(table.data(), table.size(), &first);
    ASSERT_NE(first, UINT32_MAX);
    tpuprof_set_output(dir.c_str(), 0);
  }
  void TearDown() override {
    tpuprof_set_memory(0);
    llvm::sys::fs::remove_directories(dir);
  }
  const Row *row(const Profile &p, llvm::StringRef name) {
    for (const Row &r : p.rows)
      if (r.name == name)
        return &r;
    return nullptr;
  }

  llvm::SmallString<128> dir;
  uint32_t first = UINT32_MAX;
};

TEST_F(MemoryModel, NestedOpsAndLaterFrees) {
  tpuprof_set_memory(1);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  const uint32_t call = first, add = first + 1, mul = first + 2;
  const uint64_t kB = 32768; // A 64x128 f32 buffer.
  for (int i = 0; i != 2; ++i) {
    __tpuprof_begin(call);
    __tpuprof_begin(add);
    __tpuprof_alloc(at(0x1000), kB, TPUPROF_SOURCE_MEMREF);
    __tpuprof_end(add);
    __tpuprof_begin(mul);
    __tpuprof_alloc(at(0x2000), kB, TPUPROF_SOURCE_MEMREF);
    __tpuprof_free(at(0x1000), TPUPROF_SOURCE_MEMREF);      // add's, by mul
    __tpuprof_alloc(at(0x3000), 256, TPUPROF_SOURCE_STACK); // ends with mul
    __tpuprof_end(mul);
    __tpuprof_end(call);
    __tpuprof_free(at(0x2000), TPUPROF_SOURCE_MEMREF); // outside every op
  }
  __tpuprof_free(at(0x9000), TPUPROF_SOURCE_HEAP); // never allocated here
  ASSERT_EQ(tpuprof_disable(), 0);

  llvm::Expected<Profile> p = aggregateDumps({std::string(dir)});
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  const Row *c = row(*p, "func.call"), *a = row(*p, "tosa.add"),
            *m = row(*p, "tosa.mul");
  ASSERT_TRUE(c && a && m);
  for (const Row *r : {c, a, m}) {
    EXPECT_TRUE(r->memoryRecorded);
  }
  EXPECT_EQ(a->allocBytes, 2 * kB);
  EXPECT_EQ(a->selfAllocBytes, 2 * kB);
  EXPECT_EQ(a->freedBytes, 0u);
  EXPECT_EQ(m->allocBytes, 2 * (kB + 256));
  EXPECT_EQ(m->selfAllocBytes, 2 * (kB + 256));
  EXPECT_EQ(m->freedBytes, 2 * kB); // add's buffer, freed inside mul
  // The call holds both: nested included, nothing of its own.
  EXPECT_EQ(c->allocBytes, 2 * (2 * kB + 256));
  EXPECT_EQ(c->selfAllocBytes, 0u);
  EXPECT_EQ(c->freedBytes, 2 * kB);
  // Live: 32768 after add; 65536 inside mul before add's buffer is freed.
  EXPECT_EQ(a->peakBytes, kB);
  EXPECT_EQ(m->peakBytes, 2 * kB);
  EXPECT_EQ(c->peakBytes, 2 * kB);

  ASSERT_EQ(p->dumps.size(), 1u);
  const MemorySummary &s = p->dumps[0].memory;
  EXPECT_TRUE(s.tracked);
  EXPECT_EQ(s.allocs, 6u);
  EXPECT_EQ(s.allocBytes, 2 * (2 * kB + 256));
  EXPECT_EQ(s.frees, 5u);
  EXPECT_EQ(s.untrackedFrees, 1u);
  EXPECT_EQ(s.freedBytes, 4 * kB);
  EXPECT_EQ(s.peakBytes, 2 * kB);
  EXPECT_EQ(s.peakOp, "tosa.mul [f32[64, 128]] at m.mlir:8:5");
  EXPECT_EQ(s.liveAtEnd, 0u);

  // The table shows the columns; --sort self_alloc puts mul first.
  TableOptions opts;
  opts.sortColumn = "self_alloc";
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::Error err = printTable({std::string(dir)}, opts, os);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_TRUE(contains(out, "Self Alloc (B)")) << out;
  EXPECT_TRUE(contains(out, "Peak (B)")) << out;
  EXPECT_LT(out.find("tosa.mul"), out.find("tosa.add")) << out;
}

TEST_F(MemoryModel, TimelineAndBuffers) {
  tpuprof_set_memory(1);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  __tpuprof_begin(first + 1);
  __tpuprof_alloc(at(0x10), 100, TPUPROF_SOURCE_HEAP);
  __tpuprof_alloc(at(0x20), 50, TPUPROF_SOURCE_HEAP);
  __tpuprof_end(first + 1);
  __tpuprof_free(at(0x10), TPUPROF_SOURCE_HEAP);
  // The same address again without a free: the first buffer ended unseen.
  __tpuprof_alloc(at(0x20), 10, TPUPROF_SOURCE_HEAP);
  ASSERT_EQ(tpuprof_disable(), 0);

  llvm::Expected<DumpReader> reader =
      DumpReader::open(tpuprof_last_dump_path());
  ASSERT_TRUE(bool(reader)) << llvm::toString(reader.takeError());
  EXPECT_TRUE(reader->hasMemoryEvents());
  MemoryTimeline t(*reader);
  std::vector<uint64_t> live;
  for (const MemoryPoint &pt : t.timeline())
    live.push_back(pt.live);
  EXPECT_EQ(live, (std::vector<uint64_t>{100, 150, 50, 10}));
  ASSERT_EQ(t.buffers().size(), 3u);
  EXPECT_EQ(t.buffers()[0].probe, first + 1);
  EXPECT_NE(t.buffers()[0].freeTicks, 0u);
  EXPECT_NE(t.buffers()[1].freeTicks, 0u); // replaced by the third
  EXPECT_EQ(t.buffers()[2].freeTicks, 0u); // live at the end
  EXPECT_EQ(t.buffers()[2].probe, kNoProbe);
  EXPECT_EQ(t.peakBytes, 150u);
  EXPECT_EQ(t.liveAtEnd(), 10u);
  EXPECT_EQ(t.peakDuring(0, UINT64_MAX), 150u);
  EXPECT_EQ(t.peakDuring(t.timeline()[2].ticks, UINT64_MAX), 150u); // at begin
  EXPECT_EQ(t.peakDuring(t.timeline()[3].ticks, UINT64_MAX), 50u);
}

TEST_F(MemoryModel, ReaderChecksMemoryRecords) {
  tpuprof_set_memory(1);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  __tpuprof_alloc(at(0x10), 100, TPUPROF_SOURCE_HEAP);
  ASSERT_EQ(tpuprof_disable(), 0);
  auto buf = llvm::MemoryBuffer::getFile(tpuprof_last_dump_path());
  ASSERT_TRUE(bool(buf));
  std::string bytes = (*buf)->getBuffer().str();
  const uint32_t kind = TPUPROF_RECORD_MEMORY;
  size_t at = bytes.find(std::string(reinterpret_cast<const char *>(&kind), 4));
  ASSERT_NE(at, std::string::npos);
  ASSERT_TRUE(bool(DumpReader::fromBytes(bytes, "m.dump")));

  std::string badEvent = bytes;
  badEvent[at + offsetof(tpuprof_memory_record, event)] = 7;
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(badEvent, "m.dump");
  ASSERT_FALSE(bool(r));
  EXPECT_TRUE(contains(llvm::toString(r.takeError()),
                       "is a memory record of an unknown event"));

  // Version 4 defined no record kind: the same record is unknown there.
  std::string v4 = bytes;
  const uint32_t four = 4;
  std::memcpy(&v4[offsetof(tpuprof_dump_header, version)], &four, 4);
  r = DumpReader::fromBytes(v4, "m.dump");
  ASSERT_FALSE(bool(r));
  EXPECT_TRUE(contains(llvm::toString(r.takeError()),
                       "is of a record kind this reader does not know"));
}

TEST_F(MemoryModel, WithoutTrackingThereAreNoMemoryFigures) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  __tpuprof_begin(first + 1);
  __tpuprof_end(first + 1);
  ASSERT_EQ(tpuprof_disable(), 0);
  llvm::Expected<Profile> p = aggregateDumps({std::string(dir)});
  ASSERT_TRUE(bool(p)) << llvm::toString(p.takeError());
  ASSERT_FALSE(p->rows.empty());
  EXPECT_FALSE(p->rows[0].memoryRecorded);
  EXPECT_FALSE(p->dumps[0].memory.tracked);
  std::string out;
  llvm::raw_string_ostream os(out);
  ASSERT_FALSE(bool(printTable({std::string(dir)}, TableOptions(), os)));
  EXPECT_FALSE(contains(out, "Alloc (B)")) << out;
}

} // namespace
