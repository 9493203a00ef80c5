// Parameter ranges (ParamSpec::bounds, docs/driver.md "Parameter ranges"): the core refuses a value
// outside its spec's range with the spec's words, before anything is written; every range that
// replaced a hand-written check (workloads' `check`, engines' `open`) accepts and refuses what that
// check did; each default is inside its range; `describe` carries the ranges and units.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/config.h"
#include "test_support.h"

namespace fs = std::filesystem;
using eb::json;

namespace {

// Every spec the driver declares: (where, spec).
std::vector<std::pair<std::string, const eb::ParamSpec*>> all_specs() {
  std::vector<std::pair<std::string, const eb::ParamSpec*>> v;
  for (const auto& e : eb::engine_registry())
    for (const auto& s : e.knobs) v.emplace_back("engine " + e.name, &s);
  for (const auto& t : eb::target_registry())
    for (const auto& s : t.knobs) v.emplace_back("target " + t.name, &s);
  for (const auto& w : eb::workload_registry())
    for (const auto& s : w.params) v.emplace_back("workload " + w.name, &s);
  return v;
}

bool engine_compiled(const std::string& name) {
  for (const auto& e : eb::engine_registry())
    if (e.name == name) return static_cast<bool>(e.make);
  return false;
}

// A config of `workload` on `backend` (a KV engine, or a MariaDB target reached by host: validation
// never connects) with params and namespaced knobs.
json config(const std::string& workload, const std::string& backend, const std::string& dir, json params,
            json knobs = json::object()) {
  json c = {{"workload", workload}, {"engine", backend}, {"params", std::move(params)}, {"knobs", std::move(knobs)},
            {"data_dir", dir + "/data"}, {"output_dir", dir + "/out"}};
  if (backend.rfind("mariadb", 0) == 0) c["target"] = {{"host", "127.0.0.1"}, {"port", 3306}};
  return c;
}

std::vector<std::string> problems_of(const json& raw) {
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  eb::resolve_config(raw, &cfg, &problems);
  return problems;
}

std::string driver_binary() {
  return (fs::read_symlink("/proc/self/exe").parent_path() / "engbench-driver").string();
}

int run_driver(const std::string& cmd, const std::string& config_path, std::string* err) {
  const std::string err_path = config_path + ".stderr";
  std::string line = driver_binary() + " " + cmd + " '" + config_path + "' >/dev/null 2>'" + err_path + "'";
  int st = std::system(line.c_str());
  *err = ebtest::read_text(err_path);
  fs::remove(err_path);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// parse_param of one value against a spec: "" when taken, else the refusal.
std::string refusal(const eb::ParamSpec& s, const json& v) {
  json out;
  std::string err;
  return eb::parse_param(s, v, &out, &err) ? "" : err;
}

}  // namespace

TEST(ParamBounds, TheCoreRefusesOutsideTheRangeInTheSpecsWords) {
  using eb::ParamType;
  eb::ParamSpec n{"n", ParamType::Int, int64_t{1}, "", eb::at_least(1)};
  EXPECT_EQ(refusal(n, 1), "");
  EXPECT_EQ(refusal(n, "7"), "");
  EXPECT_EQ(refusal(n, 0), "expected an integer >= 1, got 0");
  EXPECT_EQ(refusal(n, "lots"), "expected an integer >= 1, got \"lots\"");  // the type, with its range
  eb::ParamSpec pct{"p", ParamType::Int, int64_t{5}, "", eb::in_range(0, 100), "percent"};
  EXPECT_EQ(refusal(pct, 100), "");
  EXPECT_EQ(refusal(pct, 101), "expected an integer in [0, 100], got 101");
  EXPECT_EQ(refusal(pct, -1), "expected an integer in [0, 100], got -1");
  eb::ParamSpec theta{"t", ParamType::Double, 0.5, "", eb::strictly_between(0, 1)};
  EXPECT_EQ(refusal(theta, 0.999), "");
  EXPECT_EQ(refusal(theta, 1e-9), "");
  EXPECT_EQ(refusal(theta, 0), "expected a number in (0, 1), got 0");
  EXPECT_EQ(refusal(theta, "1.0"), "expected a number in (0, 1), got \"1.0\"");
  eb::ParamSpec pos{"d", ParamType::Double, 1.0, "", eb::above(0)};
  EXPECT_EQ(refusal(pos, 0.0), "expected a number > 0, got 0.0");
  eb::ParamSpec hi{"h", ParamType::Double, 1.0, "", eb::at_most(2.5)};
  EXPECT_EQ(refusal(hi, 2.5), "");
  EXPECT_EQ(refusal(hi, 2.6), "expected a number <= 2.5, got 2.6");
  eb::ParamSpec list{"c", ParamType::IntList, json::array({1}), "", eb::in_range(1, 1024)};
  EXPECT_EQ(refusal(list, "1,1024"), "");
  EXPECT_EQ(refusal(list, "1,2000"), "expected integers in [1, 1024], got \"1,2000\"");
  EXPECT_EQ(refusal(list, json::array({0, 2})), "expected integers in [1, 1024], got [0,2]");
  // A byte count: always at least 0 and in bytes; bounds shown in the units the parser takes back.
  eb::ParamSpec cache{"cache_size", ParamType::Bytes, int64_t{1} << 30, "", eb::in_range(eb::kMiB, 10 * eb::kTiB)};
  EXPECT_EQ(cache.unit, "bytes");
  EXPECT_EQ(refusal(cache, "1MiB"), "");
  EXPECT_EQ(refusal(cache, "10TB"), "");
  EXPECT_EQ(refusal(cache, "1023KB"), "expected a byte count in [1MiB, 10TiB], got \"1023KB\"");
  EXPECT_EQ(refusal(cache, (int64_t{10} << 40) + 1), "expected a byte count in [1MiB, 10TiB], got 10995116277761");
  eb::ParamSpec any_bytes{"b", ParamType::Bytes, int64_t{0}, ""};
  EXPECT_EQ(any_bytes.bounds.min.value_or(-1), 0.0);
  EXPECT_EQ(any_bytes.unit, "bytes");
  EXPECT_EQ(eb::range_text(any_bytes), ">= 0");
  // No range: any value of the type, as before.
  eb::ParamSpec free{"f", ParamType::Double, 0.0, "", eb::unbounded(), "s"};
  EXPECT_EQ(refusal(free, -5), "");
  EXPECT_EQ(eb::range_text(free), "");
  eb::ParamSpec plain{"i", ParamType::Int, int64_t{0}, ""};
  EXPECT_EQ(refusal(plain, int64_t{-9000000000}), "");
}

TEST(ParamBounds, EveryDefaultIsOfItsTypeAndInsideItsRange) {
  size_t ranged = 0;
  for (const auto& [where, s] : all_specs()) {
    SCOPED_TRACE(where + " " + s->name);
    json out;
    std::string err;
    EXPECT_TRUE(eb::parse_param(*s, s->default_value, &out, &err)) << err;
    EXPECT_EQ(out, s->default_value);
    if (!s->is_numeric()) {
      EXPECT_FALSE(s->bounds.min || s->bounds.max) << "a range on a non-numeric spec";
      continue;
    }
    if (s->bounds.min && s->bounds.max) EXPECT_LT(*s->bounds.min, *s->bounds.max);
    if (s->type == eb::ParamType::Bytes) EXPECT_EQ(s->unit, "bytes");
    if (s->bounds.min || s->bounds.max) ++ranged;
  }
  EXPECT_GT(ranged, 60u);
}

// Out of range: an int below and above, a double at both exclusive ends and past both inclusive
// ends, a list element, a knob of a target, a size knob below and above: refused by validate and
// run (exit 2) with the spec's words, and nothing written.
TEST(ParamBounds, OutOfRangeValuesAreRefusedByTheDriverAndNothingIsWritten) {
  ASSERT_TRUE(fs::exists(driver_binary())) << driver_binary();
  struct Case {
    json config;
    std::string needle;
  };
  ebtest::TempDir d;
  std::vector<Case> cases = {
      {config("iibench", "null", d.path, {{"max_rows", -1}}),
       "bad value for param 'max_rows': expected an integer >= 0, got -1"},
      {config("iibench", "null", d.path, {{"percent_compressible", 101}}),
       "bad value for param 'percent_compressible': expected an integer in [0, 100], got 101"},
      {config("ycsb", "null", d.path, {{"zipfianconstant", 0}}),
       "bad value for param 'zipfianconstant': expected a number in (0, 1), got 0"},
      {config("ycsb", "null", d.path, {{"zipfianconstant", "1.0"}}),
       "bad value for param 'zipfianconstant': expected a number in (0, 1), got \"1.0\""},
      {config("linkbench", "null", d.path, {{"write_uncorr_blend", -0.5}}),
       "bad value for param 'write_uncorr_blend': expected a number in [0, 100], got -0.5"},
      {config("linkbench", "null", d.path, {{"write_uncorr_blend", 100.5}}),
       "bad value for param 'write_uncorr_blend': expected a number in [0, 100], got 100.5"},
      {config("sysbench-update", "null", d.path, {{"clients", "1,2000"}}),
       "bad value for param 'clients': expected integers in [1, 1024], got \"1,2000\""},
      {config("sysbench-update", "mariadb-innodb", d.path, json::object(), {{"mariadb.flush_log_at_trx_commit", 3}}),
       "bad value for knob 'mariadb.flush_log_at_trx_commit': expected an integer in [0, 2], got 3"},
  };
  if (engine_compiled("wiredtiger")) {
    cases.push_back({config("fillseq", "wiredtiger", d.path, json::object(), {{"wiredtiger.cache_size", "1023KB"}}),
                     "bad value for knob 'wiredtiger.cache_size': expected a byte count in [1MiB, 10TiB], got "
                     "\"1023KB\""});
    cases.push_back({config("fillseq", "wiredtiger", d.path, json::object(), {{"wiredtiger.cache_size", "11TB"}}),
                     "bad value for knob 'wiredtiger.cache_size': expected a byte count in [1MiB, 10TiB], got "
                     "\"11TB\""});
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].config.dump());
    // In process: exactly one problem, the spec's.
    auto problems = problems_of(cases[i].config);
    ASSERT_EQ(problems.size(), 1u) << (problems.empty() ? "" : problems[0]);
    EXPECT_EQ(problems[0], cases[i].needle);
    // Through the binary: exit 2 before anything is written.
    std::string path = d.path + "/c" + std::to_string(i) + ".json";
    std::ofstream(path) << cases[i].config.dump();
    for (const char* cmd : {"validate", "run"}) {
      std::string err;
      EXPECT_EQ(run_driver(cmd, path, &err), 2) << cmd;
      EXPECT_NE(err.find(cases[i].needle), std::string::npos) << err;
      EXPECT_FALSE(fs::exists(d.path + "/data")) << cmd;
      EXPECT_FALSE(fs::exists(d.path + "/out")) << cmd;
    }
  }
}

// Each range that replaced a hand-written check refuses and accepts what that check did: the last
// value refused and the first accepted at each end it had.
TEST(ParamBounds, EveryReplacedCheckAcceptsAndRefusesTheSameValues) {
  struct Case {
    std::string workload, backend, name;  // name: a param, or a knob "<namespace>.<knob>"
    json refused_low, accepted_low, accepted_high, refused_high;  // null: that end is open
  };
  const json n = nullptr;
  const int64_t M = int64_t(1) << 20, T = int64_t(1) << 40;
  const int64_t B = 1000000, H = 1024;  // kMaxBatch / kMaxRowsPerRead, kMaxThreads (issue 42 item 4)
  const std::vector<Case> cases = {
      // iibench
      {"iibench", "null", "loader_threads", 0, 1, H, H + 1},
      {"iibench", "null", "query_threads", -1, 0, H, H + 1},
      {"iibench", "null", "batch", 0, 1, B, B + 1},
      {"iibench", "null", "docs_per_txn", -1, 0, B, B + 1},
      {"iibench", "null", "max_rows", -1, 0, n, n},
      {"iibench", "null", "num_secondary_indexes", -1, 0, 3, 4},
      {"iibench", "null", "num_char_fields", -1, 0, 1000, 1001},
      {"iibench", "null", "length_char_fields", -1, 0, M, M + 1},
      {"iibench", "null", "percent_compressible", -1, 0, 100, 101},
      {"iibench", "null", "data_length", -1, 0, 4000, 4001},
      {"iibench", "null", "query_limit", 0, 1, B, B + 1},
      // fillseq
      {"fillseq", "null", "num", 0, 1, n, n},
      {"fillseq", "null", "key_size", 7, 8, 4096, 4097},
      {"fillseq", "null", "value_size", -1, 0, M, M + 1},
      {"fillseq", "null", "batch", 0, 1, B, B + 1},
      {"fillseq", "null", "threads", 0, 1, H, H + 1},
      {"fillseq", "null", "compressible_pct", -1, 0, 100, 101},
      // sysbench-update (clients: each element)
      {"sysbench-update", "null", "clients", json::array({0}), json::array({1}), json::array({1024}),
       json::array({1025})},
      {"sysbench-update", "null", "tables", 0, 1, 1024, 1025},
      {"sysbench-update", "null", "table_size", 0, 1, n, n},
      {"sysbench-update", "null", "load_batch", 0, 1, B, B + 1},
      {"sysbench-update", "null", "updates_per_step", -1, 0, n, n},
      {"sysbench-update", "null", "seconds_per_step", -0.001, 0.0, n, n},
      // bulk-insert
      {"bulk-insert", "null", "num", -1, 0, n, n},
      {"bulk-insert", "null", "batch", 0, 1, B, B + 1},
      {"bulk-insert", "null", "threads", 0, 1, H, H + 1},
      {"bulk-insert", "null", "docs_per_txn", -1, 0, B, B + 1},
      // cache-pollution
      {"cache-pollution", "null", "threads", 0, 1, H, H + 1},
      {"cache-pollution", "null", "hot_docs", 0, 1, n, n},
      {"cache-pollution", "null", "cold_docs", 0, 1, n, n},
      {"cache-pollution", "null", "doc_size", -1, 0, M, M + 1},
      {"cache-pollution", "null", "cold_delay_seconds", -0.001, 0.0, n, n},
      {"cache-pollution", "null", "after_seconds", -0.001, 0.0, n, n},
      // linkbench
      {"linkbench", "null", "maxid1", 1, 2, n, n},
      {"linkbench", "null", "link_type_count", 0, 1, 1000, 1001},
      {"linkbench", "null", "threads", 0, 1, H, H + 1},
      {"linkbench", "null", "loaders", 0, 1, H, H + 1},
      {"linkbench", "null", "load_batch", 0, 1, B, B + 1},
      {"linkbench", "null", "requests", -1, 0, n, n},
      {"linkbench", "null", "getlinklist_limit", 0, 1, B, B + 1},
      {"linkbench", "null", "addlink", -0.001, 0.0, n, n},
      {"linkbench", "null", "deletenode", -0.001, 0.0, n, n},
      {"linkbench", "null", "link_read_shape", 0.0, 1e-9, n, n},
      {"linkbench", "null", "node_update_shape", 0.0, 1e-9, n, n},
      {"linkbench", "null", "read_uncorr_blend", -0.001, 0.0, 100.0, 100.001},
      {"linkbench", "null", "getlinklist_history", -0.001, 0.0, 100.0, 100.001},
      {"linkbench", "null", "link_datasize", 0.0, 1e-9, n, n},
      {"linkbench", "null", "node_datasize", 0.0, 1e-9, n, n},
      // ycsb
      {"ycsb", "null", "recordcount", 0, 1, n, n},
      {"ycsb", "null", "operationcount", -1, 0, n, n},
      {"ycsb", "null", "fieldcount", 0, 1, 1000, 1001},
      {"ycsb", "null", "fieldlength", 0, 1, M, M + 1},
      {"ycsb", "null", "minscanlength", 0, 1, n, n},
      {"ycsb", "null", "zeropadding", 0, 1, 64, 65},
      {"ycsb", "null", "threads", 0, 1, 1024, 1025},
      {"ycsb", "null", "load_batch", 0, 1, B, B + 1},
      {"ycsb", "null", "maxscanlength", 0, 1, B, B + 1},
      {"ycsb", "null", "zipfianconstant", 0.0, 1e-9, 0.999999, 1.0},
      // engines (their checks at open), WiredTiger's own cache limits, engbench's MariaDB options
      {"fillseq", "wiredtiger", "wiredtiger.checkpoint_interval_s", -1, 0, n, n},
      {"fillseq", "rocksdb", "rocksdb.max_background_jobs", 0, 1, H, H + 1},
      {"fillseq", "rocksdb", "rocksdb.bloom_bits_per_key", -1, 0, n, n},
      {"fillseq", "sqlite", "sqlite.page_size", 256, 512, 65536, 131072},
      {"fillseq", "wiredtiger", "wiredtiger.cache_size", M - 1, M, 10 * T, 10 * T + 1},
      {"sysbench-update", "mariadb-innodb", "mariadb.flush_log_at_trx_commit", -1, 0, 2, 3},
  };
  // Params that keep each workload's cross-parameter checks satisfied whatever the tested value.
  const std::map<std::string, json> base = {
      {"iibench", {{"max_seconds", 1}}},          {"bulk-insert", {{"max_seconds", 1}}},
      {"linkbench", {{"max_seconds", 1}}},        {"ycsb", {{"max_seconds", 1}}},
      {"sysbench-update", {{"updates_per_step", 10}}}};
  for (const auto& c : cases) {
    if (c.backend != "null" && c.backend.rfind("mariadb", 0) != 0 && !engine_compiled(c.backend)) continue;
    for (const auto& [value, ok] : {std::pair{c.refused_low, false}, std::pair{c.accepted_low, true},
                                    std::pair{c.accepted_high, true}, std::pair{c.refused_high, false}}) {
      if (value.is_null()) continue;
      SCOPED_TRACE(c.workload + " on " + c.backend + ": " + c.name + "=" + value.dump());
      json params = base.count(c.workload) ? base.at(c.workload) : json::object();
      json knobs = json::object();
      (c.name.find('.') != std::string::npos ? knobs : params)[c.name] = value;
      auto problems = problems_of(config(c.workload, c.backend, "/tmp/never-made", params, knobs));
      if (ok) {
        EXPECT_TRUE(problems.empty()) << problems[0];
      } else {
        ASSERT_EQ(problems.size(), 1u);
        EXPECT_NE(problems[0].find("'" + c.name + "': expected "), std::string::npos) << problems[0];
        EXPECT_NE(problems[0].find(", got " + value.dump()), std::string::npos) << problems[0];
      }
    }
  }
  // What stayed a cross-parameter or non-range check is still refused.
  auto one = [](const json& raw) { return problems_of(raw).size(); };
  EXPECT_EQ(one(config("linkbench", "null", "/tmp/never-made", {{"link_read_shape", 1.0}})), 1u);
  EXPECT_EQ(one(config("linkbench", "null", "/tmp/never-made",
                       {{"addlink", 0}, {"deletelink", 0}, {"updatelink", 0}, {"countlink", 0}, {"getlink", 0},
                        {"getlinklist", 0}, {"getnode", 0}, {"addnode", 0}, {"updatenode", 0}, {"deletenode", 0}})),
            1u);
  EXPECT_EQ(one(config("ycsb", "null", "/tmp/never-made", {{"minscanlength", 5}, {"maxscanlength", 4}})), 1u);
  EXPECT_EQ(one(config("sysbench-update", "null", "/tmp/never-made", {{"clients", {2, 2}}})), 1u);
  EXPECT_EQ(one(config("iibench", "null", "/tmp/never-made", {{"max_rows", 0}})), 1u);
  EXPECT_EQ(one(config("iibench", "null", "/tmp/never-made", {{"query_threads", 1}, {"num_secondary_indexes", 0}})),
            1u);
}

// wiredtiger.cache_size's range is WiredTiger's own: wiredtiger_open refuses what the spec refuses
// (so the spec refuses what a run refused before, only earlier: before anything is written).
TEST(ParamBounds, WiredTigerItselfRefusesTheCacheSizesOutsideItsSpec) {
  if (!engine_compiled("wiredtiger")) GTEST_SKIP() << "wiredtiger not compiled in";
  const eb::EngineInfo& info = ebtest::engine_info("wiredtiger");
  for (const auto& [cache, opens] : {std::pair{(int64_t(1) << 20) - 1, false}, std::pair{int64_t(1) << 20, true},
                                     std::pair{(int64_t(10) << 40) + 1, false}}) {
    SCOPED_TRACE(cache);
    ebtest::TempDir d;
    eb::ParamValues k = ebtest::small_knobs("wiredtiger");
    k["cache_size"] = cache;
    auto e = info.make();
    bool opened = true;
    try {
      e->open(d.path, k);
      e->close();
    } catch (const eb::EngineError& ex) {
      opened = false;
      EXPECT_NE(std::string(ex.what()).find("wiredtiger_open"), std::string::npos) << ex.what();
    }
    EXPECT_EQ(opened, opens);
  }
}

TEST(ParamBounds, DescribeCarriesEachRangeAndUnit) {
  json d = eb::describe_json();
  auto find = [&](const char* group, const std::string& owner, const char* list, const std::string& name) {
    for (const auto& o : d[group])
      if (o["name"] == owner)
        for (const auto& s : o[list])
          if (s["name"] == name) return s;
    return json(nullptr);
  };
  for (const char* group : {"engines", "targets", "workloads"})
    for (const auto& o : d[group])
      for (const auto& s : o[std::string(group) == "workloads" ? "params" : "knobs"])
        for (const char* f : {"name", "type", "default", "help", "choices", "min", "max", "min_exclusive",
                              "max_exclusive", "range", "unit"})
          EXPECT_TRUE(s.contains(f)) << o["name"] << " " << s["name"] << " " << f;
  json pc = find("workloads", "iibench", "params", "percent_compressible");
  EXPECT_EQ(pc["min"], 0);
  EXPECT_EQ(pc["max"], 100);
  EXPECT_EQ(pc["min_exclusive"], false);
  EXPECT_EQ(pc["unit"], "percent");
  EXPECT_EQ(pc["range"], "in [0, 100]");
  json mr = find("workloads", "iibench", "params", "max_rows");
  EXPECT_EQ(mr["min"], 0);
  EXPECT_TRUE(mr["max"].is_null());
  EXPECT_TRUE(mr["unit"].is_null());
  EXPECT_EQ(mr["range"], ">= 0");
  json z = find("workloads", "ycsb", "params", "zipfianconstant");
  EXPECT_EQ(z["min"], 0);
  EXPECT_EQ(z["max"], 1);
  EXPECT_EQ(z["range"], "in (0, 1)");
  EXPECT_TRUE(z["min_exclusive"].get<bool>() && z["max_exclusive"].get<bool>());
  json ms = find("workloads", "iibench", "params", "max_seconds");
  EXPECT_TRUE(ms["min"].is_null() && ms["max"].is_null());
  EXPECT_EQ(ms["range"], "");
  EXPECT_EQ(ms["unit"], "s");
  json v = find("workloads", "iibench", "params", "variant");
  EXPECT_TRUE(v["min"].is_null() && v["max"].is_null() && v["unit"].is_null());
  EXPECT_EQ(v["range"], "");
  json fl = find("targets", "mariadb-innodb", "knobs", "flush_log_at_trx_commit");
  EXPECT_EQ(fl["range"], "in [0, 2]");
  if (engine_compiled("wiredtiger")) {
    json cs = find("engines", "wiredtiger", "knobs", "cache_size");
    EXPECT_EQ(cs["min"], int64_t(1) << 20);
    EXPECT_EQ(cs["max"], int64_t(10) << 40);
    EXPECT_EQ(cs["unit"], "bytes");
    EXPECT_EQ(cs["range"], "in [1MiB, 10TiB]");
  }
}

// A name that reaches the file system (ParamType::Name: tables, collections, their prefixes; a target's
// database) is one plain component: a path, '..', a separator or NUL is refused (issue 42 item 3).
TEST(ParamBounds, NamesAreOneFileSystemComponent) {
  const std::vector<std::string> good = {"bulk", "cp_", "purchases_index", "T2", std::string(eb::kNameMax, 'x')};
  for (const auto& ok : good) EXPECT_TRUE(eb::is_file_name(ok)) << ok;
  const std::vector<std::string> bad = {"", "..", ".", "../../x", "/tmp/x", "a/b", "a b", "a-b", "x;DROP",
                                        std::string("a\0b", 3), std::string(eb::kNameMax + 1, 'x')};
  for (const auto& b : bad) EXPECT_FALSE(eb::is_file_name(b)) << b;
  auto problems = problems_of(config("fillseq", "null", "/tmp/never-made", {{"table", "../../x"}}, json::object()));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("'table': expected one file-system name"), std::string::npos) << problems[0];
}
