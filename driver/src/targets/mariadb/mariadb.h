// The MariaDB targets' client plumbing (MariaDB Connector/C, Debian libmariadb-dev, mysql.h), shared
// by the target (targets/mariadb/target.cc) and the workloads' SQL stores
// (workloads/<name>/store_mariadb.cc): connection settings, a connection with statement and result
// helpers, and a transaction guard that retries deadlocks. One connection per worker thread,
// autocommit, prepared statements for the per-request statements, CLIENT_FOUND_ROWS so that an
// UPDATE reports the rows it matched.
#pragma once
#include <mysql.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "target.h"

namespace eb {
namespace mariadb {

struct ConnInfo {
  std::string host = "127.0.0.1", socket, user = "root", password, database = "engbench";
  unsigned port = 3306;
};

class MyConn {
 public:
  explicit MyConn(const ConnInfo& ci, bool with_db = true, unsigned long flags = CLIENT_FOUND_ROWS) {
    m_ = mysql_init(nullptr);
    if (!m_) throw EngineError("mariadb: mysql_init failed");
    // No read/write timeouts: with one, Connector/C polls before every read (an extra syscall
    // and wakeup per statement: non-index updates went from 0.78x to 0.97x sysbench's rate in
    // benchmarks/bench_sysbench.py). A server that dies closes the socket: the call fails at once.
    unsigned timeout = 10;
    mysql_options(m_, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    const char* sock = ci.socket.empty() ? nullptr : ci.socket.c_str();
    const char* host = sock ? "localhost" : ci.host.c_str();
    if (!mysql_real_connect(m_, host, ci.user.c_str(), ci.password.c_str(), with_db ? ci.database.c_str() : nullptr,
                            sock ? 0 : ci.port, sock, flags)) {
      std::string err = mysql_error(m_);
      mysql_close(m_);
      m_ = nullptr;
      throw EngineError("mariadb: cannot connect to " + (sock ? std::string(sock) : ci.host + ":" + std::to_string(ci.port)) +
                        " as " + ci.user + ": " + err);
    }
  }
  ~MyConn() {
    for (auto* s : stmts_)
      if (s) mysql_stmt_close(s);
    if (m_) mysql_close(m_);
  }
  MyConn(const MyConn&) = delete;
  MyConn& operator=(const MyConn&) = delete;

  // Executes; returns the server's error number (0 = ok) instead of throwing.
  unsigned try_exec(const std::string& sql) {
    if (mysql_real_query(m_, sql.data(), sql.size()) != 0) return mysql_errno(m_);
    if (MYSQL_RES* r = mysql_store_result(m_)) mysql_free_result(r);
    return 0;
  }
  // Several statements in one round trip (a connection with CLIENT_MULTI_STATEMENTS); every
  // result drained. Returns the first error number (0 = ok); *first_affected = the first
  // statement's affected rows.
  unsigned try_multi(const std::string& sql, uint64_t* first_affected = nullptr) {
    if (mysql_real_query(m_, sql.data(), sql.size()) != 0) return mysql_errno(m_);
    if (first_affected) *first_affected = mysql_affected_rows(m_);
    for (;;) {
      if (MYSQL_RES* r = mysql_store_result(m_)) mysql_free_result(r);
      int st = mysql_next_result(m_);
      if (st < 0) return 0;
      if (st > 0) return mysql_errno(m_);
    }
  }
  // 'escaped bytes' (binary-safe) appended to out.
  void quote(std::string* out, const std::string& bytes) {
    size_t at = out->size();
    out->resize(at + 2 * bytes.size() + 3);
    (*out)[at] = '\'';
    unsigned long w = mysql_real_escape_string(m_, &(*out)[at + 1], bytes.data(), bytes.size());
    out->resize(at + 1 + w);
    *out += '\'';
  }
  void exec(const std::string& sql) {
    if (mysql_real_query(m_, sql.data(), sql.size()) != 0) throw err(sql);
    // Drain any result set.
    if (MYSQL_RES* r = mysql_store_result(m_)) mysql_free_result(r);
  }
  // Rows of a query as strings (small results only).
  std::vector<std::vector<std::string>> rows(const std::string& sql) {
    if (mysql_real_query(m_, sql.data(), sql.size()) != 0) throw err(sql);
    std::vector<std::vector<std::string>> out;
    MYSQL_RES* r = mysql_store_result(m_);
    if (!r) {
      if (mysql_field_count(m_) != 0) throw err(sql);  // a result was due but could not be read
      return out;
    }
    unsigned nf = mysql_num_fields(r);
    while (MYSQL_ROW row = mysql_fetch_row(r)) {
      unsigned long* len = mysql_fetch_lengths(r);
      std::vector<std::string> v;
      for (unsigned i = 0; i < nf; ++i) v.emplace_back(row[i] ? std::string(row[i], len[i]) : std::string());
      out.push_back(std::move(v));
    }
    mysql_free_result(r);
    return out;
  }
  // A prepared statement kept for the connection's life (slot = caller's index).
  MYSQL_STMT* prepare(size_t slot, const std::string& sql) {
    if (slot >= stmts_.size()) stmts_.resize(slot + 1, nullptr);
    if (stmts_[slot]) return stmts_[slot];
    MYSQL_STMT* s = mysql_stmt_init(m_);
    if (!s) throw err("mysql_stmt_init");
    if (mysql_stmt_prepare(s, sql.data(), sql.size()) != 0) {
      std::string e = mysql_stmt_error(s);
      mysql_stmt_close(s);
      throw EngineError("mariadb: prepare " + sql + ": " + e);
    }
    stmts_[slot] = s;
    return s;
  }
  // Execute with bound params; returns affected (matched) rows.
  static uint64_t run(MYSQL_STMT* s, MYSQL_BIND* params, const char* what) {
    if (mysql_stmt_bind_param(s, params) != 0 || mysql_stmt_execute(s) != 0)
      throw EngineError(std::string("mariadb: ") + what + ": " + mysql_stmt_error(s));
    return mysql_stmt_affected_rows(s);
  }
  // Execute with the params bound before (mysql_stmt_bind_param once, the buffers' contents
  // changed between executions, as sysbench does: the types go to the server with the first
  // execution only); returns affected (matched) rows.
  static uint64_t execute(MYSQL_STMT* s, const char* what) {
    if (mysql_stmt_execute(s) != 0) throw EngineError(std::string("mariadb: ") + what + ": " + mysql_stmt_error(s));
    return mysql_stmt_affected_rows(s);
  }
  static void bind(MYSQL_STMT* s, MYSQL_BIND* params, const char* what) {
    if (mysql_stmt_bind_param(s, params) != 0)
      throw EngineError(std::string("mariadb: ") + what + ": " + mysql_stmt_error(s));
  }
  uint64_t affected() { return mysql_affected_rows(m_); }
  MYSQL* raw() { return m_; }
  EngineError err(const std::string& what) {
    std::string sql = what.size() > 200 ? what.substr(0, 200) + "..." : what;
    return EngineError("mariadb: " + sql + ": " + mysql_error(m_));
  }

 private:
  MYSQL* m_ = nullptr;
  std::vector<MYSQL_STMT*> stmts_;
};

// A transaction guard with retry: body() runs the transaction's statements on `c` and returns a
// server error number (0 = committed); on an error, ROLLBACK; deadlock (1213) and lock wait timeout
// (1205) are retried up to 20 times, others thrown as "mariadb: <what> (error N): <message>".
template <class F>
void retried(MyConn& c, const char* what, F body) {
  for (int attempt = 0;; ++attempt) {
    unsigned e = body();
    if (!e) return;
    std::string msg = mysql_error(c.raw());
    c.try_multi("ROLLBACK");
    if ((e != 1213 && e != 1205) || attempt >= 20)
      throw EngineError(std::string("mariadb: ") + what + " (error " + std::to_string(e) + "): " + msg);
    // Back off 0.1..~50 ms, growing: writers that met on a hot row do not meet again at once.
    thread_local std::minstd_rand r(static_cast<unsigned>(std::hash<std::thread::id>{}(std::this_thread::get_id())));
    std::this_thread::sleep_for(std::chrono::microseconds(100 + r() % 1000 * std::min(attempt + 1, 50)));
  }
}

// What a workload's store gets from a MariaDB target: where to connect and the storage engine of
// its tables (ENGINE=InnoDB | ROCKSDB).
struct Backend {
  ConnInfo ci;
  std::string engine;
};
// The backend of a target whose backend() is "mariadb" (throws for any other target).
const Backend& backend_of(Target& target);

}  // namespace mariadb
}  // namespace eb
