// SQLite engine: one WITHOUT ROWID table (k BLOB PRIMARY KEY, v BLOB) per engine table in one
// database file, one connection per Session (prepared statements cached there), WAL by default.
// An update-in-place B-tree with its own page cache per connection.
#include <sqlite3.h>
#include <sys/stat.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>

#include "engines/engine_util.h"

namespace eb {
namespace {

using namespace engine_util;

std::vector<ParamSpec> sqlite_knobs() {
  return {
      {"cache_size", ParamType::Bytes, int64_t(256) << 20,
       "page cache per connection (one connection per thread): PRAGMA cache_size=-KiB"},
      {"synchronous", ParamType::Enum, "normal", "PRAGMA synchronous", {"off", "normal", "full"}},
      {"journal_mode", ParamType::Enum, "wal", "PRAGMA journal_mode", {"wal", "delete"}},
      {"page_size", ParamType::Int, 4096,
       "page size in bytes, a power of two (takes effect when the database is created)", in_range(512, 65536), "bytes"},
      {"mmap_size", ParamType::Bytes, 0, "PRAGMA mmap_size (0 = no memory-mapped I/O)"},
  };
}

struct SqliteConfig {
  std::string path;
  int64_t cache_kib = 256 * 1024;
  std::string synchronous = "normal";
  std::string journal_mode = "wal";
  int64_t page_size = 4096;
  int64_t mmap_size = 0;
};

// Counters of sqlite3_db_status summed over connections.
const std::vector<std::pair<int, const char*>> kDbStatus = {
    {SQLITE_DBSTATUS_CACHE_HIT, "cache_hit"},     {SQLITE_DBSTATUS_CACHE_MISS, "cache_miss"},
    {SQLITE_DBSTATUS_CACHE_WRITE, "cache_write"}, {SQLITE_DBSTATUS_CACHE_SPILL, "cache_spill"},
    {SQLITE_DBSTATUS_CACHE_USED, "cache_used"},   {SQLITE_DBSTATUS_SCHEMA_USED, "schema_used"},
    {SQLITE_DBSTATUS_STMT_USED, "stmt_used"},
};

std::string quote_ident(const std::string& name) {
  std::string q = "\"";
  for (char c : name) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

class SqliteSession;

struct SqliteShared {
  SqliteConfig cfg;
  std::vector<std::string> tables;  // quoted names by handle
  std::mutex mu;                    // guards sessions and retired
  std::set<SqliteSession*> sessions;
  std::map<std::string, int64_t> retired;  // db_status totals of closed sessions
  std::atomic<bool> open{false};
};

[[noreturn]] void fail(sqlite3* db, const char* call, int rc) {
  std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  throw EngineError(std::string("sqlite: ") + call + ": " + msg);
}

void exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    throw EngineError("sqlite: exec '" + sql + "': " + msg);
  }
}

int64_t pragma_int(sqlite3* db, const char* pragma) {
  sqlite3_stmt* st = nullptr;
  int64_t v = -1;
  if (sqlite3_prepare_v2(db, (std::string("PRAGMA ") + pragma).c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return v;
}

sqlite3* open_connection(const SqliteConfig& cfg) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(cfg.path.c_str(), &db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    throw EngineError("sqlite: sqlite3_open_v2: " + msg);
  }
  try {
    sqlite3_busy_timeout(db, 600000);
    exec(db, "PRAGMA page_size=" + std::to_string(cfg.page_size));  // only before creation
    exec(db, "PRAGMA journal_mode=" + cfg.journal_mode);
    exec(db, "PRAGMA synchronous=" + cfg.synchronous);
    exec(db, "PRAGMA cache_size=-" + std::to_string(cfg.cache_kib));
    exec(db, "PRAGMA mmap_size=" + std::to_string(cfg.mmap_size));
  } catch (...) {
    sqlite3_close_v2(db);
    throw;
  }
  return db;
}

class SqliteSession final : public Session {
 public:
  explicit SqliteSession(std::shared_ptr<SqliteShared> sh) : sh_(std::move(sh)) {
    db_ = open_connection(sh_->cfg);
    std::lock_guard<std::mutex> g(sh_->mu);
    sh_->sessions.insert(this);
  }
  ~SqliteSession() override {
    {
      std::lock_guard<std::mutex> g(sh_->mu);
      sh_->sessions.erase(this);
      for (const auto& [op, name] : kDbStatus) {
        if (op == SQLITE_DBSTATUS_CACHE_USED || op == SQLITE_DBSTATUS_SCHEMA_USED ||
            op == SQLITE_DBSTATUS_STMT_USED)
          continue;  // gauges, not counters
        int cur = 0, hi = 0;
        sqlite3_db_status(db_, op, &cur, &hi, 0);
        sh_->retired[name] += cur;
      }
    }
    if (in_txn_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    for (auto& per_table : stmts_)
      for (auto* st : per_table) sqlite3_finalize(st);
    for (auto* st : txn_stmts_) sqlite3_finalize(st);
    sqlite3_close_v2(db_);
  }

  void begin() override {
    step_done(txn_stmt(0, "BEGIN IMMEDIATE"), "BEGIN IMMEDIATE");
    in_txn_ = true;
  }
  void commit() override {
    in_txn_ = false;
    step_done(txn_stmt(1, "COMMIT"), "COMMIT");
  }
  void rollback() override {
    in_txn_ = false;
    if (sqlite3_get_autocommit(db_)) return;  // nothing open (SQLite may have rolled back already)
    step_done(txn_stmt(2, "ROLLBACK"), "ROLLBACK");
  }

  void put(int table, std::string_view key, std::string_view value) override {
    sqlite3_stmt* st = stmt(table, Put);
    bind(st, 1, key);
    bind(st, 2, value);
    step_done(st, "upsert");
  }

  bool get(int table, std::string_view key, std::string* value) override {
    sqlite3_stmt* st = stmt(table, Get);
    bind(st, 1, key);
    int rc = sqlite3_step(st);
    bool found = rc == SQLITE_ROW;
    if (found && value) column(st, 0, value);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) fail(db_, "select", rc);
    return found;
  }

  bool del(int table, std::string_view key) override {
    sqlite3_stmt* st = stmt(table, Del);
    bind(st, 1, key);
    step_done(st, "delete");
    return sqlite3_changes(db_) > 0;
  }

  size_t scan(int table, std::string_view start, size_t limit, const RowFn& fn,
              const ScanOptions&) override {
    sqlite3_stmt* st = stmt(table, Scan);
    bind(st, 1, start);
    size_t n = 0;
    int rc;
    try {
      while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        ++n;
        if (!fn(blob(st, 0), blob(st, 1))) break;
        if (limit && n >= limit) break;
      }
    } catch (...) {
      sqlite3_reset(st);
      throw;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) fail(db_, "scan", rc);
    return n;
  }

  bool last_key(int table, std::string* key) override {
    sqlite3_stmt* st = stmt(table, Last);
    int rc = sqlite3_step(st);
    bool found = rc == SQLITE_ROW;
    if (found && key) column(st, 0, key);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) fail(db_, "last key", rc);
    return found;
  }

 private:
  enum Op { Put, Get, Del, Scan, Last, NumOps };

  static std::string_view blob(sqlite3_stmt* st, int col) {
    const void* p = sqlite3_column_blob(st, col);
    int n = sqlite3_column_bytes(st, col);
    return p ? std::string_view(static_cast<const char*>(p), n) : std::string_view();
  }
  static void column(sqlite3_stmt* st, int col, std::string* out) {
    std::string_view v = blob(st, col);
    out->assign(v.data(), v.size());
  }
  void bind(sqlite3_stmt* st, int i, std::string_view s) {
    // A null pointer would bind SQL NULL: empty blobs need a non-null pointer.
    const char* p = s.data() ? s.data() : "";
    int rc = sqlite3_bind_blob(st, i, p, static_cast<int>(s.size()), SQLITE_STATIC);
    if (rc != SQLITE_OK) fail(db_, "bind", rc);
  }
  void step_done(sqlite3_stmt* st, const char* what) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) fail(db_, what, rc);
  }

  sqlite3_stmt* txn_stmt(int i, const char* sql) {
    if (!txn_stmts_[i]) {
      int rc = sqlite3_prepare_v2(db_, sql, -1, &txn_stmts_[i], nullptr);
      if (rc != SQLITE_OK) fail(db_, "prepare", rc);
    }
    return txn_stmts_[i];
  }

  sqlite3_stmt* stmt(int table, Op op) {
    if (table < 0 || size_t(table) >= sh_->tables.size())
      throw EngineError("sqlite: bad table handle " + std::to_string(table));
    if (stmts_.size() <= size_t(table)) stmts_.resize(sh_->tables.size());
    auto& per = stmts_[table];
    if (per.empty()) per.assign(NumOps, nullptr);
    if (!per[op]) {
      const std::string& t = sh_->tables[table];
      std::string sql;
      switch (op) {
        case Put: sql = "INSERT INTO " + t + "(k,v) VALUES(?1,?2) ON CONFLICT(k) DO UPDATE SET v=excluded.v"; break;
        case Get: sql = "SELECT v FROM " + t + " WHERE k=?1"; break;
        case Del: sql = "DELETE FROM " + t + " WHERE k=?1"; break;
        case Scan: sql = "SELECT k,v FROM " + t + " WHERE k>=?1 ORDER BY k"; break;
        case Last: sql = "SELECT k FROM " + t + " ORDER BY k DESC LIMIT 1"; break;
        default: break;
      }
      int rc = sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &per[op], nullptr);
      if (rc != SQLITE_OK) fail(db_, "prepare", rc);
    }
    sqlite3_stmt* st = per[op];
    return st;
  }

  std::shared_ptr<SqliteShared> sh_;
  sqlite3* db_ = nullptr;
  std::vector<std::vector<sqlite3_stmt*>> stmts_;
  sqlite3_stmt* txn_stmts_[3] = {nullptr, nullptr, nullptr};
  bool in_txn_ = false;
};

class SqliteEngine final : public Engine {
 public:
  ~SqliteEngine() override {
    try {
      close();
    } catch (...) {
    }
  }

  void open(const std::string& dir, const ParamValues& knobs) override {
    if (sh_) throw EngineError("sqlite: open: already open");
    auto sh = std::make_shared<SqliteShared>();
    SqliteConfig& c = sh->cfg;
    c.path = dir + "/engbench.sqlite";
    c.cache_kib = knob_int(knobs, "cache_size", int64_t(256) << 20) / 1024;
    if (c.cache_kib < 1) c.cache_kib = 1;
    c.synchronous = knob_str(knobs, "synchronous", "normal");
    c.journal_mode = knob_str(knobs, "journal_mode", "wal");
    c.page_size = knob_int(knobs, "page_size", 4096);
    c.mmap_size = knob_int(knobs, "mmap_size", 0);
    if (c.synchronous != "off" && c.synchronous != "normal" && c.synchronous != "full")
      throw EngineError("sqlite: open: unknown synchronous '" + c.synchronous + "' (choices: off, normal, full)");
    if (c.journal_mode != "wal" && c.journal_mode != "delete")
      throw EngineError("sqlite: open: unknown journal_mode '" + c.journal_mode + "' (choices: wal, delete)");
    if (c.page_size & (c.page_size - 1))  // its range, 512 to 65536, is its spec's
      throw EngineError("sqlite: open: page_size must be a power of two");
    meta_ = open_connection(c);
    sh->open = true;
    sh_ = std::move(sh);
  }

  int table(const std::string& name, TableKind) override {
    require_open("table");
    std::string q = quote_ident(name);
    for (size_t i = 0; i < sh_->tables.size(); ++i)
      if (sh_->tables[i] == q) return static_cast<int>(i);
    exec(meta_, "CREATE TABLE IF NOT EXISTS " + q + " (k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID");
    sh_->tables.push_back(q);
    return static_cast<int>(sh_->tables.size() - 1);
  }

  std::unique_ptr<Session> session() override {
    require_open("session");
    return std::make_unique<SqliteSession>(sh_);
  }

  json stats() override {
    require_open("stats");
    json out = json::object();
    out["page_size"] = pragma_int(meta_, "page_size");
    out["page_count"] = pragma_int(meta_, "page_count");
    out["freelist_count"] = pragma_int(meta_, "freelist_count");
    {
      std::lock_guard<std::mutex> g(sh_->mu);
      for (const auto& [op, name] : kDbStatus) out[std::string("db_status.") + name] = int64_t(0);
      // Only closed connections are summed: sqlite3_db_status on a connection another thread is
      // using (SQLITE_OPEN_NOMUTEX) corrupted the heap (cache-pollution's mid snapshot, ~1 in 3
      // runs). Sessions end before the final snapshot, so "after" counts every connection.
      for (const auto& [name, v] : sh_->retired) out["db_status." + std::string(name)] =
          out.value("db_status." + name, int64_t(0)) + v;
      out["connections"] = sh_->sessions.size();
      out["db_status_covers"] = "closed connections only";
    }
    struct stat stbuf;
    out["wal_file_bytes"] = ::stat((sh_->cfg.path + "-wal").c_str(), &stbuf) == 0 ? int64_t(stbuf.st_size) : 0;
    return out;
  }

  void close() override {
    if (!sh_) return;
    auto sh = std::move(sh_);
    sh->open = false;
    int rc = sqlite3_close_v2(meta_);  // the last connection to close checkpoints the WAL
    meta_ = nullptr;
    if (rc != SQLITE_OK) throw EngineError(std::string("sqlite: close: ") + sqlite3_errstr(rc));
  }

 private:
  void require_open(const char* call) {
    if (!sh_) throw EngineError(std::string("sqlite: ") + call + ": engine not open");
  }
  std::shared_ptr<SqliteShared> sh_;
  sqlite3* meta_ = nullptr;
};

}  // namespace

EngineInfo sqlite_engine_info() {
  EngineInfo info;
  info.name = "sqlite";
  info.description = "SQLite update-in-place B-tree (WITHOUT ROWID tables, one connection per thread)";
  info.library = "SQLite";
  info.library_version = sqlite3_libversion();
  info.knobs = sqlite_knobs();
  info.make = [] { return std::unique_ptr<Engine>(new SqliteEngine()); };
  return info;
}

}  // namespace eb
