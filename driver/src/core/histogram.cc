#include "core/histogram.h"

#include <algorithm>
#include <cmath>

namespace eb {

void Histogram::merge(const Histogram& o) {
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += o.counts_[i];
  total_ += o.total_;
  sum_ += o.sum_;
  max_ = std::max(max_, o.max_);
}

void Histogram::subtract(const Histogram& o) {
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] -= std::min(counts_[i], o.counts_[i]);
  total_ -= std::min(total_, o.total_);
  sum_ -= std::min(sum_, o.sum_);
}

uint64_t Histogram::percentile(double q) const {
  if (total_ == 0) return 0;
  uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(total_)));
  if (rank < 1) rank = 1;
  uint64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      uint64_t v = HistogramLayout::hi(static_cast<int>(i)) - 1;
      return max_ ? std::min(v, max_) : v;
    }
  }
  return max_;
}

void AtomicHistogram::add_to(Histogram* h) const {
  auto& c = h->mutable_counts();
  for (size_t i = 0; i < counts_.size(); ++i) c[i] += counts_[i].load(std::memory_order_relaxed);
}

}  // namespace eb
