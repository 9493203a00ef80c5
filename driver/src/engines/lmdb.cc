// LMDB engine: one named database per table in one environment (a memory-mapped copy-on-write
// B+tree that relies on the OS page cache). Writers are serialized by LMDB: begin() blocks while
// another Session has a write transaction open. Keys are limited to mdb_env_get_maxkeysize()
// (511 bytes in Debian's build) and must not be empty.
#include <lmdb.h>

#include <atomic>
#include <memory>

#include "engines/engine_util.h"

namespace eb {
namespace {

using namespace engine_util;

std::vector<ParamSpec> lmdb_knobs() {
  return {
      {"map_size", ParamType::Bytes, int64_t(64) << 30, "maximum database size (the memory map)"},
      {"sync", ParamType::Bool, false, "fsync at every commit (false = MDB_NOSYNC)"},
      {"readahead", ParamType::Bool, true, "OS readahead on the map (false = MDB_NORDAHEAD)"},
      {"writemap", ParamType::Bool, false, "write through a writable map (MDB_WRITEMAP)"},
  };
}

std::string lmdb_err(const char* call, int rc) {
  return std::string("lmdb: ") + call + ": " + mdb_strerror(rc);
}
void check(int rc, const char* call) {
  if (rc != 0) throw EngineError(lmdb_err(call, rc));
}

MDB_val val(std::string_view s) {
  MDB_val v;
  v.mv_size = s.size();
  v.mv_data = const_cast<char*>(s.data());
  return v;
}
std::string_view view(const MDB_val& v) {
  return std::string_view(static_cast<const char*>(v.mv_data), v.mv_size);
}

struct LmdbShared {
  MDB_env* env = nullptr;
  std::vector<MDB_dbi> dbis;
  std::vector<std::string> names;
  std::atomic<bool> open{false};
};

class LmdbSession final : public Session {
 public:
  explicit LmdbSession(std::shared_ptr<LmdbShared> sh) : sh_(std::move(sh)) {}
  ~LmdbSession() override {
    if (!sh_->open.load()) return;  // the environment (and its transactions) is gone
    if (wtxn_) mdb_txn_abort(wtxn_);
    if (rtxn_) mdb_txn_abort(rtxn_);
  }

  void begin() override {
    if (wtxn_) throw EngineError("lmdb: begin: transaction already open");
    check(mdb_txn_begin(sh_->env, nullptr, 0, &wtxn_), "mdb_txn_begin");
  }
  void commit() override {
    if (!wtxn_) throw EngineError("lmdb: commit: no transaction open");
    MDB_txn* t = wtxn_;
    wtxn_ = nullptr;
    check(mdb_txn_commit(t), "mdb_txn_commit");
  }
  void rollback() override {
    if (!wtxn_) return;
    mdb_txn_abort(wtxn_);
    wtxn_ = nullptr;
  }

  void put(int table, std::string_view key, std::string_view value) override {
    MDB_dbi dbi = handle(table);
    MDB_val k = val(key), v = val(value);
    if (wtxn_) {
      check(mdb_put(wtxn_, dbi, &k, &v, 0), "mdb_put");
      return;
    }
    MDB_txn* t = nullptr;
    check(mdb_txn_begin(sh_->env, nullptr, 0, &t), "mdb_txn_begin");
    int rc = mdb_put(t, dbi, &k, &v, 0);
    if (rc != 0) {
      mdb_txn_abort(t);
      throw EngineError(lmdb_err("mdb_put", rc));
    }
    check(mdb_txn_commit(t), "mdb_txn_commit");
  }

  bool get(int table, std::string_view key, std::string* value) override {
    MDB_dbi dbi = handle(table);
    Reader r(this);
    MDB_val k = val(key), v;
    int rc = mdb_get(r.txn, dbi, &k, &v);
    if (rc == MDB_NOTFOUND) return false;
    check(rc, "mdb_get");
    if (value) value->assign(view(v));
    return true;
  }

  bool del(int table, std::string_view key) override {
    MDB_dbi dbi = handle(table);
    MDB_val k = val(key);
    if (wtxn_) {
      int rc = mdb_del(wtxn_, dbi, &k, nullptr);
      if (rc == MDB_NOTFOUND) return false;
      check(rc, "mdb_del");
      return true;
    }
    MDB_txn* t = nullptr;
    check(mdb_txn_begin(sh_->env, nullptr, 0, &t), "mdb_txn_begin");
    int rc = mdb_del(t, dbi, &k, nullptr);
    if (rc != 0) {
      mdb_txn_abort(t);
      if (rc == MDB_NOTFOUND) return false;
      throw EngineError(lmdb_err("mdb_del", rc));
    }
    check(mdb_txn_commit(t), "mdb_txn_commit");
    return true;
  }

  size_t scan(int table, std::string_view start, size_t limit, const RowFn& fn,
              const ScanOptions&) override {
    MDB_dbi dbi = handle(table);
    Reader r(this);
    MDB_cursor* c = nullptr;
    check(mdb_cursor_open(r.txn, dbi, &c), "mdb_cursor_open");
    struct CursorGuard {
      MDB_cursor* c;
      ~CursorGuard() { mdb_cursor_close(c); }
    } guard{c};
    MDB_val k = val(start), v;
    int rc = start.empty() ? mdb_cursor_get(c, &k, &v, MDB_FIRST)
                           : mdb_cursor_get(c, &k, &v, MDB_SET_RANGE);
    size_t n = 0;
    while (rc == 0) {
      ++n;
      if (!fn(view(k), view(v))) break;
      if (limit && n >= limit) break;
      rc = mdb_cursor_get(c, &k, &v, MDB_NEXT);
    }
    if (rc != 0 && rc != MDB_NOTFOUND) throw EngineError(lmdb_err("mdb_cursor_get", rc));
    return n;
  }

  bool last_key(int table, std::string* key) override {
    MDB_dbi dbi = handle(table);
    Reader r(this);
    MDB_cursor* c = nullptr;
    check(mdb_cursor_open(r.txn, dbi, &c), "mdb_cursor_open");
    MDB_val k, v;
    int rc = mdb_cursor_get(c, &k, &v, MDB_LAST);
    if (rc == 0 && key) key->assign(view(k));
    mdb_cursor_close(c);
    if (rc == MDB_NOTFOUND) return false;
    check(rc, "mdb_cursor_get MDB_LAST");
    return true;
  }

 private:
  // Reads use the open write transaction, else this session's read-only transaction, renewed for
  // each read and reset afterwards (so it never pins old pages between requests).
  struct Reader {
    LmdbSession* s;
    MDB_txn* txn = nullptr;
    bool renewed = false;
    explicit Reader(LmdbSession* session) : s(session) {
      if (s->wtxn_) {
        txn = s->wtxn_;
        return;
      }
      if (!s->rtxn_) {
        check(mdb_txn_begin(s->sh_->env, nullptr, MDB_RDONLY, &s->rtxn_), "mdb_txn_begin (read)");
      } else {
        check(mdb_txn_renew(s->rtxn_), "mdb_txn_renew");
      }
      txn = s->rtxn_;
      renewed = true;
    }
    ~Reader() {
      if (renewed) mdb_txn_reset(s->rtxn_);
    }
  };

  MDB_dbi handle(int table) {
    if (table < 0 || size_t(table) >= sh_->dbis.size())
      throw EngineError("lmdb: bad table handle " + std::to_string(table));
    return sh_->dbis[table];
  }

  std::shared_ptr<LmdbShared> sh_;
  MDB_txn* wtxn_ = nullptr;
  MDB_txn* rtxn_ = nullptr;
};

class LmdbEngine final : public Engine {
 public:
  ~LmdbEngine() override {
    try {
      close();
    } catch (...) {
    }
  }

  void open(const std::string& dir, const ParamValues& knobs) override {
    if (sh_) throw EngineError("lmdb: open: already open");
    auto sh = std::make_shared<LmdbShared>();
    check(mdb_env_create(&sh->env), "mdb_env_create");
    auto fail = [&](const char* call, int rc) {
      mdb_env_close(sh->env);
      throw EngineError(lmdb_err(call, rc));
    };
    int rc;
    if ((rc = mdb_env_set_maxdbs(sh->env, 1024)) != 0) fail("mdb_env_set_maxdbs", rc);
    if ((rc = mdb_env_set_maxreaders(sh->env, 1024)) != 0) fail("mdb_env_set_maxreaders", rc);
    int64_t map_size = knob_int(knobs, "map_size", int64_t(64) << 30);
    if ((rc = mdb_env_set_mapsize(sh->env, static_cast<size_t>(map_size))) != 0)
      fail("mdb_env_set_mapsize", rc);
    unsigned flags = MDB_NOTLS;
    if (!knob_bool(knobs, "sync", false)) flags |= MDB_NOSYNC;
    if (!knob_bool(knobs, "readahead", true)) flags |= MDB_NORDAHEAD;
    if (knob_bool(knobs, "writemap", false)) flags |= MDB_WRITEMAP;
    if ((rc = mdb_env_open(sh->env, dir.c_str(), flags, 0644)) != 0) fail("mdb_env_open", rc);
    sh->open = true;
    sh_ = std::move(sh);
  }

  int table(const std::string& name, TableKind) override {
    require_open("table");
    for (size_t i = 0; i < sh_->names.size(); ++i)
      if (sh_->names[i] == name) return static_cast<int>(i);
    MDB_txn* t = nullptr;
    check(mdb_txn_begin(sh_->env, nullptr, 0, &t), "mdb_txn_begin");
    MDB_dbi dbi;
    int rc = mdb_dbi_open(t, name.c_str(), MDB_CREATE, &dbi);
    if (rc != 0) {
      mdb_txn_abort(t);
      throw EngineError(lmdb_err("mdb_dbi_open", rc));
    }
    check(mdb_txn_commit(t), "mdb_txn_commit");
    sh_->dbis.push_back(dbi);
    sh_->names.push_back(name);
    return static_cast<int>(sh_->dbis.size() - 1);
  }

  std::unique_ptr<Session> session() override {
    require_open("session");
    return std::make_unique<LmdbSession>(sh_);
  }

  json stats() override {
    require_open("stats");
    json out = json::object();
    MDB_stat st;
    if (mdb_env_stat(sh_->env, &st) == 0) {
      out["env.page_size"] = st.ms_psize;
      out["env.depth"] = st.ms_depth;
      out["env.branch_pages"] = st.ms_branch_pages;
      out["env.leaf_pages"] = st.ms_leaf_pages;
      out["env.overflow_pages"] = st.ms_overflow_pages;
      out["env.entries"] = st.ms_entries;
    }
    MDB_envinfo info;
    if (mdb_env_info(sh_->env, &info) == 0) {
      out["env.map_size"] = info.me_mapsize;
      out["env.last_pgno"] = info.me_last_pgno;
      out["env.last_txnid"] = info.me_last_txnid;
      out["env.max_readers"] = info.me_maxreaders;
      out["env.num_readers"] = info.me_numreaders;
      if (mdb_env_stat(sh_->env, &st) == 0)
        out["env.used_bytes"] = uint64_t(info.me_last_pgno + 1) * st.ms_psize;
    }
    MDB_txn* t = nullptr;
    if (mdb_txn_begin(sh_->env, nullptr, MDB_RDONLY, &t) == 0) {
      for (size_t i = 0; i < sh_->dbis.size(); ++i) {
        if (mdb_stat(t, sh_->dbis[i], &st) != 0) continue;
        std::string p = "db." + sh_->names[i] + ".";
        out[p + "depth"] = st.ms_depth;
        out[p + "branch_pages"] = st.ms_branch_pages;
        out[p + "leaf_pages"] = st.ms_leaf_pages;
        out[p + "overflow_pages"] = st.ms_overflow_pages;
        out[p + "entries"] = st.ms_entries;
      }
      mdb_txn_abort(t);
    }
    return out;
  }

  void close() override {
    if (!sh_) return;
    auto sh = std::move(sh_);
    int rc = mdb_env_sync(sh->env, 1);  // durable even with MDB_NOSYNC
    sh->open = false;
    mdb_env_close(sh->env);  // also closes the named databases
    sh->env = nullptr;
    check(rc, "mdb_env_sync");
  }

 private:
  void require_open(const char* call) {
    if (!sh_) throw EngineError(std::string("lmdb: ") + call + ": engine not open");
  }
  std::shared_ptr<LmdbShared> sh_;
};

std::string lmdb_version() {
  int major = 0, minor = 0, patch = 0;
  mdb_version(&major, &minor, &patch);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace

EngineInfo lmdb_engine_info() {
  EngineInfo info;
  info.name = "lmdb";
  info.description = "LMDB memory-mapped copy-on-write B+tree (mmap-style, OS page cache)";
  info.library = "LMDB";
  info.library_version = lmdb_version();
  info.knobs = lmdb_knobs();
  info.make = [] { return std::unique_ptr<Engine>(new LmdbEngine()); };
  return info;
}

}  // namespace eb
