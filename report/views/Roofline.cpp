//===- report/views/Roofline.cpp - Peak FLOP/s and bandwidth --------------===//
//
// `tpuprof-report roofline --measure`: an element-wise multiply-add loop over
// 64 independent lanes per thread (vectorizable, no reductions: 2 FLOPs per
// element) for peak compute, and a STREAM triad a[i] = b[i] + s * c[i] over
// arrays far larger than the caches for bandwidth (24 bytes per element, as
// STREAM counts them). Each runs on every thread at once, repeated for a
// fixed time; the best repetition counts.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Roofline.h"
#include "tpuprof/report/model/Json.h"
#include "tpuprof/report/read/InputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

using Clock = std::chrono::steady_clock;

constexpr unsigned kLanes = 64;

/// 2 * kLanes * iters FLOPs. `volatile` sink keeps the work alive.
__attribute__((noinline)) float fmaLoop(uint64_t iters, float seed) {
  float a[kLanes];
  for (unsigned j = 0; j != kLanes; ++j)
    a[j] = seed + float(j);
  const float m = 0.999999f, c = 1e-6f;
  for (uint64_t i = 0; i != iters; ++i)
    for (unsigned j = 0; j != kLanes; ++j)
      a[j] = a[j] * m + c;
  float s = 0;
  for (unsigned j = 0; j != kLanes; ++j)
    s += a[j];
  return s;
}

__attribute__((noinline)) void triad(double *a, const double *b,
                                     const double *c, size_t n, double s) {
  for (size_t i = 0; i != n; ++i)
    a[i] = b[i] + s * c[i];
}

/// Runs `work(thread)` on `threads` threads at once and returns the seconds
/// the slowest took.
template <typename F> double parallel(unsigned threads, F work) {
  std::vector<std::thread> pool;
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  std::vector<double> secs(threads);
  for (unsigned t = 0; t != threads; ++t)
    pool.emplace_back([&, t] {
      ++ready;
      while (!go.load())
        ;
      auto t0 = Clock::now();
      work(t);
      secs[t] = std::chrono::duration<double>(Clock::now() - t0).count();
    });
  while (ready.load() != threads)
    ;
  go = true;
  for (std::thread &th : pool)
    th.join();
  double worst = 0;
  for (double s : secs)
    worst = std::max(worst, s);
  return worst;
}

} // namespace

Roofline tpuprof::report::measureRoofline(unsigned threads, double seconds) {
  if (!threads)
    threads = std::max(1u, std::thread::hardware_concurrency());
  Roofline r;
  r.threads = threads;

  // Compute: grow the iteration count until one run takes ~20 ms.
  uint64_t iters = 1 << 14;
  std::vector<float> sink(threads);
  while (parallel(threads, [&](unsigned t) {
           sink[t] = fmaLoop(iters, float(t));
         }) < 0.02)
    iters *= 2;
  auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  double best = 0;
  do {
    double s = parallel(
        threads, [&](unsigned t) { sink[t] = fmaLoop(iters, float(t)); });
    best = std::max(best, 2.0 * kLanes * double(iters) * threads / s / 1e9);
  } while (Clock::now() < deadline);
  r.peakGflops = best;

  // Bandwidth: 3 arrays of 32 MiB per thread.
  size_t n = (32u << 20) / sizeof(double);
  std::vector<std::vector<double>> a(threads), b(threads), c(threads);
  parallel(threads, [&](unsigned t) { // First touch on the thread's node.
    a[t].assign(n, 0.0);
    b[t].assign(n, 1.0);
    c[t].assign(n, 2.0);
  });
  deadline = Clock::now() + std::chrono::duration<double>(seconds);
  best = 0;
  do {
    double s = parallel(threads, [&](unsigned t) {
      triad(a[t].data(), b[t].data(), c[t].data(), n, 3.0);
    });
    best = std::max(best, 24.0 * double(n) * threads / s / 1e9);
  } while (Clock::now() < deadline);
  r.peakGBps = best;
  volatile float keep = sink[0] + float(a[0][n / 2]);
  (void)keep;
  return r;
}

void tpuprof::report::writeRoofline(const Roofline &r, raw_ostream &os) {
  json::OStream j(os, 2);
  j.object([&] {
    j.attribute("peak_gflops", r.peakGflops);
    j.attribute("peak_gbps", r.peakGBps);
    j.attribute("threads", r.threads);
  });
  os << '\n';
}

Expected<Roofline> tpuprof::report::readRoofline(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> buf = readInputFile(path);
  if (!buf)
    return buf.takeError();
  auto bad = [&](const Twine &what) {
    return createStringError(path + ": not a roofline file: " + what);
  };
  Expected<json::Value> v = parseJson((*buf)->getBuffer());
  if (!v)
    return bad(toString(v.takeError()));
  const json::Object *o = v->getAsObject();
  if (!o)
    return bad("expected a JSON object");
  std::optional<double> g = o->getNumber("peak_gflops");
  std::optional<double> b = o->getNumber("peak_gbps");
  if (!g || !b || *g <= 0 || *b <= 0)
    return bad("'peak_gflops' and 'peak_gbps' must be positive numbers");
  Roofline r;
  r.peakGflops = *g;
  r.peakGBps = *b;
  r.threads = unsigned(o->getInteger("threads").value_or(0));
  return r;
}
