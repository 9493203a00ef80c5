// Log-linear latency histogram in the manner of HdrHistogram: values (µs) below 256 have their own
// bucket; above, each power of two is split into 128 equal buckets (relative width <= 1/128, i.e.
// at least 2 significant digits). Range 0 .. 2^36 µs (~19 h, so 1 µs … 1 h is covered); larger
// values land in the last bucket. Mergeable by adding counts.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

namespace eb {

struct HistogramLayout {
  static constexpr int kSubBits = 8;                  // 256 exact buckets below 256
  static constexpr int kHalf = 1 << (kSubBits - 1);   // 128 buckets per power of two above
  static constexpr int kMaxExp = 35;                  // values < 2^36
  static constexpr int kBuckets = (1 << kSubBits) + kHalf * (kMaxExp - kSubBits + 1);

  static int index(uint64_t v) {
    if (v < (1u << kSubBits)) return static_cast<int>(v);
    int e = 63 - __builtin_clzll(v);
    if (e > kMaxExp) return kBuckets - 1;
    int shift = e - (kSubBits - 1);
    return kHalf * shift + static_cast<int>(v >> shift);
  }
  static uint64_t lo(int i) {
    if (i < (1 << kSubBits)) return static_cast<uint64_t>(i);
    int shift = i / kHalf - 1;
    uint64_t m = static_cast<uint64_t>(i - kHalf * shift);
    return m << shift;
  }
  static uint64_t hi(int i) {  // exclusive
    if (i < (1 << kSubBits)) return static_cast<uint64_t>(i) + 1;
    int shift = i / kHalf - 1;
    return lo(i) + (uint64_t{1} << shift);
  }
};

class Histogram {
 public:
  Histogram() : counts_(HistogramLayout::kBuckets, 0) {}
  void record(uint64_t v, uint64_t n = 1) {
    counts_[HistogramLayout::index(v)] += n;
    total_ += n;
    if (v > max_) max_ = v;
    sum_ += v * n;
  }
  void merge(const Histogram& o);
  void subtract(const Histogram& o);  // o must be an earlier snapshot of the same cumulative series
  uint64_t count() const { return total_; }
  uint64_t max() const { return max_; }
  double mean() const { return total_ ? static_cast<double>(sum_) / total_ : 0; }
  // Value at quantile q in [0,1]: the inclusive upper bound of the bucket holding rank ceil(q*n),
  // capped at the recorded max.
  uint64_t percentile(double q) const;
  const std::vector<uint64_t>& counts() const { return counts_; }
  std::vector<uint64_t>& mutable_counts() { return counts_; }
  void set_totals(uint64_t total, uint64_t sum, uint64_t max) { total_ = total; sum_ = sum; max_ = max; }
  uint64_t sum() const { return sum_; }

 private:
  std::vector<uint64_t> counts_;
  uint64_t total_ = 0, sum_ = 0, max_ = 0;
};

// The per-thread recording side: one writer (the owning thread, plain load+store, no locked
// instructions), read concurrently by the reporter thread.
class AtomicHistogram {
 public:
  void record(uint64_t v) {
    auto& c = counts_[HistogramLayout::index(v)];
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void add_to(Histogram* h) const;  // adds current counts (bucket counts only)

 private:
  std::array<std::atomic<uint64_t>, HistogramLayout::kBuckets> counts_{};
};

}  // namespace eb
