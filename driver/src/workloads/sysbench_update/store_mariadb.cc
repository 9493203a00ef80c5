// sysbench-update on MariaDB: sysbench's table and statements (oltp_common.lua):
//   CREATE TABLE sbtestN (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL DEFAULT 0,
//                         c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '') ENGINE=InnoDB|ROCKSDB
//   (AUTO_INCREMENT: sysbench's default --auto_inc=on. It is server work per update on MyRocks: every
//   committed UPDATE of a row of such a table also merges the row's id + 1 into the table's
//   auto-increment record in the data dictionary, a 26-byte record in the same WAL batch)
//   and, once loaded, CREATE INDEX k_1 ON sbtestN (k), as sysbench's prepare builds it
//   load: multi-row INSERT per load_batch;  UPDATE sbtestN SET c=? WHERE id=?;  UPDATE sbtestN SET k=k+1 WHERE id=?
#include <cstdio>
#include <cstring>
#include <memory>

#include "targets/mariadb/mariadb.h"
#include "workloads/sysbench_update/store.h"

namespace eb {
namespace {
using namespace mariadb;

class SqlSysbenchClient final : public SysbenchClient {
 public:
  SqlSysbenchClient(const ConnInfo& ci, const std::string& prefix) : c_(ci), prefix_(prefix) {}

  void load(int table, const std::vector<SbRow>& rows) override {
    sql_.clear();
    sql_ += "INSERT INTO " + name(table) + " (id, k, c, pad) VALUES ";
    char num[48];
    for (size_t i = 0; i < rows.size(); ++i) {
      std::snprintf(num, sizeof num, "%s(%lld,%lld,'", i ? "," : "", static_cast<long long>(rows[i].id),
                    static_cast<long long>(rows[i].k));
      sql_ += num;
      sql_.append(rows[i].c, kSbCLen);  // digits and '-' only: nothing to escape
      sql_ += "','";
      sql_.append(rows[i].pad, kSbPadLen);
      sql_ += "')";
    }
    c_.exec(sql_);
  }

  bool update_c(int table, int64_t id, const char* c) override {
    Update& u = update(table, false);
    std::memcpy(u.c, c, kSbCLen);
    u.id = static_cast<int32_t>(id);
    return MyConn::execute(u.s, "UPDATE sbtest SET c=? WHERE id=?") > 0;
  }

  bool update_k(int table, int64_t id, int64_t* new_k) override {
    Update& u = update(table, true);
    u.id = static_cast<int32_t>(id);
    *new_k = -1;
    return MyConn::execute(u.s, "UPDATE sbtest SET k=k+1 WHERE id=?") > 0;
  }

  bool get(int table, int64_t id, int64_t* k, std::string* c) override {
    auto r = c_.rows("SELECT k, c FROM " + name(table) + " WHERE id=" + std::to_string(id));
    if (r.empty()) return false;
    if (k) *k = std::stoll(r[0][0]);
    if (c) *c = r[0][1];
    return true;
  }

 private:
  // A table's UPDATE, prepared and bound once (its buffers below): per update only the values are
  // copied in and the statement executed. The id goes as the column's type, a 32-bit INT
  // (MYSQL_TYPE_LONG), as sysbench binds it (ids past its range never load: the column is INT).
  struct Update {
    MYSQL_STMT* s = nullptr;
    MYSQL_BIND b[2];
    char c[kSbCLen];
    unsigned long clen = kSbCLen;
    int32_t id = 0;
  };
  Update& update(int table, bool k) {
    const size_t slot = 2 * static_cast<size_t>(table) + (k ? 1 : 0);
    if (slot >= updates_.size()) updates_.resize(slot + 1);
    std::unique_ptr<Update>& u = updates_[slot];
    if (!u) {
      u = std::make_unique<Update>();
      u->s = c_.prepare(slot, "UPDATE " + name(table) + (k ? " SET k=k+1 WHERE id=?" : " SET c=? WHERE id=?"));
      std::memset(u->b, 0, sizeof u->b);
      MYSQL_BIND* idb = u->b;
      if (!k) {
        u->b[0].buffer_type = MYSQL_TYPE_STRING;
        u->b[0].buffer = u->c;
        u->b[0].buffer_length = kSbCLen;
        u->b[0].length = &u->clen;
        idb = &u->b[1];
      }
      idb->buffer_type = MYSQL_TYPE_LONG;
      idb->buffer = &u->id;
      MyConn::bind(u->s, u->b, k ? "UPDATE sbtest SET k=k+1 WHERE id=?" : "UPDATE sbtest SET c=? WHERE id=?");
    }
    return *u;
  }
  std::string name(int t) const { return prefix_ + std::to_string(t + 1); }
  std::vector<std::unique_ptr<Update>> updates_;  // before c_: destroyed after it (c_ closes the statements)
  MyConn c_;
  std::string prefix_;
  std::string sql_;
};

class SqlSysbenchStore final : public SysbenchStore {
 public:
  SqlSysbenchStore(const ConnInfo& ci, std::string engine) : ci_(ci), engine_(std::move(engine)) {}
  void create(const std::string& prefix, int tables) override {
    prefix_ = prefix;
    MyConn c(ci_);
    for (int t = 0; t < tables; ++t) {
      std::string n = prefix + std::to_string(t + 1);
      c.exec("DROP TABLE IF EXISTS " + n);
      c.exec("CREATE TABLE " + n +
             " (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', "
             "pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id)) ENGINE=" + engine_);
    }
  }
  void loaded(int tables) override {
    MyConn c(ci_);
    for (int t = 0; t < tables; ++t)
      c.exec("CREATE INDEX k_1 ON " + prefix_ + std::to_string(t + 1) + " (k)");
  }
  uint64_t rows(int) override { return 0; }  // recreated empty
  std::unique_ptr<SysbenchClient> client() override { return std::make_unique<SqlSysbenchClient>(ci_, prefix_); }

 private:
  ConnInfo ci_;
  std::string engine_, prefix_;
};

}  // namespace

std::unique_ptr<SysbenchStore> mariadb_sysbench_store(Target& target) {
  const Backend& b = backend_of(target);
  return std::make_unique<SqlSysbenchStore>(b.ci, b.engine);
}

}  // namespace eb
