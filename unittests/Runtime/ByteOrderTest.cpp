//===- ByteOrderTest.cpp - The layouts a big-endian runtime swaps ---------===//
//
// A big-endian runtime stores dumps little-endian by swapping each struct by
// its layout (rt_byte_order.h). The layouts must cover every byte of their
// structs and swap each field, and no more; on this (little-endian) host the
// conversions must be nothing. The whole path runs under qemu-s390x in
// test/boards/s390x.test.
//
//===----------------------------------------------------------------------===//

#include "rt_internal.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

TEST(ByteOrder, EveryLayoutSpansItsStruct) {
  struct {
    const char *layout;
    size_t size;
  } cases[] = {
      {TPUPROF_RT_LAYOUT_TABLE_HEADER, sizeof(tpuprof_table_header)},
      {TPUPROF_RT_LAYOUT_PROBE_DESC, sizeof(tpuprof_probe_desc)},
      {TPUPROF_RT_LAYOUT_RECORD, sizeof(tpuprof_record)},
      {TPUPROF_RT_LAYOUT_DEVICE_RECORD, sizeof(tpuprof_device_record)},
      {TPUPROF_RT_LAYOUT_DEVICE_CLOCK, sizeof(tpuprof_device_clock)},
      {TPUPROF_RT_LAYOUT_DEVICE_QUEUE, sizeof(tpuprof_device_queue)},
      {TPUPROF_RT_LAYOUT_DEVICE_SECTION, sizeof(tpuprof_device_section)},
      {TPUPROF_RT_LAYOUT_DUMP_HEADER, sizeof(tpuprof_dump_header)},
      {TPUPROF_RT_LAYOUT_SECTION_HEADER, sizeof(tpuprof_section_header)},
      {TPUPROF_RT_LAYOUT_MODULE_SECTION, sizeof(tpuprof_module_section)},
      {TPUPROF_RT_LAYOUT_EVENTS_SECTION, sizeof(tpuprof_events_section)},
      {TPUPROF_RT_LAYOUT_CALIBRATION, sizeof(tpuprof_calibration_section)},
      {TPUPROF_RT_LAYOUT_CALIBRATION_COUNTS,
       sizeof(tpuprof_calibration_counts)},
      {TPUPROF_RT_LAYOUT_SEGMENT_SECTION, sizeof(tpuprof_segment_section)},
      {TPUPROF_RT_LAYOUT_PROCESS_SECTION, sizeof(tpuprof_process_section)},
  };
  for (const auto &c : cases)
    EXPECT_EQ(__tpuprof_rt_layout_size(c.layout), c.size) << c.layout;
}

/// Each field is swapped on its own, where its struct puts it.
TEST(ByteOrder, SwapsEachFieldInPlace) {
  tpuprof_record r;
  r.probe = 0x01020304u;
  r.num_dims = 5;
  r.num_counters = 6;
  r.depth = 0x0708u;
  r.begin = 0x1112131415161718ull;
  r.end = 0x2122232425262728ull;
  __tpuprof_rt_swap_layout(&r, TPUPROF_RT_LAYOUT_RECORD, 1);
  EXPECT_EQ(r.probe, 0x04030201u);
  EXPECT_EQ(r.num_dims, 5u);
  EXPECT_EQ(r.num_counters, 6u);
  EXPECT_EQ(r.depth, 0x0807u);
  EXPECT_EQ(r.begin, 0x1817161514131211ull);
  EXPECT_EQ(r.end, 0x2827262524232221ull);

  // Byte arrays (the magic, a host name) stay as they are.
  tpuprof_process_section p;
  std::memset(&p, 0, sizeof(p));
  p.rank = 1;
  std::strcpy(p.host, "board");
  p.offsets[TPUPROF_OFFSET_FINALIZE].error_ns = 0xff;
  __tpuprof_rt_swap_layout(&p, TPUPROF_RT_LAYOUT_PROCESS_SECTION, 1);
  EXPECT_EQ(p.rank, 0x01000000u);
  EXPECT_STREQ(p.host, "board");
  EXPECT_EQ(p.offsets[TPUPROF_OFFSET_FINALIZE].error_ns, 0xffull << 56);
}

TEST(ByteOrder, SwapsConsecutiveStructs) {
  tpuprof_device_queue q[2] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  __tpuprof_rt_swap_layout(q, TPUPROF_RT_LAYOUT_DEVICE_QUEUE, 2);
  EXPECT_EQ(q[0].api, 0x01000000u);
  EXPECT_EQ(q[1].number, 0x08000000u);
}

TEST(ByteOrder, NothingOnALittleEndianHost) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  EXPECT_EQ(TPUPROF_RT_BIG_ENDIAN, 0);
  EXPECT_EQ(TPUPROF_RT_LE32(0x01020304u), 0x01020304u);
  tpuprof_section_header h = {TPUPROF_SECTION_SEGMENT, 0, 64};
  __tpuprof_rt_le_layout(&h, TPUPROF_RT_LAYOUT_SECTION_HEADER, 1);
  EXPECT_EQ(h.kind, (uint32_t)TPUPROF_SECTION_SEGMENT);
  EXPECT_EQ(h.size, 64u);
#else
  GTEST_SKIP() << "a big-endian host";
#endif
}

} // namespace
