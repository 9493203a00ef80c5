// Workloads end to end through run_benchmark (and the driver binary for refusals): iibench documents
// match the spec, index entries, query order, determinism of op_stream_hash, interruption.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/collection.h"
#include "core/config.h"
#include "core/metrics.h"
#include "core/runner.h"
#include "test_support.h"
#include "workloads/iibench/store.h"

namespace fs = std::filesystem;

namespace {

eb::json base_config(const std::string& workload, const std::string& engine, const std::string& dir) {
  return {{"workload", workload}, {"engine", engine}, {"knobs", ebtest::small_knobs_json(engine)},
          {"params", eb::json::object()}, {"seed", 1}, {"data_dir", dir + "/data"}, {"output_dir", dir + "/out"}};
}

struct RunOut {
  int rc;
  eb::json summary;
  std::string progress;
};

eb::ResolvedConfig resolved(const eb::json& raw) {
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  if (!eb::resolve_config(raw, &cfg, &problems)) throw std::runtime_error("invalid: " + problems[0]);
  return cfg;
}

RunOut run_resolved(const eb::ResolvedConfig& cfg, std::atomic<bool>* stop = nullptr) {
  std::ostringstream progress;
  eb::RunOptions o;
  o.progress = &progress;
  std::atomic<bool> never{false};
  o.stop = stop ? stop : &never;
  RunOut r;
  r.rc = eb::run_benchmark(cfg, o);
  std::string text = ebtest::read_text(cfg.output_dir + "/summary.json");
  r.summary = text.empty() ? eb::json() : eb::json::parse(text);
  r.progress = progress.str();
  return r;
}

RunOut run(const eb::json& raw, std::atomic<bool>* stop = nullptr) { return run_resolved(resolved(raw), stop); }

std::string driver_binary() {
  return (fs::read_symlink("/proc/self/exe").parent_path() / "engbench-driver").string();
}

class IIBenchOn : public ::testing::TestWithParam<std::string> {};

TEST_P(IIBenchOn, DocumentsIndexesAndQueriesFollowTheSpec) {
  const std::string engine = GetParam();
  ebtest::TempDir d;
  eb::json c = base_config("iibench", engine, d.path);
  const int rows = 3000, len = 200, pct = 90;
  c["params"] = {{"max_rows", rows}, {"batch", 250}, {"loader_threads", 2}, {"length_char_fields", len},
                 {"num_char_fields", 2}, {"percent_compressible", pct}, {"query_threads", 1},
                 {"query_begin_docs", 500}, {"query_limit", 5}, {"report_interval_s", 0.1}};
  RunOut r = run(c);
  ASSERT_EQ(r.rc, 0) << r.summary.dump();
  EXPECT_EQ(r.summary["status"], "ok");
  EXPECT_EQ(r.summary["totals"]["insert"]["items"], rows);
  EXPECT_EQ(r.summary["totals"]["insert"]["requests"], rows / 250);
  auto q = r.summary["totals"]["query"];
  EXPECT_LE(q["items"].get<uint64_t>(), q["requests"].get<uint64_t>() * 5);
  for (const char* f : {"config.resolved.json", "summary.json", "intervals.csv", "histograms.csv",
                        "engine_stats_before.json", "engine_stats_after.json"})
    EXPECT_TRUE(fs::exists(d.path + "/out/" + f)) << f;
  // The last progress line is done.
  std::string last, line;
  std::istringstream ps(r.progress);
  while (std::getline(ps, line)) last = line;
  EXPECT_EQ(eb::json::parse(last)["type"], "done");
  if (engine == "null") return;

  EXPECT_GT(r.summary["disk"]["apparent_bytes"].get<uint64_t>(), 0u);
  // Reopen and inspect what was stored.
  const auto& info = ebtest::engine_info(engine);
  auto e = info.make();
  e->open(d.path + "/data", ebtest::small_knobs(engine));
  {
    eb::Collection coll(*e, "purchases_index", eb::iibench_indexes(3, true));
    auto s = e->session();
    EXPECT_EQ(coll.count(*s), static_cast<uint64_t>(rows));
    EXPECT_EQ(r.summary["logical_bytes_stored"].get<uint64_t>(), coll.live_bytes());
    for (int x = 0; x < 4; ++x) EXPECT_EQ(coll.count_index(*s, x), static_cast<uint64_t>(rows)) << x;
    double sum_ratio = 0;
    int n = 0;
    s->scan(0, "", 0, [&](std::string_view, std::string_view v) {
      bson_t b;
      EXPECT_TRUE(bson_init_static(&b, reinterpret_cast<const uint8_t*>(v.data()), v.size()));
      bson_iter_t it;
      auto geti = [&](const char* f) {
        EXPECT_TRUE(bson_iter_init_find(&it, &b, f)) << f;
        return bson_iter_as_int64(&it);
      };
      int64_t cr = geti("cashregisterid"), cu = geti("customerid"), pr = geti("productid");
      EXPECT_TRUE(cr >= 0 && cr < 1000);
      EXPECT_TRUE(cu >= 0 && cu < 100000);
      EXPECT_TRUE(pr >= 0 && pr < 10000);
      EXPECT_NEAR(static_cast<double>(geti("dateandtime")), r.summary["client"]["start_unix_s"].get<double>() * 1000, 120000);
      EXPECT_TRUE(bson_iter_init_find(&it, &b, "price"));
      double price = bson_iter_double(&it);
      // price = (U[0,1) * 500 + customerid) / 100
      EXPECT_GE(price * 100, cu - 1e-6);
      EXPECT_LT(price * 100, cu + 500 + 1e-6);
      for (const char* f : {"cf1", "cf2"}) {
        EXPECT_TRUE(bson_iter_init_find(&it, &b, f));
        uint32_t l;
        const char* str = bson_iter_utf8(&it, &l);
        EXPECT_EQ(l, static_cast<uint32_t>(len));
        std::string sv(str, l);
        EXPECT_EQ(sv.substr(len * (100 - pct) / 100), std::string(len * pct / 100, 'a'));
        for (char ch : sv) EXPECT_TRUE(ch >= 'a' && ch <= 'z');
        std::vector<Bytef> out(compressBound(l));
        uLongf outlen = out.size();
        compress2(out.data(), &outlen, reinterpret_cast<const Bytef*>(str), l, 9);
        sum_ratio += static_cast<double>(outlen) / l;
        ++n;
      }
      return true;
    });
    // 10% random letters (~4.7 bits each) + 90% 'a' + zlib framing: well under the 10% + slack,
    // and far from the ~60% an incompressible string of letters gives.
    double ratio = sum_ratio / n;
    EXPECT_LT(ratio, (100 - pct) / 100.0 + 0.08) << ratio;
    EXPECT_GT(ratio, (100 - pct) / 100.0 * 0.4) << ratio;

    // Query shapes: a range scan from (p, t, c) on {price, dateandtime, customerid} returns rows
    // >= the start in index order, at most the limit.
    std::vector<eb::IndexRow> rows_out;
    coll.index_scan(*s, 2, {eb::KeyValue::Double(500.0), eb::KeyValue::Int(0), eb::KeyValue::Int(50000)}, 5, true,
                    &rows_out);
    EXPECT_LE(rows_out.size(), 5u);
    for (size_t k = 1; k < rows_out.size(); ++k) EXPECT_LT(rows_out[k - 1].key, rows_out[k].key);
    for (auto& row : rows_out) {
      bson_t b;
      ASSERT_TRUE(bson_init_static(&b, reinterpret_cast<const uint8_t*>(row.doc.data()), row.doc.size()));
      auto v = eb::extract_key_values(&b, {"price"});
      EXPECT_GE(v[0].d, 500.0);
    }
  }
  e->close();
}

INSTANTIATE_TEST_SUITE_P(AllEngines, IIBenchOn, ::testing::ValuesIn(ebtest::engine_names()), [](const auto& i) {
  std::string n = i.param;
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
});

std::string hash_of(const std::string& workload, const std::string& engine, uint64_t seed, eb::json params) {
  ebtest::TempDir d;
  eb::json c = base_config(workload, engine, d.path);
  c["seed"] = seed;
  c["params"] = params;
  RunOut r = run(c);
  EXPECT_EQ(r.rc, 0);
  return r.summary["op_stream_hash"];
}

TEST(Determinism, SameSeedSameHashOtherSeedOtherHash) {
  eb::json ii = {{"max_rows", 2000}, {"batch", 100}, {"loader_threads", 2}, {"length_char_fields", 50}};
  std::string a = hash_of("iibench", "null", 1, ii), b = hash_of("iibench", "null", 1, ii);
  std::string c = hash_of("iibench", "null", 2, ii);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(a, hash_of("iibench", "rocksdb", 1, ii));  // the engine does not change the stream
  eb::json fs_params = {{"num", 5000}, {"threads", 2}, {"batch", 100}};
  std::string f1 = hash_of("fillseq", "null", 1, fs_params), f2 = hash_of("fillseq", "null", 1, fs_params);
  EXPECT_EQ(f1, f2);
  EXPECT_NE(f1, hash_of("fillseq", "null", 3, fs_params));
  fs_params["value_size"] = 101;
  EXPECT_NE(f1, hash_of("fillseq", "null", 1, fs_params));
  // fillseq hashes key counters and value offsets, and the sizes once: each size still changes the digest
  fs_params["value_size"] = 100;
  fs_params["compressible_pct"] = 40;
  EXPECT_NE(f1, hash_of("fillseq", "null", 1, fs_params));
  fs_params["compressible_pct"] = 50;
  fs_params["key_size"] = 17;
  EXPECT_NE(f1, hash_of("fillseq", "null", 1, fs_params));
  fs_params["key_size"] = 16;
  EXPECT_EQ(f1, hash_of("fillseq", "null", 1, fs_params));
}

TEST(Fillseq, WritesSequentialKeysToOneTable) {
  ebtest::TempDir d;
  eb::json c = base_config("fillseq", "rocksdb", d.path);
  c["params"] = {{"num", 3000}, {"threads", 3}, {"batch", 64}, {"key_size", 16}, {"value_size", 40}};
  RunOut r = run(c);
  ASSERT_EQ(r.rc, 0);
  EXPECT_EQ(r.summary["totals"]["insert"]["items"], 3000);
  EXPECT_EQ(r.summary["totals"]["insert"]["logical_bytes_written"], 3000 * 56);
  const auto& info = ebtest::engine_info("rocksdb");
  auto e = info.make();
  e->open(d.path + "/data", ebtest::small_knobs("rocksdb"));
  int t = e->table("fillseq", eb::TableKind::Record);
  auto s = e->session();
  uint64_t expect = 0;
  s->scan(t, "", 0, [&](std::string_view k, std::string_view v) {
    EXPECT_EQ(k.size(), 16u);
    EXPECT_EQ(v.size(), 40u);
    EXPECT_EQ(eb::read_be64(k.data()), expect++);
    EXPECT_EQ(k.substr(8), "00000000");
    return true;
  });
  EXPECT_EQ(expect, 3000u);
  s.reset();
  e->close();
}

TEST(Interrupt, SigintWritesAnInterruptedSummary) {
  ebtest::TempDir d;
  eb::json c = base_config("iibench", "null", d.path);
  c["params"] = {{"max_rows", int64_t{1} << 40}, {"length_char_fields", 10}, {"report_interval_s", 0.05},
                 {"warmup_seconds", 0.1}};
  eb::install_signal_handlers();
  eb::signal_stop_flag().store(false);
  std::thread timer([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    std::raise(SIGINT);
  });
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  ASSERT_TRUE(eb::resolve_config(c, &cfg, &problems));
  std::ostringstream progress;
  eb::RunOptions o;
  o.progress = &progress;  // stop: the signal flag
  int rc = eb::run_benchmark(cfg, o);
  timer.join();
  eb::signal_stop_flag().store(false);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  EXPECT_EQ(rc, 130);
  eb::json s = eb::json::parse(ebtest::read_text(d.path + "/out/summary.json"));
  EXPECT_EQ(s["status"], "interrupted");
  EXPECT_GT(s["totals_all"]["insert"]["items"].get<uint64_t>(), s["totals"]["insert"]["items"].get<uint64_t>());
  EXPECT_GT(s["client"]["measured_start_unix_s"].get<double>(), s["client"]["start_unix_s"].get<double>());
  EXPECT_NE(progress.str().find("{\"status\":\"interrupted\",\"type\":\"done\"}"), std::string::npos);
  // Warmup rows are marked in intervals.csv.
  std::string csv = ebtest::read_text(d.path + "/out/intervals.csv");
  EXPECT_NE(csv.find(",1,insert,"), std::string::npos);
  EXPECT_NE(csv.find(",0,insert,"), std::string::npos);
}

TEST(Interrupt, StopFlagAndTimeLimit) {
  ebtest::TempDir d;
  eb::json c = base_config("fillseq", "null", d.path);
  c["params"] = {{"num", int64_t{1} << 40}, {"max_seconds", 0.3}};
  RunOut r = run(c);
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.summary["status"], "ok");
  EXPECT_NEAR(r.summary["client"]["seconds"].get<double>(), 0.3, 0.2);
  std::atomic<bool> stop{false};
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  c["params"] = {{"num", int64_t{1} << 40}};
  c["output_dir"] = d.path + "/out2";
  r = run(c, &stop);
  t.join();
  EXPECT_EQ(r.rc, 130);
  EXPECT_EQ(r.summary["status"], "interrupted");
}

TEST(Interrupt, OpenLoopPacesToTheTargetRate) {
  ebtest::TempDir d;
  eb::json c = base_config("fillseq", "null", d.path);
  c["params"] = {{"num", 20000}, {"batch", 100}, {"target_rate", 40000}};
  RunOut r = run(c);
  ASSERT_EQ(r.rc, 0);
  EXPECT_NEAR(r.summary["client"]["seconds"].get<double>(), 0.5, 0.15);
}

int run_driver(const std::vector<std::string>& args, std::string* err) {
  std::string cmd = driver_binary();
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " 2>" + std::string("/tmp/engbench-core-test-stderr-") + std::to_string(getpid()) + " >/dev/null";
  int st = std::system(cmd.c_str());
  *err = ebtest::read_text("/tmp/engbench-core-test-stderr-" + std::to_string(getpid()));
  fs::remove("/tmp/engbench-core-test-stderr-" + std::to_string(getpid()));
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(Refusal, BadConfigsExit2AndCreateNothing) {
  ASSERT_TRUE(fs::exists(driver_binary())) << driver_binary();
  ebtest::TempDir d;
  std::vector<std::pair<eb::json, std::string>> cases;
  eb::json c = base_config("iibench", "rocksdb", d.path);
  c["engine"] = "nosuch";
  cases.push_back({c, "valid: wiredtiger"});
  c = base_config("nosuch", "rocksdb", d.path);
  cases.push_back({c, "valid: iibench, fillseq"});
  c = base_config("iibench", "rocksdb", d.path);
  c["knobs"] = {{"rocksdb.nosuchknob", 1}};
  cases.push_back({c, "unknown knob 'rocksdb.nosuchknob'"});
  for (const auto& e : eb::engine_registry())
    for (const auto& k : e.knobs)
      if (k.type == eb::ParamType::Bytes || k.type == eb::ParamType::Bool || k.type == eb::ParamType::Enum) {
        c = base_config("iibench", e.name, d.path);
        c["knobs"] = {{eb::knob_namespace(e.name) + "." + k.name, "notavalue"}};
        cases.push_back({c, "expected "});
        break;
      }
  c = base_config("iibench", "null", d.path);
  c["params"] = {{"batch", "many"}, {"num_secondary_indexes", 4}};
  cases.push_back({c, "'batch': expected an integer"});
  for (size_t i = 0; i < cases.size(); ++i) {
    std::string path = d.path + "/c" + std::to_string(i) + (i % 2 ? ".json" : ".yaml");
    std::ofstream(path) << cases[i].first.dump();  // JSON is valid YAML
    for (const char* cmd : {"validate", "run"}) {
      std::string err;
      EXPECT_EQ(run_driver({cmd, path}, &err), 2) << cases[i].first.dump();
      EXPECT_NE(err.find(cases[i].second), std::string::npos) << err;
      EXPECT_FALSE(fs::exists(d.path + "/data"));
      EXPECT_FALSE(fs::exists(d.path + "/out"));
    }
  }
  std::string err;
  std::string good = d.path + "/good.json";
  std::ofstream(good) << base_config("fillseq", "null", d.path).dump();
  EXPECT_EQ(run_driver({"validate", good}, &err), 0) << err;
  EXPECT_FALSE(fs::exists(d.path + "/data"));
  EXPECT_EQ(run_driver({"describe"}, &err), 0);
}

TEST(Failure, AnUnusableDataDirFailsWithExit1) {
  ebtest::TempDir d;
  eb::json c = base_config("fillseq", "rocksdb", d.path);
  std::ofstream(d.path + "/data") << "a file, not a directory";
  c["params"] = {{"num", 100}};
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  ASSERT_TRUE(eb::resolve_config(c, &cfg, &problems));
  std::ostringstream progress;
  eb::RunOptions o;
  o.progress = &progress;
  std::atomic<bool> never{false};
  o.stop = &never;
  EXPECT_EQ(eb::run_benchmark(cfg, o), 1);
  EXPECT_NE(progress.str().find("\"failed\""), std::string::npos);
}

// A workload that does its requests and then fails to say what they were.
class SummaryBreaks final : public eb::Workload {
 public:
  std::vector<std::string> op_names() const override { return {"op"}; }
  void setup(eb::Engine&, const eb::ParamValues&, uint64_t) override {}
  int threads() const override { return 1; }
  void run_thread(int, eb::RunContext&, eb::ThreadMetrics& m, eb::OpHasher&) override { m.record(0, 5, 1, 10, 20); }
  eb::json summary_extra() const override { throw std::runtime_error("the load window was never closed"); }
};

TEST(Failure, AWorkloadWhoseSummaryStepThrowsFailsItsRunWithTheReason) {
  ebtest::TempDir d;
  eb::json c = base_config("fillseq", "null", d.path);
  c["params"] = {{"num", 10}};
  eb::ResolvedConfig cfg = resolved(c);
  eb::WorkloadInfo broken = *cfg.workload;
  broken.make = [] { return std::unique_ptr<eb::Workload>(new SummaryBreaks()); };
  cfg.workload = &broken;
  RunOut r = run_resolved(cfg);
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.summary.at("status"), "failed");
  EXPECT_EQ(r.summary.at("error"), "workload summary: the load window was never closed");
  EXPECT_EQ(r.summary.at("totals").at("op").at("requests"), 1);  // what was measured is still written
  EXPECT_NE(r.progress.find("\"failed\""), std::string::npos);
}

TEST(Failure, ASummaryAlwaysHasWarningsAndConflictRetries) {
  ebtest::TempDir d;
  eb::json c = base_config("fillseq", "null", d.path);
  c["params"] = {{"num", 10}};
  RunOut r = run(c);
  ASSERT_EQ(r.rc, 0);
  EXPECT_EQ(r.summary.at("warnings"), eb::json::array());
  EXPECT_EQ(r.summary.at("conflict_retries"), 0);
}

}  // namespace

namespace {
// Found in review: queries were picked by the wrong index count (num_secondary_indexes=1 asked for
// index 3), and a throttled query thread kept the run alive for its whole pause after the load.
TEST(IIBenchQueries, RunWithFewerIndexesAndEndWithTheLoad) {
  for (int nsec : {1, 2, 3}) {
    ebtest::TempDir d;
    eb::json c = base_config("iibench", "wiredtiger", d.path);
    c["params"] = {{"max_rows", 3000}, {"batch", 100}, {"length_char_fields", 20},
                   {"num_secondary_indexes", nsec}, {"query_threads", 1}, {"query_begin_docs", 0}};
    RunOut r = run(c);
    ASSERT_EQ(r.rc, 0) << "nsec=" << nsec << " " << r.summary.dump();
    EXPECT_EQ(r.summary["status"], "ok");
  }
  ebtest::TempDir d;
  eb::json c = base_config("iibench", "null", d.path);
  c["params"] = {{"max_rows", 2000}, {"batch", 100}, {"length_char_fields", 20}, {"query_threads", 1},
                 {"query_begin_docs", 0}, {"queries_per_second", 0.1}};
  RunOut r = run(c);
  ASSERT_EQ(r.rc, 0);
  EXPECT_LT(r.summary["client"]["seconds"].get<double>(), 2.0) << "the run waited for the query thread's next slot";
}
}  // namespace

namespace {
// The load's wall window is in the summary, so engbench can compute its OS costs from the
// captures (the LinkBench load table of seed 000: ips, wKB/i, Mcpu/i).
TEST(LoadWindow, LinkbenchAndSysbenchReportWhenTheirLoadRan) {
  for (const char* workload : {"linkbench", "sysbench-update"}) {
    ebtest::TempDir d;
    eb::json c = base_config(workload, "rocksdb", d.path);
    if (std::string(workload) == "linkbench")
      c["params"] = {{"maxid1", 2001}, {"max_seconds", 0.2}, {"graph", "lognormal"}};
    else
      c["params"] = {{"table_size", 2000}, {"clients", eb::json::array({1})}, {"seconds_per_step", 0.2}};
    RunOut r = run(c);
    ASSERT_EQ(r.rc, 0) << workload << " " << r.summary.dump();
    const eb::json& load = r.summary["load"];
    double start = load["start_unix_s"].get<double>(), end = load["end_unix_s"].get<double>();
    EXPECT_GT(start, 1.6e9) << workload;
    EXPECT_NEAR(end - start, load["seconds"].get<double>(), 1e-6) << workload;
    EXPECT_LE(end, r.summary["client"]["start_unix_s"].get<double>() + 0.01) << "the load precedes the client window";
  }
}
}  // namespace
