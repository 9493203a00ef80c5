// iibench on MariaDB: the iibench table (transactionid AUTO_INCREMENT PK; dateandtime BIGINT = the documents'
// client milliseconds; cashregisterid, customerid, productid INT; price DOUBLE; cf1..N VARCHAR) with
// the secondary indexes pc, rpc, ptc; one multi-row INSERT per batch (the ObjectId _id of the
// documents is not stored: transactionid is the primary key, as in iibench for MySQL).
// iibench variant=iibench-py: iibench.py's table and index names instead (DATETIME, INT price,
// data VARCHAR(4000); <table>_marketsegment, _registersegment, _pdc).
#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "targets/mariadb/mariadb.h"
#include "workloads/iibench/store.h"

namespace eb {
namespace {
using namespace mariadb;

// The index as MariaDB names it: iibench.py prefixes its index names with the table's.
std::string sql_index_name(const IibenchShape& shape, int index) {
  const std::string& n = iibench_secondary_indexes(shape.variant)[index].name;
  return shape.variant == "iibench-py" ? shape.name + "_" + n : n;
}

// The INSERT of a batch, built without a connection so that a loader can build the next statement
// while the current one is in flight (generate_ahead). Byte for byte what the store sent when it
// formatted with snprintf ("%d", "%lld", "%.17g"), strftime and mysql_real_escape_string
// (driver/tests/test_iibench_sql.cc compares them): std::to_chars gives the same digits
// (general, precision 17 is %.17g), the DATETIME of variant iibench-py (one per batch) is formatted
// once per second, and strings are escaped byte by byte, which is what mysql_real_escape_string
// does on an ASCII-transparent character set (a multibyte character of utf8 has no byte < 0x80, and
// only bytes < 0x80 are escaped).
class InsertSql {
 public:
  explicit InsertSql(const IibenchShape& shape) : py_(shape.variant == "iibench-py") {
    std::vector<std::string> cols = {"dateandtime", "cashregisterid", "customerid", "productid", "price"};
    if (py_) cols.push_back("data");
    for (int i = 1; !py_ && i <= shape.num_char_fields; ++i) cols.push_back("cf" + std::to_string(i));
    head_ = "INSERT INTO " + shape.name + " (";
    for (size_t i = 0; i < cols.size(); ++i) head_ += (i ? "," : "") + cols[i];
    head_ += ") VALUES ";
  }

  // The INSERT of docs[from, to).
  void build(const std::vector<Doc>& docs, size_t from, size_t to, std::string* sql) {
    sql->assign(head_);
    for (size_t d = from; d < to; ++d) {
      bson_t b;
      if (!docs[d].view(&b)) throw EngineError("mariadb: iibench insert: invalid document");
      sql->append(d > from ? ",(" : "(");
      bool first = true;
      bson_iter_t it;
      bson_iter_init(&it, &b);
      while (bson_iter_next(&it)) {
        const char* key = bson_iter_key(&it);
        if (key[0] == '_' && std::strcmp(key, "_id") == 0) continue;  // transactionid is the key
        if (!first) sql->push_back(',');
        if (py_ && first) datetime(sql, bson_iter_int64(&it));
        else value(sql, &it);
        first = false;
      }
      sql->push_back(')');
    }
  }

 private:
  template <class T>
  static void number(std::string* out, T v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out->append(buf, r.ptr);
  }
  static void number(std::string* out, double v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
    out->append(buf, r.ptr);
  }
  // 'escaped' as mysql_real_escape_string does it: \0 \n \r \\ \' \" \Z, every other byte as it is.
  static void quoted(std::string* out, const char* s, size_t n) {
    out->push_back('\'');
    size_t from = 0;
    for (size_t i = 0; i < n; ++i) {
      char esc;
      switch (s[i]) {
        case '\0': esc = '0'; break;
        case '\n': esc = 'n'; break;
        case '\r': esc = 'r'; break;
        case '\\': case '\'': case '"': esc = s[i]; break;
        case '\032': esc = 'Z'; break;
        default: continue;
      }
      out->append(s + from, i - from);
      out->push_back('\\');
      out->push_back(esc);
      from = i + 1;
    }
    out->append(s + from, n - from);
    out->push_back('\'');
  }
  static void value(std::string* out, bson_iter_t* it) {
    switch (bson_iter_type(it)) {
      case BSON_TYPE_INT32: number(out, bson_iter_int32(it)); break;
      case BSON_TYPE_INT64: number(out, static_cast<long long>(bson_iter_int64(it))); break;
      case BSON_TYPE_DOUBLE: number(out, bson_iter_double(it)); break;
      case BSON_TYPE_UTF8: {
        uint32_t n;
        const char* s = bson_iter_utf8(it, &n);
        quoted(out, s, n);
        break;
      }
      default: out->append("NULL");
    }
  }
  // The i64 ms dateandtime of a document as a DATETIME literal (variant iibench-py; UTC).
  void datetime(std::string* out, int64_t ms) {
    const int64_t sec = ms / 1000;
    if (sec != dt_sec_) {
      time_t t = static_cast<time_t>(sec);
      struct tm tm;
      gmtime_r(&t, &tm);
      dt_len_ = std::strftime(dt_, sizeof dt_, "'%Y-%m-%d %H:%M:%S'", &tm);
      dt_sec_ = sec;
    }
    out->append(dt_, dt_len_);
  }

  bool py_;
  std::string head_;
  int64_t dt_sec_ = INT64_MIN;
  char dt_[32];
  size_t dt_len_ = 0;
};

// Character sets on which InsertSql's byte-wise escaping is mysql_real_escape_string's.
bool ascii_transparent(const char* charset) {
  for (const char* ok : {"utf8mb4", "utf8mb3", "utf8", "latin1", "ascii", "binary"})
    if (std::strcmp(charset, ok) == 0) return true;
  return false;
}

class SqlIibenchClient final : public IibenchClient {
 public:
  SqlIibenchClient(const ConnInfo& ci, const IibenchShape& shape, bool rocksdb)
      : c_(ci), shape_(shape), sql_(shape), bulk_(rocksdb && shape.bulk_load) {
    const char* cs = mysql_character_set_name(c_.raw());
    if (!ascii_transparent(cs))
      throw EngineError(std::string("mariadb: iibench escapes its strings for an ASCII-transparent connection "
                                    "character set (utf8*, latin1, ascii, binary), not ") + cs);
    if (c_.raw()->server_status & SERVER_STATUS_NO_BACKSLASH_ESCAPES)  // quotes would be doubled instead
      throw EngineError("mariadb: iibench escapes with backslashes: sql_mode NO_BACKSLASH_ESCAPES is not supported");
  }

  // One multi-row INSERT (autocommit: one transaction) per request, or per group of docs_per_txn rows.
  // A bulk load's rows are written when it ends (finish); a loader that failed before it got there
  // ends it here, best effort (a session that goes away with rocksdb_bulk_load=1 still set keeps
  // none of its rows).
  ~SqlIibenchClient() override {
    if (bulk_set_) {
      try {
        c_.exec("SET SESSION rocksdb_bulk_load=0");
      } catch (...) {
      }
    }
  }

  // Ending a bulk load can fail ("Rows inserted during bulk load must not overlap existing rows",
  // after other sessions read the table: iibench's check_backend refuses that run): say so.
  void finish() override {
    if (!bulk_set_) return;
    bulk_set_ = false;
    try {
      c_.exec("SET SESSION rocksdb_bulk_load=0");
    } catch (const std::exception& e) {
      throw EngineError(std::string("mariadb-myrocks: ending the loader's bulk load failed, its rows are lost: ") +
                        e.what());
    }
  }

  void prepare(const std::vector<Doc>& docs, Prepared* out) override {
    const size_t step = shape_.docs_per_txn > 0 ? static_cast<size_t>(shape_.docs_per_txn) : docs.size();
    out->more.clear();
    sql_.build(docs, 0, std::min(step, docs.size()), &out->text);
    for (size_t i = step; i < docs.size(); i += step) {
      out->more.emplace_back();
      sql_.build(docs, i, std::min(docs.size(), i + step), &out->more.back());
    }
  }
  void send(const std::vector<Doc>&, const Prepared& p) override {
    if (bulk_ && !bulk_set_) {  // a loader's connection only (query threads never insert)
      c_.exec("SET SESSION rocksdb_bulk_load=1");
      bulk_set_ = true;
    }
    c_.exec(p.text);
    for (const std::string& more : p.more) c_.exec(more);
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
  InsertSql sql_;
  bool bulk_ = false, bulk_set_ = false;
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
  std::unique_ptr<IibenchClient> client() override {
    return std::make_unique<SqlIibenchClient>(ci_, shape_, engine_ == "ROCKSDB");
  }

 private:
  ConnInfo ci_;
  std::string engine_;
  IibenchShape shape_;
};

}  // namespace

std::string iibench_insert_sql(const IibenchShape& shape, const std::vector<Doc>& docs) {
  std::string sql;
  InsertSql(shape).build(docs, 0, docs.size(), &sql);
  return sql;
}

std::unique_ptr<IibenchStore> mariadb_iibench_store(Target& target) {
  const Backend& b = backend_of(target);
  return std::make_unique<SqlIibenchStore>(b.ci, b.engine);
}

}  // namespace eb
