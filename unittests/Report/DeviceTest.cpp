//===- unittests/Report/DeviceTest.cpp - Device intervals in the report ---===//
//
// The DEVICE section as the report reads it (docs/device.md): validation,
// the join of each command to its launch record by (thread, begin), the
// per-op device columns (Total over the subtree, Self for the launcher),
// the device rows per kernel, each queue's busy time, and the trace's
// device track with flow arrows.
//
//===----------------------------------------------------------------------===//

#include "DumpBuilder.h"
#include "TestUtil.h"

#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Device.h"
#include "tpuprof/report/views/Export.h"
#include "tpuprof/report/views/Html.h"
#include "tpuprof/report/views/Trace.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

/// A DEVICE payload: one clock, one queue, `records` (names offsets into
/// "k1\0k2\0dev\0").
std::string devicePayload(std::vector<tpuprof_device_record> records,
                          uint64_t dropped = 0) {
  const std::string names("k1\0k2\0dev\0", 10);
  tpuprof_device_section h{1, 1, records.size(), names.size(), dropped};
  tpuprof_device_clock c{
      TPUPROF_DEVICE_CLOCK_MONOTONIC_RAW, 0, 0, 0, 0, 0, 250};
  tpuprof_device_queue q{TPUPROF_DEVICE_API_OPENCL, 0, 6, 0};
  std::string out =
      DumpBuilder::raw(h) + DumpBuilder::raw(c) + DumpBuilder::raw(q);
  for (const tpuprof_device_record &r : records)
    out += DumpBuilder::raw(r);
  return out + names;
}

/// A command on queue 0, [start, end) ns of the test clock, queued at
/// `queued`, launched by the record of thread 0 that began at `launch` ns
/// (no launch when it is UINT64_MAX).
tpuprof_device_record command(uint32_t name, uint64_t queued, uint64_t start,
                              uint64_t end, uint64_t launch,
                              uint32_t probe = 1) {
  tpuprof_device_record r;
  std::memset(&r, 0, sizeof(r));
  r.kind = TPUPROF_RECORD_DEVICE;
  r.num_words = 6;
  r.op = TPUPROF_DEVICE_KERNEL;
  r.start = ticksAt(start);
  r.end = ticksAt(end);
  r.queued = r.submitted = ticksAt(queued);
  r.name = name;
  r.launch_thread = launch == UINT64_MAX ? UINT32_MAX : 0;
  r.launch_probe = launch == UINT64_MAX ? UINT32_MAX : probe;
  r.launch_begin = launch == UINT64_MAX ? 0 : ticksAt(launch);
  return r;
}

/// An op (probe 0) around two launches (probe 1), each launching a
/// kernel: k1 runs [300, 700), k2 [600, 900) (overlapping: busy is the
/// union, 600 ns), and one k2 outside every probe [950, 990).
DumpBuilder deviceDump() {
  DumpBuilder b;
  b.header.window_end = ticksAt(1000);
  ProbeInfo launch = probe("clEnqueueNDRangeKernel", "", "", 0x22);
  launch.kind = TPUPROF_KIND_LAUNCH;
  b.addModule(0, 0, "m", {probe("step", "", "", 0x11), launch});
  TestThread t;
  t.records = {{0, 0, ticksAt(100), ticksAt(500), {}, {}},
               {1, 1, ticksAt(110), ticksAt(120), {}, {}},
               {1, 1, ticksAt(130), ticksAt(140), {}, {}}};
  b.threads = {t};
  b.device = devicePayload({command(0, 115, 300, 700, 110),
                            command(3, 135, 600, 900, 130),
                            command(3, 940, 950, 990, UINT64_MAX)},
                           2);
  return b;
}

TEST(DeviceReport, ReaderKeepsTheSection) {
  Expected<DumpReader> r = DumpReader::fromBytes(deviceDump().build());
  ASSERT_TRUE(bool(r)) << toString(r.takeError());
  const DeviceData &d = r->info().deviceData;
  ASSERT_TRUE(d.present);
  ASSERT_EQ(d.records.size(), 3u);
  EXPECT_EQ(d.records[1].name, "k2");
  EXPECT_EQ(d.queues[0].deviceName, "dev");
  EXPECT_EQ(d.dropped, 2u);
  EXPECT_EQ(d.errorNs(), 250u);
  EXPECT_EQ(deviceQueueLabel(d, 0), "opencl queue 0 (dev)");
}

TEST(DeviceReport, ReaderRejectsBadSections) {
  DumpBuilder old = deviceDump();
  old.header.version = 5;
  EXPECT_TRUE(contains(readError(old.build()), "DEVICE section"));
  EXPECT_TRUE(contains(readError(old.build()), "in a version 5 dump"));

  DumpBuilder queue = deviceDump();
  tpuprof_device_record r = command(0, 0, 300, 700, 110);
  r.queue = 1;
  queue.device = devicePayload({r});
  EXPECT_TRUE(contains(readError(queue.build()), "unknown op or queue"));

  DumpBuilder name = deviceDump();
  r = command(0, 0, 300, 700, 110);
  r.name = 99;
  name.device = devicePayload({r});
  EXPECT_TRUE(contains(readError(name.build()), "name offset 99"));

  DumpBuilder count = deviceDump();
  std::string p = devicePayload({});
  tpuprof_device_section h{1, 1, uint64_t(1) << 60, 10, 0};
  std::memcpy(&p[0], &h, sizeof(h));
  count.device = p;
  EXPECT_TRUE(contains(readError(count.build()), "more than its"));
}

TEST(DeviceReport, RowsGetDeviceTotalAndSelf) {
  TempFile f(deviceDump().build());
  Input in = input({f.str()});
  const Profile &p = in.profile;
  const Row &step = row(p, "step");
  const Row &launch = row(p, "clEnqueueNDRangeKernel");
  // The op's subtree launched both joined kernels; it launched none itself.
  EXPECT_EQ(step.deviceNs, 700u);
  EXPECT_EQ(step.deviceSelfNs, 0u);
  EXPECT_EQ(step.deviceCommands, 2u);
  EXPECT_EQ(step.queueDelayNs, (300u - 115u) + (600u - 135u));
  EXPECT_EQ(launch.deviceNs, 700u);
  EXPECT_EQ(launch.deviceSelfNs, 700u);
  EXPECT_EQ(launch.deviceCommands, 2u);
  // Host time stays the host's.
  EXPECT_EQ(launch.durationNs, 20u);

  ASSERT_EQ(p.deviceRows.size(), 2u);
  const DeviceRow *k2 =
      p.deviceRows[0].name == "k2" ? &p.deviceRows[0] : &p.deviceRows[1];
  EXPECT_EQ(k2->count, 2u);
  EXPECT_EQ(k2->totalNs, 340u);
  EXPECT_EQ(k2->minNs, 40u);
  EXPECT_EQ(k2->maxNs, 300u);
  EXPECT_EQ(k2->unjoined, 1u);

  ASSERT_EQ(p.deviceQueues.size(), 1u);
  EXPECT_EQ(p.deviceQueues[0].commands, 3u);
  EXPECT_EQ(p.deviceQueues[0].busyNs, 640u); // [300, 900) and [950, 990)
  EXPECT_EQ(p.deviceQueues[0].idleNs(), 360u);
  EXPECT_EQ(p.deviceQueues[0].errorNs, 250u);

  std::string text;
  raw_string_ostream os(text);
  printDeviceQueues(p, os);
  printDeviceRows(p, os);
  EXPECT_TRUE(contains(text, "opencl queue 0 (dev)"));
  EXPECT_TRUE(contains(text, "<= 0.25"));
  EXPECT_TRUE(contains(text, "2 device commands got no device time"));
  EXPECT_TRUE(contains(text, "1 commands were enqueued outside every probe"));
}

TEST(DeviceReport, JsonExportKeepsTheDeviceColumns) {
  TempFile f(deviceDump().build());
  Input in = input({f.str()});
  std::string json;
  raw_string_ostream os(json);
  writeProfileJson(in, os);
  EXPECT_TRUE(contains(json, "\"device_time\""));
  TempFile back(json, "json");
  Expected<Profile> p = readProfileJson(back.str());
  ASSERT_TRUE(bool(p)) << toString(p.takeError());
  const Row &step = row(*p, "step");
  EXPECT_EQ(step.deviceNs, 700u);
  EXPECT_EQ(step.deviceSelfNs, 0u);
  EXPECT_EQ(step.deviceCommands, 2u);
  EXPECT_EQ(step.queueDelayNs, (300u - 115u) + (600u - 135u));
  EXPECT_EQ(row(*p, "clEnqueueNDRangeKernel").deviceSelfNs, 700u);
}

TEST(DeviceReport, ACommandOfAnotherProbeIsNotJoined) {
  DumpBuilder b = deviceDump();
  b.device = devicePayload({command(0, 115, 300, 700, 110, /*probe=*/0)});
  TempFile f(b.build());
  Input in = input({f.str()});
  EXPECT_EQ(row(in.profile, "clEnqueueNDRangeKernel").deviceCommands, 0u);
  EXPECT_EQ(row(in.profile, "step").deviceCommands, 0u);
}

TEST(DeviceReport, TraceHasTheDeviceTrackAndFlows) {
  TempFile f(deviceDump().build());
  std::string out;
  raw_string_ostream os(out);
  ASSERT_FALSE(bool(writeTrace(input({f.str()}), TraceOptions(), os)));
  Expected<json::Value> v = json::parse(out);
  ASSERT_TRUE(bool(v)) << toString(v.takeError());
  const json::Array &events = *v->getAsObject()->getArray("traceEvents");
  int64_t deviceTid = -1;
  std::vector<const json::Object *> kernels, starts, finishes;
  for (const json::Value &e : events) {
    const json::Object &o = *e.getAsObject();
    StringRef ph = *o.getString("ph");
    if (ph == "M" && *o.getString("name") == "thread_name" &&
        o.getObject("args")->getString("name")->starts_with("opencl queue"))
      deviceTid = *o.getInteger("tid");
    if (ph == "X" && o.getString("cat") && *o.getString("cat") == "device")
      kernels.push_back(&o);
    if (ph == "s")
      starts.push_back(&o);
    if (ph == "f")
      finishes.push_back(&o);
  }
  ASSERT_NE(deviceTid, -1);
  ASSERT_EQ(kernels.size(), 3u);
  for (const json::Object *k : kernels)
    EXPECT_EQ(*k->getInteger("tid"), deviceTid);
  EXPECT_EQ(*kernels[0]->getObject("args")->getInteger("device_ns"), 400);
  EXPECT_EQ(*kernels[0]->getNumber("ts"), 0.3); // From the window's begin.
  // Two joined commands: two arrows, from the launches to the kernels.
  ASSERT_EQ(starts.size(), 2u);
  ASSERT_EQ(finishes.size(), 2u);
  EXPECT_EQ(*starts[0]->getInteger("tid"), 1);
  EXPECT_EQ(*starts[0]->getNumber("ts"), 0.11);
  EXPECT_EQ(*finishes[0]->getInteger("tid"), deviceTid);
  EXPECT_EQ(*finishes[0]->getNumber("ts"), 0.3);
  EXPECT_EQ(*starts[1]->getInteger("id"), *finishes[1]->getInteger("id"));
}

TEST(DeviceReport, HtmlHasADeviceLanePerQueue) {
  TempFile f(deviceDump().build());
  std::string page;
  raw_string_ostream os(page);
  ASSERT_FALSE(bool(writeHtmlReport(input({f.str()}), HtmlOptions(), os)));
  StringRef start = "<script type=\"application/json\" id=\"tpuprof-data\">";
  size_t b = page.find(start.str());
  ASSERT_NE(b, std::string::npos);
  b += start.size();
  Expected<json::Value> v =
      json::parse(StringRef(page).slice(b, page.find("</script>", b)));
  ASSERT_TRUE(bool(v)) << toString(v.takeError());
  const json::Object &data = *v->getAsObject();
  const json::Array &names = *data.getArray("deviceNames");
  const json::Array &lanes = *data.getArray("device");
  ASSERT_EQ(lanes.size(), 1u);
  const json::Object &lane = *lanes[0].getAsObject();
  EXPECT_EQ(*lane.getString("label"), "opencl queue 0 (dev)");
  const json::Array &begin = *lane.getArray("begin");
  const json::Array &dur = *lane.getArray("dur");
  const json::Array &name = *lane.getArray("name");
  const json::Array &launchAt = *lane.getArray("launchAt");
  const json::Array &launchTid = *lane.getArray("launchTid");
  ASSERT_EQ(begin.size(), 3u);
  // Times from the run's origin (the window's begin), by start.
  EXPECT_EQ(*begin[0].getAsInteger(), 300);
  EXPECT_EQ(*dur[0].getAsInteger(), 400);
  EXPECT_EQ(*names[*name[0].getAsInteger()].getAsString(), "k1");
  EXPECT_EQ(*launchAt[0].getAsInteger(), 110);
  EXPECT_EQ(*launchTid[0].getAsInteger(), 1);
  EXPECT_EQ(*launchAt[2].getAsInteger(), -1); // Outside every probe.
  // The ops table's device columns.
  for (const json::Value &r : *data.getArray("rows")) {
    const json::Object &row = *r.getAsObject();
    if (*row.getString("name") == "step") {
      EXPECT_EQ(*row.getInteger("deviceNs"), 700);
      EXPECT_EQ(*row.getInteger("deviceSelfNs"), 0);
    }
  }
}

} // namespace
