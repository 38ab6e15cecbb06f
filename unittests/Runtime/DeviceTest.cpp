//===- unittests/Runtime/DeviceTest.cpp - Device intervals ----------------===//
//
// The backend-independent part of device timing (runtime/device.c,
// docs/device.md): a command's launch reference, its interval converted
// from the device clock to ticks by the window's calibration pairs, the
// DEVICE section and what it counts as dropped. The OpenCL backend itself
// runs on PoCL in test/device.
//
//===----------------------------------------------------------------------===//

#include "DumpParser.h"
#include "OutputDirTest.h"
#include "rt_internal.h"
#include "tpuprof/tpuprof.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <time.h>

using namespace tpuprof_test;

namespace {

class Device : public tpuprof::test::OutputDirTest {};

uint64_t rawNs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

/// ns of a tick interval, by the dump's own calibration pair.
double nsOf(const Dump &d, uint64_t ticks) {
  const tpuprof_dump_header &h = d.header;
  if (h.clock_source == TPUPROF_CLOCK_MONOTONIC)
    return double(ticks);
  return double(ticks) * double(h.calib_ns1 - h.calib_ns0) /
         double(h.calib_ticks1 - h.calib_ticks0);
}

const int kHandle = 0;

/// A command of the calling thread's innermost open probe, queued now and
/// running [start, end) in CLOCK_MONOTONIC_RAW ns.
tpuprof_rt_device_interval command(uint64_t queued, uint64_t start,
                                   uint64_t end, const char *name) {
  tpuprof_rt_device_interval iv;
  std::memset(&iv, 0, sizeof(iv));
  EXPECT_EQ(__tpuprof_rt_device_launch_ref(&iv.ref), 1);
  iv.queued = queued;
  iv.submitted = queued;
  iv.start = start;
  iv.end = end;
  iv.queue = __tpuprof_rt_device_queue(TPUPROF_DEVICE_API_OPENCL, &kHandle,
                                       TPUPROF_DEVICE_CLOCK_MONOTONIC_RAW,
                                       "test device");
  iv.name = __tpuprof_rt_device_name(name);
  iv.op = TPUPROF_DEVICE_KERNEL;
  return iv;
}

TEST_F(Device, NoCommandsNoSection) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  __tpuprof_begin(7);
  __tpuprof_end(7);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_FALSE(lastDump().hasDevice);
}

TEST_F(Device, OutsideAWindowNothingIsTimed) {
  tpuprof_rt_launch_ref ref;
  EXPECT_EQ(__tpuprof_rt_device_launch_ref(&ref), 0);
}

TEST_F(Device, CommandJoinsItsLaunchRecordInTicks) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  __tpuprof_begin(7); // The launch probe.
  uint64_t q = rawNs();
  tpuprof_rt_device_interval iv =
      command(q, q + 1000000, q + 3000000, "kernel_a");
  __tpuprof_end(7);
  __tpuprof_rt_device_add(&iv);
  // Outside every probe: no launch record.
  tpuprof_rt_device_interval loose =
      command(q, q + 3000000, q + 3500000, "kernel_b");
  __tpuprof_rt_device_add(&loose);
  // The window's closing pairs come after the commands' times, so those are
  // converted between the pairs, where the clock's error bound holds.
  while (rawNs() < q + 4000000) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, nullptr);
  }
  ASSERT_EQ(tpuprof_disable(), 0);

  Dump d = lastDump();
  ASSERT_TRUE(d.hasDevice);
  EXPECT_EQ(d.device.dropped, 0u);
  ASSERT_EQ(d.deviceRecords.size(), 2u);
  // In start order; the first is the launch's. (The section lists every
  // queue the process registered, other tests' too when run in one process.)
  const tpuprof_device_record &r = d.deviceRecords[0];
  ASSERT_LT(r.queue, d.deviceQueues.size());
  const tpuprof_device_queue &queue = d.deviceQueues[r.queue];
  EXPECT_EQ(queue.api, uint32_t(TPUPROF_DEVICE_API_OPENCL));
  ASSERT_LT(queue.clock, d.deviceClocks.size());
  const tpuprof_device_clock &clock = d.deviceClocks[queue.clock];
  EXPECT_EQ(clock.domain, uint32_t(TPUPROF_DEVICE_CLOCK_MONOTONIC_RAW));
  EXPECT_LE(clock.device0, q);
  EXPECT_GT(clock.device1, q + 3500000);
  EXPECT_STREQ(d.deviceNames.c_str() + queue.device_name, "test device");

  EXPECT_STREQ(d.deviceNames.c_str() + r.name, "kernel_a");
  EXPECT_EQ(r.op, uint16_t(TPUPROF_DEVICE_KERNEL));
  ASSERT_EQ(d.segments.size(), 1u);
  const Record &launch = d.segments[0].records.at(0);
  EXPECT_EQ(r.launch_thread, d.segments[0].head.thread);
  EXPECT_EQ(r.launch_probe, 7u);
  EXPECT_EQ(r.launch_begin, launch.rec.begin);
  // 2 ms of device time is 2 ms of ticks, to the conversion's bound plus
  // rounding plus the rate gap of the two clocks: the dump's ns are
  // CLOCK_MONOTONIC, which NTP slews against CLOCK_MONOTONIC_RAW by up to
  // 500 ppm (the kernel's MAXFREQ).
  double bound = double(clock.error_ns) + 2.0;
  const double kSlew = 500e-6;
  EXPECT_NEAR(nsOf(d, r.end - r.start), 2000000.0,
              2 * bound + 200.0 + 2000000.0 * kSlew);
  EXPECT_NEAR(nsOf(d, r.start - r.queued), 1000000.0,
              2 * bound + 100.0 + 1000000.0 * kSlew);
  // The command was queued inside its launch probe, so it cannot start
  // before the probe began (less the bound).
  EXPECT_GE(double(r.start) + bound / nsOf(d, 1), double(launch.rec.begin));

  EXPECT_STREQ(d.deviceNames.c_str() + d.deviceRecords[1].name, "kernel_b");
  EXPECT_EQ(d.deviceRecords[1].launch_thread, UINT32_MAX);
}

TEST_F(Device, CommandsOfAClosedWindowAreCountedAsDropped) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  uint64_t q = rawNs();
  tpuprof_rt_device_interval late = command(q, q + 10, q + 20, "late");
  ASSERT_EQ(tpuprof_disable(), 0);
  __tpuprof_rt_device_add(&late); // Its window has closed.
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  tpuprof_rt_device_interval kept = command(q, q + 10, q + 20, "kept");
  __tpuprof_rt_device_add(&kept);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  ASSERT_TRUE(d.hasDevice);
  EXPECT_EQ(d.device.dropped, 1u);
  ASSERT_EQ(d.deviceRecords.size(), 1u);
  EXPECT_STREQ(d.deviceNames.c_str() + d.deviceRecords[0].name, "kept");
}

TEST_F(Device, AFlushKeepsTheNextWindowsCommands) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  uint64_t q = rawNs();
  tpuprof_rt_device_interval first = command(q, q + 10, q + 20, "first");
  __tpuprof_rt_device_add(&first);
  ASSERT_EQ(tpuprof_flush(), 0);
  std::string firstPath = tpuprof_last_dump_path();
  // The flushed window's file comes with its first record.
  __tpuprof_begin(7);
  __tpuprof_end(7);
  tpuprof_rt_device_interval second = command(q, q + 30, q + 40, "second");
  __tpuprof_rt_device_add(&second);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump a, b = lastDump();
  ASSERT_NE(firstPath, std::string(tpuprof_last_dump_path()));
  ASSERT_EQ(parseDump(firstPath, a), "");
  ASSERT_EQ(a.deviceRecords.size(), 1u);
  EXPECT_STREQ(a.deviceNames.c_str() + a.deviceRecords[0].name, "first");
  ASSERT_EQ(b.deviceRecords.size(), 1u);
  EXPECT_STREQ(b.deviceNames.c_str() + b.deviceRecords[0].name, "second");
}

} // namespace
