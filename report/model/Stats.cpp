//===- report/model/Stats.cpp - Duration distributions --------------------===//
//
// The bucketed form is a log-linear histogram (as HdrHistogram): durations
// below 64 ns have a bucket each; above, every power of two is cut into 64
// equal buckets. A bucket [lower, lower + width) is represented by its middle,
// so the error of a reported percentile is at most width / 2 / lower <= 1/128
// (0.78%). Buckets are kept as one contiguous range of counts, which for the
// durations of one op (usually within a few powers of two) is a few hundred
// entries.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Stats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace tpuprof::report;

namespace {
constexpr unsigned kSubBits = 6; ///< 64 buckets per power of two.
constexpr uint64_t kSub = 1u << kSubBits;
} // namespace

int32_t DurationSketch::bucketOf(uint64_t ns) {
  if (ns < kSub)
    return int32_t(ns);
  unsigned e = 63 - llvm::countl_zero(ns); // >= kSubBits
  uint64_t sub = (ns >> (e - kSubBits)) - kSub;
  return int32_t(kSub + (e - kSubBits) * kSub + sub);
}

uint64_t DurationSketch::bucketValue(int32_t index) {
  if (index < int32_t(kSub))
    return uint64_t(index);
  uint64_t i = uint64_t(index) - kSub;
  unsigned shift = unsigned(i / kSub);
  uint64_t lower = (kSub + i % kSub) << shift;
  uint64_t width = uint64_t(1) << shift;
  return lower + width / 2;
}

void DurationSketch::addToBucket(uint64_t ns, uint64_t times) {
  int32_t b = bucketOf(ns);
  if (buckets.empty()) {
    base = b;
    buckets.assign(1, 0);
  } else if (b < base) {
    buckets.insert(buckets.begin(), size_t(base - b), 0);
    base = b;
  } else if (size_t(b - base) >= buckets.size()) {
    buckets.resize(size_t(b - base) + 1, 0);
  }
  buckets[size_t(b - base)] += times;
}

void DurationSketch::toBuckets() {
  bucketed = true;
  for (uint64_t s : samples)
    addToBucket(s, 1);
  samples.clear();
  samples.shrink_to_fit();
}

void DurationSketch::merge(const DurationSketch &other) {
  if (!other.n)
    return;
  if (!n) {
    *this = other;
    return;
  }
  n += other.n;
  sum += other.sum;
  lo = std::min(lo, other.lo);
  hi = std::max(hi, other.hi);
  if (!bucketed && !other.bucketed &&
      samples.size() + other.samples.size() <= kExactSamples) {
    llvm::append_range(samples, other.samples);
    return;
  }
  if (!bucketed)
    toBuckets();
  if (!other.bucketed) {
    for (uint64_t s : other.samples)
      addToBucket(s, 1);
    return;
  }
  for (size_t i = 0; i != other.buckets.size(); ++i)
    if (other.buckets[i])
      addToBucket(bucketValue(other.base + int32_t(i)), other.buckets[i]);
}

uint64_t DurationSketch::quantile(double q) const {
  if (!n)
    return 0;
  q = std::clamp(q, 0.0, 1.0);
  uint64_t rank = uint64_t(std::ceil(q * double(n)));
  rank = std::clamp<uint64_t>(rank, 1, n);
  if (!bucketed) {
    std::vector<uint64_t> sorted = samples;
    std::nth_element(sorted.begin(), sorted.begin() + (rank - 1), sorted.end());
    return sorted[rank - 1];
  }
  uint64_t seen = 0;
  for (size_t i = 0; i != buckets.size(); ++i) {
    seen += buckets[i];
    if (seen >= rank)
      return std::clamp(bucketValue(base + int32_t(i)), lo, hi);
  }
  return hi;
}

DurationSketch DurationSketch::fromParts(uint64_t count, uint64_t sum,
                                         uint64_t min, uint64_t max,
                                         std::vector<uint64_t> samples,
                                         bool bucketed, int32_t firstBucket,
                                         std::vector<uint64_t> buckets) {
  DurationSketch s;
  s.n = count;
  s.sum = sum;
  s.lo = count ? min : UINT64_MAX;
  s.hi = max;
  s.bucketed = bucketed;
  s.samples = std::move(samples);
  s.base = firstBucket;
  s.buckets = std::move(buckets);
  return s;
}
