//===- tpuprof/report/model/Stats.h - Duration distributions ----*- C++ -*-===//
//
// Per-row duration statistics (min / mean / median / p90 / p99 / max) with
// memory bounded per row, not per record: a row keeps its first
// DurationSketch::kExactSamples durations exactly and then switches to a
// logarithmic histogram whose buckets are at most 1/64 wide (relative), so
// a percentile is exact for small rows and within 0.78% (relative) for big
// ones. docs/report.md ("Duration statistics") states the accuracy.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_STATS_H
#define TPUPROF_REPORT_MODEL_STATS_H

#include <cstdint>
#include <vector>

namespace tpuprof {
namespace report {

/// A mergeable distribution of durations in nanoseconds.
class DurationSketch {
public:
  /// Rows with at most this many records keep every duration.
  static constexpr unsigned kExactSamples = 128;
  /// Relative error bound of a percentile once the sketch is bucketed.
  static constexpr double kRelativeError = 1.0 / 128;

  void add(uint64_t ns) {
    ++n;
    sum += ns;
    if (ns < lo)
      lo = ns;
    if (ns > hi)
      hi = ns;
    if (!bucketed) {
      samples.push_back(ns);
      if (samples.size() > kExactSamples)
        toBuckets();
      return;
    }
    addToBucket(ns, 1);
  }

  /// Folds `other` in; the result is as if every duration had been added.
  void merge(const DurationSketch &other);

  uint64_t count() const { return n; }
  uint64_t min() const { return n ? lo : 0; }
  uint64_t max() const { return hi; }
  uint64_t total() const { return sum; }
  double mean() const { return n ? double(sum) / double(n) : 0.0; }
  /// True while every duration is kept (percentiles are exact).
  bool isExact() const { return !bucketed; }

  /// The nearest-rank `q`-quantile (0 < q <= 1): the smallest duration d
  /// such that at least ceil(q * count) durations are <= d. 0 when empty.
  uint64_t quantile(double q) const;

  /// Serialization for JSON exports: exact samples, or (first bucket index,
  /// bucket counts).
  const std::vector<uint64_t> &exactSamples() const { return samples; }
  int32_t firstBucket() const { return base; }
  const std::vector<uint64_t> &bucketCounts() const { return buckets; }
  /// Rebuilds a sketch from its serialized parts.
  static DurationSketch fromParts(uint64_t count, uint64_t sum, uint64_t min,
                                  uint64_t max, std::vector<uint64_t> samples,
                                  bool bucketed, int32_t firstBucket,
                                  std::vector<uint64_t> buckets);

  /// Bucket of `ns` and the value that represents the bucket (exposed for
  /// tests).
  static int32_t bucketOf(uint64_t ns);
  static uint64_t bucketValue(int32_t index);

private:
  void toBuckets();
  void addToBucket(uint64_t ns, uint64_t times);

  uint64_t n = 0;
  uint64_t sum = 0;
  uint64_t lo = UINT64_MAX;
  uint64_t hi = 0;
  bool bucketed = false;
  std::vector<uint64_t> samples; ///< While !bucketed.
  int32_t base = 0;              ///< Bucket index of buckets[0].
  std::vector<uint64_t> buckets; ///< While bucketed; contiguous range.
};

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_STATS_H
