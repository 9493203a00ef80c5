// WiredTiger engines: `wiredtiger` (B-tree tables, type=file) and `wiredtiger-lsm` (type=lsm).
// Table and connection configuration follow mongod's defaults where they exist (record tables:
// memory_page_max=10m, split_pct=90, leaf_value_max=64MB, checksum=on; index tables: 16k pages,
// prefix compression; snappy block compression; journal on; checkpoint every 60 s). mongod
// block-compresses collections only (collectionConfig.blockCompressor; an index has prefix
// compression and no block compressor): index_block_compressor=none is that layout, its default
// `inherit` gives index tables the record tables' block_compressor (engbench's layout before
// issue 26). The mapping to mongod's settings: docs/driver.md "WiredTiger and mongod".
#include <wiredtiger.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "engines/engine_util.h"

namespace eb {
namespace {

using namespace engine_util;

std::vector<ParamSpec> wt_knobs() {
  return {
      // WiredTiger's own limits (wiredtiger_open refuses the rest: driver/tests/test_param_bounds.cc).
      {"cache_size", ParamType::Bytes, int64_t(1) << 30, "WiredTiger cache size (connection cache_size)",
       in_range(kMiB, 10 * kTiB)},
      {"block_compressor", ParamType::Enum, "snappy", "block compressor of record tables (and of index tables with index_block_compressor=inherit)",
       {"none", "snappy", "zlib", "zstd", "lz4"}},
      {"index_block_compressor", ParamType::Enum, "inherit",
       "block compressor of index tables: inherit = block_compressor; none = mongod's (indexes are not block-compressed)",
       {"inherit", "none", "snappy", "zlib", "zstd", "lz4"}},
      {"prefix_compression", ParamType::Bool, true, "key prefix compression on index tables"},
      {"direct_io", ParamType::Bool, false, "O_DIRECT for data files (direct_io=[data])"},
      {"log", ParamType::Bool, true, "write-ahead log (journal), snappy-compressed like mongod"},
      {"sync_on_commit", ParamType::Bool, false, "fsync the log at every commit (commit_transaction sync=on)"},
      {"checkpoint_interval_s", ParamType::Int, 60, "seconds between checkpoints (mongod syncdelay); 0 = only at close",
       at_least(0), "s"},
      {"read_once", ParamType::Bool, false, "open every scan cursor with read_once=true"},
      {"statistics", ParamType::Enum, "fast", "connection statistics level", {"none", "fast", "all"}},
      {"lsm_chunk_size", ParamType::Bytes, int64_t(10) << 20,
       "wiredtiger-lsm only: LSM chunk size (lsm=(chunk_size), WiredTiger's default 10MB; 512KB-500MB)"},
  };
}

std::string wt_err(const char* call, int ret) {
  return std::string("wiredtiger: ") + call + ": " + wiredtiger_strerror(ret);
}
void check(int ret, const char* call) {
  if (ret == WT_ROLLBACK) throw EngineConflict(wt_err(call, ret));
  if (ret != 0) throw EngineError(wt_err(call, ret));
}

struct WtTable {
  std::string uri;
};

// The per-table statistics stats() reports (of the ~70 "cache: " ones a data source has).
const std::set<std::string> kTableCacheStats = {
    "cache: bytes currently in the cache", "cache: bytes read into cache", "cache: pages read into cache",
    "cache: pages requested from the cache", "cache: unmodified pages evicted", "cache: modified pages evicted"};

struct WtShared {
  WT_CONNECTION* conn = nullptr;
  std::vector<WtTable> tables;
  bool read_once_all = false;
  bool sync_on_commit = false;
  bool lsm = false;
  std::atomic<bool> open{false};
};

class WtSession final : public Session {
  // LSM cursors used outside an explicit transaction can keep reading an old snapshot; reads on
  // LSM tables outside begin/commit therefore run in their own short transaction.
  struct ReadTxn {
    WT_SESSION* s = nullptr;
    ReadTxn(WT_SESSION* session, bool needed) {
      if (needed) {
        check(session->begin_transaction(session, nullptr), "begin_transaction (read)");
        s = session;
      }
    }
    ~ReadTxn() {
      if (s) s->rollback_transaction(s, nullptr);
    }
  };

 public:
  explicit WtSession(std::shared_ptr<WtShared> sh) : sh_(std::move(sh)) {
    check(sh_->conn->open_session(sh_->conn, nullptr, "isolation=snapshot", &s_), "open_session");
  }
  ~WtSession() override {
    if (sh_->open.load() && s_) s_->close(s_, nullptr);  // closes its cursors too
  }

  void begin() override {
    check(s_->begin_transaction(s_, nullptr), "begin_transaction");
    in_txn_ = true;
  }
  void commit() override {
    in_txn_ = false;
    check(s_->commit_transaction(s_, sh_->sync_on_commit ? "sync=on" : nullptr), "commit_transaction");
  }
  void rollback() override {
    in_txn_ = false;
    check(s_->rollback_transaction(s_, nullptr), "rollback_transaction");
  }

  void put(int table, std::string_view key, std::string_view value) override {
    WT_CURSOR* c = cursor(table, Kind::Write);
    WT_ITEM k = item(key), v = item(value);
    c->set_key(c, &k);
    c->set_value(c, &v);
    int ret = c->insert(c);
    // A file (B-tree) cursor's insert already ends unpositioned ("insert doesn't maintain a position
    // across calls": __wt_btcur_insert resets the cursor itself, and the next insert searches from
    // the root either way, as in wtperf), so a reset here is only an extra API call. LSM cursors
    // hold a snapshot while positioned: reset those.
    if (sh_->lsm) c->reset(c);
    check(ret, "cursor insert");
  }

  bool get(int table, std::string_view key, std::string* value) override {
    ReadTxn rt(s_, sh_->lsm && !in_txn_);
    WT_CURSOR* c = cursor(table, Kind::Write);
    WT_ITEM k = item(key);
    c->set_key(c, &k);
    int ret = c->search(c);
    if (ret != 0) c->reset(c);
    if (ret == WT_NOTFOUND) return false;
    check(ret, "cursor search");
    WT_ITEM v;
    ret = c->get_value(c, &v);
    if (ret == 0 && value) value->assign(static_cast<const char*>(v.data), v.size);
    c->reset(c);
    check(ret, "cursor get_value");
    return true;
  }

  bool del(int table, std::string_view key) override {
    WT_CURSOR* c = cursor(table, Kind::Remove);  // overwrite=false: WT_NOTFOUND when absent
    WT_ITEM k = item(key);
    c->set_key(c, &k);
    int ret = c->remove(c);
    c->reset(c);
    if (ret == WT_NOTFOUND) return false;
    check(ret, "cursor remove");
    return true;
  }

  size_t scan(int table, std::string_view start, size_t limit, const RowFn& fn,
              const ScanOptions& opts) override {
    ReadTxn rt(s_, sh_->lsm && !in_txn_);
    WT_CURSOR* c = cursor(table, (opts.read_once || sh_->read_once_all) ? Kind::ReadOnce : Kind::Write);
    size_t n = 0;
    int ret;
    c->reset(c);
    if (start.empty()) {
      ret = c->next(c);
    } else {
      WT_ITEM k = item(start);
      c->set_key(c, &k);
      int exact = 0;
      ret = c->search_near(c, &exact);
      if (ret == 0 && exact < 0) ret = c->next(c);
    }
    try {
      while (ret == 0) {
        WT_ITEM k, v;
        check(c->get_key(c, &k), "cursor get_key");
        check(c->get_value(c, &v), "cursor get_value");
        ++n;
        if (!fn(std::string_view(static_cast<const char*>(k.data), k.size),
                std::string_view(static_cast<const char*>(v.data), v.size)))
          break;
        if (limit && n >= limit) break;
        ret = c->next(c);
      }
    } catch (...) {
      c->reset(c);
      throw;
    }
    c->reset(c);
    if (ret != 0 && ret != WT_NOTFOUND) throw EngineError(wt_err("cursor next", ret));
    return n;
  }

  bool last_key(int table, std::string* key) override {
    ReadTxn rt(s_, sh_->lsm && !in_txn_);
    WT_CURSOR* c = cursor(table, Kind::Write);
    c->reset(c);
    int ret = c->prev(c);
    if (ret == WT_NOTFOUND) return false;
    check(ret, "cursor prev");
    WT_ITEM k;
    ret = c->get_key(c, &k);
    if (ret == 0 && key) key->assign(static_cast<const char*>(k.data), k.size);
    c->reset(c);
    check(ret, "cursor get_key");
    return true;
  }

 private:
  enum class Kind { Write = 0, Remove = 1, ReadOnce = 2 };

  static WT_ITEM item(std::string_view s) {
    WT_ITEM it{};
    it.data = s.data();
    it.size = s.size();
    return it;
  }

  WT_CURSOR* cursor(int table, Kind kind) {
    if (table < 0 || size_t(table) >= sh_->tables.size())
      throw EngineError("wiredtiger: bad table handle " + std::to_string(table));
    auto& slot = cursors_[static_cast<int>(kind)];
    if (slot.size() <= size_t(table)) slot.resize(sh_->tables.size(), nullptr);
    WT_CURSOR*& c = slot[table];
    if (!c) {
      const char* cfg = kind == Kind::Remove ? "overwrite=false"
                        : kind == Kind::ReadOnce ? "read_once=true"
                                                 : nullptr;
      check(s_->open_cursor(s_, sh_->tables[table].uri.c_str(), nullptr, cfg, &c), "open_cursor");
    }
    return c;
  }

  std::shared_ptr<WtShared> sh_;
  WT_SESSION* s_ = nullptr;
  std::vector<WT_CURSOR*> cursors_[3];
  bool in_txn_ = false;
};

class WtEngine final : public Engine {
 public:
  explicit WtEngine(bool lsm) : lsm_(lsm) {}
  ~WtEngine() override {
    try {
      close();
    } catch (...) {
    }
  }

  void open(const std::string& dir, const ParamValues& knobs) override {
    if (sh_) throw EngineError("wiredtiger: open: already open");
    int64_t cache = knob_int(knobs, "cache_size", int64_t(1) << 30);
    compressor_ = knob_str(knobs, "block_compressor", "snappy");
    index_compressor_ = knob_str(knobs, "index_block_compressor", "inherit");
    if (index_compressor_ == "inherit") index_compressor_ = compressor_;
    prefix_compression_ = knob_bool(knobs, "prefix_compression", true);
    bool direct_io = knob_bool(knobs, "direct_io", false);
    bool log = knob_bool(knobs, "log", true);
    int64_t ckpt = knob_int(knobs, "checkpoint_interval_s", 60);
    std::string statistics = knob_str(knobs, "statistics", "fast");
    statistics_ = statistics;
    lsm_chunk_ = knob_int(knobs, "lsm_chunk_size", int64_t(10) << 20);
    for (const std::string& c : {compressor_, index_compressor_})
      if (c != "none" && c != "snappy" && c != "zlib" && c != "zstd" && c != "lz4")
        throw EngineError("wiredtiger: open: unknown block compressor '" + c + "'");

    std::string cfg = "create,cache_size=" + std::to_string(cache) +
                      ",session_max=1000,statistics=(" + statistics + ")";
    cfg += log ? ",log=(enabled=true,remove=true,compressor=snappy)" : ",log=(enabled=false)";
    if (direct_io) cfg += ",direct_io=[data]";
    conn_config_ = cfg;

    auto sh = std::make_shared<WtShared>();
    check(wiredtiger_open(dir.c_str(), nullptr, cfg.c_str(), &sh->conn), "wiredtiger_open");
    sh->read_once_all = knob_bool(knobs, "read_once", false);
    sh->sync_on_commit = knob_bool(knobs, "sync_on_commit", false);
    sh->lsm = lsm_;
    sh->open = true;
    int ret = sh->conn->open_session(sh->conn, nullptr, nullptr, &meta_);
    if (ret != 0) {
      sh->conn->close(sh->conn, nullptr);
      throw EngineError(wt_err("open_session", ret));
    }
    sh_ = std::move(sh);
    if (ckpt > 0) start_checkpointer(ckpt);
  }

  int table(const std::string& name, TableKind kind) override {
    require_open("table");
    std::string uri = "table:" + name;
    for (size_t i = 0; i < sh_->tables.size(); ++i)
      if (sh_->tables[i].uri == uri) return static_cast<int>(i);
    const std::string& c = kind == TableKind::Index ? index_compressor_ : compressor_;
    std::string comp = c == "none" ? "" : c;
    std::string cfg = "key_format=u,value_format=u,checksum=on,block_compressor=" + comp;
    cfg += lsm_ ? ",type=lsm,lsm=(chunk_size=" + std::to_string(lsm_chunk_) + ")" : ",type=file";
    if (kind == TableKind::Record)
      cfg += ",memory_page_max=10m,split_pct=90,leaf_value_max=64MB";
    else
      cfg += std::string(",internal_page_max=16k,leaf_page_max=16k,prefix_compression=") +
             (prefix_compression_ ? "true" : "false");
    // create is a no-op when the table exists with a compatible configuration.
    check(meta_->create(meta_, uri.c_str(), cfg.c_str()), "create");
    sh_->tables.push_back({uri});
    return static_cast<int>(sh_->tables.size() - 1);
  }

  std::unique_ptr<Session> session() override {
    require_open("session");
    return std::make_unique<WtSession>(sh_);
  }

  json stats() override {
    require_open("stats");
    std::lock_guard<std::mutex> g(stats_mu_);
    json out = json::object();
    out["engbench: checkpoints taken"] = checkpoints_.load();
    if (statistics_ == "none") return out;  // no statistics cursor without connection statistics
    WT_CURSOR* c = nullptr;
    int ret = meta_->open_cursor(meta_, "statistics:", nullptr, nullptr, &c);
    if (ret != 0) {
      // statistics=(none): no statistics cursor. Report that rather than failing the run.
      out["error"] = wt_err("open_cursor statistics:", ret);
      return out;
    }
    while ((ret = c->next(c)) == 0) {
      const char* desc = nullptr;
      const char* pvalue = nullptr;
      int64_t value = 0;
      if (c->get_value(c, &desc, &pvalue, &value) == 0 && desc) out[desc] = value;
    }
    c->close(c);
    if (ret != WT_NOTFOUND) throw EngineError(wt_err("statistics cursor next", ret));
    // Per table (seed 004 compares a hot and a cold collection): the cache statistics of each
    // table's own data source, as "<uri> | <description>" (e.g. "table:cp_hot | cache: bytes
    // currently in the cache"). An LSM table's sources are its chunks: left out.
    if (!sh_->lsm) {
      for (const auto& t : sh_->tables) {
        if (meta_->open_cursor(meta_, ("statistics:" + t.uri).c_str(), nullptr, nullptr, &c) != 0) continue;
        while (c->next(c) == 0) {
          const char* desc = nullptr;
          const char* pvalue = nullptr;
          int64_t value = 0;
          if (c->get_value(c, &desc, &pvalue, &value) == 0 && desc && kTableCacheStats.count(desc))
            out[t.uri + " | " + desc] = value;
        }
        c->close(c);
      }
    }
    return out;
  }

  json events() override { return {{"checkpoints", ckpt_log_.list()}}; }

  void close() override {
    if (!sh_) return;
    stop_checkpointer();
    sh_->open = false;
    WT_CONNECTION* conn = sh_->conn;
    sh_->conn = nullptr;
    sh_.reset();
    meta_ = nullptr;
    // Closing the connection closes every session and cursor, and takes a final checkpoint.
    check(conn->close(conn, nullptr), "connection close");
    // A background checkpoint that failed (e.g. ENOSPC) fails the run: its data was not made durable.
    std::string failed;
    {
      std::lock_guard<std::mutex> g(ckpt_mu_);
      failed.swap(ckpt_error_);
    }
    if (!failed.empty()) throw EngineError(failed);
  }

 private:
  void require_open(const char* call) {
    if (!sh_) throw EngineError(std::string("wiredtiger: ") + call + ": engine not open");
  }

  bool lsm_;
  std::shared_ptr<WtShared> sh_;
  WT_SESSION* meta_ = nullptr;
  std::mutex stats_mu_;
  std::string compressor_ = "snappy", index_compressor_ = "snappy";
  bool prefix_compression_ = true;
  int64_t lsm_chunk_ = int64_t(10) << 20;
  std::string conn_config_;
  std::string statistics_ = "fast";
  // Periodic checkpoints from our own thread (rather than checkpoint=(wait=N)) so they can be counted.
  std::atomic<int64_t> checkpoints_{0};
  std::thread ckpt_thread_;
  std::mutex ckpt_mu_;
  std::condition_variable ckpt_cv_;
  EventLog ckpt_log_;  // each periodic checkpoint's start and end (events())
  bool ckpt_stop_ = false;
  std::string ckpt_error_;

  void start_checkpointer(int64_t seconds) {
    WT_SESSION* s = nullptr;
    check(sh_->conn->open_session(sh_->conn, nullptr, nullptr, &s), "open_session (checkpoint)");
    ckpt_stop_ = false;
    ckpt_thread_ = std::thread([this, s, seconds] {
      std::unique_lock<std::mutex> lk(ckpt_mu_);
      while (!ckpt_cv_.wait_for(lk, std::chrono::seconds(seconds), [this] { return ckpt_stop_; })) {
        lk.unlock();
        ckpt_log_.begin("checkpoint");
        int ret = s->checkpoint(s, nullptr);
        ckpt_log_.end("checkpoint", ret == 0);
        lk.lock();
        if (ret == 0)
          ++checkpoints_;
        else
          ckpt_error_ = wt_err("checkpoint", ret);
      }
      // the session is closed by the connection close that follows
    });
  }
  void stop_checkpointer() {
    if (!ckpt_thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> g(ckpt_mu_);
      ckpt_stop_ = true;
    }
    ckpt_cv_.notify_all();
    ckpt_thread_.join();
  }
};

std::string wt_version() {
  int major = 0, minor = 0, patch = 0;
  wiredtiger_version(&major, &minor, &patch);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace

EngineInfo wiredtiger_engine_info() {
  EngineInfo info;
  info.name = "wiredtiger";
  info.description = "WiredTiger B-tree tables (MongoDB's storage engine, mongod table settings)";
  info.library = "WiredTiger";
  info.library_version = wt_version();
  info.knobs = wt_knobs();
  info.make = [] { return std::unique_ptr<Engine>(new WtEngine(false)); };
  return info;
}

EngineInfo wiredtiger_lsm_engine_info() {
  EngineInfo info;
  info.name = "wiredtiger-lsm";
  info.description = "WiredTiger LSM tables (type=lsm; knobs in the wiredtiger namespace)";
  info.library = "WiredTiger";
  info.library_version = wt_version();
  info.knobs = wt_knobs();
  info.make = [] { return std::unique_ptr<Engine>(new WtEngine(true)); };
  return info;
}

}  // namespace eb
