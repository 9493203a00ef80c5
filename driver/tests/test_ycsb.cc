// ycsb: YCSB's key naming and generators against hand-computed expectations, each letter's mix
// over 100k operations, scans in key order through the document layer on every storing engine,
// misses on keys never inserted, logical bytes, determinism and refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/config.h"
#include "core/runner.h"
#include "test_support.h"
#include "workloads/doc_writer.h"
#include "workloads/ycsb/generators.h"
#include "workloads/ycsb/store.h"

namespace {
using namespace eb::ycsb;

eb::json config(const std::string& engine, const std::string& dir, eb::json params, uint64_t seed = 1) {
  return {{"workload", "ycsb"}, {"engine", engine}, {"knobs", ebtest::small_knobs_json(engine)},
          {"params", params}, {"seed", seed}, {"data_dir", dir + "/data"}, {"output_dir", dir + "/out"}};
}

eb::json run(const eb::json& raw) { return ebtest::run_summary(raw); }

TEST(YcsbKeys, Fnv64AndKeyNamesAreYcsbs) {
  // Utils.fnvhash64(0): the first key YCSB loads is user6284781860667377211.
  std::string k;
  key_name(0, true, 1, &k);
  EXPECT_EQ(k, "user6284781860667377211");
  key_name(1, true, 1, &k);
  EXPECT_EQ(k, "user8517097267634966620");
  key_name(42, false, 1, &k);
  EXPECT_EQ(k, "user42");
  key_name(42, false, 6, &k);
  EXPECT_EQ(k, "user000042");
  EXPECT_GE(fnv64(12345), 0);
}

// Gray's generator: rank 0 has probability 1/zeta(n), rank 1 0.5^theta/zeta(n) exactly.
TEST(YcsbGenerators, ZipfianHeadMatchesZetaComputedByHand) {
  const int64_t n = 1000;
  double zeta = 0;
  for (int64_t i = 1; i <= n; ++i) zeta += std::pow(static_cast<double>(i), -0.99);
  YcsbZipfian z(n, 0.99);
  EXPECT_NEAR(z.zetan(), zeta, 1e-9);
  eb::Rng r(7, 1);
  const int draws = 200000;
  std::map<int64_t, int> c;
  for (int i = 0; i < draws; ++i) {
    int64_t k = z.next(r);
    ASSERT_GE(k, 0);
    ASSERT_LT(k, n);
    ++c[k];
  }
  auto near = [&](int got, double p) { return std::fabs(got - draws * p) <= 5 * std::sqrt(draws * p * (1 - p)); };
  EXPECT_TRUE(near(c[0], 1 / zeta)) << c[0] << " vs " << draws / zeta;
  EXPECT_TRUE(near(c[1], std::pow(0.5, 0.99) / zeta)) << c[1];
  // Incremental zeta (latest): growing n gives the zeta of the larger n.
  z.next(r, 2000);
  double zeta2000 = zeta;
  for (int64_t i = 1001; i <= 2000; ++i) zeta2000 += std::pow(static_cast<double>(i), -0.99);
  EXPECT_NEAR(z.zetan(), zeta2000, 1e-9);
  EXPECT_NEAR(zeta_large(10000000001LL, 0.99), kScrambledZetan, 1e-3);  // the closed form agrees with YCSB's constant
}

// ScrambledZipfianGenerator(0, 1000): the hottest key is fnv64(0) % 1001 with 1/ZETAN of the draws
// (rank 0 over 10^10 items), plus rank 1 when it hashes to the same slot, plus its share (1/1001)
// of the remaining mass.
TEST(YcsbGenerators, ScrambledZipfianHotKeyShare) {
  ScrambledZipf z(0, 1000, 0.99);
  const double p0 = 1 / kScrambledZetan, p1 = std::pow(0.5, 0.99) / kScrambledZetan;
  const int64_t hot = fnv64(0) % 1001, second = fnv64(1) % 1001;
  ASSERT_NE(hot, second);
  const double expect_hot = p0 + (1 - p0 - p1) / 1001, expect_second = p1 + (1 - p0 - p1) / 1001;
  eb::Rng r(3, 9);
  const int draws = 400000;
  std::map<int64_t, int> c;
  for (int i = 0; i < draws; ++i) ++c[z.next(r)];
  auto sd = [&](double p) { return 5 * std::sqrt(draws * p * (1 - p)) + 0.004 * draws * p; };
  EXPECT_NEAR(c[hot], draws * expect_hot, sd(expect_hot));
  EXPECT_NEAR(c[second], draws * expect_second, sd(expect_second));
  int top = 0;
  for (auto& [k, n] : c) top = std::max(top, n);
  EXPECT_EQ(top, c[hot]);
}

const std::map<std::string, std::map<std::string, double>> kMixes = {
    {"a", {{"read", 0.5}, {"update", 0.5}}},  {"b", {{"read", 0.95}, {"update", 0.05}}},
    {"c", {{"read", 1.0}}},                   {"d", {{"read", 0.95}, {"insert", 0.05}}},
    {"e", {{"scan", 0.95}, {"insert", 0.05}}}, {"f", {{"read", 0.5}, {"read_modify_write", 0.5}}}};

TEST(YcsbRun, EachLetterMixWithinOnePointOver100kOps) {
  for (const auto& [letter, mix] : kMixes) {
    ebtest::TempDir d;
    eb::json s = run(config("null", d.path, {{"letter", letter}, {"recordcount", 1000}, {"operationcount", 100000}}));
    ASSERT_EQ(s["status"], "ok") << s.dump();
    EXPECT_EQ(s["totals"]["request"]["requests"], 100000);
    EXPECT_EQ(s["totals"].size(), mix.size() + 1) << letter;  // request + the mix's own ops only
    for (const auto& [op, p] : mix)
      EXPECT_NEAR(s["totals"][op]["requests"].get<double>() / 100000, p, 0.01) << letter << " " << op;
  }
}

TEST(YcsbRun, NullMissesEveryReadAsAMissNotAnError) {
  ebtest::TempDir d;
  eb::json s = run(config("null", d.path, {{"letter", "f"}, {"recordcount", 100}, {"operationcount", 2000}}));
  ASSERT_EQ(s["status"], "ok") << s.dump();
  const uint64_t reads = s["totals"]["read"]["requests"], rmw = s["totals"]["read_modify_write"]["requests"];
  EXPECT_EQ(s["totals"]["read"]["items"], 0);
  EXPECT_EQ(s["totals"]["read"]["errors"], 0);
  EXPECT_EQ(s["misses"]["by_op"]["read"], reads);
  EXPECT_EQ(s["misses"]["total"], reads + rmw);
  EXPECT_EQ(s["totals"]["request"]["logical_bytes_read"], 0);
}

TEST(YcsbRun, SameSeedSameHashAndUnknownLetterRefused) {
  auto hash = [](uint64_t seed, const std::string& engine) {
    ebtest::TempDir d;
    eb::json s = run(config(engine, d.path, {{"letter", "a"}, {"recordcount", 200}, {"operationcount", 3000}, {"threads", 2}}, seed));
    return s["op_stream_hash"].get<std::string>();
  };
  EXPECT_EQ(hash(1, "null"), hash(1, "null"));
  EXPECT_EQ(hash(1, "null"), hash(1, "sqlite"));  // what a store returns never feeds the stream
  EXPECT_NE(hash(1, "null"), hash(2, "null"));
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  EXPECT_FALSE(eb::resolve_config(config("null", "/tmp/never-made", {{"letter", "g"}}), &cfg, &problems));
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems[0].find("a, b, c, d, e, f"), std::string::npos) << problems[0];
  problems.clear();
  EXPECT_FALSE(eb::resolve_config(config("null", "/tmp/never-made", {{"operationcount", 0}}), &cfg, &problems));
}

class YcsbOn : public ::testing::TestWithParam<std::string> {};

std::vector<std::string> storing_engines() {
  std::vector<std::string> v;
  for (const auto& n : ebtest::engine_names())
    if (n != "null") v.push_back(n);
  return v;
}

// Records inserted through the store come back from scans in key order, as many as asked for
// (fewer only at the end of the table); reads of absent keys are misses.
TEST_P(YcsbOn, ScansReturnTheRequestedCountInKeyOrder) {
  ebtest::TempDir d;
  auto e = ebtest::engine_info(GetParam()).make();
  e->open(d.path, ebtest::small_knobs(GetParam()));
  auto store = eb::kv_ycsb_store(*e);
  store->create({"usertable", 3, 10});
  auto c = store->client();
  std::vector<eb::YcsbRecord> recs(1);
  std::set<std::string> keys;
  for (int64_t k = 0; k < 300; ++k) {
    key_name(k, true, 1, &recs[0].key);
    recs[0].fields = {std::string(10, 'a' + k % 26), std::string(10, 'b'), std::string(10, 'c')};
    c->insert(recs);
    keys.insert(recs[0].key);
  }
  std::vector<eb::YcsbRecord> out;
  for (int64_t start : {0, 7, 150}) {
    std::string s;
    key_name(start, true, 1, &s);
    ASSERT_EQ(c->scan(s, 37, -1, &out), std::min<size_t>(37, std::distance(keys.find(s), keys.end())));
    auto it = keys.find(s);
    for (const auto& r : out) {
      EXPECT_EQ(r.key, *it++);
      EXPECT_EQ(r.fields.size(), 3u);
    }
  }
  EXPECT_EQ(c->scan(*keys.rbegin(), 100, 1, &out), 1u);
  EXPECT_EQ(out[0].fields, std::vector<std::string>{std::string(10, 'b')});
  eb::YcsbRecord r;
  EXPECT_FALSE(c->read("user-never", -1, &r));
  EXPECT_FALSE(c->update("user-never", {{0, std::string(10, 'z')}}));
  EXPECT_TRUE(c->update(*keys.begin(), {{2, std::string(10, 'z')}}));
  ASSERT_TRUE(c->read(*keys.begin(), 2, &r));
  EXPECT_EQ(r.fields[0], std::string(10, 'z'));
}

// Workload C on a storing engine finds every key (no misses) and counts logical bytes as the BSON
// size of {_id, field0..9}: stored = the sum over loaded keys, read = that size per read.
TEST_P(YcsbOn, LoadedKeysAreAllFoundAndLogicalBytesAreTheRecordImages) {
  ebtest::TempDir d;
  eb::json s = run(config(GetParam(), d.path, {{"letter", "c"}, {"recordcount", 500}, {"operationcount", 2000}}));
  ASSERT_EQ(s["status"], "ok") << s.dump();
  EXPECT_EQ(s["misses"]["total"], 0);
  EXPECT_EQ(s["totals"]["read"]["items"], 2000);
  uint64_t stored = 0, min_rec = UINT64_MAX, max_rec = 0;
  for (int64_t k = 0; k < 500; ++k) {
    std::string key;
    key_name(k, true, 1, &key);
    eb::wl::BsonSize b;
    b.utf8("_id", key.size());
    for (int f = 0; f < 10; ++f) b.utf8(("field" + std::to_string(f)).c_str(), 100);
    stored += b.bytes();
    min_rec = std::min(min_rec, b.bytes());
    max_rec = std::max(max_rec, b.bytes());
  }
  EXPECT_EQ(s["logical_bytes_stored"], stored);
  const uint64_t read = s["totals"]["read"]["logical_bytes_read"];
  EXPECT_GE(read, 2000 * min_rec);
  EXPECT_LE(read, 2000 * max_rec);
  EXPECT_EQ(s["load"]["records"], 500);
  EXPECT_EQ(s["load"]["inserts"], 500);  // load_batch 1: one insert request per record
}

INSTANTIATE_TEST_SUITE_P(StoringEngines, YcsbOn, ::testing::ValuesIn(storing_engines()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
