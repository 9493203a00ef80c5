// Engine conformance (engine_fixture.h): persistence across reopen, separate tables, concurrent
// sessions, statistics.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "engine_fixture.h"

namespace fs = std::filesystem;

namespace {
using namespace engtest;

TEST_P(EngineTest, PersistsAcrossReopen) {
  if (is_null_) GTEST_SKIP() << "null stores nothing";
  int t = engine_->table("records", eb::TableKind::Record);
  int i = engine_->table("index_a", eb::TableKind::Index);
  {
    auto s = engine_->session();
    s->begin();
    for (int n = 0; n < 1000; ++n) {
      char key[16];
      std::snprintf(key, sizeof key, "key%06d", n);
      s->put(t, key, std::string(100, static_cast<char>('a' + n % 26)));
      s->put(i, std::string("i") + key, "");
    }
    s->commit();
    s->put(t, "outside-txn", "x");
  }
  reopen();
  t = engine_->table("records", eb::TableKind::Record);
  i = engine_->table("index_a", eb::TableKind::Index);
  auto s = engine_->session();
  std::string v;
  ASSERT_TRUE(s->get(t, "key000123", &v));
  EXPECT_EQ(v, std::string(100, 'a' + 123 % 26));
  ASSERT_TRUE(s->get(t, "outside-txn", &v));
  EXPECT_EQ(scan_all(*s, t).size(), 1001u);
  EXPECT_EQ(scan_all(*s, i).size(), 1000u);
  std::string last;
  ASSERT_TRUE(s->last_key(i, &last));
  EXPECT_EQ(last, "ikey000999");
}

TEST_P(EngineTest, TablesAreSeparate) {
  int a = engine_->table("coll.ta", eb::TableKind::Record);
  int b = engine_->table("coll.tb", eb::TableKind::Record);
  EXPECT_NE(a, b);
  EXPECT_EQ(engine_->table("coll.ta", eb::TableKind::Record), a);  // same name, same handle
  auto s = engine_->session();
  s->put(a, "k", "in-a");
  s->put(b, "k2", "in-b");
  std::string v;
  if (is_null_) return;
  ASSERT_TRUE(s->get(a, "k", &v));
  EXPECT_EQ(v, "in-a");
  EXPECT_FALSE(s->get(b, "k", &v));
  EXPECT_FALSE(s->get(a, "k2", &v));
  EXPECT_EQ(scan_all(*s, a).size(), 1u);
  EXPECT_EQ(scan_all(*s, b).size(), 1u);
  std::string last;
  ASSERT_TRUE(s->last_key(a, &last));
  EXPECT_EQ(last, "k");
}

TEST_P(EngineTest, ConcurrentSessionsInsertDisjointKeys) {
  int t = engine_->table("records", eb::TableKind::Record);
  int ix = engine_->table("index", eb::TableKind::Index);
  const int threads = 4, batches = 20, per_batch = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < threads; ++w) {
    workers.emplace_back([&, w] {
      try {
        auto s = engine_->session();
        for (int b = 0; b < batches; ++b) {
          s->begin();
          for (int n = 0; n < per_batch; ++n) {
            char key[32];
            std::snprintf(key, sizeof key, "w%02d-%08d", w, b * per_batch + n);
            s->put(t, key, "value");
            s->put(ix, std::string(key) + "-ix", "");
          }
          s->commit();
          std::string v;
          s->get(t, "w00-00000000", &v);  // interleave reads
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        ++failures;
      }
    });
  }
  for (auto& th : workers) th.join();
  ASSERT_EQ(failures.load(), 0);
  auto s = engine_->session();
  size_t expect = is_null_ ? 0 : size_t(threads) * batches * per_batch;
  EXPECT_EQ(scan_all(*s, t).size(), expect);
  EXPECT_EQ(scan_all(*s, ix).size(), expect);
}

TEST_P(EngineTest, StatsIsAnObject) {
  int t = engine_->table("records", eb::TableKind::Record);
  auto s = engine_->session();
  for (int n = 0; n < 100; ++n) s->put(t, "k" + std::to_string(n), std::string(100, 'x'));
  eb::json st = engine_->stats();
  EXPECT_TRUE(st.is_object());
  if (!is_null_) EXPECT_FALSE(st.empty());
  if (info_->name.rfind("wiredtiger", 0) == 0) {
    for (const char* name :
         {"cache: bytes read into cache", "cache: bytes written from cache",
          "cache: bytes currently in the cache", "cache: unmodified pages evicted",
          "cache: modified pages evicted", "block-manager: bytes written"})
      EXPECT_TRUE(st.contains(name)) << name;
  }
  if (info_->name == "rocksdb") {
    for (const char* name : {"rocksdb.estimate-live-data-size", "rocksdb.total-sst-files-size",
                             "rocksdb.compact.read.bytes", "rocksdb.compact.write.bytes",
                             "rocksdb.flush.write.bytes", "rocksdb.stall.micros"})
      EXPECT_TRUE(st.contains(name)) << name;
  }
}

}  // namespace
