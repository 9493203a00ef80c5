// The per-read bookkeeping of closed-loop point reads: RequestClock reads the clock once per
// request and leaves no time uncounted between requests; paced requests start when intended.
// cache-pollution counts every read that found nothing (null stores nothing: every hot read does)
// although the count is kept per thread.
#include <gtest/gtest.h>

#include <thread>

#include "core/metrics.h"
#include "test_support.h"

namespace {

TEST(RequestClock, ClosedLoopRequestsStartWhereThePreviousEnded) {
  const uint64_t before = eb::now_ns();
  eb::RequestClock clock(false);
  uint64_t sum_us = 0;
  for (int i = 0; i < 5; ++i) {
    const uint64_t t0 = clock.start(/*intended, ignored*/ 1);
    EXPECT_GE(t0, before);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the request
    sum_us += clock.finish_us(t0);
    EXPECT_GT(clock.start(1), t0);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the driver's step between requests
  }
  // Each latency runs from the previous end: the steps between requests are inside the latencies
  // (a clock read at each start would give about 10 ms here, not 14+).
  const uint64_t elapsed_us = (eb::now_ns() - before) / 1000;
  EXPECT_GE(sum_us, 4u * 3000 + 2000);
  EXPECT_LE(sum_us, elapsed_us);
}

TEST(RequestClock, PacedRequestsStartWhenIntended) {
  eb::RequestClock clock(true);
  uint64_t intended = eb::now_ns() - 3'000'000;  // 3 ms behind schedule
  EXPECT_EQ(clock.start(intended), intended);
  EXPECT_GE(clock.finish_us(intended), 3000u);
  uint64_t future = eb::now_ns() + 1'000'000'000;
  EXPECT_EQ(clock.finish_us(future), 0u);  // a start after the end counts as 0, never wraps
}

TEST(CachePollutionReads, EveryNotFoundIsCountedOnNull) {
  ebtest::TempDir d;
  eb::json raw = {{"workload", "cache-pollution"}, {"engine", "null"}, {"knobs", eb::json::object()},
                  {"params", {{"hot_docs", 100}, {"cold_docs", 100}, {"threads", 2}, {"cold_delay_seconds", 0.2},
                              {"after_seconds", 0.1}}},
                  {"seed", 3}, {"data_dir", d.path + "/data"}, {"output_dir", d.path + "/out"}};
  int rc = -1;
  eb::json s = ebtest::run_summary(raw, &rc);
  ASSERT_EQ(rc, 0) << s.dump();
  uint64_t gets = s["totals_all"]["get"]["requests"];
  EXPECT_GT(gets, 1000u);
  EXPECT_EQ(s["phases"]["hot_not_found"], gets);
  EXPECT_TRUE(s["hot_misses"].is_null());  // null stores nothing and has no cache statistics
  EXPECT_EQ(s["totals_all"]["get"]["logical_bytes_read"], 0);
}

}  // namespace
