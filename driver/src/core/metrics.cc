#include "core/metrics.h"

#include <algorithm>
#include <stdexcept>

namespace eb {

OpSnapshot OpSnapshot::minus(const OpSnapshot& e) const {
  OpSnapshot d;
  d.requests = requests - e.requests;
  d.items = items - e.items;
  d.bytes_read = bytes_read - e.bytes_read;
  d.bytes_written = bytes_written - e.bytes_written;
  d.errors = errors - e.errors;
  d.lat_sum = lat_sum - e.lat_sum;
  d.max_since_reset = max_since_reset;
  d.hist = hist;
  d.hist.subtract(e.hist);
  d.hist.set_totals(d.requests, d.lat_sum, max_since_reset);
  return d;
}

Metrics::Metrics(std::vector<std::string> op_names, int threads) : names_(std::move(op_names)) {
  if (names_.empty() || names_.size() > static_cast<size_t>(kMaxOps))
    throw std::invalid_argument("metrics: 1.." + std::to_string(kMaxOps) + " operation types");
  for (int i = 0; i < threads; ++i) threads_.push_back(std::make_unique<ThreadMetrics>());
}

int Metrics::op_index(const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<int>(i);
  throw std::invalid_argument("metrics: unknown operation " + name);
}

std::vector<OpSnapshot> Metrics::snapshot(bool reset_max) {
  std::vector<OpSnapshot> out(names_.size());
  for (size_t o = 0; o < names_.size(); ++o) {
    OpSnapshot& s = out[o];
    for (auto& tp : threads_) {
      OpCounters& c = tp->op(static_cast<int>(o));
      s.requests += c.requests.load(std::memory_order_relaxed);
      s.items += c.items.load(std::memory_order_relaxed);
      s.bytes_read += c.bytes_read.load(std::memory_order_relaxed);
      s.bytes_written += c.bytes_written.load(std::memory_order_relaxed);
      s.errors += c.errors.load(std::memory_order_relaxed);
      s.lat_sum += c.lat_sum.load(std::memory_order_relaxed);
      uint64_t m = reset_max ? c.lat_max.exchange(0, std::memory_order_relaxed)
                             : c.lat_max.load(std::memory_order_relaxed);
      s.max_since_reset = std::max(s.max_since_reset, m);
      c.hist.add_to(&s.hist);
    }
    s.hist.set_totals(s.requests, s.lat_sum, s.max_since_reset);
  }
  return out;
}

uint64_t Metrics::main_items() const {
  uint64_t n = 0;
  for (auto& tp : threads_) n += tp->op(0).items.load(std::memory_order_relaxed);
  return n;
}

}  // namespace eb
