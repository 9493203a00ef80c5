// MariaDB targets `mariadb-innodb` and `mariadb-myrocks` over MariaDB Connector/C (Debian
// libmariadb-dev, mysql.h). One connection per worker thread, autocommit, prepared statements for
// the per-request statements, CLIENT_FOUND_ROWS so that an UPDATE reports the rows it matched.
//
// sysbench-update: sysbench's table and statements (oltp_common.lua):
//   CREATE TABLE sbtestN (id INT PRIMARY KEY, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '',
//                         pad CHAR(60) NOT NULL DEFAULT '', KEY k_1(k)) ENGINE=InnoDB|ROCKSDB
//   load: multi-row INSERT per load_batch;  UPDATE sbtestN SET c=? WHERE id=?;  UPDATE sbtestN SET k=k+1 WHERE id=?
// iibench: the iibench table (transactionid AUTO_INCREMENT PK; dateandtime BIGINT = the documents'
// client milliseconds; cashregisterid, customerid, productid INT; price DOUBLE; cf1..N VARCHAR) with
// the secondary indexes pc, rpc, ptc; one multi-row INSERT per batch (the ObjectId _id of the
// documents is not stored: transactionid is the primary key, as in iibench for MySQL).
// iibench variant=iibench-py: iibench.py's table and index names instead (DATETIME, INT price,
// data VARCHAR(4000); <table>_marketsegment, _registersegment, _pdc).
// linkbench: LinkBench's tables and LinkStoreMysql's statements (see SqlLinkbenchClient).
#include <mysql.h>

#include <chrono>
#include <ctime>
#include <cstring>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "target.h"

namespace eb {
namespace {

struct ConnInfo {
  std::string host = "127.0.0.1", socket, user = "root", password, database = "engbench";
  unsigned port = 3306;
};

std::string jstr(const json& c, const char* k, const std::string& dflt) {
  return c.contains(k) && c[k].is_string() ? c[k].get<std::string>() : dflt;
}

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

class MariaDBTarget;

// --- sysbench-update ---
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
    MYSQL_STMT* s = c_.prepare(2 * static_cast<size_t>(table), "UPDATE " + name(table) + " SET c=? WHERE id=?");
    MYSQL_BIND b[2];
    std::memset(b, 0, sizeof b);
    unsigned long clen = kSbCLen;
    long long idv = id;
    b[0].buffer_type = MYSQL_TYPE_STRING;
    b[0].buffer = const_cast<char*>(c);
    b[0].buffer_length = kSbCLen;
    b[0].length = &clen;
    b[1].buffer_type = MYSQL_TYPE_LONGLONG;
    b[1].buffer = &idv;
    return MyConn::run(s, b, "UPDATE sbtest SET c=? WHERE id=?") > 0;
  }

  bool update_k(int table, int64_t id, int64_t* new_k) override {
    MYSQL_STMT* s = c_.prepare(2 * static_cast<size_t>(table) + 1, "UPDATE " + name(table) + " SET k=k+1 WHERE id=?");
    MYSQL_BIND b[1];
    std::memset(b, 0, sizeof b);
    long long idv = id;
    b[0].buffer_type = MYSQL_TYPE_LONGLONG;
    b[0].buffer = &idv;
    uint64_t n = MyConn::run(s, b, "UPDATE sbtest SET k=k+1 WHERE id=?");
    *new_k = -1;
    return n > 0;
  }

  bool get(int table, int64_t id, int64_t* k, std::string* c) override {
    auto r = c_.rows("SELECT k, c FROM " + name(table) + " WHERE id=" + std::to_string(id));
    if (r.empty()) return false;
    if (k) *k = std::stoll(r[0][0]);
    if (c) *c = r[0][1];
    return true;
  }

 private:
  std::string name(int t) const { return prefix_ + std::to_string(t + 1); }
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
             " (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', "
             "pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k)) ENGINE=" + engine_);
    }
  }
  uint64_t rows(int) override { return 0; }  // recreated empty
  std::unique_ptr<SysbenchClient> client() override { return std::make_unique<SqlSysbenchClient>(ci_, prefix_); }

 private:
  ConnInfo ci_;
  std::string engine_, prefix_;
};

// --- iibench ---
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

  void insert_batch(const std::vector<Doc>& docs) override {
    sql_ = head_;
    for (size_t d = 0; d < docs.size(); ++d) {
      bson_t b;
      if (!docs[d].view(&b)) throw EngineError("mariadb: iibench insert: invalid document");
      sql_ += d ? ",(" : "(";
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

// --- linkbench: LinkBench's MySQL tables (linktable, counttable, nodetable) as <prefix>link, count,
// node, with LinkStoreMysql's statements and connection model: reads on an autocommit connection,
// writes on one with autocommit off, each write ending in COMMIT (sent with the write's last
// statement: one round trip). add_link is LinkBench's `INSERT ... ON DUPLICATE KEY UPDATE
// visibility=VALUES(visibility)`, whose affected rows say whether the link was new (1), visible
// already (0) or hidden (2), the row staying locked to the COMMIT; then, in a second round trip, the
// count upsert and/or the data UPDATE that implies, and COMMIT. delete_link hides the link with
// `UPDATE ... AND visibility=1` (affected rows = it was visible; LinkBench probes with SELECT ...
// FOR UPDATE first) and decrements the count with LinkBench's upsert. No client-side lock.
class SqlLinkbenchClient final : public LinkbenchClient {
 public:
  SqlLinkbenchClient(const ConnInfo& ci, const std::string& prefix)
      : ro_(ci, true, 0), rw_(ci, true, CLIENT_MULTI_STATEMENTS), node_(prefix + "node"), link_(prefix + "link"),
        count_(prefix + "count") {
    rw_.exec("SET autocommit=0");
  }

  void load_nodes(const std::vector<LbNode>& nodes) override {
    std::string q = "INSERT INTO " + node_ + " (id, type, version, time, data) VALUES ";
    for (size_t i = 0; i < nodes.size(); ++i) {
      q += (i ? ",(" : "(") + std::to_string(nodes[i].id) + ",2048," + std::to_string(nodes[i].version) + "," +
           std::to_string(nodes[i].time) + ",";
      rw_.quote(&q, nodes[i].data);
      q += ")";
    }
    write(q);
  }
  void load_links(const std::vector<LbLink>& links) override {
    std::string q = "INSERT INTO " + link_ + " (id1, id2, link_type, visibility, data, time, version) VALUES ";
    for (size_t i = 0; i < links.size(); ++i) {
      const LbLink& l = links[i];
      q += (i ? ",(" : "(") + std::to_string(l.id1) + "," + std::to_string(l.id2) + "," + std::to_string(l.link_type) +
           "," + std::to_string(l.visibility) + ",";
      rw_.quote(&q, l.data);
      q += "," + std::to_string(l.time) + "," + std::to_string(l.version) + ")";
    }
    write(q);
  }
  void load_counts(const std::vector<LbCount>& counts) override {
    std::string q = "INSERT INTO " + count_ + " (id, link_type, count, time, version) VALUES ";
    for (size_t i = 0; i < counts.size(); ++i) {
      const LbCount& k = counts[i];
      q += (i ? ",(" : "(") + std::to_string(k.id) + "," + std::to_string(k.link_type) + "," + std::to_string(k.count) +
           "," + std::to_string(k.time) + "," + std::to_string(k.version) + ")";
    }
    write(q);
  }

  int64_t add_node(const LbNode& n) override {
    load_nodes({n});
    return n.id;
  }
  bool update_node(int64_t id, const std::string& data, int64_t time) override {
    std::string q = "UPDATE " + node_ + " SET version=version+1, time=" + std::to_string(time) + ", data=";
    rw_.quote(&q, data);
    return write(q + " WHERE id=" + std::to_string(id)) > 0;
  }
  bool delete_node(int64_t id) override { return write("DELETE FROM " + node_ + " WHERE id=" + std::to_string(id)) > 0; }
  bool get_node(int64_t id, std::string* data) override {
    auto r = ro_.rows("SELECT id, type, version, time, data FROM " + node_ + " WHERE id=" + std::to_string(id));
    if (r.empty()) return false;
    if (data) *data = r[0][4];
    return true;
  }

  void add_link(const LbLink& l) override {
    std::string ins = "INSERT INTO " + link_ + " (id1, id2, link_type, visibility, data, time, version) VALUES (" +
                      std::to_string(l.id1) + "," + std::to_string(l.id2) + "," + std::to_string(l.link_type) + ",1,";
    rw_.quote(&ins, l.data);
    ins += "," + std::to_string(l.time) + ",0) ON DUPLICATE KEY UPDATE visibility=VALUES(visibility)";
    std::string upd = "UPDATE " + link_ + " SET visibility=1, data=";
    rw_.quote(&upd, l.data);
    upd += ", time=" + std::to_string(l.time) + ", version=version+1" + where(l.id1, l.link_type, l.id2) + ";";
    retried([&] {
      uint64_t n = 0;
      if (unsigned e = rw_.try_multi(ins, &n)) return e;
      std::string then = n == 1 || n == 2 ? count_upsert(l.id1, l.link_type, l.time, "1", "count+1") : "";
      if (n != 1) then += upd;  // visible already (0) or un-hidden (2): the data too
      return rw_.try_multi(then + "COMMIT");
    });
  }

  bool delete_link(int64_t id1, int64_t lt, int64_t id2, int64_t time) override {
    uint64_t n = 0;
    retried([&] {
      if (unsigned e = rw_.try_multi("UPDATE " + link_ + " SET visibility=0" + where(id1, lt, id2) + " AND visibility=1", &n))
        return e;
      return rw_.try_multi((n ? count_upsert(id1, lt, time, "0", "IF(count=0, 0, count-1)") : "") + "COMMIT");
    });
    return n > 0;
  }

  bool count_link(int64_t id1, int64_t lt, int64_t* count) override {
    auto r = ro_.rows("SELECT count FROM " + count_ + " WHERE id=" + std::to_string(id1) + " AND link_type=" + std::to_string(lt));
    if (r.empty()) return false;
    *count = std::stoll(r[0][0]);
    return true;
  }
  bool get_link(int64_t id1, int64_t lt, int64_t id2, LbLink* out) override {
    std::vector<LbLink> rows;
    if (multiget_links(id1, lt, {id2}, &rows) == 0) return false;
    if (out) *out = std::move(rows[0]);
    return true;
  }
  size_t multiget_links(int64_t id1, int64_t lt, const std::vector<int64_t>& id2s, std::vector<LbLink>* out) override {
    std::string in;
    for (int64_t x : id2s) in += (in.empty() ? "" : ",") + std::to_string(x);
    return select_links(" WHERE id1=" + std::to_string(id1) + " AND link_type=" + std::to_string(lt) + " AND id2 IN (" + in + ")", out);
  }
  // LinkBench's getLinkList: the covering id1_type index forced, its whole time range, no sort.
  size_t get_links_list(int64_t id1, int64_t lt, size_t limit, std::vector<LbLink>* out) override {
    return select_links(" FORCE INDEX(id1_type) WHERE id1=" + std::to_string(id1) + " AND link_type=" + std::to_string(lt) +
                            " AND time>=0 AND time<=9223372036854775807 AND visibility=1 ORDER BY time DESC LIMIT 0," +
                            std::to_string(limit),
                        out);
  }
  // LinkBench's getLinkListTail: the same statement with the time range's upper end and an offset.
  size_t get_links_list_older(int64_t id1, int64_t lt, int64_t max_time, size_t offset, size_t limit, size_t /*newer*/,
                              std::vector<LbLink>* out) override {
    return select_links(" FORCE INDEX(id1_type) WHERE id1=" + std::to_string(id1) + " AND link_type=" + std::to_string(lt) +
                            " AND time>=0 AND time<=" + std::to_string(max_time) + " AND visibility=1 ORDER BY time DESC LIMIT " +
                            std::to_string(offset) + "," + std::to_string(limit),
                        out);
  }

 private:
  static std::string where(int64_t id1, int64_t lt, int64_t id2) {
    return " WHERE id1=" + std::to_string(id1) + " AND id2=" + std::to_string(id2) + " AND link_type=" + std::to_string(lt);
  }
  // LinkBench's count upsert (a missing row starts at `first`), with its trailing ';'.
  std::string count_upsert(int64_t id1, int64_t lt, int64_t time, const char* first, const char* count) const {
    return "INSERT INTO " + count_ + " (id, link_type, count, time, version) VALUES (" + std::to_string(id1) + "," +
           std::to_string(lt) + "," + first + "," + std::to_string(time) + ",0) ON DUPLICATE KEY UPDATE count=" + count +
           ", version=version+1, time=" + std::to_string(time) + ";";
  }
  size_t select_links(const std::string& tail, std::vector<LbLink>* out) {
    auto r = ro_.rows("SELECT id1, id2, link_type, visibility, data, time, version FROM " + link_ + tail);
    for (auto& row : r) {
      LbLink l{std::stoll(row[0]), std::stoll(row[2]), std::stoll(row[1]), std::stoll(row[3]), std::move(row[4]),
               std::stoll(row[5]), std::stoll(row[6])};
      out->push_back(std::move(l));
    }
    return r.size();
  }
  // One statement and COMMIT in one round trip; its affected rows.
  uint64_t write(const std::string& sql) {
    uint64_t n = 0;
    retried([&] { return rw_.try_multi(sql + ";COMMIT", &n); });
    return n;
  }
  // body() returns a server error number; on one, ROLLBACK; deadlock (1213) and lock wait timeout
  // (1205) are retried up to 20 times, others thrown.
  template <class F>
  void retried(F body) {
    for (int attempt = 0;; ++attempt) {
      unsigned e = body();
      if (!e) return;
      std::string msg = mysql_error(rw_.raw());
      rw_.try_multi("ROLLBACK");
      if ((e != 1213 && e != 1205) || attempt >= 20)
        throw EngineError("mariadb: linkbench write (error " + std::to_string(e) + "): " + msg);
      // Back off 0.1..~50 ms, growing: writers that met on a hot row do not meet again at once.
      thread_local std::minstd_rand r(static_cast<unsigned>(std::hash<std::thread::id>{}(std::this_thread::get_id())));
      std::this_thread::sleep_for(std::chrono::microseconds(100 + r() % 1000 * std::min(attempt + 1, 50)));
    }
  }
  MyConn ro_, rw_;
  std::string node_, link_, count_;
};

class SqlLinkbenchStore final : public LinkbenchStore {
 public:
  SqlLinkbenchStore(const ConnInfo& ci, std::string engine) : ci_(ci), engine_(std::move(engine)) {}
  void create(const std::string& prefix) override {
    prefix_ = prefix;
    MyConn c(ci_);
    for (const char* t : {"node", "link", "count"}) c.exec("DROP TABLE IF EXISTS " + prefix + t);
    c.exec("CREATE TABLE " + prefix + "link (id1 BIGINT NOT NULL, id2 BIGINT NOT NULL, link_type BIGINT NOT NULL, "
           "visibility TINYINT NOT NULL, data VARBINARY(255) NOT NULL, time BIGINT NOT NULL, version INT NOT NULL, "
           "PRIMARY KEY (link_type, id1, id2), KEY id1_type (id1, link_type, visibility, time, id2, version, data)) "
           "ENGINE=" + engine_);
    c.exec("CREATE TABLE " + prefix + "count (id BIGINT NOT NULL, link_type BIGINT NOT NULL, count INT NOT NULL, "
           "time BIGINT NOT NULL, version BIGINT NOT NULL, PRIMARY KEY (id, link_type)) ENGINE=" + engine_);
    c.exec("CREATE TABLE " + prefix + "node (id BIGINT NOT NULL AUTO_INCREMENT, type INT NOT NULL, version BIGINT NOT NULL, "
           "time BIGINT NOT NULL, data MEDIUMBLOB NOT NULL, PRIMARY KEY (id)) ENGINE=" + engine_);
  }
  std::unique_ptr<LinkbenchClient> client() override { return std::make_unique<SqlLinkbenchClient>(ci_, prefix_); }
  bool needs_writer_lock() const override { return false; }

 private:
  ConnInfo ci_;
  std::string engine_, prefix_;
};

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

class MariaDBTarget final : public Target {
 public:
  explicit MariaDBTarget(std::string engine) : engine_(std::move(engine)) {}

  void open(const json& conn, const ParamValues&) override {
    static std::once_flag once;
    std::call_once(once, [] { mysql_library_init(0, nullptr, nullptr); });
    ci_.host = jstr(conn, "host", "127.0.0.1");
    ci_.socket = jstr(conn, "socket", "");
    ci_.user = jstr(conn, "user", "root");
    ci_.database = jstr(conn, "database", "engbench");
    if (conn.contains("port") && conn["port"].is_number_integer()) ci_.port = conn["port"].get<unsigned>();
    if (conn.contains("password") && conn["password"].is_string()) {
      ci_.password = conn["password"].get<std::string>();
    } else {
      std::string env = jstr(conn, "password_env", "ENGBENCH_MYSQL_PASSWORD");
      const char* pw = std::getenv(env.c_str());
      ci_.password = pw ? pw : "";
    }
    {
      MyConn c(ci_, false);
      c.exec("CREATE DATABASE IF NOT EXISTS `" + ci_.database + "`");
      auto r = c.rows("SELECT VERSION()");
      version_ = r.empty() ? "" : r[0][0];
      auto e = c.rows("SELECT SUPPORT FROM information_schema.ENGINES WHERE ENGINE='" + engine_ + "'");
      if (e.empty() || (e[0][0] != "YES" && e[0][0] != "DEFAULT"))
        throw EngineError("mariadb: the server has no " + engine_ + " storage engine" +
                          (engine_ == "ROCKSDB" ? " (load the plugin: --plugin-load-add=ha_rocksdb)" : ""));
    }
    stats_conn_ = std::make_unique<MyConn>(ci_);
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
    return {{"kind", "mariadb"}, {"storage_engine", engine_}, {"server_version", version_},
            {"host", ci_.socket.empty() ? ci_.host : "localhost"}, {"port", ci_.socket.empty() ? ci_.port : 0},
            {"socket", ci_.socket}, {"user", ci_.user}, {"database", ci_.database}};
  }

  void close() override { stats_conn_.reset(); }

  std::unique_ptr<SysbenchStore> sysbench_store() override { return std::make_unique<SqlSysbenchStore>(ci_, engine_); }
  std::unique_ptr<IibenchStore> iibench_store() override { return std::make_unique<SqlIibenchStore>(ci_, engine_); }
  std::unique_ptr<LinkbenchStore> linkbench_store() override { return std::make_unique<SqlLinkbenchStore>(ci_, engine_); }
  std::unique_ptr<YcsbStore> ycsb_store() override { return std::make_unique<SqlYcsbStore>(ci_, engine_); }

 private:
  std::string engine_;
  ConnInfo ci_;
  std::string version_;
  std::unique_ptr<MyConn> stats_conn_;
};

std::vector<ParamSpec> mariadb_knobs() {
  return {
      {"cache_size", ParamType::Bytes, int64_t{0},
       "server: InnoDB buffer pool / RocksDB block cache of a private server engbench starts (0 = the server's default)"},
      {"flush_log_at_trx_commit", ParamType::Int, int64_t{1},
       "server: innodb_/rocksdb_flush_log_at_trx_commit of a private server (1 = sync at each commit, 2, 0)"},
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

TargetInfo mariadb_innodb_target_info() { return mariadb_info("mariadb-innodb", "InnoDB", "InnoDB tables"); }
TargetInfo mariadb_myrocks_target_info() { return mariadb_info("mariadb-myrocks", "ROCKSDB", "MyRocks tables, ENGINE=ROCKSDB"); }

}  // namespace eb
