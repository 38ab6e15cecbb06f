//===- unittests/Runtime/CuptiTest.cpp - The CUDA backend (CUPTI) ---------===//
//
// runtime/device_cupti.c without a GPU (docs/device.md, "CUDA"): the
// wrappers run a stand-in of the CUDA call, CUPTI is a table of stand-ins
// (__tpuprof_rt_cupti_use) whose activity buffers the tests build record by
// record in CUPTI 11.8's own layout (CUpti_ActivityKernel8, Memcpy5,
// Memset4, ExternalCorrelation), and the backend reads them through its
// buffer-completed callback, as it does CUPTI's. Where libcupti is
// installed (CI: libcupti-dev), the walk from record to record is
// libcupti's own cuptiActivityGetNextRecord, which proves the buffers'
// layout; elsewhere a walker with the same record sizes stands in.
//
//===----------------------------------------------------------------------===//

#include "DumpParser.h"
#include "OutputDirTest.h"
#include "cupti_abi.h"
#include "rt_internal.h"
#include "tpuprof/tpuprof.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <time.h>
#include <vector>

using namespace tpuprof_test;

// The runtime's dim3, by its name: a fake called through the runtime's
// function pointer must have that very type (UBSan's -fsanitize=function).
struct tpuprof_dim3 {
  uint32_t x, y, z;
};
using Dim3 = tpuprof_dim3;

extern "C" {
int __tpuprof_wrap_cudaLaunchKernel(const void *, Dim3, Dim3, void **, size_t,
                                    void *, void *);
int __tpuprof_wrap_cudaMemcpy(void *, const void *, size_t, int, void *);
int __tpuprof_wrap_cudaMemcpyAsync(void *, const void *, size_t, int, void *,
                                   void *);
int __tpuprof_wrap_cudaMemset(void *, int, size_t, void *);
int __tpuprof_wrap_hipLaunchKernel(const void *, Dim3, Dim3, void **, size_t,
                                   void *, void *);
}

namespace {

using NextFn = int (*)(uint8_t *, size_t, void **);

/*===-- CUPTI 11.8's record sizes ----------------------------------------===*/

// sizeof the records CUPTI 11.8 fills (its cupti_activity.h); the prefixes
// of cupti_abi.h sit at their start.
constexpr size_t kKernel8Bytes = 200;
constexpr size_t kMemcpy5Bytes = 88;
constexpr size_t kMemset4Bytes = 88;
constexpr size_t kExternalBytes = 24;
constexpr size_t kMarker2Bytes = 56;
constexpr size_t kApiBytes = 40; // CUpti_ActivityAPI: runtime, driver calls.
constexpr uint32_t kMarkerKind = 12; // CUPTI_ACTIVITY_KIND_MARKER

size_t recordBytes(uint32_t kind) {
  switch (kind) {
  case TPUPROF_CUPTI_KIND_KERNEL:
  case TPUPROF_CUPTI_KIND_CONCURRENT_KERNEL:
    return kKernel8Bytes;
  case TPUPROF_CUPTI_KIND_MEMCPY:
    return kMemcpy5Bytes;
  case TPUPROF_CUPTI_KIND_MEMSET:
    return kMemset4Bytes;
  case TPUPROF_CUPTI_KIND_EXTERNAL_CORRELATION:
    return kExternalBytes;
  case kMarkerKind:
    return kMarker2Bytes;
  case TPUPROF_CUPTI_KIND_RUNTIME:
  case TPUPROF_CUPTI_KIND_DRIVER:
    return kApiBytes;
  default:
    return 0;
  }
}

/// An activity buffer as CUPTI fills one: records back to back, each
/// 8-aligned and as long as its kind's struct.
class Buffer {
public:
  template <typename T> void add(const T &prefix, size_t bytes) {
    size_t at = data.size();
    data.resize(at + bytes, 0);
    std::memcpy(data.data() + at, &prefix, sizeof(T));
  }
  void external(uint64_t id, uint32_t corr) {
    tpuprof_cupti_external_correlation e{};
    e.kind = TPUPROF_CUPTI_KIND_EXTERNAL_CORRELATION;
    e.external_kind = TPUPROF_CUPTI_EXTERNAL_KIND;
    e.external_id = id;
    e.correlation_id = corr;
    add(e, kExternalBytes);
  }
  void kernel(uint32_t corr, uint64_t start, uint64_t end, const char *name,
              uint32_t stream = 7) {
    tpuprof_cupti_kernel k{};
    k.kind = TPUPROF_CUPTI_KIND_CONCURRENT_KERNEL;
    k.start = start;
    k.end = end;
    k.completed = end;
    k.device_id = 0;
    k.context_id = 1;
    k.stream_id = stream;
    k.grid_x = k.grid_y = k.grid_z = 1;
    k.block_x = 256;
    k.block_y = k.block_z = 1;
    k.correlation_id = corr;
    k.name = name;
    add(k, kKernel8Bytes);
  }
  void memcpy(uint32_t corr, uint8_t copyKind, uint64_t bytes, uint64_t start,
              uint64_t end) {
    tpuprof_cupti_memcpy m{};
    m.kind = TPUPROF_CUPTI_KIND_MEMCPY;
    m.copy_kind = copyKind;
    m.bytes = bytes;
    m.start = start;
    m.end = end;
    m.context_id = 1;
    m.stream_id = 7;
    m.correlation_id = corr;
    add(m, kMemcpy5Bytes);
  }
  void memset(uint32_t corr, uint64_t bytes, uint64_t start, uint64_t end) {
    tpuprof_cupti_memset m{};
    m.kind = TPUPROF_CUPTI_KIND_MEMSET;
    m.bytes = bytes;
    m.start = start;
    m.end = end;
    m.context_id = 1;
    m.stream_id = 7;
    m.correlation_id = corr;
    add(m, kMemset4Bytes);
  }
  /// A runtime or driver API call's record (kind, cbid, start, end, process,
  /// thread, correlation id, return value).
  void apiCall(uint32_t kind, uint32_t corr) {
    struct {
      uint32_t kind, cbid;
      uint64_t start, end;
      uint32_t process, thread, corr, result;
    } a{kind, 13, 1, 2, 100, 101, corr, 0};
    static_assert(sizeof(a) == kApiBytes, "CUpti_ActivityAPI");
    add(a, kApiBytes);
  }
  void marker() {
    tpuprof_cupti_record r{kMarkerKind};
    add(r, kMarker2Bytes);
  }
  std::vector<uint8_t> data;
};

/*===-- The stand-in of libcupti -----------------------------------------===*/

struct Fake {
  tpuprof_cupti_buffer_requested_fn requested = nullptr;
  tpuprof_cupti_buffer_completed_fn completed = nullptr;
  std::vector<uint32_t> enabled;
  std::vector<uint64_t> pushed; ///< The calling thread's stack of ids.
  std::vector<std::vector<uint8_t>> toFlush; ///< Delivered at a flush.
  int flushes = 0;
  /// CUPTI's clock: CLOCK_MONOTONIC_RAW, shifted and running fast.
  double offsetNs = 5e12, rate = 1.01;
  /// The record walk: libcupti's when loadable, else recordBytes.
  NextFn realNext = nullptr;
};
Fake fake;

uint64_t rawNs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

uint64_t deviceNs(uint64_t raw) {
  return uint64_t(fake.offsetNs + double(raw) * fake.rate);
}

int fakeRegister(tpuprof_cupti_buffer_requested_fn r,
                 tpuprof_cupti_buffer_completed_fn c) {
  fake.requested = r;
  fake.completed = c;
  return TPUPROF_CUPTI_SUCCESS;
}
int fakeEnable(uint32_t kind) {
  fake.enabled.push_back(kind);
  return TPUPROF_CUPTI_SUCCESS;
}
int fakeDisable(uint32_t kind) {
  for (size_t i = 0; i < fake.enabled.size(); ++i)
    if (fake.enabled[i] == kind)
      fake.enabled.erase(fake.enabled.begin() + long(i));
  return TPUPROF_CUPTI_SUCCESS;
}
int fakePush(uint32_t kind, uint64_t id) {
  EXPECT_EQ(kind, uint32_t(TPUPROF_CUPTI_EXTERNAL_KIND));
  fake.pushed.push_back(id);
  return TPUPROF_CUPTI_SUCCESS;
}
int fakePop(uint32_t kind, uint64_t *last) {
  EXPECT_FALSE(fake.pushed.empty());
  *last = fake.pushed.empty() ? 0 : fake.pushed.back();
  if (!fake.pushed.empty())
    fake.pushed.pop_back();
  return TPUPROF_CUPTI_SUCCESS;
}
int fakeTimestamp(uint64_t *t) {
  *t = deviceNs(rawNs());
  return TPUPROF_CUPTI_SUCCESS;
}

/// Hands a buffer to the backend the way CUPTI does: malloc'ed (the
/// backend frees it), through the registered callback.
void deliver(const Buffer &b) {
  ASSERT_NE(fake.completed, nullptr);
  uint8_t *p = nullptr;
  size_t size = 0, maxRecords = 0;
  fake.requested(&p, &size, &maxRecords);
  ASSERT_NE(p, nullptr);
  ASSERT_GE(size, b.data.size());
  std::memcpy(p, b.data.data(), b.data.size());
  fake.completed(nullptr, 0, p, size, b.data.size());
}

int fakeFlush(uint32_t flag) {
  ++fake.flushes;
  std::vector<std::vector<uint8_t>> buffers;
  buffers.swap(fake.toFlush);
  for (const std::vector<uint8_t> &data : buffers) {
    Buffer b;
    b.data = data;
    deliver(b);
  }
  return TPUPROF_CUPTI_SUCCESS;
}

int fakeNext(uint8_t *buffer, size_t valid, void **record) {
  if (fake.realNext)
    return fake.realNext(buffer, valid, record);
  size_t at = 0;
  if (*record) {
    at = size_t(static_cast<uint8_t *>(*record) - buffer);
    uint32_t kind;
    std::memcpy(&kind, buffer + at, sizeof(kind));
    at += recordBytes(kind);
  }
  uint32_t kind = 0;
  if (at + sizeof(kind) > valid)
    return TPUPROF_CUPTI_ERROR_MAX_LIMIT_REACHED;
  std::memcpy(&kind, buffer + at, sizeof(kind));
  if (!recordBytes(kind) || at + recordBytes(kind) > valid)
    return TPUPROF_CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = buffer + at;
  return TPUPROF_CUPTI_SUCCESS;
}

/// libcupti, where installed (it loads without a GPU or driver).
void *openLibcupti() {
  void *lib = dlopen("libcupti.so", RTLD_NOW | RTLD_LOCAL);
  return lib ? lib : dlopen("libcupti.so.11.8", RTLD_NOW | RTLD_LOCAL);
}

tpuprof_cupti_api fakeApi() {
  tpuprof_cupti_api api{};
  api.register_callbacks = fakeRegister;
  api.enable = fakeEnable;
  api.disable = fakeDisable;
  api.push_external_id = fakePush;
  api.pop_external_id = fakePop;
  api.get_timestamp = fakeTimestamp;
  api.flush_all = fakeFlush;
  api.get_next_record = fakeNext;
  return api;
}
tpuprof_cupti_api theApi;

/*===-- The CUDA calls the wrappers forward to ---------------------------===*/

/// The external id pushed while the last stand-in CUDA call ran.
uint64_t idSeen;
int callResult;
int calls;

int fakeLaunch(const void *, Dim3 grid, Dim3 block, void **, size_t, void *) {
  EXPECT_EQ(grid.x, 64u);
  EXPECT_EQ(block.x, 256u);
  ++calls;
  idSeen = fake.pushed.empty() ? 0 : fake.pushed.back();
  return callResult;
}
int fakeMemcpy(void *, const void *, size_t, int) {
  ++calls;
  idSeen = fake.pushed.empty() ? 0 : fake.pushed.back();
  return callResult;
}
int fakeMemcpyAsync(void *, const void *, size_t, int, void *) {
  ++calls;
  idSeen = fake.pushed.empty() ? 0 : fake.pushed.back();
  return callResult;
}
int fakeMemset(void *, int, size_t) {
  ++calls;
  idSeen = fake.pushed.empty() ? 0 : fake.pushed.back();
  return callResult;
}

const int kKernelSymbol = 0;

/// A wrapped cudaLaunchKernel; returns the external id it pushed.
uint64_t launch() {
  idSeen = 0;
  Dim3 grid{64, 1, 1}, block{256, 1, 1};
  EXPECT_EQ(__tpuprof_wrap_cudaLaunchKernel(&kKernelSymbol, grid, block,
                                            nullptr, 0, nullptr,
                                            (void *)fakeLaunch),
            callResult);
  return idSeen;
}

class Cupti : public tpuprof::test::OutputDirTest {
protected:
  void SetUp() override {
    OutputDirTest::SetUp();
    fake = Fake();
    if (void *lib = openLibcupti())
      fake.realNext = (NextFn)dlsym(lib, "cuptiActivityGetNextRecord");
    theApi = fakeApi();
    __tpuprof_rt_cupti_use(&theApi);
    callResult = 0;
    calls = 0;
  }
  void TearDown() override {
    __tpuprof_rt_cupti_use(nullptr);
    unsetenv("TPUPROF_CUPTI_LIBRARY");
    __tpuprof_rt_device_timing = 1;
    OutputDirTest::TearDown();
  }
  static tpuprof_rt_cupti_stats stats() {
    tpuprof_rt_cupti_stats s;
    __tpuprof_rt_cupti_get_stats(&s);
    return s;
  }
};

/// Ticks of `ns` in a clock's domain, by that clock's pairs.
double ticksOf(const tpuprof_device_clock &c, double ns) {
  double rate = double(c.ticks1 - c.ticks0) / double(c.device1 - c.device0);
  return double(c.ticks0) + (ns - double(c.device0)) * rate;
}

/// ns of a tick interval, by the dump's own calibration pair.
double nsOf(const Dump &d, double ticks) {
  const tpuprof_dump_header &h = d.header;
  if (h.clock_source == TPUPROF_CLOCK_MONOTONIC)
    return ticks;
  return ticks * double(h.calib_ns1 - h.calib_ns0) /
         double(h.calib_ticks1 - h.calib_ticks0);
}

const tpuprof_device_clock *clockOf(const Dump &d, uint32_t domain) {
  for (const tpuprof_device_clock &c : d.deviceClocks)
    if (c.domain == domain)
      return &c;
  return nullptr;
}

TEST_F(Cupti, TheRealLibcuptiWalksTheseBuffers) {
  if (!fake.realNext)
    GTEST_SKIP() << "libcupti is not installed";
  Buffer b;
  b.external(5, 3);
  b.kernel(3, 100, 200, "k");
  b.memcpy(4, TPUPROF_CUPTI_MEMCPY_HTOD, 64, 300, 400);
  b.memset(5, 64, 500, 600);
  b.apiCall(TPUPROF_CUPTI_KIND_RUNTIME, 6);
  b.marker();
  std::vector<uint32_t> kinds;
  void *record = nullptr;
  while (fake.realNext(b.data.data(), b.data.size(), &record) ==
         TPUPROF_CUPTI_SUCCESS) {
    uint32_t kind;
    std::memcpy(&kind, record, sizeof(kind));
    kinds.push_back(kind);
  }
  EXPECT_EQ(kinds, (std::vector<uint32_t>{
                       TPUPROF_CUPTI_KIND_EXTERNAL_CORRELATION,
                       TPUPROF_CUPTI_KIND_CONCURRENT_KERNEL,
                       TPUPROF_CUPTI_KIND_MEMCPY, TPUPROF_CUPTI_KIND_MEMSET,
                       TPUPROF_CUPTI_KIND_RUNTIME, kMarkerKind}));
}

TEST_F(Cupti, KernelJoinsItsLaunchInTheHostClock) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  __tpuprof_begin(7); // The launch probe.
  uint64_t before = rawNs();
  uint64_t id = launch();
  __tpuprof_end(7);
  ASSERT_NE(id, 0u);
  EXPECT_TRUE(fake.pushed.empty()); // Popped after the call.
  // Activities on, kernels concurrent.
  for (uint32_t kind :
       {TPUPROF_CUPTI_KIND_CONCURRENT_KERNEL, TPUPROF_CUPTI_KIND_MEMCPY,
        TPUPROF_CUPTI_KIND_MEMSET, TPUPROF_CUPTI_KIND_EXTERNAL_CORRELATION,
        TPUPROF_CUPTI_KIND_RUNTIME, TPUPROF_CUPTI_KIND_DRIVER})
    EXPECT_NE(std::find(fake.enabled.begin(), fake.enabled.end(), kind),
              fake.enabled.end())
        << kind;
  EXPECT_EQ(std::find(fake.enabled.begin(), fake.enabled.end(),
                      uint32_t(TPUPROF_CUPTI_KIND_KERNEL)),
            fake.enabled.end());
  // The kernel ran [r1, r2) in raw ns; CUPTI says so in its own clock.
  uint64_t r1 = rawNs();
  struct timespec pause = {0, 10000000};
  nanosleep(&pause, nullptr);
  uint64_t r2 = rawNs();
  // The runtime call and the driver call under it each get an external
  // correlation; the kernel carries the driver call's id.
  Buffer b;
  b.apiCall(TPUPROF_CUPTI_KIND_RUNTIME, 42);
  b.external(id, 42);
  b.apiCall(TPUPROF_CUPTI_KIND_DRIVER, 43);
  b.external(id, 43);
  b.kernel(43, deviceNs(r1), deviceNs(r2), "_Z6kernelPf");
  deliver(b); // On CUPTI's thread, before the close.
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_TRUE(fake.enabled.empty()); // Off between windows.

  Dump d = lastDump();
  ASSERT_TRUE(d.hasDevice);
  EXPECT_EQ(d.device.dropped, 0u);
  ASSERT_EQ(d.deviceRecords.size(), 1u);
  ASSERT_EQ(d.deviceQueues.size(), 1u);
  const tpuprof_device_queue &q = d.deviceQueues[0];
  EXPECT_EQ(q.api, uint32_t(TPUPROF_DEVICE_API_CUDA));
  EXPECT_STREQ(d.deviceNames.c_str() + q.device_name,
               "CUDA device 0, context 1, stream 7");
  ASSERT_LT(q.clock, d.deviceClocks.size());
  const tpuprof_device_clock &dc = d.deviceClocks[q.clock];
  EXPECT_EQ(dc.domain, uint32_t(TPUPROF_DEVICE_CLOCK_DEVICE));
  const tpuprof_device_clock *raw =
      clockOf(d, TPUPROF_DEVICE_CLOCK_MONOTONIC_RAW);
  ASSERT_NE(raw, nullptr);
  // The pairs read CUPTI's clock: the 1 % drift over the window is in the
  // error bound the dump reports.
  EXPECT_GE(double(dc.error_ns), 0.01 * double(r2 - r1) * 0.9);

  const tpuprof_device_record &r = d.deviceRecords[0];
  EXPECT_EQ(r.op, uint16_t(TPUPROF_DEVICE_KERNEL));
  EXPECT_STREQ(d.deviceNames.c_str() + r.name, "_Z6kernelPf");
  EXPECT_EQ(r.bytes, 0u);
  ASSERT_EQ(d.segments.size(), 1u);
  const Record &probe = d.segments[0].records.at(0);
  EXPECT_EQ(r.launch_thread, d.segments[0].head.thread);
  EXPECT_EQ(r.launch_probe, 7u);
  EXPECT_EQ(r.launch_begin, probe.rec.begin);
  // Converted: where CLOCK_MONOTONIC_RAW's own pairs put r1 and r2, to
  // both conversions' read widths. Without the offset the times would be
  // off by hours; without the rate, the 10 ms by 100 us.
  double tol = 2.0 * double(raw->error_ns) + 20000.0;
  EXPECT_NEAR(nsOf(d, double(r.start) - ticksOf(*raw, double(r1))), 0.0, tol);
  EXPECT_NEAR(nsOf(d, double(r.end) - ticksOf(*raw, double(r2))), 0.0, tol);
  EXPECT_NEAR(nsOf(d, double(r.end - r.start)), double(r2 - r1), tol);
  // Queued when the program called cudaLaunchKernel (no latency
  // timestamps in the record): inside the probe, before the kernel, so
  // within [before, r1] (raw ns) to the conversion's tolerance.
  EXPECT_NEAR(nsOf(d, double(r.queued) - ticksOf(*raw, double(before))), 0.0,
              tol + double(r1 - before));
  EXPECT_LE(r.queued, r.start);
  EXPECT_EQ(r.submitted, r.queued);

  tpuprof_rt_cupti_stats s = stats();
  EXPECT_EQ(s.records, 1u);
  EXPECT_EQ(s.joined, 1u);
  EXPECT_EQ(s.malformed + s.unknown + s.late + s.incomplete, 0u);
}

TEST_F(Cupti, CopiesAndFillsJoinWhenTheirCorrelationComesLater) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  char host[64], dev[64];
  __tpuprof_begin(8);
  EXPECT_EQ(__tpuprof_wrap_cudaMemcpy(dev, host, 4096, 1, (void *)fakeMemcpy),
            0);
  uint64_t idCopy = idSeen;
  __tpuprof_end(8);
  __tpuprof_begin(9);
  EXPECT_EQ(__tpuprof_wrap_cudaMemcpyAsync(host, dev, 2048, 2, nullptr,
                                           (void *)fakeMemcpyAsync),
            0);
  uint64_t idBack = idSeen;
  __tpuprof_end(9);
  __tpuprof_begin(10);
  EXPECT_EQ(__tpuprof_wrap_cudaMemset(dev, 0, 1024, (void *)fakeMemset), 0);
  uint64_t idFill = idSeen;
  __tpuprof_end(10);
  EXPECT_EQ(calls, 3);
  ASSERT_TRUE(idCopy && idBack && idFill);
  EXPECT_NE(idCopy, idBack);
  uint64_t t = deviceNs(rawNs());
  // The commands' buffer first (a stream's buffer), the correlations in
  // a later one (the global buffer), delivered by the close's flush.
  Buffer commands;
  commands.memcpy(11, TPUPROF_CUPTI_MEMCPY_HTOD, 4096, t + 1000, t + 2000);
  commands.memcpy(12, TPUPROF_CUPTI_MEMCPY_DTOH, 2048, t + 3000, t + 4000);
  commands.memset(13, 1024, t + 5000, t + 5500);
  deliver(commands);
  EXPECT_EQ(stats().joined, 0u);
  Buffer correlations;
  correlations.external(idCopy, 11);
  correlations.external(idBack, 12);
  correlations.external(idFill, 13);
  fake.toFlush.push_back(correlations.data);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_GE(fake.flushes, 1);

  Dump d = lastDump();
  ASSERT_TRUE(d.hasDevice);
  ASSERT_EQ(d.deviceRecords.size(), 3u);
  struct Want {
    uint16_t op;
    const char *name;
    uint64_t bytes;
    uint32_t probe;
  } want[] = {{TPUPROF_DEVICE_WRITE, "memcpy HtoD", 4096, 8},
              {TPUPROF_DEVICE_READ, "memcpy DtoH", 2048, 9},
              {TPUPROF_DEVICE_FILL, "memset", 1024, 10}};
  ASSERT_EQ(d.segments.size(), 1u);
  for (size_t i = 0; i < 3; ++i) {
    const tpuprof_device_record &r = d.deviceRecords[i]; // Start order.
    EXPECT_EQ(r.op, want[i].op) << i;
    EXPECT_STREQ(d.deviceNames.c_str() + r.name, want[i].name);
    EXPECT_EQ(r.bytes, want[i].bytes) << i;
    EXPECT_EQ(r.launch_probe, want[i].probe) << i;
    EXPECT_EQ(r.launch_begin, d.segments[0].records.at(i).rec.begin) << i;
  }
  EXPECT_STREQ(tpuprof_device_op_name(TPUPROF_DEVICE_FILL), "fill");
  EXPECT_EQ(stats().joined, 3u);
}

TEST_F(Cupti, UnknownMalformedAndUnfinishedRecordsAreCounted) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  __tpuprof_begin(7);
  uint64_t ok = launch();
  uint64_t unfinished = launch();
  uint64_t backwards = launch();
  __tpuprof_end(7);
  uint64_t t = deviceNs(rawNs());
  Buffer b;
  b.marker(); // A kind the backend does not read.
  b.external(ok, 21);
  b.external(unfinished, 22);
  b.external(backwards, 23);
  b.external(99999, 24); // An id no launch of this window had.
  b.kernel(21, t + 100, t + 200, "ok");
  b.kernel(22, t + 100, TPUPROF_CUPTI_TIMESTAMP_UNKNOWN, "unfinished");
  b.kernel(23, t + 300, t + 200, "backwards");
  b.kernel(24, t + 100, t + 200, "late");
  deliver(b);
  ASSERT_EQ(tpuprof_disable(), 0);

  tpuprof_rt_cupti_stats s = stats();
  EXPECT_EQ(s.unknown, 1u);
  EXPECT_EQ(s.incomplete, 1u);
  EXPECT_EQ(s.malformed, 1u);
  EXPECT_EQ(s.late, 1u);
  EXPECT_EQ(s.joined, 1u);
  Dump d = lastDump();
  ASSERT_TRUE(d.hasDevice);
  ASSERT_EQ(d.deviceRecords.size(), 1u);
  EXPECT_STREQ(d.deviceNames.c_str() + d.deviceRecords[0].name, "ok");
  // The unfinished and the backwards command are dropped: their launches
  // were not waited for at the close.
  EXPECT_EQ(d.device.dropped, 2u);
}

TEST_F(Cupti, ATruncatedRecordIsMalformedNeverRead) {
  // A walker that hands over a record running past the valid bytes, and
  // then one outside the buffer.
  theApi.get_next_record = [](uint8_t *buffer, size_t valid, void **record) {
    if (!*record) {
      *record = buffer;
      return int(TPUPROF_CUPTI_SUCCESS);
    }
    if (*record == buffer) {
      *record = buffer + valid + 8;
      return int(TPUPROF_CUPTI_SUCCESS);
    }
    return int(TPUPROF_CUPTI_ERROR_MAX_LIMIT_REACHED);
  };
  __tpuprof_rt_cupti_use(&theApi);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  callResult = 1; // Failed: the close waits for no record of it.
  __tpuprof_begin(7);
  uint64_t id = launch();
  __tpuprof_end(7);
  uint64_t t = deviceNs(rawNs());
  Buffer b;
  b.kernel(31, t, t + 10, "cut");
  b.data.resize(kKernel8Bytes / 2);
  deliver(b);
  Buffer e;
  e.external(id, 31);
  e.data.resize(kExternalBytes - 4);
  deliver(e);
  tpuprof_rt_cupti_stats s = stats();
  EXPECT_EQ(s.malformed, 4u); // Two cut records, two pointers outside.
  EXPECT_EQ(s.records, 0u);
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_FALSE(lastDump().hasDevice);
}

TEST_F(Cupti, RecordsOfUnwrappedCallsAreKeptWithoutALaunch) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  __tpuprof_begin(7);
  uint64_t id = launch();
  __tpuprof_end(7);
  uint64_t t = deviceNs(rawNs());
  Buffer b;
  b.external(id, 1);
  b.kernel(1, t + 10, t + 20, "wrapped");
  // A library kernel the pass did not see: no external correlation.
  b.kernel(2, t + 30, t + 40, "library", 9);
  // One that ran before the window's first timed call: not this window's.
  b.kernel(3, deviceNs(rawNs()) - 1000000000ull, t, "before");
  deliver(b);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  ASSERT_EQ(d.deviceRecords.size(), 2u);
  EXPECT_STREQ(d.deviceNames.c_str() + d.deviceRecords[1].name, "library");
  EXPECT_EQ(d.deviceRecords[1].launch_thread, UINT32_MAX);
  EXPECT_EQ(d.deviceQueues.size(), 2u); // Streams 7 and 9.
  EXPECT_EQ(stats().unjoined, 1u);
}

TEST_F(Cupti, RecordsThatComeAfterTheirWindowAreLate) {
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  __tpuprof_begin(7);
  callResult = 1; // A failed launch: no record is waited for.
  uint64_t failed = launch();
  callResult = 0;
  __tpuprof_end(7);
  testing::internal::CaptureStderr();
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  uint64_t t = deviceNs(rawNs());
  Buffer b;
  b.external(failed, 5);
  b.kernel(5, t, t + 10, "late");
  deliver(b);
  EXPECT_EQ(stats().late, 1u);
  EXPECT_EQ(stats().joined, 0u);
}

TEST_F(Cupti, OutsideAWindowNothingIsPushed) {
  EXPECT_EQ(launch(), 0u);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(fake.completed, nullptr); // CUPTI not even loaded.
}

TEST_F(Cupti, WithoutLibcuptiOneLineAndHostTimingGoesOn) {
  setenv("TPUPROF_CUPTI_LIBRARY", "/nonexistent/libcupti.so", 1);
  __tpuprof_rt_cupti_use(nullptr);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  testing::internal::CaptureStderr();
  __tpuprof_begin(7);
  EXPECT_EQ(launch(), 0u);
  EXPECT_EQ(launch(), 0u);
  __tpuprof_end(7);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "tpuprof: no CUDA device timing: cannot load libcupti (set "
            "TPUPROF_CUPTI_LIBRARY to its path)\n");
  EXPECT_EQ(calls, 2);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  EXPECT_FALSE(d.hasDevice);
  ASSERT_EQ(d.segments.size(), 1u);
  EXPECT_EQ(d.segments[0].records.size(), 1u); // The host probe.
}

TEST_F(Cupti, TheRealLibcuptiWithoutAGpuSaysSoOnce) {
  void *lib = openLibcupti();
  if (!lib)
    GTEST_SKIP() << "libcupti is not installed";
  Dl_info info;
  ASSERT_NE(dladdr(dlsym(lib, "cuptiGetTimestamp"), &info), 0);
  setenv("TPUPROF_CUPTI_LIBRARY", info.dli_fname, 1);
  __tpuprof_rt_cupti_use(nullptr);
  ASSERT_EQ(tpuprof_enable(0, 0), 0);
  testing::internal::CaptureStderr();
  __tpuprof_begin(7);
  launch();
  launch();
  __tpuprof_end(7);
  std::string err = testing::internal::GetCapturedStderr();
  ASSERT_EQ(tpuprof_disable(), 0);
  EXPECT_EQ(calls, 2);
  // No GPU, no driver: CUPTI loads but cannot enable its activities. (On
  // a machine with a GPU there is nothing to say.)
  if (!err.empty()) {
    EXPECT_EQ(err.rfind("tpuprof: no CUDA device timing: ", 0), 0u) << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << err;
  }
}

TEST_F(Cupti, HipSaysOnceThatItHasNoDeviceTiming) {
  testing::internal::CaptureStderr();
  Dim3 grid{64, 1, 1}, block{256, 1, 1};
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(__tpuprof_wrap_hipLaunchKernel(&kKernelSymbol, grid, block,
                                             nullptr, 0, nullptr,
                                             (void *)fakeLaunch),
              0);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "tpuprof: no device timing for HIP here (tpuprof has no roctracer "
            "backend): HIP launches are timed on the host only\n");
  EXPECT_EQ(calls, 2);
}

TEST_F(Cupti, HipIsQuietWithDeviceTimingOff) {
  __tpuprof_rt_device_timing = 0;
  testing::internal::CaptureStderr();
  Dim3 grid{64, 1, 1}, block{256, 1, 1};
  EXPECT_EQ(__tpuprof_wrap_hipLaunchKernel(&kKernelSymbol, grid, block, nullptr,
                                           0, nullptr, (void *)fakeLaunch),
            0);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

} // namespace
