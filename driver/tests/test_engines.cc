// Conformance tests for every engine in engine_registry(): the same behaviour behind one interface.
// `null` gets the subset that makes sense for an engine that stores nothing.
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

#include "engine.h"

namespace fs = std::filesystem;

namespace {

const eb::EngineInfo& info_of(const std::string& name) {
  for (const auto& e : eb::engine_registry())
    if (e.name == name) return e;
  throw std::runtime_error("no engine " + name);
}

eb::ParamValues defaults_of(const eb::EngineInfo& info) {
  eb::ParamValues out;
  for (const auto& s : info.knobs) out[s.name] = s.default_value;
  return out;
}

// Small knob values so that tests do not reserve gigabytes.
eb::ParamValues test_knobs(const eb::EngineInfo& info) {
  eb::ParamValues k = defaults_of(info);
  auto set = [&](const char* n, eb::json v) {
    if (k.count(n)) k[n] = v;
  };
  set("cache_size", int64_t(64) << 20);
  set("block_cache_size", int64_t(32) << 20);
  set("write_buffer_size", int64_t(8) << 20);
  set("map_size", int64_t(1) << 30);
  return k;
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/engbench-test-XXXXXX";
    char* p = mkdtemp(tmpl);
    if (!p) throw std::runtime_error("mkdtemp failed");
    path = p;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s.push_back(static_cast<char>(c));
  return s;
}

class EngineTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    info_ = &info_of(GetParam());
    is_null_ = info_->name == "null";
    open_engine(test_knobs(*info_));
  }
  void TearDown() override {
    if (engine_) engine_->close();
    engine_.reset();
  }
  void open_engine(const eb::ParamValues& knobs) {
    engine_ = info_->make();
    engine_->open(dir_.path, knobs);
  }
  void reopen() {
    engine_->close();
    engine_->close();  // idempotent
    engine_.reset();
    open_engine(test_knobs(*info_));
  }
  std::vector<std::pair<std::string, std::string>> scan_all(eb::Session& s, int t,
                                                            std::string_view start = {},
                                                            size_t limit = 0) {
    std::vector<std::pair<std::string, std::string>> rows;
    size_t n = s.scan(t, start, limit, [&](std::string_view k, std::string_view v) {
      rows.emplace_back(std::string(k), std::string(v));
      return true;
    });
    EXPECT_EQ(n, rows.size());
    return rows;
  }

  TempDir dir_;
  const eb::EngineInfo* info_ = nullptr;
  bool is_null_ = false;
  std::unique_ptr<eb::Engine> engine_;
};

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

// Each knob at a non-default value opens, and basic operations work.
std::vector<std::pair<std::string, eb::json>> non_default_values(const eb::ParamSpec& k) {
  static const std::map<std::string, eb::json> special = {
      {"cache_size", int64_t(32) << 20},          {"block_cache_size", int64_t(16) << 20},
      {"write_buffer_size", int64_t(4) << 20},    {"map_size", int64_t(256) << 20},
      {"checkpoint_interval_s", 1},               {"max_background_jobs", 4},
      {"page_size", 8192},                        {"mmap_size", int64_t(64) << 20},
      {"compression_per_level", "none,none,snappy,zstd,lz4,zlib,zstd"},
  };
  std::vector<std::pair<std::string, eb::json>> out;
  auto it = special.find(k.name);
  if (it != special.end()) {
    out.emplace_back(k.name, it->second);
  } else if (k.type == eb::ParamType::Bool) {
    out.emplace_back(k.name, !k.default_value.get<bool>());
  } else if (k.type == eb::ParamType::Enum) {
    for (const auto& c : k.choices)
      if (c != k.default_value.get<std::string>()) out.emplace_back(k.name, c);
  }
  return out;
}

TEST_P(EngineTest, EveryKnobOpensAtNonDefaultValues) {
  engine_->close();
  engine_.reset();
  for (const auto& spec : info_->knobs) {
    auto values = non_default_values(spec);
    EXPECT_FALSE(values.empty()) << "no non-default value known for knob " << spec.name;
    for (const auto& [name, value] : values) {
      SCOPED_TRACE(info_->name + "." + name + "=" + value.dump());
      TempDir d;
      eb::ParamValues k = test_knobs(*info_);
      k[name] = value;
      auto e = info_->make();
      try {
        e->open(d.path, k);
        int t = e->table("records", eb::TableKind::Record);
        int ix = e->table("idx", eb::TableKind::Index);
        auto s = e->session();
        s->begin();
        for (int n = 0; n < 200; ++n) {
          s->put(t, "key" + std::to_string(n), std::string(100, 'v'));
          s->put(ix, "ix" + std::to_string(n), "");
        }
        s->commit();
        std::string v;
        EXPECT_EQ(s->get(t, "key7", &v), !is_null_);
        EXPECT_EQ(s->scan(t, "", 0, [](std::string_view, std::string_view) { return true; },
                          eb::ScanOptions{}),
                  is_null_ ? 0u : 200u);
        EXPECT_TRUE(e->stats().is_object());
        s.reset();
        e->close();
      } catch (const std::exception& ex) {
        ADD_FAILURE() << ex.what();
      }
    }
  }
}

std::vector<std::string> engine_names() {
  std::vector<std::string> v;
  for (const auto& e : eb::engine_registry()) v.push_back(e.name);
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineTest, ::testing::ValuesIn(engine_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           for (auto& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(EngineWiredTiger, PeriodicCheckpointsAreCounted) {
  const eb::EngineInfo* wt = nullptr;
  for (const auto& e : eb::engine_registry())
    if (e.name == "wiredtiger") wt = &e;
  if (!wt) GTEST_SKIP() << "wiredtiger not compiled in";
  TempDir d;
  eb::ParamValues k = test_knobs(*wt);
  k["checkpoint_interval_s"] = 1;
  auto e = wt->make();
  e->open(d.path, k);
  int t = e->table("records", eb::TableKind::Record);
  e->session()->put(t, "k", "v");
  std::this_thread::sleep_for(std::chrono::milliseconds(1600));
  EXPECT_GE(e->stats().value("engbench: checkpoints taken", int64_t(0)), 1);
  e->close();
}

TEST(EngineErrors, BadKnobValuesAreRefusedAtOpenWithTheEngineName) {
  struct Case {
    const char* engine;
    const char* knob;
    eb::json value;
  };
  for (const Case& c : {Case{"rocksdb", "compression_per_level", "none,bogus"},
                        Case{"wiredtiger", "block_compressor", "bogus"},
                        Case{"sqlite", "page_size", 1000}}) {
    const eb::EngineInfo* info = nullptr;
    for (const auto& e : eb::engine_registry())
      if (e.name == c.engine) info = &e;
    if (!info) continue;
    TempDir d;
    eb::ParamValues k = test_knobs(*info);
    k[c.knob] = c.value;
    auto e = info->make();
    try {
      e->open(d.path, k);
      ADD_FAILURE() << c.engine << "." << c.knob << " accepted " << c.value.dump();
    } catch (const eb::EngineError& ex) {
      EXPECT_EQ(std::string(ex.what()).rfind(std::string(c.engine) + ":", 0), 0u) << ex.what();
    }
  }
}

// Raw single-thread insert rate per engine (not an assertion; run by hand):
//   engbench-driver-tests --gtest_also_run_disabled_tests --gtest_filter='*EngineRate*'
// EB_RATE_ENGINES=a,b limits the engines; EB_RATE_KEYS sets the key count (default 1M).
TEST(EngineRate, DISABLED_InsertRate) {
  const size_t total = std::getenv("EB_RATE_KEYS") ? std::stoull(std::getenv("EB_RATE_KEYS")) : 1000000;
  const size_t batch = 1000;
  std::string only = std::getenv("EB_RATE_ENGINES") ? std::getenv("EB_RATE_ENGINES") : "";
  std::string value(100, 'v');
  for (size_t i = 0; i < value.size(); ++i) value[i] = static_cast<char>('a' + (i * 7) % 26);
  for (const auto& info : eb::engine_registry()) {
    if (!only.empty() && ("," + only + ",").find("," + info.name + ",") == std::string::npos) continue;
    for (bool random_order : {false, true}) {
      TempDir d;
      auto e = info.make();
      e->open(d.path, defaults_of(info));
      int t = e->table("records", eb::TableKind::Record);
      auto s = e->session();
      auto t0 = std::chrono::steady_clock::now();
      char key[17];
      for (size_t i = 0; i < total; i += batch) {
        s->begin();
        for (size_t j = i; j < i + batch && j < total; ++j) {
          uint64_t n = random_order ? (j * 0x9E3779B97F4A7C15ull) : j;  // bijective scramble
          std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(n));
          s->put(t, std::string_view(key, 16), value);
        }
        s->commit();
      }
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      s.reset();
      auto c0 = std::chrono::steady_clock::now();
      e->close();
      double close_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
      std::printf("RATE engine=%-15s order=%-10s keys=%zu batch=%zu seconds=%.2f inserts_per_s=%.0f close_s=%.2f\n",
                  info.name.c_str(), random_order ? "scrambled" : "sequential", total, batch, secs,
                  total / secs, close_s);
      std::fflush(stdout);
    }
  }
}

TEST(EngineRegistry, NamesAreUniqueAndNullIsPresent) {
  std::set<std::string> names;
  for (const auto& e : eb::engine_registry()) EXPECT_TRUE(names.insert(e.name).second) << e.name;
  EXPECT_TRUE(names.count("null"));
}

TEST(EngineRegistry, WiredTigerVariantsShareKnobs) {
  const eb::EngineInfo* bt = nullptr;
  const eb::EngineInfo* lsm = nullptr;
  for (const auto& e : eb::engine_registry()) {
    if (e.name == "wiredtiger") bt = &e;
    if (e.name == "wiredtiger-lsm") lsm = &e;
  }
  if (!bt || !lsm) GTEST_SKIP() << "wiredtiger not compiled in";
  ASSERT_EQ(bt->knobs.size(), lsm->knobs.size());
  for (size_t i = 0; i < bt->knobs.size(); ++i) EXPECT_EQ(bt->knobs[i].name, lsm->knobs[i].name);
}

}  // namespace
