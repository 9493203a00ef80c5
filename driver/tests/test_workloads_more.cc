// The other workloads of the source documents (sysbench-update, bulk-insert, linkbench,
// cache-pollution) end to end through run_benchmark on every engine, plus the distributions they
// draw from: mixes and Zipf shapes checked statistically (4-sigma binomial bounds, log-log slope),
// read-back of what was written, stored invariants after reopening, op_stream_hash determinism and
// the sweep's step windows.
#include <bson/bson.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "core/collection.h"
#include "core/config.h"
#include "core/runner.h"
#include "test_support.h"
#include "workloads/distributions.h"
#include "workloads/doc_writer.h"

namespace fs = std::filesystem;

namespace {

eb::json config(const std::string& workload, const std::string& engine, const std::string& dir, eb::json params,
                uint64_t seed = 1) {
  return {{"workload", workload}, {"engine", engine}, {"knobs", ebtest::small_knobs_json(engine)},
          {"params", params}, {"seed", seed}, {"data_dir", dir + "/data"}, {"output_dir", dir + "/out"}};
}

eb::json run(const eb::json& raw, int* rc = nullptr) { return ebtest::run_summary(raw, rc); }

std::unique_ptr<eb::Engine> reopen(const std::string& engine, const std::string& dir) {
  auto e = ebtest::engine_info(engine).make();
  e->open(dir + "/data", ebtest::small_knobs(engine));
  return e;
}

std::string hash_of(const std::string& workload, uint64_t seed, eb::json params, const std::string& engine = "null") {
  ebtest::TempDir d;
  int rc = -1;
  eb::json s = run(config(workload, engine, d.path, params, seed), &rc);
  EXPECT_EQ(rc, 0) << s.dump();
  return s["op_stream_hash"];
}

// |observed - n p| <= 4 sigma (+1 for tiny expectations).
void expect_binomial(uint64_t observed, uint64_t n, double p, const std::string& what) {
  double mean = n * p, sd = std::sqrt(n * p * (1 - p));
  EXPECT_LE(std::fabs(static_cast<double>(observed) - mean), 4 * sd + 1) << what << ": " << observed << " vs " << mean;
}

std::string name_of(const ::testing::TestParamInfo<std::string>& i) {
  std::string n = i.param;
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

// ---------------------------------------------------------------------------------------------
// Distributions.

// The canonical encoding of logical bytes is the size DocWriter writes, without writing it.
TEST(LogicalBytes, BsonSizeIsTheSizeDocWriterWrites) {
  std::string doc;
  eb::wl::DocWriter w(&doc);
  const uint8_t oid[12] = {};
  w.oid("_id", oid);
  w.i32("a", 1);
  w.i64("bb", 2);
  w.dbl("price", 3.5);
  w.utf8("c", "hello", 5);
  w.binary("data", "\0\1\2", 3);
  w.finish();
  uint64_t size =
      eb::wl::BsonSize().oid("_id").i32("a").i64("bb").dbl("price").utf8("c", 5).binary("data", 3).bytes();
  EXPECT_EQ(size, doc.size());
  bson_t b;
  ASSERT_TRUE(bson_init_static(&b, reinterpret_cast<const uint8_t*>(doc.data()), doc.size()));
  EXPECT_EQ(b.len, size);  // libbson reads it as a whole, valid document
  EXPECT_EQ(eb::wl::BsonSize().bytes(), 5u);
}

TEST(Distributions, ZipfFrequenciesAndRankSlopeMatchTheShape) {
  const uint64_t n = 10000, draws = 400000;
  for (double shape : {0.8, 0.741, 0.625, 0.606}) {
    eb::Zipf z(n, shape);
    eb::Rng r(7, static_cast<uint64_t>(shape * 1000));
    std::vector<uint64_t> c(n + 1, 0);
    for (uint64_t i = 0; i < draws; ++i) {
      uint64_t k = z.sample(r);
      ASSERT_GE(k, 1u);
      ASSERT_LE(k, n);
      ++c[k];
    }
    double h = 0;
    for (uint64_t k = 1; k <= n; ++k) h += std::pow(static_cast<double>(k), -shape);
    for (uint64_t k : {1, 2, 3, 5, 10, 100, 1000})
      expect_binomial(c[k], draws, std::pow(static_cast<double>(k), -shape) / h,
                      "shape " + std::to_string(shape) + " rank " + std::to_string(k));
    // Least-squares slope of log(count) on log(rank) over ranks 1..200: -shape.
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const int m = 200;
    for (int k = 1; k <= m; ++k) {
      double x = std::log(k), y = std::log(static_cast<double>(c[k]));
      sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    EXPECT_NEAR(slope, -shape, 0.04) << shape;
  }
}

TEST(Distributions, ScrambleIsABijectionAndLogNormalHasItsMedian) {
  for (uint64_t n : {1ull, 7ull, 10000ull, 10007ull}) {
    eb::Scramble s(n);
    std::set<uint64_t> seen;
    for (uint64_t k = 1; k <= n; ++k) {
      uint64_t v = s(k);
      ASSERT_GE(v, 1u);
      ASSERT_LE(v, n);
      seen.insert(v);
    }
    EXPECT_EQ(seen.size(), n);
  }
  eb::Rng r(3, 3);
  eb::LogNormal ln{128, 1.0};
  std::vector<double> v(20001);
  for (auto& x : v) x = ln.sample(r);
  std::nth_element(v.begin(), v.begin() + 10000, v.end());
  EXPECT_NEAR(v[10000], 128, 128 * 0.05);
  // Geometric(p): mean (1 - p) / p.
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += eb::geometric(r, 0.382);
  EXPECT_NEAR(sum / 100000, (1 - 0.382) / 0.382, 0.03);
}

// ---------------------------------------------------------------------------------------------
// sysbench-update.

class SysbenchOn : public ::testing::TestWithParam<std::string> {};

TEST_P(SysbenchOn, IndexModeMovesKAndTheSweepHasOneWindowPerStep) {
  const std::string engine = GetParam();
  ebtest::TempDir d;
  const int size = 800, per_step = 300;
  eb::json s = run(config("sysbench-update", engine, d.path,
                          {{"table_size", size}, {"tables", 2}, {"mode", "index"}, {"clients", {1, 2, 3}},
                           {"seconds_per_step", 0}, {"updates_per_step", per_step}, {"report_interval_s", 0.05}}));
  ASSERT_EQ(s["status"], "ok") << s.dump();
  ASSERT_EQ(s["steps"].size(), 3u);
  double prev_end = 0;
  std::vector<int> clients = {1, 2, 3};
  for (size_t i = 0; i < 3; ++i) {
    const auto& st = s["steps"][i];
    EXPECT_EQ(st["clients"], clients[i]);
    EXPECT_EQ(st["name"], "update.c" + std::to_string(clients[i]));
    EXPECT_GE(st["start_unix_s"].get<double>(), prev_end);
    EXPECT_GE(st["end_unix_s"].get<double>(), st["start_unix_s"].get<double>());
    prev_end = st["end_unix_s"].get<double>();
    if (engine != "null") {
      EXPECT_EQ(st["requests"], per_step);
      EXPECT_EQ(s["totals"][st["name"].get<std::string>()]["requests"], per_step);
    }
  }
  if (engine == "null") return;
  EXPECT_EQ(s["totals"]["update"]["requests"], 3 * per_step);
  // Reopen: every row has one k index entry agreeing with its document; k summed grew by one per update.
  auto e = reopen(engine, d.path);
  int64_t ksum = 0;
  for (int t = 1; t <= 2; ++t) {
    eb::Collection c(*e, "sbtest" + std::to_string(t), {{"k", {"k"}}});
    auto ss = e->session();
    EXPECT_EQ(c.count(*ss), static_cast<uint64_t>(size));
    EXPECT_EQ(c.count_index(*ss, 0), static_cast<uint64_t>(size));
    std::vector<eb::IndexRow> rows;
    c.index_scan(*ss, 0, {}, 0, true, &rows);
    for (auto& row : rows) {
      int64_t k = eb::wl::get_int(row.doc, "k");
      ksum += k;
      EXPECT_EQ(row.key, eb::encode_key({eb::KeyValue::Int(k)}, row.record_id));
      EXPECT_EQ(eb::wl::get_int(row.doc, "_id"), static_cast<int64_t>(row.record_id));
      std::string cc = eb::wl::get_bytes(row.doc, "c"), pad = eb::wl::get_bytes(row.doc, "pad");
      ASSERT_EQ(cc.size(), 120u);
      ASSERT_EQ(pad.size(), 60u);
      for (size_t i = 0; i < cc.size(); ++i) EXPECT_TRUE(i % 12 == 11 ? cc[i] == '-' : std::isdigit(cc[i]));
    }
  }
  EXPECT_EQ(ksum, s["load"]["k_sum"].get<int64_t>() + 3 * per_step);
  e->close();
}

TEST_P(SysbenchOn, NonIndexModeReadsBackTheNewC) {
  const std::string engine = GetParam();
  if (engine == "null") GTEST_SKIP() << "stores nothing";
  ebtest::TempDir d;
  eb::json s = run(config("sysbench-update", engine, d.path,
                          {{"table_size", 500}, {"mode", "non-index"}, {"clients", {1}}, {"seconds_per_step", 0},
                           {"updates_per_step", 400}, {"verify", true}}));
  ASSERT_EQ(s["status"], "ok") << s.dump();
  EXPECT_EQ(s["verify"]["checks"], 400);
  EXPECT_EQ(s["verify"]["mismatches"], 0);
  EXPECT_EQ(s["totals"]["update"]["errors"], 0);
}

INSTANTIATE_TEST_SUITE_P(AllEngines, SysbenchOn, ::testing::ValuesIn(ebtest::engine_names()), name_of);

TEST(Sysbench, SameSeedSameHashAndTimeBoundedStepsEndOnTime) {
  eb::json p = {{"table_size", 300}, {"clients", {1, 2}}, {"seconds_per_step", 0}, {"updates_per_step", 200}};
  std::string a = hash_of("sysbench-update", 1, p);
  EXPECT_EQ(a, hash_of("sysbench-update", 1, p));
  EXPECT_EQ(a, hash_of("sysbench-update", 1, p, "rocksdb"));
  EXPECT_NE(a, hash_of("sysbench-update", 2, p));
  p["mode"] = "index";
  EXPECT_NE(a, hash_of("sysbench-update", 1, p));
  ebtest::TempDir d;
  eb::json s = run(config("sysbench-update", "null", d.path, {{"table_size", 100}, {"clients", {1, 2}}, {"seconds_per_step", 0.2}}));
  ASSERT_EQ(s["steps"].size(), 2u);
  for (auto& st : s["steps"]) EXPECT_NEAR(st["seconds"].get<double>(), 0.2, 0.1);
  EXPECT_LE(s["steps"][0]["end_unix_s"].get<double>(), s["steps"][1]["start_unix_s"].get<double>());
}

// ---------------------------------------------------------------------------------------------
// bulk-insert.

class BulkOn : public ::testing::TestWithParam<std::string> {};

TEST_P(BulkOn, InsertsEveryIdOnceWithItsIndex) {
  const std::string engine = GetParam();
  ebtest::TempDir d;
  const int num = 5000;
  eb::json s = run(config("bulk-insert", engine, d.path, {{"num", num}, {"threads", 2}, {"batch", 300}, {"shuffle_batches", true}}));
  ASSERT_EQ(s["status"], "ok") << s.dump();
  EXPECT_EQ(s["documents_inserted"], num);
  EXPECT_EQ(s["totals"]["insert"]["items"], num);
  EXPECT_EQ(s["totals"]["insert"]["requests"], 2 * ((num / 2 + 299) / 300));
  if (engine == "null") return;
  EXPECT_GT(s["bytes_per_document"].get<double>(), 0);
  auto e = reopen(engine, d.path);
  {
    eb::Collection c(*e, "bulk", {{"_id_", {"_id"}}});
    auto ss = e->session();
    EXPECT_EQ(c.count_index(*ss, 0), static_cast<uint64_t>(num));
    std::vector<eb::IndexRow> rows;
    c.index_scan(*ss, 0, {}, 0, true, &rows);
    ASSERT_EQ(rows.size(), static_cast<size_t>(num));
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(eb::wl::get_int(rows[i].doc, "_id"), static_cast<int64_t>(i + 1));  // index order = id order
      bson_t b;
      ASSERT_TRUE(bson_init_static(&b, reinterpret_cast<const uint8_t*>(rows[i].doc.data()), rows[i].doc.size()));
      EXPECT_EQ(bson_count_keys(&b), 1u);
    }
  }
  e->close();
}

INSTANTIATE_TEST_SUITE_P(AllEngines, BulkOn, ::testing::ValuesIn(ebtest::engine_names()), name_of);

TEST(Bulk, SameSeedSameHash) {
  eb::json p = {{"num", 3000}, {"threads", 2}, {"batch", 100}, {"shuffle_batches", true}};
  std::string a = hash_of("bulk-insert", 1, p);
  EXPECT_EQ(a, hash_of("bulk-insert", 1, p));
  EXPECT_NE(a, hash_of("bulk-insert", 2, p));
}

// ---------------------------------------------------------------------------------------------
// linkbench.

const char* const kLinkOps[] = {"add_node", "update_node", "delete_node", "get_node", "add_link",
                                "delete_link", "update_link", "count_link", "multiget_link", "get_links_list"};
const double kMix2011[] = {2.5732789, 7.366437, 1.0115914, 12.9326683, 8.9886601,
                           2.9907664, 8.0122125, 4.8863567, 0.5261142, 50.7119145};

TEST(LinkBench, MixMatchesThe2011ProportionsAndTheLoadHasMeanOutdegree474) {
  ebtest::TempDir d;
  const uint64_t n = 60000;
  eb::json s = run(config("linkbench", "null", d.path, {{"maxid1", 20001}, {"requests", n}, {"threads", 2}, {"graph", "lognormal"}}));
  ASSERT_EQ(s["status"], "ok") << s.dump();
  EXPECT_EQ(s["totals"]["request"]["requests"], n);
  double total = 0;
  for (double p : kMix2011) total += p;
  uint64_t sum = 0;
  for (int i = 0; i < 10; ++i) {
    uint64_t got = s["totals"][kLinkOps[i]]["requests"];
    sum += got;
    expect_binomial(got, n, kMix2011[i] / total, kLinkOps[i]);
  }
  EXPECT_EQ(sum, n);
  EXPECT_EQ(s["load"]["nodes"], 20000);
  EXPECT_NEAR(s["load"]["links_per_node"].get<double>(), 4.74, 0.45);
  // Another mix is followed too (Mark's 2018 values, getnode-heavy).
  ebtest::TempDir d2;
  eb::json s2 = run(config("linkbench", "null", d2.path,
                           {{"maxid1", 1001}, {"requests", 20000}, {"getnode", 43.9869}, {"getlinklist", 22.57039}}));
  double t2 = total - 12.9326683 - 50.7119145 + 43.9869 + 22.57039;
  expect_binomial(s2["totals"]["get_node"]["requests"], 20000, 43.9869 / t2, "get_node 2018");
}

TEST(LinkBench, SameSeedSameHashOnEveryEngine) {
  eb::json p = {{"maxid1", 501}, {"requests", 2000}, {"threads", 2}};
  std::string a = hash_of("linkbench", 1, p);
  EXPECT_EQ(a, hash_of("linkbench", 1, p));
  EXPECT_EQ(a, hash_of("linkbench", 1, p, "wiredtiger"));  // results never feed back into the stream
  EXPECT_NE(a, hash_of("linkbench", 2, p));
}

class LinkBenchOn : public ::testing::TestWithParam<std::string> {};

TEST_P(LinkBenchOn, WritesReadBackAndCountsMatchVisibleLinks) {
  const std::string engine = GetParam();
  if (engine == "null") GTEST_SKIP() << "stores nothing";
  for (int threads : {1, 2}) {
    ebtest::TempDir d;
    // A link-write-heavy mix so that adds, hides and count changes hit the same id1s often.
    eb::json s = run(config("linkbench", engine, d.path,
                            {{"maxid1", 301}, {"requests", 3000}, {"threads", threads}, {"verify", true}, {"graph", "lognormal"},
                             {"addlink", 25}, {"deletelink", 15}, {"updatelink", 15}, {"getlinklist", 20}}));
    ASSERT_EQ(s["status"], "ok") << s.dump();
    EXPECT_GT(s["verify"]["checks"].get<uint64_t>(), threads == 1 ? 1000u : 10u);
    EXPECT_EQ(s["verify"]["mismatches"], 0);
    EXPECT_GT(s["totals"]["get_links_list"]["items"].get<uint64_t>(), 0u);
    auto e = reopen(engine, d.path);
    {
      eb::Collection link(*e, "lb_link",
                          {{"pk", {"link_type", "id1", "id2"}},
                           {"id1_type", {"id1", "link_type", "visibility", "rtime", "id2", "version", "data"}}});
      eb::Collection count(*e, "lb_count", {{"id_type", {"id", "link_type"}}});
      auto ss = e->session();
      uint64_t nlinks = link.count(*ss);
      EXPECT_EQ(link.count_index(*ss, 0), nlinks);
      EXPECT_EQ(link.count_index(*ss, 1), nlinks);
      std::map<std::pair<int64_t, int64_t>, int64_t> visible;
      std::set<std::tuple<int64_t, int64_t, int64_t>> pks;
      link.scan_records(*ss, [&](uint64_t, std::string_view v) {
        std::string doc(v);
        int64_t id1 = eb::wl::get_int(doc, "id1"), lt = eb::wl::get_int(doc, "link_type");
        EXPECT_TRUE(pks.insert({lt, id1, eb::wl::get_int(doc, "id2")}).second) << "duplicate link";
        EXPECT_EQ(eb::wl::get_int(doc, "rtime"), -eb::wl::get_int(doc, "time"));
        EXPECT_LE(eb::wl::get_bytes(doc, "data").size(), 255u);
        if (eb::wl::get_int(doc, "visibility") == 1) ++visible[{id1, lt}];
        return true;
      });
      std::map<std::pair<int64_t, int64_t>, int64_t> counted;
      count.scan_records(*ss, [&](uint64_t, std::string_view v) {
        std::string doc(v);
        auto key = std::make_pair(eb::wl::get_int(doc, "id"), eb::wl::get_int(doc, "link_type"));
        EXPECT_EQ(counted.count(key), 0u) << "two count rows";
        if (int64_t c = eb::wl::get_int(doc, "count")) counted[key] = c;
        return true;
      });
      EXPECT_EQ(counted, visible);
      // get_links_list's scan: visible links of (id1, type), newest first.
      std::pair<int64_t, int64_t> busiest{0, 0};
      int64_t most = 0;
      for (auto& [k, c] : visible)
        if (c > most) most = c, busiest = k;
      std::vector<eb::IndexRow> rows;
      link.index_scan_prefix(*ss, 1, {eb::KeyValue::Int(busiest.first), eb::KeyValue::Int(busiest.second), eb::KeyValue::Int(1)},
                             0, true, &rows);
      EXPECT_EQ(static_cast<int64_t>(rows.size()), most);
      EXPECT_GT(most, 1);
      for (size_t i = 1; i < rows.size(); ++i)
        EXPECT_GE(eb::wl::get_int(rows[i - 1].doc, "time"), eb::wl::get_int(rows[i].doc, "time"));
    }
    e->close();
  }
}

INSTANTIATE_TEST_SUITE_P(AllEngines, LinkBenchOn, ::testing::ValuesIn(ebtest::engine_names()), name_of);

// ---------------------------------------------------------------------------------------------
// cache-pollution.

class CachePollutionOn : public ::testing::TestWithParam<std::string> {};

TEST_P(CachePollutionOn, ColdPassThenHotScanWithMidStats) {
  const std::string engine = GetParam();
  for (const char* action : {"scan", "index"}) {
    ebtest::TempDir d;
    eb::json s = run(config("cache-pollution", engine, d.path,
                            {{"hot_docs", 500}, {"cold_docs", 3000}, {"doc_size", 100}, {"threads", 2},
                             {"cold_action", action}, {"read_once", std::string(action) == "scan"},
                             {"cold_delay_seconds", 0.15}, {"after_seconds", 0.15}, {"report_interval_s", 0.05}}));
    ASSERT_EQ(s["status"], "ok") << s.dump();
    EXPECT_TRUE(fs::exists(d.path + "/out/engine_stats_mid.json"));
    const auto& ph = s["phases"];
    EXPECT_LE(ph["cold_start_unix_s"].get<double>(), ph["cold_end_unix_s"].get<double>());
    EXPECT_LE(ph["cold_end_unix_s"].get<double>(), ph["readers_end_unix_s"].get<double>());
    EXPECT_LE(ph["readers_end_unix_s"].get<double>(), ph["scan_hot_start_unix_s"].get<double>());
    EXPECT_GT(ph["gets_before"].get<uint64_t>(), 0u);
    EXPECT_GT(ph["gets_after"].get<uint64_t>(), 0u);
    const char* op = std::string(action) == "scan" ? "cold_scan" : "cold_index";
    EXPECT_EQ(s["totals"][op]["requests"], 1);
    EXPECT_EQ(s["totals"]["scan_hot"]["requests"], 1);
    if (engine == "null") continue;
    EXPECT_EQ(s["phases"]["hot_not_found"], 0);
    // engine cache misses of the hot table over the pass: only WiredTiger's B-tree reports them
    if (engine == "wiredtiger") EXPECT_GE(s["hot_misses"].get<int64_t>(), 0);
    else EXPECT_TRUE(s["hot_misses"].is_null()) << engine;
    EXPECT_EQ(s["totals"][op]["items"], 3000);
    EXPECT_EQ(s["totals"]["scan_hot"]["items"], 500);
    if (std::string(action) == "index") {
      auto e = reopen(engine, d.path);
      int t = e->table("cp_cold.v_1", eb::TableKind::Index);
      auto ss = e->session();
      std::set<uint64_t> ids;
      EXPECT_EQ(ss->scan(t, "", 0, [&](std::string_view k, std::string_view) {
        ids.insert(eb::index_key_record_id(k));
        return true;
      }), 3000u);
      EXPECT_EQ(ids.size(), 3000u);
      e->close();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllEngines, CachePollutionOn, ::testing::ValuesIn(ebtest::engine_names()), name_of);

TEST(Interrupt, AStopFlagEndsSweepsAndTimedPhasesPromptly) {
  struct Case { const char* wl; eb::json params; };
  std::vector<Case> cases = {
      {"sysbench-update", {{"table_size", 200}, {"clients", {1, 2}}, {"seconds_per_step", 30}}},
      {"cache-pollution", {{"hot_docs", 100}, {"cold_docs", 100}, {"cold_delay_seconds", 30}, {"after_seconds", 30}}},
      {"linkbench", {{"maxid1", 101}, {"requests", 0}, {"max_seconds", 30}, {"graph", "lognormal"}}},
      {"bulk-insert", {{"num", 0}, {"max_seconds", 30}}},
  };
  for (auto& c : cases) {
    ebtest::TempDir d;
    eb::ResolvedConfig cfg;
    std::vector<std::string> problems;
    ASSERT_TRUE(eb::resolve_config(config(c.wl, "null", d.path, c.params), &cfg, &problems)) << problems[0];
    std::atomic<bool> stop{false};
    std::ostringstream progress;
    eb::RunOptions o;
    o.progress = &progress;
    o.stop = &stop;
    std::thread t([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      stop.store(true);
    });
    auto t0 = std::chrono::steady_clock::now();
    int rc = eb::run_benchmark(cfg, o);
    t.join();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(rc, 130) << c.wl;
    EXPECT_LT(secs, 3.0) << c.wl;
    auto s = eb::json::parse(ebtest::read_text(d.path + "/out/summary.json"));
    EXPECT_EQ(s["status"], "interrupted") << c.wl;
  }
}

TEST(Refusals, BadParamsOfTheNewWorkloadsAreRefused) {
  auto problems_of = [](const std::string& wl, eb::json params) {
    eb::ResolvedConfig cfg;
    std::vector<std::string> problems;
    eb::resolve_config(config(wl, "null", "/tmp/never-created", params), &cfg, &problems);
    return problems.size();
  };
  EXPECT_GT(problems_of("sysbench-update", {{"clients", {2, 2}}}), 0u);
  EXPECT_GT(problems_of("sysbench-update", {{"seconds_per_step", 0}}), 0u);
  EXPECT_GT(problems_of("sysbench-update", {{"mode", "both"}}), 0u);
  EXPECT_GT(problems_of("linkbench", {{"maxid1", 1}}), 0u);
  EXPECT_GT(problems_of("linkbench", {{"link_read_shape", 1.0}}), 0u);
  EXPECT_GT(problems_of("bulk-insert", {{"num", 0}}), 0u);
  EXPECT_GT(problems_of("cache-pollution", {{"cold_action", "drop"}}), 0u);
  EXPECT_EQ(problems_of("linkbench", eb::json::object()), 0u);
}

}  // namespace
