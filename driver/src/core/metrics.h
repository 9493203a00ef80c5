// Per-thread, per-operation counters written lock-free by the owning worker and snapshotted by a
// reporter thread once per interval; snapshots are cumulative so interval and window figures are
// differences of two snapshots.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "clock.h"

#include "core/histogram.h"

namespace eb {

constexpr int kMaxOps = 16;  // linkbench has 10 request types; sysbench-update 1 + one per step

struct alignas(64) OpCounters {
  std::atomic<uint64_t> requests{0}, items{0}, bytes_read{0}, bytes_written{0}, errors{0}, lat_sum{0};
  std::atomic<uint64_t> lat_max{0};  // max since the reporter's last reset (reporter exchanges 0)
  AtomicHistogram hist;
};

inline void bump(std::atomic<uint64_t>& c, uint64_t n) {  // single writer: no locked instruction
  c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

class ThreadMetrics {
 public:
  void record(int op, uint64_t latency_us, uint64_t items, uint64_t bytes_read, uint64_t bytes_written) {
    OpCounters& c = ops_[op];
    bump(c.requests, 1);
    bump(c.items, items);
    bump(c.bytes_read, bytes_read);
    bump(c.bytes_written, bytes_written);
    bump(c.lat_sum, latency_us);
    c.hist.record(latency_us);
    uint64_t m = c.lat_max.load(std::memory_order_relaxed);
    while (latency_us > m && !c.lat_max.compare_exchange_weak(m, latency_us, std::memory_order_relaxed)) {
    }
  }
  void error(int op) { bump(ops_[op].errors, 1); }
  OpCounters& op(int i) { return ops_[i]; }

 private:
  OpCounters ops_[kMaxOps];
};

struct OpSnapshot {
  uint64_t requests = 0, items = 0, bytes_read = 0, bytes_written = 0, errors = 0, lat_sum = 0;
  uint64_t max_since_reset = 0;
  Histogram hist;
  OpSnapshot minus(const OpSnapshot& earlier) const;  // interval/window difference
  double mean_latency() const { return requests ? static_cast<double>(lat_sum) / requests : 0; }
};

class Metrics {
 public:
  Metrics(std::vector<std::string> op_names, int threads);
  ThreadMetrics& thread(int t) { return *threads_[t]; }
  int threads() const { return static_cast<int>(threads_.size()); }
  const std::vector<std::string>& op_names() const { return names_; }
  int op_index(const std::string& name) const;
  // Cumulative totals across threads; max_since_reset is reset when reset_max.
  std::vector<OpSnapshot> snapshot(bool reset_max);
  // Items of op 0 (the workload's main unit) so far, for progress lines and query thresholds.
  uint64_t main_items() const;

 private:
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<ThreadMetrics>> threads_;
};

// Time helpers (now_ns: clock.h).
// When a thread's requests start, for their latency. Paced (open loop): the intended start time,
// so a request behind schedule counts its wait. Closed loop: the end of the thread's previous
// request, so a point read costs one clock read instead of two (the clock is the largest part of
// the driver's cost per read), as db_bench measures; the latency then also holds the driver's own
// step between two requests (recording one, drawing and hashing the next: tens of ns). Only for
// loops that do nothing else between requests.
class RequestClock {
 public:
  explicit RequestClock(bool paced) : paced_(paced), last_(now_ns()) {}
  uint64_t start(uint64_t intended) const { return paced_ ? intended : last_; }
  // Ends the request that started at t0; its latency in µs.
  uint64_t finish_us(uint64_t t0) {
    last_ = now_ns();
    return (last_ - std::min(t0, last_)) / 1000;
  }

 private:
  bool paced_;
  uint64_t last_;
};

inline double unix_now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}
inline int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace eb
