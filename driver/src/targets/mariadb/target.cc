// MariaDB targets `mariadb-innodb` and `mariadb-myrocks`: the Target (connect, check the storage
// engine, statistics, describe), its knobs and connection keys. The client plumbing is in
// targets/mariadb/mariadb.h; each workload's tables and statements in its
// workloads/<name>/store_mariadb.cc.
#include <cstdlib>
#include <mutex>

#include "targets/mariadb/mariadb.h"

namespace eb {
namespace mariadb {
namespace {

std::string jstr(const json& c, const char* k, const std::string& dflt) {
  return c.contains(k) && c[k].is_string() ? c[k].get<std::string>() : dflt;
}

class MariaDBTarget final : public Target {
 public:
  explicit MariaDBTarget(std::string engine) { b_.engine = std::move(engine); }
  std::string backend() const override { return "mariadb"; }
  const Backend& plumbing() const { return b_; }

  void open(const json& conn, const ParamValues&) override {
    static std::once_flag once;
    std::call_once(once, [] { mysql_library_init(0, nullptr, nullptr); });
    b_.ci.host = jstr(conn, "host", "127.0.0.1");
    b_.ci.socket = jstr(conn, "socket", "");
    b_.ci.user = jstr(conn, "user", "root");
    b_.ci.database = jstr(conn, "database", "engbench");
    if (conn.contains("port") && conn["port"].is_number_integer()) b_.ci.port = conn["port"].get<unsigned>();
    if (conn.contains("password") && conn["password"].is_string()) {
      b_.ci.password = conn["password"].get<std::string>();
    } else {
      std::string env = jstr(conn, "password_env", "ENGBENCH_MYSQL_PASSWORD");
      const char* pw = std::getenv(env.c_str());
      b_.ci.password = pw ? pw : "";
    }
    {
      MyConn c(b_.ci, false);
      c.exec("CREATE DATABASE IF NOT EXISTS `" + b_.ci.database + "`");
      auto r = c.rows("SELECT VERSION()");
      version_ = r.empty() ? "" : r[0][0];
      auto e = c.rows("SELECT SUPPORT FROM information_schema.ENGINES WHERE ENGINE='" + b_.engine + "'");
      if (e.empty() || (e[0][0] != "YES" && e[0][0] != "DEFAULT"))
        throw EngineError("mariadb: the server has no " + b_.engine + " storage engine" +
                          (b_.engine == "ROCKSDB" ? " (load the plugin: --plugin-load-add=ha_rocksdb)" : ""));
    }
    stats_conn_ = std::make_unique<MyConn>(b_.ci);
  }

  json stats() override {
    json j = json::object();
    if (!stats_conn_) return j;
    json st = json::object();
    for (auto& r : stats_conn_->rows("SHOW GLOBAL STATUS")) st[r[0]] = r[1];
    j["global_status"] = st;
    return j;
  }

  json describe() const override {
    return {{"kind", "mariadb"}, {"storage_engine", b_.engine}, {"server_version", version_},
            {"host", b_.ci.socket.empty() ? b_.ci.host : "localhost"}, {"port", b_.ci.socket.empty() ? b_.ci.port : 0},
            {"socket", b_.ci.socket}, {"user", b_.ci.user}, {"database", b_.ci.database}};
  }

  void close() override { stats_conn_.reset(); }

 private:
  Backend b_;
  std::string version_;
  std::unique_ptr<MyConn> stats_conn_;
};

}  // namespace

const Backend& backend_of(Target& target) {
  auto* t = dynamic_cast<MariaDBTarget*>(&target);
  if (!t) throw std::logic_error("not a mariadb target: " + target.backend());
  return t->plumbing();
}

namespace {

std::vector<ParamSpec> mariadb_knobs() {
  return {
      {"cache_size", ParamType::Bytes, int64_t{0},
       "server: InnoDB buffer pool / RocksDB block cache of a private server engbench starts (0 = the server's default)"},
      // 0, 1, 2: what engbench passes to a private server (run/servers/mariadb_options.py refuses others).
      {"flush_log_at_trx_commit", ParamType::Int, int64_t{1},
       "server: innodb_/rocksdb_flush_log_at_trx_commit of a private server (1 = sync at each commit, 2, 0)",
       in_range(0, 2)},
      {"compression", ParamType::Enum, std::string("default"),
       "server: table compression of a private server (InnoDB page compression / MyRocks column family)",
       {"default", "none", "zlib", "lz4", "snappy", "zstd"}},
  };
}

const std::vector<std::pair<std::string, std::string>>& mariadb_connection() {
  static const std::vector<std::pair<std::string, std::string>> v = {
      {"host", "TCP host (default 127.0.0.1; ignored when socket is given)"},
      {"port", "TCP port (default 3306)"},
      {"socket", "unix socket path (preferred when given)"},
      {"user", "user (default root)"},
      {"password", "password (avoid: it would be in the config file; use password_env)"},
      {"password_env", "environment variable holding the password (default ENGBENCH_MYSQL_PASSWORD)"},
      {"database", "database, created if missing (default engbench); the workload's tables in it are dropped and recreated"},
  };
  return v;
}

void check_mariadb_connection(const json& c, std::vector<std::string>* problems) {
  if (!c.is_object() || (!c.contains("socket") && !c.contains("port")))
    problems->push_back("target: a mariadb target needs 'socket' or 'host'/'port'");
}

TargetInfo mariadb_info(const std::string& name, const std::string& se, const std::string& what) {
  TargetInfo t;
  t.name = name;
  t.description = "MariaDB server (" + what + "), reached as a client over SQL: sysbench's and iibench's tables";
  t.library = "MariaDB Connector/C";
  t.library_version = mysql_get_client_info();
  t.knob_namespace = "mariadb";
  t.knobs = mariadb_knobs();
  t.workloads = {"sysbench-update", "iibench", "linkbench", "ycsb"};
  t.connection = mariadb_connection();
  t.check_connection = check_mariadb_connection;
  t.make = [se] { return std::unique_ptr<Target>(new MariaDBTarget(se)); };
  return t;
}

}  // namespace
}  // namespace mariadb

TargetInfo mariadb_innodb_target_info() { return mariadb::mariadb_info("mariadb-innodb", "InnoDB", "InnoDB tables"); }
TargetInfo mariadb_myrocks_target_info() {
  return mariadb::mariadb_info("mariadb-myrocks", "ROCKSDB", "MyRocks tables, ENGINE=ROCKSDB");
}

}  // namespace eb
