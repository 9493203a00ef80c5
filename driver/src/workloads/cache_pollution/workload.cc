// cache-pollution, after the read_once / cache pollution thread (seed 004): a hot collection that
// fits in the engine cache is read at random by `threads` readers while one pass over a cold
// collection (larger than the cache) runs once: cold_action=scan reads every cold document,
// cold_action=index builds an index over the cold collection (scan, sort the keys, insert them in
// batches). read_once=true gives that pass read_once cursors (ScanOptions.read_once: WiredTiger
// read_once=true, RocksDB fill_cache=false; other engines ignore it). Setup loads both
// collections; warm_up (after the runner's optional reopen and page-cache drop, as the source
// restarted mongod and dropped the caches before its warm-up scan) scans the hot collection once
// when warm_hot. Timeline (thread `threads`, the cold thread): cold_delay_seconds of reads only,
// engine_stats_cold_start.json, the cold pass (op cold_scan or cold_index, one request, items =
// documents), engine_stats_mid.json, after_seconds of reads only, then the readers stop and the
// hot collection is scanned once in full (op scan_hot: its latency is the "scan time after"). Read
// throughput before/during/after is in summary "phases" (and per interval in intervals.csv, op
// get). hot_misses: the hot table's engine cache misses over the pass (WiredTiger's per-table
// "cache: pages read into cache", cold_start to mid); hot_not_found: hot reads that found nothing.
// Documents: {_id: int64, v: string of doc_size bytes}.
#include <algorithm>
#include <fstream>
#include <thread>

#include "core/rng.h"
#include "workloads/doc_writer.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace eb {
namespace {
using namespace wl;

enum { kGet, kColdScan, kColdIndex, kScanHot };

class CachePollution final : public Workload {
 public:
  std::vector<std::string> op_names() const override { return {"get", "cold_scan", "cold_index", "scan_hot"}; }

  void setup(Engine& engine, const ParamValues& p, uint64_t seed) override {
    readers_ = static_cast<int>(p_int(p, "threads"));
    hot_docs_ = static_cast<uint64_t>(p_int(p, "hot_docs"));
    cold_docs_ = static_cast<uint64_t>(p_int(p, "cold_docs"));
    const std::string pre = p_str(p, "collection_prefix");
    hot_ = std::make_unique<Collection>(engine, pre + "hot", std::vector<IndexDef>{});
    cold_ = std::make_unique<Collection>(engine, pre + "cold", std::vector<IndexDef>{});
    cold_index_table_ = engine.table(pre + "cold.v_1", TableKind::Index);
    if (hot_->next_id() != 1 || cold_->next_id() != 1)
      throw std::runtime_error("cache-pollution: the collections exist already; use a fresh data_dir");
    const size_t size = static_cast<size_t>(p_int(p, "doc_size"));
    Rng r(seed, 0xCAC4E);
    std::string buf(1 << 20, '\0');
    for (auto& c : buf) c = static_cast<char>('a' + r.uniform(26));
    auto s = engine.session();
    auto fill = [&](Collection& c, uint64_t n) {
      std::vector<Doc> docs;
      for (uint64_t id = 1; id <= n;) {
        uint64_t k = std::min<uint64_t>(1000, n - id + 1);
        docs.resize(k);
        for (uint64_t i = 0; i < k; ++i, ++id) {
          DocWriter w(&docs[i].bytes);
          w.i64("_id", static_cast<int64_t>(id));
          size_t len = std::min(size, buf.size());
          w.utf8("v", buf.data() + r.uniform(buf.size() - len + 1), len);
          w.finish();
        }
        c.insert_batch(*s, docs);
      }
    };
    fill(*hot_, hot_docs_);
    fill(*cold_, cold_docs_);
    hot_table_ = "table:" + pre + "hot";
  }

  void warm_up(Engine& engine, const ParamValues& p, uint64_t) override {
    if (!p_bool(p, "warm_hot")) return;
    auto s = engine.session();
    t_warm0_ = unix_now_s();
    warm_docs_ = hot_->scan_records(*s, [](uint64_t, std::string_view) { return true; });
    t_warm1_ = unix_now_s();
  }

  int threads() const override { return readers_ + 1; }
  bool thread_is_deterministic(int t) const override { return t == readers_; }

  void run_thread(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) override {
    if (t < readers_) read_hot(t, ctx, m, h);
    else cold(ctx, m, h);
  }

  json summary_extra() const override {
    auto rate = [](uint64_t n, double a, double b) { return b > a ? static_cast<double>(n) / (b - a) : 0.0; };
    json ph = {
        {"cold_action", cold_action_},
        {"read_once", read_once_},
        {"cold_start_unix_s", t_cold0_},
        {"cold_end_unix_s", t_cold1_},
        {"readers_end_unix_s", t_readers_end_},
        {"scan_hot_start_unix_s", t_hot0_},
        {"scan_hot_end_unix_s", t_hot1_},
        {"gets_before", g_cold0_},
        {"gets_during", g_cold1_ - g_cold0_},
        {"gets_after", g_end_ - g_cold1_},
        {"gets_per_s_before", rate(g_cold0_, t_start_, t_cold0_)},
        {"gets_per_s_during", rate(g_cold1_ - g_cold0_, t_cold0_, t_cold1_)},
        {"gets_per_s_after", rate(g_end_ - g_cold1_, t_cold1_, t_readers_end_)},
        {"cold_docs_passed", cold_seen_},
        {"hot_docs_scanned", hot_seen_},
        {"engine_stats_mid", mid_written_ ? "engine_stats_mid.json" : ""},
        {"engine_stats_cold_start", start_written_ ? "engine_stats_cold_start.json" : ""},
        {"warm_hot_start_unix_s", t_warm0_},
        {"warm_hot_end_unix_s", t_warm1_},
        {"warm_hot_docs", warm_docs_},
        {"hot_logical_bytes", hot_ ? hot_->live_bytes() : 0},
        {"cold_logical_bytes", cold_ ? cold_->live_bytes() : 0},
        {"hot_not_found", not_found_.load()},
        {"cold_index_retries", index_retries_},
    };
    return {{"phases", ph},
            {"logical_bytes_stored", hot_ ? hot_->live_bytes() + cold_->live_bytes() : 0},
            {"hot_misses", hot_misses_}};
  }

 private:
  double unix_at(const RunContext& ctx, uint64_t ns) const {
    return ctx.start_unix_s + (static_cast<double>(ns) - static_cast<double>(ctx.start_ns)) / 1e9;
  }
  bool sleep_until(const RunContext& ctx, uint64_t until_ns) {
    while (now_ns() < until_ns) {
      if (ctx.should_stop()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min<uint64_t>(5, (until_ns - now_ns()) / 1000000 + 1)));
    }
    return !ctx.should_stop();
  }

  void read_hot(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) {
    const double rate = p_dbl(ctx.params, "target_rate") / readers_;
    Rng rng(ctx.seed, static_cast<uint64_t>(t));
    auto s = ctx.engine->session();
    Doc d;
    RequestClock clock(rate > 0);
    struct CountNotFound {  // added once, however this thread leaves (a shared counter per read is a locked add)
      std::atomic<uint64_t>& total;
      uint64_t n = 0;
      ~CountNotFound() { total.fetch_add(n); }
    } not_found{not_found_};
    for (uint64_t done = 0; !ctx.should_stop() && !readers_stop_.load(std::memory_order_relaxed); ++done) {
      uint64_t intended = rate > 0 ? pace(ctx.start_ns, rate, done, ctx) : 0;
      if (ctx.should_stop() || readers_stop_.load(std::memory_order_relaxed)) break;
      uint64_t t0 = clock.start(intended);
      uint64_t id = 1 + rng.uniform(hot_docs_);
      h.u64(id);
      bool found = hot_->get(*s, id, &d);
      uint64_t us = clock.finish_us(t0);
      not_found.n += !found;
      m.record(kGet, us, 1, found ? d.bytes.size() : 0, 0);
    }
  }

  void cold(RunContext& ctx, ThreadMetrics& m, OpHasher& h) {
    struct StopReaders {  // readers stop however this thread leaves
      std::atomic<bool>& f;
      ~StopReaders() { f.store(true); }
    } guard{readers_stop_};
    const ParamValues& p = ctx.params;
    cold_action_ = p_str(p, "cold_action");
    read_once_ = p_bool(p, "read_once");
    ScanOptions so;
    so.read_once = read_once_;
    t_start_ = ctx.start_unix_s;
    auto s = ctx.engine->session();
    const uint64_t start = ctx.start_ns;
    if (!sleep_until(ctx, start + static_cast<uint64_t>(p_dbl(p, "cold_delay_seconds") * 1e9))) return;
    // The cold pass, between two engine statistics snapshots.
    json at_start = write_stats(ctx, "engine_stats_cold_start.json", &start_written_);
    uint64_t c0 = now_ns();
    g_cold0_ = ctx.metrics->main_items();
    t_cold0_ = unix_at(ctx, c0);
    h.u64(cold_action_ == "index" ? 2 : 1);
    h.u64(read_once_);
    uint64_t bytes = 0, n = 0;
    if (cold_action_ == "scan") {
      n = cold_->scan_records(*s, [&](uint64_t, std::string_view v) {
        bytes += v.size();
        return !ctx.should_stop();
      }, so);
    } else {
      n = cold_index_build(*s, so, ctx, &bytes);
    }
    uint64_t c1 = now_ns();
    cold_seen_ = n;
    h.u64(n);
    m.record(cold_action_ == "index" ? kColdIndex : kColdScan, (c1 - c0) / 1000, n, bytes, 0);
    g_cold1_ = ctx.metrics->main_items();
    t_cold1_ = unix_at(ctx, c1);
    json at_end = write_stats(ctx, "engine_stats_mid.json", &mid_written_);
    hot_misses_ = stat_delta(at_start, at_end, hot_table_ + " | cache: pages read into cache");
    // Reads after the pass, then the hot scan alone.
    sleep_until(ctx, now_ns() + static_cast<uint64_t>(p_dbl(p, "after_seconds") * 1e9));
    readers_stop_.store(true);
    g_end_ = ctx.metrics->main_items();
    t_readers_end_ = unix_at(ctx, now_ns());
    if (ctx.should_stop()) return;
    hot_scan(*s, ctx, m, h);
  }

  // cold_action=index: read every document (the key is the first 16 bytes of v), sort the keys,
  // insert them into the cold index table in transactions of 1000. Returns the documents read.
  uint64_t cold_index_build(Session& s, const ScanOptions& so, RunContext& ctx, uint64_t* bytes) {
    std::vector<std::string> keys;
    keys.reserve(cold_docs_);
    uint64_t n = cold_->scan_records(s, [&](uint64_t id, std::string_view v) {
      *bytes += v.size();
      bson_t b;
      bson_iter_t it;
      std::string k;
      if (bson_init_static(&b, reinterpret_cast<const uint8_t*>(v.data()), v.size()) &&
          bson_iter_init_find(&it, &b, "v") && BSON_ITER_HOLDS_UTF8(&it)) {
        uint32_t len;
        const char* str = bson_iter_utf8(&it, &len);
        encode_string(str, std::min<uint32_t>(len, 16), &k);
      } else {
        encode_null(&k);
      }
      append_be64(id, &k);
      keys.push_back(std::move(k));
      return !ctx.should_stop();
    }, so);
    std::sort(keys.begin(), keys.end());
    // A batch the engine rolled back on its own (WiredTiger's eviction under cache pressure) is
    // written again after a short pause, as MongoDB retries a WriteConflict; counted in phases.
    for (size_t i = 0; i < keys.size() && !ctx.should_stop();) {
      s.begin();
      try {
        for (size_t j = i; j < std::min(keys.size(), i + 1000); ++j) s.put(cold_index_table_, keys[j], "");
        s.commit();
        i += 1000;
      } catch (const EngineConflict&) {
        try { s.rollback(); } catch (...) {}
        if (++index_retries_ > 100000) throw;
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      } catch (...) {
        try { s.rollback(); } catch (...) {}
        throw;
      }
    }
    return n;
  }

  // <name> in the output directory: the engine's statistics now (cold_start: right before the
  // cold pass; mid: right after it). Returns them (empty when the run has no output directory).
  json write_stats(RunContext& ctx, const char* name, bool* written) {
    if (ctx.output_dir.empty()) return json::object();
    json st = ctx.engine->stats();
    std::ofstream out(ctx.output_dir + "/" + name, std::ios::trunc);
    out << st.dump(2) << "\n";
    *written = static_cast<bool>(out);
    return st;
  }
  // b[key] - a[key], or null when either snapshot lacks the counter (engines without per-table
  // statistics: only WiredTiger B-tree tables have them here).
  static json stat_delta(const json& a, const json& b, const std::string& key) {
    if (!a.contains(key) || !b.contains(key) || !a[key].is_number() || !b[key].is_number()) return nullptr;
    return b[key].get<int64_t>() - a[key].get<int64_t>();
  }

  // The hot collection scanned alone, after the readers stopped. Readers may still finish one
  // request each; the scan starts once they are out.
  void hot_scan(Session& s, RunContext& ctx, ThreadMetrics& m, OpHasher& h) {
    uint64_t hs = now_ns();
    uint64_t hb = 0;
    hot_seen_ = hot_->scan_records(s, [&](uint64_t, std::string_view v) {
      hb += v.size();
      return true;
    });
    uint64_t he = now_ns();
    h.u64(hot_seen_);
    m.record(kScanHot, (he - hs) / 1000, hot_seen_, hb, 0);
    t_hot0_ = unix_at(ctx, hs);
    t_hot1_ = unix_at(ctx, he);
  }

  int readers_ = 1;
  uint64_t hot_docs_ = 0, cold_docs_ = 0;
  std::unique_ptr<Collection> hot_, cold_;
  int cold_index_table_ = 0;
  std::atomic<bool> readers_stop_{false};
  std::atomic<uint64_t> not_found_{0};
  json hot_misses_ = nullptr;
  std::string cold_action_, hot_table_;
  bool read_once_ = false, mid_written_ = false, start_written_ = false;
  uint64_t warm_docs_ = 0, index_retries_ = 0;
  double t_warm0_ = 0, t_warm1_ = 0;
  double t_start_ = 0, t_cold0_ = 0, t_cold1_ = 0, t_readers_end_ = 0, t_hot0_ = 0, t_hot1_ = 0;
  uint64_t g_cold0_ = 0, g_cold1_ = 0, g_end_ = 0, cold_seen_ = 0, hot_seen_ = 0;
};

}  // namespace

WorkloadInfo cache_pollution_info() {
  WorkloadInfo w;
  w.name = "cache-pollution";
  w.description = "random reads of a hot collection while a cold collection is scanned (or indexed) once, "
                  "read_once on/off; then the hot collection's full scan time";
  w.params = {
      {"hot_docs", ParamType::Int, int64_t{20000}, "documents in the hot collection (size it to fit the cache)",
       at_least(1)},
      {"cold_docs", ParamType::Int, int64_t{200000}, "documents in the cold collection (size it beyond the cache)",
       at_least(1)},
      {"doc_size", ParamType::Int, int64_t{1000}, "bytes of the string field v per document", in_range(0, 1 << 20),
       "bytes"},
      {"threads", ParamType::Int, int64_t{1}, "hot readers (random point reads)", in_range(1, kMaxThreads)},
      {"cold_action", ParamType::Enum, std::string("scan"), "scan: read every cold document; index: build an index over them",
       {"scan", "index"}},
      {"read_once", ParamType::Bool, false, "cold pass with read_once cursors (WiredTiger read_once, RocksDB fill_cache=false)"},
      {"cold_delay_seconds", ParamType::Double, 2.0, "seconds of hot reads before the cold pass", at_least(0), "s"},
      {"after_seconds", ParamType::Double, 2.0, "seconds of hot reads after the cold pass, before the hot scan",
       at_least(0), "s"},
      {"warm_hot", ParamType::Bool, true,
       "scan the hot collection once after the load (and after the run's reopen / page-cache drop) so it starts cached"},
      {"collection_prefix", ParamType::Name, std::string("cp_"), "collections <prefix>hot and <prefix>cold"},
  };
  for (auto& c : common_params()) w.params.push_back(c);
  w.check = [](const ParamValues& p, std::vector<std::string>* problems) {
    // cold_action=index holds every cold key (16 bytes in a std::string of 32) before sorting them
    if (p_str(p, "cold_action") == "index")
      need_memory("'cold_docs'", 48.0 * static_cast<double>(p_int(p, "cold_docs")), "the cold keys sorted in memory",
                  problems);
  };
  w.make = [] { return std::unique_ptr<Workload>(new CachePollution()); };
  return w;
}

}  // namespace eb
