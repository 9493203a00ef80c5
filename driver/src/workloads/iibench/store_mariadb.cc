// iibench on MariaDB: the iibench table (transactionid AUTO_INCREMENT PK; dateandtime BIGINT = the documents'
// client milliseconds; cashregisterid, customerid, productid INT; price DOUBLE; cf1..N VARCHAR) with
// the secondary indexes pc, rpc, ptc; one multi-row INSERT per batch (the ObjectId _id of the
// documents is not stored: transactionid is the primary key, as in iibench for MySQL).
// iibench variant=iibench-py: iibench.py's table and index names instead (DATETIME, INT price,
// data VARCHAR(4000); <table>_marketsegment, _registersegment, _pdc).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "targets/mariadb/mariadb.h"
#include "workloads/iibench/store.h"

namespace eb {
namespace {
using namespace mariadb;

void append_value(std::string* out, MYSQL* m, bson_iter_t* it) {
  char num[64];
  switch (bson_iter_type(it)) {
    case BSON_TYPE_INT32: std::snprintf(num, sizeof num, "%d", bson_iter_int32(it)); *out += num; break;
    case BSON_TYPE_INT64: std::snprintf(num, sizeof num, "%lld", static_cast<long long>(bson_iter_int64(it))); *out += num; break;
    case BSON_TYPE_DOUBLE: std::snprintf(num, sizeof num, "%.17g", bson_iter_double(it)); *out += num; break;
    case BSON_TYPE_UTF8: {
      uint32_t n;
      const char* s = bson_iter_utf8(it, &n);
      size_t at = out->size();
      out->resize(at + 2 * n + 3);
      (*out)[at] = '\'';
      unsigned long w = mysql_real_escape_string(m, &(*out)[at + 1], s, n);
      out->resize(at + 1 + w);
      *out += '\'';
      break;
    }
    default: *out += "NULL";
  }
}

// The index as MariaDB names it: iibench.py prefixes its index names with the table's.
std::string sql_index_name(const IibenchShape& shape, int index) {
  const std::string& n = iibench_secondary_indexes(shape.variant)[index].name;
  return shape.variant == "iibench-py" ? shape.name + "_" + n : n;
}

// The i64 ms dateandtime of a document as a DATETIME literal (variant iibench-py; UTC).
void append_datetime(std::string* out, int64_t ms) {
  time_t t = static_cast<time_t>(ms / 1000);
  struct tm tm;
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "'%Y-%m-%d %H:%M:%S'", &tm);
  *out += buf;
}

class SqlIibenchClient final : public IibenchClient {
 public:
  SqlIibenchClient(const ConnInfo& ci, const IibenchShape& shape) : c_(ci), shape_(shape) {
    py_ = shape.variant == "iibench-py";
    cols_ = {"dateandtime", "cashregisterid", "customerid", "productid", "price"};
    if (py_) cols_.push_back("data");
    for (int i = 1; !py_ && i <= shape.num_char_fields; ++i) cols_.push_back("cf" + std::to_string(i));
    head_ = "INSERT INTO " + shape.name + " (";
    for (size_t i = 0; i < cols_.size(); ++i) head_ += (i ? "," : "") + cols_[i];
    head_ += ") VALUES ";
  }

  // One multi-row INSERT (autocommit: one transaction) per request, or per group of docs_per_txn rows.
  void insert_batch(const std::vector<Doc>& docs) override {
    const size_t step = shape_.docs_per_txn > 0 ? static_cast<size_t>(shape_.docs_per_txn) : docs.size();
    for (size_t i = 0; i < docs.size(); i += step) insert_rows(docs, i, std::min(docs.size(), i + step));
  }

  void insert_rows(const std::vector<Doc>& docs, size_t from, size_t to) {
    sql_ = head_;
    for (size_t d = from; d < to; ++d) {
      bson_t b;
      if (!docs[d].view(&b)) throw EngineError("mariadb: iibench insert: invalid document");
      sql_ += d > from ? ",(" : "(";
      bool first = true;
      bson_iter_t it;
      bson_iter_init(&it, &b);
      while (bson_iter_next(&it)) {
        if (std::strcmp(bson_iter_key(&it), "_id") == 0) continue;  // transactionid is the key
        if (!first) sql_ += ',';
        if (py_ && first) append_datetime(&sql_, bson_iter_int64(&it));
        else append_value(&sql_, c_.raw(), &it);
        first = false;
      }
      sql_ += ')';
    }
    c_.exec(sql_);
  }

  size_t query(int index, const std::vector<KeyValue>& start, size_t limit, bool fetch) override {
    // A lexicographic range on the index's first start.size() columns, in index order:
    // (a > x) OR (a = x AND b > y) OR (a = x AND b = y AND c >= z); one value: a >= x.
    const auto& cols = iibench_secondary_indexes(shape_.variant)[index].fields;
    std::vector<std::string> v;
    for (const auto& kv : start) v.push_back(kv_sql(kv));
    std::string where;
    for (size_t i = 0; i < v.size(); ++i) {
      std::string term;
      for (size_t j = 0; j < i; ++j) term += cols[j] + "=" + v[j] + " AND ";
      term += cols[i] + (i + 1 == v.size() ? ">=" : ">") + v[i];
      where += (i ? " OR (" : "(") + term + ")";
    }
    std::string order;
    for (size_t i = 0; i < cols.size(); ++i) order += (i ? "," : "") + cols[i];
    auto rows = c_.rows("SELECT " + (fetch ? std::string("*") : order) + " FROM " + shape_.name + " FORCE INDEX (" +
                        sql_index_name(shape_, index) + ") WHERE " + where + " ORDER BY " + order + " LIMIT " +
                        std::to_string(limit));
    return rows.size();
  }

 private:
  static std::string kv_sql(const KeyValue& kv) {
    char num[64];
    switch (kv.type) {
      case KeyValue::Type::Double: std::snprintf(num, sizeof num, "%.17g", kv.d); return num;
      case KeyValue::Type::Int: return std::to_string(kv.i);
      default: throw EngineError("mariadb: iibench query value of an unexpected type");
    }
  }
  MyConn c_;
  IibenchShape shape_;
  bool py_ = false;
  std::vector<std::string> cols_;
  std::string head_, sql_;
};

// iibench's table: variant mongodb as the header says; iibench-py as iibench.py creates it
// (create_table_mysql, then its indexes).
class SqlIibenchStore final : public IibenchStore {
 public:
  SqlIibenchStore(const ConnInfo& ci, std::string engine) : ci_(ci), engine_(std::move(engine)) {}
  void create(const IibenchShape& shape) override {
    shape_ = shape;
    MyConn c(ci_);
    c.exec("DROP TABLE IF EXISTS " + shape.name);
    std::string ddl = "CREATE TABLE " + shape.name + " (transactionid BIGINT NOT NULL AUTO_INCREMENT, ";
    if (shape.variant == "iibench-py") {
      ddl += "dateandtime DATETIME, cashregisterid INT NOT NULL, customerid INT NOT NULL, productid INT NOT NULL, "
             "price INT NOT NULL, data VARCHAR(4000)";
    } else {
      ddl += "dateandtime BIGINT NOT NULL, cashregisterid INT NOT NULL, customerid INT NOT NULL, "
             "productid INT NOT NULL, price DOUBLE NOT NULL";
      for (int i = 1; i <= shape.num_char_fields; ++i)
        ddl += ", cf" + std::to_string(i) + " VARCHAR(" + std::to_string(std::max(1, shape.length_char_fields)) +
               ") NOT NULL";
    }
    ddl += ", PRIMARY KEY (transactionid)";
    for (int i = 0; i < shape.num_secondary; ++i) {
      const auto& f = iibench_secondary_indexes(shape.variant)[i].fields;
      ddl += ", KEY " + sql_index_name(shape, i) + " (" + f[0];
      for (size_t k = 1; k < f.size(); ++k) ddl += ", " + f[k];
      ddl += ")";
    }
    ddl += ") ENGINE=" + engine_;
    c.exec(ddl);
  }
  std::unique_ptr<IibenchClient> client() override { return std::make_unique<SqlIibenchClient>(ci_, shape_); }

 private:
  ConnInfo ci_;
  std::string engine_;
  IibenchShape shape_;
};

}  // namespace

std::unique_ptr<IibenchStore> mariadb_iibench_store(Target& target) {
  const Backend& b = backend_of(target);
  return std::make_unique<SqlIibenchStore>(b.ci, b.engine);
}

}  // namespace eb
