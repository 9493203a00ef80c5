// Core units: key codec order, histogram, typed parameter parsing and config validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "core/config.h"
#include "core/histogram.h"
#include "core/keycodec.h"
#include "core/ophash.h"
#include "core/rng.h"
#include "test_support.h"

using eb::KeyValue;
using namespace std::string_literals;

namespace {

KeyValue random_value(eb::Rng& r) {
  static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1e300, -1e300,
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(), 9007199254740992.0,
                                    -9007199254740992.0, 4.9e-324, -4.9e-324};
  static const int64_t ispecials[] = {0, 1, -1, INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
                                      9007199254740993LL, -9007199254740993LL, 1LL << 53, (1LL << 62) + 1};
  switch (r.uniform(6)) {
    case 0:
      return r.uniform(3) == 0 ? KeyValue::Int(ispecials[r.uniform(std::size(ispecials))])
                               : KeyValue::Int(static_cast<int64_t>(r.uniform(2001)) - 1000);
    case 1: {
      if (r.uniform(3) == 0) return KeyValue::Double(specials[r.uniform(std::size(specials))]);
      return KeyValue::Double((r.uniform01() - 0.5) * 2000);
    }
    case 2: {
      std::string s;
      size_t n = r.uniform(5);
      for (size_t i = 0; i < n; ++i) {
        int pick = static_cast<int>(r.uniform(4));
        s.push_back(pick == 0 ? '\0' : pick == 1 ? '\xFF' : static_cast<char>('a' + r.uniform(3)));
      }
      return KeyValue::Str(s);
    }
    case 3: return KeyValue::Date(static_cast<int64_t>(r.uniform(2001)) - 1000);
    case 4: {
      std::string o(12, '\0');
      for (auto& c : o) c = static_cast<char>(r.uniform(3));
      return KeyValue::Oid(o);
    }
    default: return KeyValue::Null();
  }
}

int compare_tuples(const std::vector<KeyValue>& a, uint64_t ida, const std::vector<KeyValue>& b, uint64_t idb) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    int c = eb::compare_values(a[i], b[i]);
    if (c) return c;
  }
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return ida < idb ? -1 : (ida > idb ? 1 : 0);
}

int sign(int v) { return (v > 0) - (v < 0); }

}  // namespace

TEST(KeyCodec, RandomTuplesOrderLikeTheReferenceComparator) {
  eb::Rng r(42);
  for (int iter = 0; iter < 20000; ++iter) {
    size_t n = 1 + r.uniform(3);
    std::vector<KeyValue> a, b;
    for (size_t i = 0; i < n; ++i) a.push_back(random_value(r));
    // Share prefixes often so later fields and the record id decide.
    b = a;
    size_t from = r.uniform(n + 1);
    for (size_t i = from; i < n; ++i) b[i] = random_value(r);
    uint64_t ida = r.uniform(4), idb = r.uniform(4);
    std::string ka = eb::encode_key(a, ida), kb = eb::encode_key(b, idb);
    int mem = sign(ka.compare(kb));  // std::string compare = unsigned bytewise
    ASSERT_EQ(mem, sign(compare_tuples(a, ida, b, idb))) << "iteration " << iter;
  }
}

TEST(KeyCodec, StringsDecodeBackAfterSkippingEveryOtherType) {
  const std::vector<KeyValue> v = {KeyValue::Null(), KeyValue::Int(7), KeyValue::Int(INT64_MAX), KeyValue::Double(-2.5),
                                   KeyValue::Oid("abcdefghijkl"), KeyValue::Date(-3), KeyValue::Str("a\0b\0"s),
                                   KeyValue::Str("")};
  std::string key = eb::encode_key(v, 99);
  size_t pos = 0;
  for (size_t i = 0; i < 6; ++i) pos = eb::encoded_value_end(key, pos);
  EXPECT_EQ(eb::decode_string_at(key, pos), "a\0b\0"s);
  pos = eb::encoded_value_end(key, pos);
  EXPECT_EQ(eb::decode_string_at(key, pos), "");
  EXPECT_EQ(eb::encoded_value_end(key, pos) + 8, key.size());
  EXPECT_THROW(eb::decode_string_at(key, 0), eb::KeyCodecError);
  EXPECT_THROW(eb::encoded_value_end(key.substr(0, 5), 1), eb::KeyCodecError);
}

TEST(KeyCodec, NumbersCompareAcrossIntAndDouble) {
  auto k = [](KeyValue v) { return eb::encode_key({v}, 0); };
  EXPECT_LT(k(KeyValue::Int(-5)), k(KeyValue::Double(-4.5)));
  EXPECT_LT(k(KeyValue::Double(-4.5)), k(KeyValue::Int(-4)));
  EXPECT_EQ(k(KeyValue::Double(-0.0)), k(KeyValue::Double(0.0)));
  EXPECT_EQ(k(KeyValue::Int(3)), k(KeyValue::Double(3.0)));
  EXPECT_LT(k(KeyValue::Double(9007199254740992.0)), k(KeyValue::Int(9007199254740993LL)));
  EXPECT_LT(k(KeyValue::Int(INT64_MAX)), k(KeyValue::Double(std::numeric_limits<double>::infinity())));
  EXPECT_LT(k(KeyValue::Double(-std::numeric_limits<double>::infinity())), k(KeyValue::Int(INT64_MIN)));
  EXPECT_LT(k(KeyValue::Double(1e300)), k(KeyValue::Str("")));
  EXPECT_LT(k(KeyValue::Str("zzz")), k(KeyValue::Date(-1)));
  EXPECT_LT(k(KeyValue::Str("ab")), k(KeyValue::Str("ab\0"s)));
  EXPECT_LT(k(KeyValue::Str("ab\0"s)), k(KeyValue::Str("ab\x01")));
  EXPECT_THROW(k(KeyValue::Double(std::nan(""))), eb::KeyCodecError);
  EXPECT_EQ(eb::index_key_record_id(eb::encode_key({KeyValue::Str("x")}, 123456789)), 123456789u);
}

TEST(Histogram, BucketsCoverTheRangeWithTwoSignificantDigits) {
  using L = eb::HistogramLayout;
  for (uint64_t v : {0ULL, 1ULL, 255ULL, 256ULL, 257ULL, 1000ULL, 123456ULL, 3600000000ULL, (1ULL << 36) - 1}) {
    int i = L::index(v);
    ASSERT_LE(L::lo(i), v);
    ASSERT_LT(v, L::hi(i));
    ASSERT_LE(static_cast<double>(L::hi(i) - L::lo(i)), std::max(1.0, v / 100.0)) << v;
  }
  for (int i = 1; i < L::kBuckets; ++i) ASSERT_EQ(L::hi(i - 1), L::lo(i));
  eb::Histogram h, h2;
  for (uint64_t v = 1; v <= 10000; ++v) h.record(v);
  EXPECT_EQ(h.count(), 10000u);
  EXPECT_NEAR(static_cast<double>(h.percentile(0.99)), 9900, 9900 * 0.01);
  EXPECT_NEAR(static_cast<double>(h.percentile(0.5)), 5000, 50);
  EXPECT_EQ(h.max(), 10000u);
  h2.record(20000000);
  h.merge(h2);
  EXPECT_EQ(h.count(), 10001u);
  EXPECT_EQ(h.percentile(1.0), 20000000u);
}

TEST(OpHash, StableAndSensitive) {
  eb::OpHasher a, b, c;
  a.str("hello world, this is longer than 8");
  b.str("hello world, this is longer than 8");
  c.str("hello world, this is longer than 9");
  EXPECT_EQ(a.digest(), b.digest());
  EXPECT_NE(a.digest(), c.digest());
  eb::OpHasher e;
  EXPECT_EQ(eb::OpHasher::hex(e.digest()).size(), 16u);
  // Streams are defined by the algorithm, not the build: pin one value.
  eb::Rng r(1, 0);
  EXPECT_EQ(r.next(), eb::Rng(1, 0).next());
}

TEST(Params, TypedParsing) {
  auto parse = [](eb::ParamType t, eb::json v, eb::json* out, std::vector<std::string> choices = {}) {
    eb::ParamSpec s{"x", t, nullptr, "", choices};
    std::string err;
    return eb::parse_param(s, v, out, &err);
  };
  eb::json o;
  ASSERT_TRUE(parse(eb::ParamType::Bytes, "64KB", &o)); EXPECT_EQ(o, 65536);
  ASSERT_TRUE(parse(eb::ParamType::Bytes, "512MB", &o)); EXPECT_EQ(o, 512LL << 20);
  ASSERT_TRUE(parse(eb::ParamType::Bytes, "1GB", &o)); EXPECT_EQ(o, 1LL << 30);
  ASSERT_TRUE(parse(eb::ParamType::Bytes, "2GiB", &o)); EXPECT_EQ(o, 2LL << 30);
  ASSERT_TRUE(parse(eb::ParamType::Bytes, 4096, &o)); EXPECT_EQ(o, 4096);
  EXPECT_FALSE(parse(eb::ParamType::Bytes, "12XB", &o));
  EXPECT_FALSE(parse(eb::ParamType::Bytes, "-1", &o));
  for (auto t : {"true", "1", "on", "yes", "TRUE"}) {
    ASSERT_TRUE(parse(eb::ParamType::Bool, t, &o)); EXPECT_EQ(o, true);
  }
  for (auto f : {"false", "0", "off", "no"}) {
    ASSERT_TRUE(parse(eb::ParamType::Bool, f, &o)); EXPECT_EQ(o, false);
  }
  EXPECT_FALSE(parse(eb::ParamType::Bool, "maybe", &o));
  ASSERT_TRUE(parse(eb::ParamType::IntList, "1,2,4", &o)); EXPECT_EQ(o, eb::json({1, 2, 4}));
  ASSERT_TRUE(parse(eb::ParamType::IntList, eb::json({1, 2}), &o)); EXPECT_EQ(o, eb::json({1, 2}));
  EXPECT_FALSE(parse(eb::ParamType::IntList, "1,x", &o));
  ASSERT_TRUE(parse(eb::ParamType::Int, "17", &o)); EXPECT_EQ(o, 17);
  EXPECT_FALSE(parse(eb::ParamType::Int, 1.5, &o));
  ASSERT_TRUE(parse(eb::ParamType::Double, "2.5", &o)); EXPECT_EQ(o, 2.5);
  ASSERT_TRUE(parse(eb::ParamType::Enum, "b", &o, {"a", "b"}));
  std::string err;
  eb::ParamSpec e{"x", eb::ParamType::Enum, "a", "", {"a", "b"}};
  EXPECT_FALSE(eb::parse_param(e, "c", &o, &err));
  EXPECT_NE(err.find("one of: a, b"), std::string::npos) << err;
}

TEST(Config, ResolvesDefaultsAndNamespacedKnobs) {
  eb::json raw = {{"workload", "iibench"}, {"engine", "null"}, {"params", {{"max_rows", "1000"}, {"batch", 10}}},
                  {"data_dir", "/tmp/x-data"}, {"output_dir", "/tmp/x-out"}};
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  ASSERT_TRUE(eb::resolve_config(raw, &cfg, &problems)) << problems[0];
  EXPECT_EQ(cfg.params.at("max_rows"), 1000);
  EXPECT_EQ(cfg.params.at("num_secondary_indexes"), 3);
  EXPECT_EQ(cfg.seed, 1u);
  for (const auto& e : eb::engine_registry()) {
    if (e.knobs.empty()) continue;
    std::string ns = eb::knob_namespace(e.name);
    eb::json r2 = raw;
    r2["engine"] = e.name;
    r2["knobs"] = {{ns + "." + e.knobs[0].name, e.knobs[0].default_value}};
    eb::ResolvedConfig c2;
    std::vector<std::string> p2;
    EXPECT_TRUE(eb::resolve_config(r2, &c2, &p2)) << e.name << ": " << (p2.empty() ? "" : p2[0]);
    EXPECT_EQ(c2.knobs.size(), e.knobs.size());
  }
}

TEST(Config, EveryProblemIsReportedWithTheValidChoices) {
  eb::json raw = {{"workload", "iibench"}, {"engine", "nosuchengine"},
                  {"params", {{"max_rows", "lots"}, {"bogus", 1}}},
                  {"data_dir", "/tmp/x-data"}, {"output_dir", "/tmp/x-out"}};
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  EXPECT_FALSE(eb::resolve_config(raw, &cfg, &problems));
  ASSERT_EQ(problems.size(), 3u);
  std::string all;
  for (auto& p : problems) all += p + "\n";
  EXPECT_NE(all.find("unknown engine 'nosuchengine'; valid: "), std::string::npos) << all;
  for (const auto& n : ebtest::engine_names()) EXPECT_NE(all.find(n), std::string::npos) << n;
  EXPECT_NE(all.find("'max_rows': expected an integer"), std::string::npos) << all;
  EXPECT_NE(all.find("unknown param 'bogus'; valid: "), std::string::npos) << all;
  EXPECT_NE(all.find("max_rows, "), std::string::npos) << all;

  // Knobs: a knob of another engine, and a bad enum value.
  for (const auto& e : eb::engine_registry()) {
    eb::json r = raw;
    r["engine"] = e.name;
    r["params"] = eb::json::object();
    r["knobs"] = {{"other.cache_size", 1}, {eb::knob_namespace(e.name) + ".nosuchknob", 1}};
    eb::ResolvedConfig c;
    std::vector<std::string> p;
    EXPECT_FALSE(eb::resolve_config(r, &c, &p));
    EXPECT_EQ(p.size(), 2u) << e.name;
    for (const auto& s : e.knobs)
      if (s.type == eb::ParamType::Enum) {
        r["knobs"] = {{eb::knob_namespace(e.name) + "." + s.name, "not-a-choice"}};
        std::vector<std::string> p3;
        EXPECT_FALSE(eb::resolve_config(r, &c, &p3));
        ASSERT_EQ(p3.size(), 1u);
        EXPECT_NE(p3[0].find("one of: " + s.choices[0]), std::string::npos) << p3[0];
      }
  }
  raw = {{"workload", "nosuch"}, {"engine", "null"}, {"data_dir", "/a"}, {"output_dir", "/b"}, {"extra", 1}};
  problems.clear();
  EXPECT_FALSE(eb::resolve_config(raw, &cfg, &problems));
  EXPECT_EQ(problems.size(), 2u);
}

TEST(Config, YamlAndJsonFilesLoadAlike) {
  ebtest::TempDir d;
  {
    std::ofstream y(d.path + "/c.yaml");
    y << "workload: fillseq\nengine: null\nseed: 7\nparams:\n  num: 100\n  threads: '2'\ndata_dir: /tmp/a\noutput_dir: /tmp/b\n";
  }
  eb::json j = eb::load_config_file(d.path + "/c.yaml");
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  ASSERT_TRUE(eb::resolve_config(j, &cfg, &problems)) << problems[0];
  EXPECT_EQ(cfg.seed, 7u);
  EXPECT_EQ(cfg.params.at("threads"), 2);
  EXPECT_THROW(eb::load_config_file(d.path + "/c.txt"), std::runtime_error);
}

TEST(Describe, ListsEnginesKnobsAndWorkloadParams) {
  eb::json d = eb::describe_json();
  EXPECT_EQ(d["engines"].size(), eb::engine_registry().size());
  for (const auto& e : d["engines"]) {
    EXPECT_TRUE(e.contains("available"));
    EXPECT_TRUE(e.contains("library_version"));
    for (const auto& k : e["knobs"])
      for (const char* f : {"name", "type", "default", "help", "choices"}) EXPECT_TRUE(k.contains(f)) << f;
  }
  std::vector<std::string> wl;
  for (const auto& w : d["workloads"]) wl.push_back(w["name"]);
  EXPECT_NE(std::find(wl.begin(), wl.end(), "iibench"), wl.end());
  EXPECT_NE(std::find(wl.begin(), wl.end(), "fillseq"), wl.end());
}
