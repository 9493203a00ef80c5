// What issue 26 added so that seeds 002 and 004 can be reproduced in their regime: the engine
// reopened between load and measured phase (run config reopen_after_load), cache-pollution's hot
// misses as engine cache misses, bulk-insert's ObjectId documents and per-document commits, and
// WiredTiger index tables without a block compressor (mongod's layout).
#include <bson/bson.h>
#include <gtest/gtest.h>
#include <wiredtiger.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <map>
#include <set>

#include "core/collection.h"
#include "core/reopen.h"
#include "test_support.h"

namespace {

eb::json config(const std::string& workload, const std::string& engine, const std::string& dir, eb::json params,
                eb::json knobs = nullptr) {
  eb::json k = ebtest::small_knobs_json(engine);
  if (knobs.is_object())
    for (auto it = knobs.begin(); it != knobs.end(); ++it) k[it.key()] = it.value();
  return {{"workload", workload}, {"engine", engine}, {"knobs", k},  {"params", params},
          {"seed", 1},            {"data_dir", dir + "/data"}, {"output_dir", dir + "/out"}};
}

eb::json read_json(const std::string& path) { return eb::json::parse(ebtest::read_text(path)); }

std::string name_of(const ::testing::TestParamInfo<std::string>& i) {
  std::string n = i.param;
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

// ---------------------------------------------------------------------------------------------
// reopen_after_load

class ReopenOn : public ::testing::TestWithParam<std::string> {};

// The engine is really closed and opened again: every table comes back under its handle with its
// rows, and the run records when and how long.
TEST_P(ReopenOn, CachePollutionRunsOnTheReopenedEngine) {
  const std::string engine = GetParam();
  ebtest::TempDir d;
  eb::json raw = config("cache-pollution", engine, d.path,
                        {{"hot_docs", 400}, {"cold_docs", 2000}, {"doc_size", 100}, {"threads", 1},
                         {"cold_action", "index"}, {"cold_delay_seconds", 0.05}, {"after_seconds", 0.05}});
  raw["reopen_after_load"] = true;
  int rc = -1;
  eb::json s = ebtest::run_summary(raw, &rc);
  ASSERT_EQ(rc, 0) << s.dump();
  ASSERT_TRUE(s["reopen"].is_object()) << s.dump();
  const auto& re = s["reopen"];
  EXPECT_EQ(re["when"], "after_load");
  EXPECT_EQ(re["tables"], 3);  // cp_hot, cp_cold, cp_cold.v_1
  EXPECT_FALSE(re["caches_dropped_while_closed"].get<bool>());
  EXPECT_LE(re["start_unix_s"].get<double>(), re["end_unix_s"].get<double>());
  EXPECT_GE(re["close_seconds"].get<double>(), 0.0);
  EXPECT_GE(re["open_seconds"].get<double>(), 0.0);
  // the warm-up runs after the reopen and before the measured phase
  const auto& ph = s["phases"];
  EXPECT_GE(ph["warm_hot_start_unix_s"].get<double>(), re["end_unix_s"].get<double>());
  EXPECT_LE(ph["warm_hot_end_unix_s"].get<double>(), s["client"]["start_unix_s"].get<double>());
  EXPECT_EQ(eb::json::parse(ebtest::read_text(d.path + "/out/config.resolved.json"))["reopen_after_load"], true);
  if (engine == "null") return;
  EXPECT_EQ(ph["warm_hot_docs"], 400);
  EXPECT_EQ(s["totals"]["cold_index"]["items"], 2000);
  EXPECT_EQ(s["totals"]["scan_hot"]["items"], 400);
  EXPECT_EQ(ph["hot_not_found"], 0);
}

INSTANTIATE_TEST_SUITE_P(AllEngines, ReopenOn, ::testing::ValuesIn(ebtest::engine_names()), name_of);

// After the reopen WiredTiger's cache holds none of the load: without warm-up the hot table's
// bytes in cache at the "before" snapshot are a small part of what the same run holds without the
// reopen (where the load left the hot collection cached).
TEST(Reopen, EmptiesWiredTigersCache) {
  auto hot_bytes_before = [](bool reopen) {
    ebtest::TempDir d;
    eb::json raw = config("cache-pollution", "wiredtiger", d.path,
                          {{"hot_docs", 3000}, {"cold_docs", 100}, {"doc_size", 1000}, {"warm_hot", false},
                           {"cold_delay_seconds", 0}, {"after_seconds", 0}});
    raw["reopen_after_load"] = reopen;
    int rc = -1;
    eb::json s = ebtest::run_summary(raw, &rc);
    EXPECT_EQ(rc, 0) << s.dump();
    return read_json(d.path + "/out/engine_stats_before.json")["table:cp_hot | cache: bytes currently in the cache"]
        .get<int64_t>();
  };
  int64_t kept = hot_bytes_before(false), reopened = hot_bytes_before(true);
  EXPECT_GT(kept, 3000 * 1000);  // the loaded 3 MB of documents
  EXPECT_LT(reopened, kept / 10) << "kept " << kept;
}

// Any workload runs on a reopened engine: the runner reopens every table the workload opened.
TEST(Reopen, BulkInsertOnAReopenedEngineKeepsItsIndex) {
  ebtest::TempDir d;
  eb::json raw = config("bulk-insert", "wiredtiger", d.path, {{"num", 3000}, {"threads", 2}, {"batch", 100}});
  raw["reopen_after_load"] = true;
  int rc = -1;
  eb::json s = ebtest::run_summary(raw, &rc);
  ASSERT_EQ(rc, 0) << s.dump();
  EXPECT_EQ(s["reopen"]["tables"], 2);
  auto e = ebtest::engine_info("wiredtiger").make();
  e->open(d.path + "/data", ebtest::small_knobs("wiredtiger"));
  {
    eb::Collection c(*e, "bulk", {{"_id_", {"_id"}}});
    auto ss = e->session();
    EXPECT_EQ(c.count(*ss), 3000u);
    EXPECT_EQ(c.count_index(*ss, 0), 3000u);
  }
  e->close();
}

// The wrapper itself: handles survive, rows written before are read after.
TEST(Reopen, HandlesMeanTheSameTablesAfterwards) {
  ebtest::TempDir d;
  eb::ReopenableEngine e(ebtest::engine_info("rocksdb").make);
  e.open(d.path, ebtest::small_knobs("rocksdb"));
  int a = e.table("a", eb::TableKind::Record), b = e.table("b", eb::TableKind::Index);
  {
    auto s = e.session();
    s->put(a, "k", "in a");
    s->put(b, "k", "");
  }
  bool between = false;
  eb::json r = e.reopen([&] { between = true; return eb::json(nullptr); });
  EXPECT_TRUE(between);
  EXPECT_EQ(r["tables"], 2);
  auto s = e.session();
  std::string v;
  ASSERT_TRUE(s->get(a, "k", &v));
  EXPECT_EQ(v, "in a");
  EXPECT_TRUE(s->get(b, "k", &v));
  EXPECT_FALSE(s->get(b, "other", &v));
  s.reset();
  e.close();
}

TEST(Reopen, ConfigIsCheckedBeforeTheRun) {
  auto problems_of = [](eb::json extra) {
    eb::json raw = {{"workload", "bulk-insert"}, {"engine", "wiredtiger"}, {"data_dir", "/x/d"}, {"output_dir", "/x/o"}};
    for (auto it = extra.begin(); it != extra.end(); ++it) raw[it.key()] = it.value();
    eb::ResolvedConfig cfg;
    std::vector<std::string> problems;
    eb::resolve_config(raw, &cfg, &problems);
    return problems;
  };
  EXPECT_TRUE(problems_of({{"reopen_after_load", true}}).empty());
  auto bad = problems_of({{"reopen_after_load", "yes"}});
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("reopen_after_load"), std::string::npos);
  auto target = problems_of({{"engine", "mongodb"}, {"workload", "iibench"}, {"reopen_after_load", true}});
  EXPECT_TRUE(std::any_of(target.begin(), target.end(),
                          [](const std::string& p) { return p.find("KV engines only") != std::string::npos; }));
}

// ---------------------------------------------------------------------------------------------
// cache-pollution: hot misses are the engine's cache misses of the hot table over the pass

TEST(CachePollutionMisses, HotMissesAreWiredTigersPagesReadIntoCacheOverThePass) {
  ebtest::TempDir d;
  // 32 MB cache, ~20 MB hot and ~60 MB cold: a cold scan without read_once evicts hot pages, and
  // the readers read them back. (An 8 MB cache is too small for the load's 1 MB transactions.)
  eb::json raw = config("cache-pollution", "wiredtiger", d.path,
                        {{"hot_docs", 20000}, {"cold_docs", 60000}, {"doc_size", 1000}, {"threads", 1},
                         {"read_once", false}, {"cold_delay_seconds", 0.1}, {"after_seconds", 0.1}},
                        {{"wiredtiger.cache_size", "32MB"}});
  int rc = -1;
  eb::json s = ebtest::run_summary(raw, &rc);
  ASSERT_EQ(rc, 0) << s.dump();
  const std::string key = "table:cp_hot | cache: pages read into cache";
  eb::json a = read_json(d.path + "/out/engine_stats_cold_start.json");
  eb::json b = read_json(d.path + "/out/engine_stats_mid.json");
  ASSERT_TRUE(a.contains(key) && b.contains(key));
  EXPECT_EQ(s["hot_misses"].get<int64_t>(), b[key].get<int64_t>() - a[key].get<int64_t>());
  EXPECT_GT(s["hot_misses"].get<int64_t>(), 0) << "no hot page was read back during the pass";
  EXPECT_EQ(s["phases"]["hot_not_found"], 0);  // every read found its document
  EXPECT_EQ(s["phases"]["engine_stats_cold_start"], "engine_stats_cold_start.json");
  EXPECT_LE(a["engbench: checkpoints taken"].get<int64_t>(), b["engbench: checkpoints taken"].get<int64_t>());
}

// ---------------------------------------------------------------------------------------------
// bulk-insert: {_id: ObjectId} documents, per-document commits

// The 12 bytes of an ObjectId as (seconds, 5 random bytes, counter).
struct Oid {
  uint32_t secs;
  uint64_t random;
  uint32_t counter;
};
Oid split(const bson_oid_t* o) {
  Oid r{0, 0, 0};
  for (int i = 0; i < 4; ++i) r.secs = (r.secs << 8) | o->bytes[i];
  for (int i = 4; i < 9; ++i) r.random = (r.random << 8) | o->bytes[i];
  for (int i = 9; i < 12; ++i) r.counter = (r.counter << 8) | o->bytes[i];
  return r;
}

TEST(BulkObjectId, DocumentsAreMongoDriversObjectIdsIncreasingPerLoader) {
  ebtest::TempDir d;
  const int num = 4000;
  const auto t0 = static_cast<uint32_t>(std::time(nullptr));
  eb::json s = ebtest::run_summary(config("bulk-insert", "wiredtiger", d.path,
                                          {{"num", num}, {"threads", 2}, {"batch", 100}, {"id_type", "objectid"},
                                           {"docs_per_txn", 1}}));
  const auto t1 = static_cast<uint32_t>(std::time(nullptr));
  ASSERT_EQ(s["status"], "ok") << s.dump();
  EXPECT_EQ(s["documents_inserted"], num);
  EXPECT_EQ(s["logical_bytes_stored"], 22 * num);  // the source's avgObjSize
  auto e = ebtest::engine_info("wiredtiger").make();
  e->open(d.path + "/data", ebtest::small_knobs("wiredtiger"));
  {
    eb::Collection c(*e, "bulk", {{"_id_", {"_id"}}});
    auto ss = e->session();
    std::map<uint64_t, std::vector<Oid>> by_loader;  // record-id order within each loader
    std::set<std::string> distinct;
    c.scan_records(*ss, [&](uint64_t, std::string_view v) {
      EXPECT_EQ(v.size(), 22u);
      bson_t b;
      bson_iter_t it;
      EXPECT_TRUE(bson_init_static(&b, reinterpret_cast<const uint8_t*>(v.data()), v.size()));
      EXPECT_EQ(bson_count_keys(&b), 1u);
      EXPECT_TRUE(bson_iter_init_find(&it, &b, "_id") && BSON_ITER_HOLDS_OID(&it));
      const bson_oid_t* o = bson_iter_oid(&it);
      distinct.insert(std::string(reinterpret_cast<const char*>(o->bytes), 12));
      Oid x = split(o);
      EXPECT_GE(x.secs, t0);
      EXPECT_LE(x.secs, t1);
      by_loader[x.random].push_back(x);
      return true;
    });
    EXPECT_EQ(distinct.size(), static_cast<size_t>(num));
    ASSERT_EQ(by_loader.size(), 2u);  // one random part per loader
    for (const auto& [r, ids] : by_loader) {
      EXPECT_EQ(ids.size(), static_cast<size_t>(num / 2));
      for (size_t i = 1; i < ids.size(); ++i)  // the counter steps by one (mod 2^24)
        EXPECT_EQ(ids[i].counter, (ids[i - 1].counter + 1) & 0xFFFFFFu) << i;
    }
    EXPECT_EQ(c.count_index(*ss, 0), static_cast<uint64_t>(num));
  }
  e->close();
}

// docs_per_txn=1: one commit, so one log record, per document (the source's MongoDB 3.0 write path).
TEST(BulkObjectId, OneCommitPerDocumentWritesOneLogRecordEach) {
  auto log_writes = [](int docs_per_txn) {
    ebtest::TempDir d;
    eb::json s = ebtest::run_summary(config("bulk-insert", "wiredtiger", d.path,
                                            {{"num", 2000}, {"threads", 1}, {"batch", 100}, {"id_type", "objectid"},
                                             {"docs_per_txn", docs_per_txn}}));
    EXPECT_EQ(s["status"], "ok") << s.dump();
    auto a = read_json(d.path + "/out/engine_stats_before.json"), b = read_json(d.path + "/out/engine_stats_after.json");
    const char* k = "log: log write operations";
    return b[k].get<int64_t>() - a[k].get<int64_t>();
  };
  int64_t per_doc = log_writes(1), per_batch = log_writes(0);
  EXPECT_GE(per_doc, 2000);
  EXPECT_LT(per_batch, 100);
}

// collection_per_loader: each loader fills its own collection, as the source's 16 loaders did.
TEST(BulkObjectId, EachLoaderFillsItsOwnCollection) {
  ebtest::TempDir d;
  eb::json s = ebtest::run_summary(config("bulk-insert", "wiredtiger", d.path,
                                          {{"num", 3000}, {"threads", 3}, {"batch", 100}, {"id_type", "objectid"},
                                           {"collection_per_loader", true}}));
  ASSERT_EQ(s["status"], "ok") << s.dump();
  EXPECT_EQ(s["logical_bytes_stored"], 22 * 3000);
  auto e = ebtest::engine_info("wiredtiger").make();
  e->open(d.path + "/data", ebtest::small_knobs("wiredtiger"));
  for (int t = 0; t < 3; ++t) {
    eb::Collection c(*e, "bulk_" + std::to_string(t), {{"_id_", {"_id"}}});
    auto ss = e->session();
    std::set<uint64_t> loaders;  // the 5 random bytes of each document's ObjectId
    c.scan_records(*ss, [&](uint64_t, std::string_view v) {
      bson_t b;
      bson_iter_t it;
      EXPECT_TRUE(bson_init_static(&b, reinterpret_cast<const uint8_t*>(v.data()), v.size()) &&
                  bson_iter_init_find(&it, &b, "_id") && BSON_ITER_HOLDS_OID(&it));
      loaders.insert(split(bson_iter_oid(&it)).random);
      return true;
    });
    EXPECT_EQ(c.count(*ss), 1000u) << t;
    EXPECT_EQ(c.count_index(*ss, 0), 1000u) << t;
    EXPECT_EQ(loaders.size(), 1u) << t;
  }
  e->close();
}

// ---------------------------------------------------------------------------------------------
// WiredTiger: index tables as mongod makes them

// The block_compressor of each WiredTiger file, from the metadata.
std::map<std::string, std::string> wt_compressors(const std::string& dir) {
  std::map<std::string, std::string> out;
  WT_CONNECTION* conn = nullptr;
  EXPECT_EQ(wiredtiger_open(dir.c_str(), nullptr, "readonly=true", &conn), 0);
  if (!conn) return out;
  WT_SESSION* s = nullptr;
  conn->open_session(conn, nullptr, nullptr, &s);
  WT_CURSOR* c = nullptr;
  s->open_cursor(s, "metadata:", nullptr, nullptr, &c);
  while (c->next(c) == 0) {
    const char *k = nullptr, *v = nullptr;
    c->get_key(c, &k);
    c->get_value(c, &v);
    std::string key(k), val(v);
    if (key.rfind("file:bulk", 0) != 0) continue;
    auto at = val.find("block_compressor=");
    if (at == std::string::npos) continue;
    at += std::strlen("block_compressor=");
    out[key] = val.substr(at, val.find(',', at) - at);
  }
  conn->close(conn, nullptr);
  return out;
}

TEST(WiredTigerIndexConfig, IndexTablesWithoutBlockCompressorAsMongodMakesThem) {
  for (const char* index_comp : {"none", "inherit"}) {
    ebtest::TempDir d;
    eb::json s = ebtest::run_summary(config("bulk-insert", "wiredtiger", d.path, {{"num", 1000}, {"batch", 100}},
                                            {{"wiredtiger.block_compressor", "zlib"},
                                             {"wiredtiger.index_block_compressor", index_comp}}));
    ASSERT_EQ(s["status"], "ok") << s.dump();
    auto comp = wt_compressors(d.path + "/data");
    EXPECT_EQ(comp["file:bulk.wt"], "zlib") << index_comp;
    EXPECT_EQ(comp["file:bulk._id_.wt"], std::string(index_comp) == "none" ? "" : "zlib") << index_comp;
  }
}

}  // namespace
