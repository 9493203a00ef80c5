// What issue 26's regime gates read from a run, and the parameters that put runs in the source
// documents' regime: iibench's documents per transaction (docs_per_txn), the engines' background work
// with its times (summary engine_events: WiredTiger checkpoints, RocksDB flushes and compactions),
// and linkbench's defaults, which are LinkBench's shipped FBWorkload mix.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "test_support.h"
#include "workloads/linkbench/store.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace {

eb::json config(const std::string& workload, const std::string& engine, const std::string& dir, eb::json params,
                eb::json knobs = eb::json::object()) {
  eb::json k = ebtest::small_knobs_json(engine);
  for (auto it = knobs.begin(); it != knobs.end(); ++it) k[it.key()] = it.value();
  return {{"workload", workload}, {"engine", engine}, {"knobs", k},  {"params", params},
          {"seed", 3},           {"data_dir", dir + "/data"},       {"output_dir", dir + "/out"}};
}

eb::json run(const eb::json& raw) {
  int rc = -1;
  eb::json s = ebtest::run_summary(raw, &rc);
  EXPECT_EQ(rc, 0) << s.dump();
  return s;
}

eb::json stats_after(const eb::json& raw) {
  return eb::json::parse(ebtest::read_text(raw["output_dir"].get<std::string>() + "/engine_stats_after.json"));
}

// A counter's change over the run (after minus before).
int64_t delta(const eb::json& raw, const std::string& stat) {
  const std::string out = raw["output_dir"];
  eb::json b = eb::json::parse(ebtest::read_text(out + "/engine_stats_before.json"));
  eb::json a = eb::json::parse(ebtest::read_text(out + "/engine_stats_after.json"));
  return a.value(stat, int64_t{0}) - b.value(stat, int64_t{0});
}

// ---------------------------------------------------------------------------------------------
// iibench docs_per_txn: MongoDB commits each document of an insert request on its own.

TEST(IIBenchDocsPerTxn, OneDocumentPerTransactionOnWiredTigerSameStream) {
  const eb::json p = {{"max_rows", 3000}, {"batch", 500}, {"length_char_fields", 20}};
  ebtest::TempDir whole, each;
  eb::json a_raw = config("iibench", "wiredtiger", whole.path, p);
  eb::json p1 = p;
  p1["docs_per_txn"] = 1;
  eb::json b_raw = config("iibench", "wiredtiger", each.path, p1);
  eb::json a = run(a_raw), b = run(b_raw);
  const std::string committed = "transaction: transactions committed";
  // 6 requests of 500: 6 transactions (plus a few of the engine's own) against one per document.
  EXPECT_LT(delta(a_raw, committed), 100) << stats_after(a_raw).value(committed, -1);
  EXPECT_GE(delta(b_raw, committed), 3000);
  EXPECT_LT(delta(b_raw, committed), 3100);
  // The same requests, documents and stream: only the transactions differ.
  EXPECT_EQ(a["op_stream_hash"], b["op_stream_hash"]);
  EXPECT_EQ(a["totals"]["insert"]["requests"], 6);
  EXPECT_EQ(b["totals"]["insert"]["requests"], 6);
  EXPECT_EQ(b["totals"]["insert"]["items"], 3000);
  EXPECT_EQ(a["logical_index_key_bytes"], b["logical_index_key_bytes"]);
}

TEST(IIBenchDocsPerTxn, GroupsOfARequestAreWritesOfTheirOwnOnRocksDB) {
  // RocksDB's Write() calls: each done by its own thread or by a group leader for it.
  for (int per : {0, 7}) {
    ebtest::TempDir d;
    eb::json raw = config("iibench", "rocksdb", d.path, {{"max_rows", 1000}, {"batch", 100}, {"docs_per_txn", per}});
    run(raw);
    const int64_t writes = delta(raw, "rocksdb.write.self") + delta(raw, "rocksdb.write.other");
    EXPECT_EQ(writes, per == 0 ? 10 : 10 * 15) << per;  // 100 = 14 groups of 7 and one of 2
  }
}

TEST(IIBenchDocsPerTxn, ANegativeValueIsRefused) {
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  ebtest::TempDir d;
  EXPECT_FALSE(eb::resolve_config(config("iibench", "null", d.path, {{"docs_per_txn", -1}}), &cfg, &problems));
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems[0].find("docs_per_txn"), std::string::npos) << problems[0];
}

// WiredTiger LSM in a small cache: each LSM tree needs 3 chunks (+ merge pages) of cache
// (WiredTiger refuses a cache below that), so iibench's 5 trees at the default 10MB chunks need
// ~160MB; lsm_chunk_size scales the chunks down with the cache (003's smallest step is 16MB).
TEST(WiredTigerLsm, ChunkSizeLetsIIBenchsTreesOpenInASmallCache) {
  const eb::json p = {{"max_rows", 20000}, {"batch", 1000}, {"docs_per_txn", 1}, {"length_char_fields", 50}};
  ebtest::TempDir d1, d2;
  int rc = -1;
  eb::json refused = ebtest::run_summary(config("iibench", "wiredtiger-lsm", d1.path, p, {{"wiredtiger.cache_size", "16MB"}}), &rc);
  EXPECT_EQ(rc, 1);
  EXPECT_NE(refused["error"].get<std::string>().find("Invalid argument"), std::string::npos) << refused["error"];
  eb::json s = run(config("iibench", "wiredtiger-lsm", d2.path, p,
                          {{"wiredtiger.cache_size", "16MB"}, {"wiredtiger.lsm_chunk_size", "1MB"}}));
  EXPECT_EQ(s["totals"]["insert"]["items"], 20000);
  EXPECT_EQ(s["knobs"]["wiredtiger.lsm_chunk_size"], 1 << 20);
}

// rocksdb.compression_opts: the source's MongoRocks ran zlib at level 1 (compression_opts=-14:1:0);
// level 1 stores the same documents in more bytes than level 9.
TEST(RocksDBCompressionOpts, ZlibLevelReachesTheCompressor) {
  auto sst_bytes = [](const std::string& opts) {
    ebtest::TempDir d;
    eb::json s = run(config("iibench", "rocksdb", d.path, {{"max_rows", 20000}, {"batch", 1000}, {"length_char_fields", 400},
                                                           {"percent_compressible", 50}},
                            {{"rocksdb.compression", "zlib"}, {"rocksdb.compression_opts", opts}}));
    uint64_t n = 0;
    for (const auto& f : s["disk"]["files"])
      if (f["path"].get<std::string>().find(".sst") != std::string::npos) n += f["apparent_bytes"].get<uint64_t>();
    return n;
  };
  const uint64_t fast = sst_bytes("-14:1:0"), best = sst_bytes("-14:9:0");
  EXPECT_GT(fast, best + best / 50) << fast << " vs " << best;
}

// rocksdb.max_bytes_for_level_base / target_file_size_base: RocksDB's level shape (L1 = 4 memtables,
// files of one memtable) kept when the memtables are small: the data reaches L2 and beyond, as in
// the source's much larger databases, instead of sitting in an L1 of 256 MB rewritten by every L0
// compaction.
TEST(RocksDBLevels, ASmallLevelBaseSpreadsASmallDatabaseOverLevels) {
  auto level2_files = [](eb::json knobs) {
    ebtest::TempDir d;
    knobs["rocksdb.write_buffer_size"] = "1MB";
    eb::json raw = config("iibench", "rocksdb", d.path, {{"max_rows", 60000}, {"batch", 1000}, {"length_char_fields", 300}},
                          knobs);
    run(raw);
    return stats_after(raw)["rocksdb.num-files-at-level2"].get<int64_t>();
  };
  EXPECT_EQ(level2_files(eb::json::object()), 0);
  EXPECT_GT(level2_files({{"rocksdb.max_bytes_for_level_base", "2MB"}, {"rocksdb.target_file_size_base", "1MB"}}), 0);
}

// The RocksDB knobs added for issue 26 reach RocksDB: its own OPTIONS file says so.
TEST(RocksDBKnobs, ReachTheOptionsRocksDBPersists) {
  ebtest::TempDir d;
  eb::json raw = config("iibench", "rocksdb", d.path, {{"max_rows", 2000}, {"batch", 500}},
                        {{"rocksdb.compaction_readahead_size", "2MB"}, {"rocksdb.max_bytes_for_level_base", "8MB"},
                         {"rocksdb.target_file_size_base", "2MB"}, {"rocksdb.compression", "zlib"},
                         {"rocksdb.compression_opts", "-14:1:0"}, {"rocksdb.block_size", "16KB"},
                         {"rocksdb.bloom_bits_per_key", 10}});
  run(raw);
  std::string options;
  for (const auto& f : std::filesystem::directory_iterator(d.path + "/data"))
    if (f.path().filename().string().rfind("OPTIONS-", 0) == 0) options = ebtest::read_text(f.path().string());
  ASSERT_FALSE(options.empty());
  for (const char* want : {"compaction_readahead_size=2097152", "max_bytes_for_level_base=8388608",
                           "target_file_size_base=2097152", "compression_opts={", "level=1;", "block_size=16384",
                           "filter_policy=bloomfilter:10"})
    EXPECT_NE(options.find(want), std::string::npos) << want;
}

// ---------------------------------------------------------------------------------------------
// engine_events: each background job's wall-clock window, so a run can count those inside its
// measured window.

void expect_windows(const eb::json& events, const eb::json& s, const std::string& what) {
  const double t0 = s["client"]["start_unix_s"], t1 = s["client"]["end_unix_s"];
  for (const auto& e : events) {
    ASSERT_TRUE(e["start_unix_s"].is_number()) << what << " " << e.dump();
    if (e["end_unix_s"].is_null()) continue;  // still running when the run ended
    EXPECT_LE(e["start_unix_s"].get<double>(), e["end_unix_s"].get<double>()) << what;
    // iibench loads nothing before its client window: every job is from the engine's open on,
    // a few seconds at most before the window, and ends before the after-stats.
    EXPECT_GT(e["start_unix_s"].get<double>(), t0 - 10) << what;
    EXPECT_LT(e["end_unix_s"].get<double>(), t1 + 10) << what;
  }
}

TEST(EngineEvents, WiredTigerRecordsEachCheckpointsTimes) {
  ebtest::TempDir d;
  eb::json raw = config("iibench", "wiredtiger", d.path, {{"max_rows", 0}, {"max_seconds", 3.6}, {"batch", 100}},
                        {{"wiredtiger.checkpoint_interval_s", 1}});
  eb::json s = run(raw);
  ASSERT_TRUE(s["engine_events"].contains("checkpoints")) << s["engine_events"].dump();
  const eb::json& c = s["engine_events"]["checkpoints"];
  EXPECT_GE(c.size(), 2u) << c.dump();
  EXPECT_LE(c.size(), 4u) << c.dump();
  size_t done = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    done += c[i]["end_unix_s"].is_null() ? 0 : 1;
    EXPECT_FALSE(c[i].contains("failed"));
    // one checkpointer: each starts >= 1 s after the previous one ended
    if (i > 0 && !c[i - 1]["end_unix_s"].is_null())
      EXPECT_GE(c[i]["start_unix_s"].get<double>() - c[i - 1]["end_unix_s"].get<double>(), 0.99);
  }
  expect_windows(c, s, "checkpoint");
  EXPECT_EQ(static_cast<int64_t>(done), stats_after(raw)["engbench: checkpoints taken"].get<int64_t>());
}

TEST(EngineEvents, RocksDBRecordsFlushesAndCompactions) {
  ebtest::TempDir d;
  // 256 KiB memtables: the load flushes every few hundred documents, and L0 fills up to compaction.
  eb::json raw = config("iibench", "rocksdb", d.path, {{"max_rows", 30000}, {"batch", 500}, {"length_char_fields", 200}},
                        {{"rocksdb.write_buffer_size", "256KB"}});
  eb::json s = run(raw);
  const eb::json& ev = s["engine_events"];
  ASSERT_TRUE(ev.contains("flushes") && ev.contains("compactions")) << ev.dump();
  EXPECT_GE(ev["flushes"].size(), 10u) << ev.dump();
  EXPECT_GE(ev["compactions"].size(), 1u) << ev.dump();
  expect_windows(ev["flushes"], s, "flush");
  expect_windows(ev["compactions"], s, "compaction");
  for (const auto& f : ev["flushes"]) EXPECT_TRUE(f["table"].is_string());
  for (const auto& c : ev["compactions"]) EXPECT_GE(c["output_level"].get<int>(), 0);
  auto completed = [](const eb::json& list) {
    int64_t n = 0;
    for (const auto& e : list) n += e["end_unix_s"].is_null() ? 0 : 1;
    return n;
  };
  const eb::json after = stats_after(raw);
  EXPECT_EQ(after["engbench: flushes completed"].get<int64_t>(), completed(ev["flushes"]));
  EXPECT_EQ(after["engbench: compactions completed"].get<int64_t>(), completed(ev["compactions"]));
}

TEST(EngineEvents, EnginesWithoutBackgroundJobsReportNone) {
  for (const char* engine : {"null", "lmdb"}) {
    ebtest::TempDir d;
    eb::json s = run(config("iibench", engine, d.path, {{"max_rows", 200}, {"batch", 100}}));
    EXPECT_TRUE(s["engine_events"].is_object() && s["engine_events"].empty()) << engine << s["engine_events"].dump();
  }
}

// ---------------------------------------------------------------------------------------------
// linkbench's defaults: LinkBench's FBWorkload.properties (the uncorrelated blends and
// getlinklist_history), which the source documents' runs used.

const eb::WorkloadInfo& linkbench() {
  for (const auto& w : eb::workload_registry())
    if (w.name == "linkbench") return w;
  throw std::runtime_error("no linkbench");
}

double default_of(const std::string& param) {
  for (const auto& p : linkbench().params)
    if (p.name == param) return p.default_value.get<double>();
  throw std::runtime_error("no param " + param);
}

TEST(LinkBenchDefaults, AreFBWorkloadsBlendsAndHistory) {
  EXPECT_EQ(default_of("read_uncorr_blend"), 99.5);
  EXPECT_EQ(default_of("write_uncorr_blend"), 95.0);
  EXPECT_EQ(default_of("getlinklist_history"), 0.3);
}

TEST(LinkBenchDefaults, RunTheFBWorkloadStreamAndReadFarFewerRowsPerList) {
  const eb::json p = {{"maxid1", 5001}, {"requests", 6000}};
  eb::json fb = p, zero = p;
  fb.update({{"read_uncorr_blend", 99.5}, {"write_uncorr_blend", 95.0}, {"getlinklist_history", 0.3}});
  zero.update({{"read_uncorr_blend", 0.0}, {"write_uncorr_blend", 0.0}, {"getlinklist_history", 0.0}});
  ebtest::TempDir d1, d2, d3;
  eb::json dflt = run(config("linkbench", "null", d1.path, p));
  eb::json spelled = run(config("linkbench", "null", d2.path, fb));
  EXPECT_EQ(dflt["op_stream_hash"], spelled["op_stream_hash"]);
  EXPECT_NEAR(dflt["getlinklist_history"]["percent_of_get_links_list"].get<double>(), 0.3, 1e-9);
  // On a storing engine: rows returned per get_links_list, the blends' point (README: ~100x).
  eb::json a = run(config("linkbench", "lmdb", d3.path, p));
  ebtest::TempDir d4;
  eb::json b = run(config("linkbench", "lmdb", d4.path, zero));
  EXPECT_NE(a["op_stream_hash"], b["op_stream_hash"]);
  auto rows = [](const eb::json& s) {
    return s["totals"]["get_links_list"]["items"].get<double>() / s["totals"]["get_links_list"]["requests"].get<double>();
  };
  EXPECT_GT(rows(b), 10 * rows(a)) << rows(a) << " vs " << rows(b);
}

// getlinklist_history on the KV engines: one seek to (id1, type, visible, -max_time) in the covering
// index and offset + limit rows, as LinkBench's time-bounded query, not the whole list down to the
// page (up to ~1M rows of the hottest list under a 000 memory cap); a link written since the load
// (newer) does not shift the page.
TEST(LinkBenchHistory, KvOlderPageIsTimeBoundedLikeLinkBenchs) {
  ebtest::TempDir d;
  auto engine = ebtest::engine_info("lmdb").make();
  engine->open(d.path, ebtest::small_knobs("lmdb"));
  auto store = eb::kv_linkbench_store(*engine);
  store->create("lb_");
  auto c = store->client();
  const int64_t t0 = 1'000'000;
  std::vector<eb::LbLink> links;
  for (int j = 0; j < 250; ++j) links.push_back({7, 0, 7 + j, 1, "d" + std::to_string(j), t0 - j, 0});
  c->load_links(links);
  auto page = [&](bool kv) {
    std::vector<eb::LbLink> out;
    // page 1 of 100: older than the previous page's last row (row 99), offset 1
    size_t n = kv ? c->get_links_list_older(7, 0, t0 - 99, 1, 100, 100, &out)
                  : c->eb::LinkbenchClient::get_links_list_older(7, 0, t0 - 99, 1, 100, 100, &out);
    EXPECT_EQ(n, out.size());
    return out;
  };
  auto kv = page(true), generic = page(false);
  ASSERT_EQ(kv.size(), 100u);
  EXPECT_EQ(kv.front().data, "d100");
  EXPECT_EQ(kv.back().data, "d199");
  for (size_t i = 0; i < kv.size(); ++i) EXPECT_EQ(kv[i].data, generic[i].data);
  // the last page is short, and a list's end stops the scan (the next id1's rows are not read)
  c->load_links({{8, 0, 8, 1, "other", t0, 0}});
  std::vector<eb::LbLink> last;
  EXPECT_EQ(c->get_links_list_older(7, 0, t0 - 199, 1, 100, 200, &last), 50u);
  EXPECT_EQ(last.back().data, "d249");
  // a link added since the load is newer than the page: the page does not move
  c->add_link({7, 0, 5000, 1, "new", t0 + 10, 0});
  auto after = page(true);
  ASSERT_EQ(after.size(), 100u);
  EXPECT_EQ(after.front().data, "d100");
  c.reset();
  store.reset();
  engine->close();
}

// The load inserts each chunk of links as it is made: LinkBench's hottest node (~960k links at any
// maxid1) used to be held whole with its range, a ~90 MB peak that set the floor of 000's memory
// cap (133 MB of RSS on null at maxid1=100001 before, 44 MB after).
TEST(LinkBenchLoad, TheHottestListIsInsertedInChunksNotHeldWhole) {
  ebtest::TempDir d;
  // The driver binary in a process of its own: getrusage's peak would otherwise be this test process's.
  const std::string cfg = d.path + "/config.json";
  {
    std::ofstream f(cfg);
    f << config("linkbench", "null", d.path, {{"maxid1", 100001}, {"requests", 100}, {"loaders", 2}}).dump();
  }
  const auto driver = std::filesystem::read_symlink("/proc/self/exe").parent_path() / "engbench-driver";
  ASSERT_EQ(std::system((driver.string() + " run " + cfg + " > /dev/null 2>&1").c_str()), 0);
  eb::json s = eb::json::parse(ebtest::read_text(d.path + "/out/summary.json"));
  EXPECT_NEAR(s["load"]["links"].get<double>(), 1368899, 0.1 * 1368899);
  EXPECT_LT(s["driver_process"]["max_rss_bytes"].get<double>(), 80.0 * (1 << 20));
}

}  // namespace
