// linkbench on MariaDB.
#include <string>
#include <vector>

#include "targets/mariadb/mariadb.h"
#include "workloads/linkbench/store.h"

namespace eb {
namespace {
using namespace mariadb;

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
  // One write transaction, deadlocks and lock wait timeouts retried (mariadb::retried).
  template <class F>
  void retried(F body) {
    mariadb::retried(rw_, "linkbench write", body);
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

}  // namespace

std::unique_ptr<LinkbenchStore> mariadb_linkbench_store(Target& target) {
  const Backend& b = backend_of(target);
  return std::make_unique<SqlLinkbenchStore>(b.ci, b.engine);
}

}  // namespace eb
