// The driver's one clock: steady nanoseconds, read inline on every request's path (latency, deadlines).
// Apart from core/metrics.h so that the workload interface (workload.h) can use it without the core.
#pragma once
#include <chrono>
#include <cstdint>

namespace eb {

inline uint64_t now_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace eb
