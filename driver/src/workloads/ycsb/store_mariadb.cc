// ycsb on MariaDB.
#include <string>
#include <vector>

#include "targets/mariadb/mariadb.h"
#include "workloads/ycsb/store.h"

namespace eb {
namespace {
using namespace mariadb;

// --- ycsb: go-ycsb's mysql usertable (YCSB_KEY VARCHAR(64) PRIMARY KEY, FIELD0..N-1
// VARCHAR(fieldlength)); text protocol with escaped literals, autocommit ---
class SqlYcsbClient final : public YcsbClient {
 public:
  SqlYcsbClient(const ConnInfo& ci, const YcsbShape& shape) : c_(ci), shape_(shape) {}

  void insert(const std::vector<YcsbRecord>& records) override {
    sql_ = "INSERT INTO " + shape_.table + " VALUES ";
    for (size_t i = 0; i < records.size(); ++i) {
      sql_ += i ? ",(" : "(";
      c_.quote(&sql_, records[i].key);
      for (const auto& f : records[i].fields) sql_ += ',', c_.quote(&sql_, f);
      sql_ += ')';
    }
    c_.exec(sql_);
  }

  bool read(const std::string& key, int field, YcsbRecord* out) override {
    sql_ = "SELECT " + columns(field) + " FROM " + shape_.table + " WHERE YCSB_KEY=";
    c_.quote(&sql_, key);
    auto rows = c_.rows(sql_);
    if (rows.empty()) return false;
    to_record(rows[0], out);
    return true;
  }

  size_t scan(const std::string& start, size_t count, int field, std::vector<YcsbRecord>* out) override {
    sql_ = "SELECT " + columns(field) + " FROM " + shape_.table + " WHERE YCSB_KEY>=";
    c_.quote(&sql_, start);
    sql_ += " ORDER BY YCSB_KEY LIMIT " + std::to_string(count);
    auto rows = c_.rows(sql_);
    out->resize(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) to_record(rows[i], &(*out)[i]);
    return rows.size();
  }

  bool update(const std::string& key, const std::vector<std::pair<int, std::string>>& values) override {
    sql_ = "UPDATE " + shape_.table + " SET ";
    for (size_t i = 0; i < values.size(); ++i) {
      sql_ += (i ? ",FIELD" : "FIELD") + std::to_string(values[i].first) + "=";
      c_.quote(&sql_, values[i].second);
    }
    sql_ += " WHERE YCSB_KEY=";
    c_.quote(&sql_, key);
    c_.exec(sql_);
    return c_.affected() > 0;  // CLIENT_FOUND_ROWS: matched rows
  }

 private:
  std::string columns(int field) const {
    if (field >= 0) return "YCSB_KEY,FIELD" + std::to_string(field);
    std::string s = "YCSB_KEY";
    for (int i = 0; i < shape_.fieldcount; ++i) s += ",FIELD" + std::to_string(i);
    return s;
  }
  static void to_record(std::vector<std::string>& row, YcsbRecord* out) {
    out->key = std::move(row[0]);
    out->fields.assign(std::make_move_iterator(row.begin() + 1), std::make_move_iterator(row.end()));
  }
  MyConn c_;
  YcsbShape shape_;
  std::string sql_;
};

class SqlYcsbStore final : public YcsbStore {
 public:
  SqlYcsbStore(const ConnInfo& ci, std::string engine) : ci_(ci), engine_(std::move(engine)) {}
  void create(const YcsbShape& shape) override {
    shape_ = shape;
    std::string cols;
    for (int i = 0; i < shape.fieldcount; ++i)
      cols += ", FIELD" + std::to_string(i) + " VARCHAR(" + std::to_string(shape.fieldlength) + ")";
    MyConn c(ci_);
    c.exec("DROP TABLE IF EXISTS " + shape.table);
    c.exec("CREATE TABLE " + shape.table + " (YCSB_KEY VARCHAR(64) NOT NULL" + cols +
           ", PRIMARY KEY (YCSB_KEY)) ENGINE=" + engine_);
  }
  std::unique_ptr<YcsbClient> client() override { return std::make_unique<SqlYcsbClient>(ci_, shape_); }

 private:
  ConnInfo ci_;
  std::string engine_;
  YcsbShape shape_;
};

}  // namespace

std::unique_ptr<YcsbStore> mariadb_ycsb_store(Target& target) {
  const Backend& b = backend_of(target);
  return std::make_unique<SqlYcsbStore>(b.ci, b.engine);
}

}  // namespace eb
