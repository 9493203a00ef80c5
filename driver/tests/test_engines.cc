// Conformance tests for every engine in engine_registry(): the same behaviour behind one interface.
// `null` gets the subset that makes sense for an engine that stores nothing. Basic operations here;
// test_engines_lifecycle.cc: reopen, tables, concurrency, stats; test_engine_knobs.cc: knobs, errors,
// the registry.
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

TEST_P(EngineTest, InfoIsComplete) {
  EXPECT_FALSE(info_->description.empty());
  EXPECT_FALSE(info_->library.empty());
  EXPECT_FALSE(info_->library_version.empty());
  std::set<std::string> names;
  for (const auto& k : info_->knobs) {
    EXPECT_TRUE(names.insert(k.name).second) << "duplicate knob " << k.name;
    EXPECT_EQ(k.name.find('.'), std::string::npos) << k.name;
    EXPECT_FALSE(k.help.empty()) << k.name;
    if (k.type == eb::ParamType::Enum) {
      ASSERT_TRUE(k.default_value.is_string()) << k.name;
      bool in = false;
      for (const auto& c : k.choices) in |= c == k.default_value.get<std::string>();
      EXPECT_TRUE(in) << k.name;
    }
  }
}

TEST_P(EngineTest, PutGetOverwriteDel) {
  int t = engine_->table("records", eb::TableKind::Record);
  auto s = engine_->session();
  std::string v;
  s->put(t, "alpha", "one");
  if (is_null_) {
    EXPECT_FALSE(s->get(t, "alpha", &v));
    EXPECT_FALSE(s->del(t, "alpha"));
    return;
  }
  ASSERT_TRUE(s->get(t, "alpha", &v));
  EXPECT_EQ(v, "one");
  s->put(t, "alpha", "two");
  ASSERT_TRUE(s->get(t, "alpha", &v));
  EXPECT_EQ(v, "two");
  EXPECT_FALSE(s->get(t, "beta", &v));
  // binary values, an empty value
  std::string bin = bytes({0, 1, 255, 0, 7});
  s->put(t, "bin", bin);
  ASSERT_TRUE(s->get(t, "bin", &v));
  EXPECT_EQ(v, bin);
  s->put(t, "empty", "");
  v = "x";
  ASSERT_TRUE(s->get(t, "empty", &v));
  EXPECT_EQ(v, "");
  EXPECT_TRUE(s->del(t, "alpha"));
  EXPECT_FALSE(s->get(t, "alpha", &v));
  EXPECT_FALSE(s->del(t, "alpha"));
  // the same inside a transaction
  s->begin();
  s->put(t, "gamma", "3");
  EXPECT_TRUE(s->del(t, "bin"));
  EXPECT_FALSE(s->del(t, "nope"));
  s->commit();
  ASSERT_TRUE(s->get(t, "gamma", &v));
  EXPECT_EQ(v, "3");
  EXPECT_FALSE(s->get(t, "bin", &v));
}

// fillseq's pattern: long runs of puts on one session (no reads in between, so WiredTiger's write
// cursor is never reset by a get), committed in batches, then overwrites and deletes of some keys
// and reads through the same cursors.
TEST_P(EngineTest, BatchedSequentialPutsThenOverwriteAndRead) {
  int t = engine_->table("seq", eb::TableKind::Record);
  auto s = engine_->session();
  auto key = [](int i) {
    std::string k(16, '0');
    for (int b = 0; b < 8; ++b) k[b] = static_cast<char>((uint64_t(i) >> (56 - 8 * b)) & 0xFF);
    return k;
  };
  const int n = 2000, batch = 500;
  for (int i = 0; i < n; i += batch) {
    s->begin();
    for (int j = i; j < i + batch; ++j) s->put(t, key(j), "v" + std::to_string(j));
    s->commit();
  }
  if (is_null_) return;
  s->begin();
  for (int i = 0; i < n; i += 7) s->put(t, key(i), "w" + std::to_string(i));  // overwrite (insert semantics)
  s->commit();
  EXPECT_TRUE(s->del(t, key(1)));
  s->put(t, key(n), "last");  // a put right after a remove and after reads on the same table
  std::string v;
  ASSERT_TRUE(s->get(t, key(14), &v));
  EXPECT_EQ(v, "w14");
  ASSERT_TRUE(s->get(t, key(15), &v));
  EXPECT_EQ(v, "v15");
  EXPECT_FALSE(s->get(t, key(1), &v));
  auto rows = scan_all(*s, t);
  ASSERT_EQ(rows.size(), size_t(n));  // n keys - key(1) + key(n)
  for (size_t r = 0; r + 1 < rows.size(); ++r) EXPECT_LT(rows[r].first, rows[r + 1].first);
  for (const auto& [k, val] : rows) {
    int i = 0;
    for (int b = 0; b < 8; ++b) i = i * 256 + static_cast<unsigned char>(k[b]);
    EXPECT_EQ(val, i == n ? "last" : (i % 7 == 0 ? "w" : "v") + std::to_string(i)) << i;
  }
  std::string last;
  ASSERT_TRUE(s->last_key(t, &last));
  EXPECT_EQ(last, key(n));
  // The same session used from another thread than the one that created it (RocksDB keeps its perf
  // level per thread; the WiredTiger session is only ever used by one thread at a time).
  std::thread([&] {
    s->begin();
    s->put(t, key(n + 1), "other thread");
    s->commit();
  }).join();
  ASSERT_TRUE(s->get(t, key(n + 1), &v));
  EXPECT_EQ(v, "other thread");
}

TEST_P(EngineTest, ScanIsBytewiseWithLimitAndStop) {
  int t = engine_->table("idx", eb::TableKind::Index);
  auto s = engine_->session();
  std::vector<std::string> keys = {
      bytes({0}),       bytes({0, 0}),       bytes({0, 1}),   bytes({1}),
      bytes({1, 0}),    bytes({0x7f}),       bytes({0x80}),   bytes({0xfe, 0xff}),
      bytes({0xff}),    bytes({0xff, 0x00}), bytes({0xff, 0xff}), bytes({0xff, 0xff, 0xff}),
      "a",              "ab",                "b",              bytes({'a', 0}),
  };
  s->begin();
  for (size_t i = keys.size(); i-- > 0;) s->put(t, keys[i], "");
  s->commit();
  std::set<std::string> sorted(keys.begin(), keys.end());  // std::string compares as unsigned bytes
  std::vector<std::string> expect(sorted.begin(), sorted.end());

  auto rows = scan_all(*s, t);
  if (is_null_) {
    EXPECT_TRUE(rows.empty());
    std::string k;
    EXPECT_FALSE(s->last_key(t, &k));
    return;
  }
  ASSERT_EQ(rows.size(), expect.size());
  for (size_t i = 0; i < expect.size(); ++i) {
    EXPECT_EQ(rows[i].first, expect[i]) << "position " << i;
    EXPECT_EQ(rows[i].second, "");
  }
  // start key present: inclusive
  rows = scan_all(*s, t, bytes({0x80}));
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().first, bytes({0x80}));
  EXPECT_EQ(rows.size(), 6u);
  // start key absent: next larger
  rows = scan_all(*s, t, bytes({0xff, 0x00, 0x00}), 0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].first, bytes({0xff, 0xff}));
  // limit
  rows = scan_all(*s, t, bytes({0}), 3);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].first, bytes({0, 1}));
  // start past the end
  rows = scan_all(*s, t, bytes({0xff, 0xff, 0xff, 0x00}));
  EXPECT_TRUE(rows.empty());
  // early stop by the visitor: the stopping row counts as visited
  int seen = 0;
  size_t n = s->scan(t, "", 0, [&](std::string_view, std::string_view) { return ++seen < 4; });
  EXPECT_EQ(seen, 4);
  EXPECT_EQ(n, 4u);
  // read_once scans return the same rows
  eb::ScanOptions once;
  once.read_once = true;
  size_t m = s->scan(t, "", 0, [](std::string_view, std::string_view) { return true; }, once);
  EXPECT_EQ(m, expect.size());
  // last_key
  std::string last;
  ASSERT_TRUE(s->last_key(t, &last));
  EXPECT_EQ(last, bytes({0xff, 0xff, 0xff}));
}

TEST_P(EngineTest, LastKeyOfEmptyTableAndValues) {
  int t = engine_->table("r", eb::TableKind::Record);
  auto s = engine_->session();
  std::string k;
  EXPECT_FALSE(s->last_key(t, &k));
  if (is_null_) return;
  s->put(t, "k1", "v1");
  s->put(t, "k3", "v3");
  s->put(t, "k2", "v2");
  ASSERT_TRUE(s->last_key(t, &k));
  EXPECT_EQ(k, "k3");
  auto rows = scan_all(*s, t, "k2");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].second, "v2");
  EXPECT_EQ(rows[1].second, "v3");
  EXPECT_TRUE(s->del(t, "k3"));
  ASSERT_TRUE(s->last_key(t, &k));
  EXPECT_EQ(k, "k2");
}

TEST_P(EngineTest, TransactionsCommitAndRollback) {
  int t = engine_->table("r", eb::TableKind::Record);
  auto s = engine_->session();
  auto other = engine_->session();
  std::string v;
  s->begin();
  s->put(t, "a", "1");
  s->put(t, "b", "2");
  s->commit();
  if (is_null_) {
    EXPECT_FALSE(other->get(t, "a", &v));
    s->begin();
    s->put(t, "c", "3");
    s->rollback();
    return;
  }
  ASSERT_TRUE(other->get(t, "a", &v));
  EXPECT_EQ(v, "1");
  ASSERT_TRUE(other->get(t, "b", &v));

  s->begin();
  s->put(t, "c", "3");
  s->put(t, "a", "changed");
  s->del(t, "b");
  s->rollback();
  EXPECT_FALSE(s->get(t, "c", &v));
  EXPECT_FALSE(other->get(t, "c", &v));
  ASSERT_TRUE(s->get(t, "a", &v));
  EXPECT_EQ(v, "1");
  EXPECT_TRUE(s->get(t, "b", &v));
  // the session is usable after a rollback
  s->begin();
  s->put(t, "d", "4");
  s->commit();
  EXPECT_TRUE(s->get(t, "d", &v));
  EXPECT_TRUE(engine_->session()->get(t, "d", &v));
  EXPECT_TRUE(other->get(t, "d", &v));
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineTest, ::testing::ValuesIn(ebtest::engine_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           for (auto& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
