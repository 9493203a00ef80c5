// The linkbench store for the KV engines: the document layer (Collection), exactly as the workload used
// it before server targets existed (same documents, same transactions).
#include <algorithm>
#include <stdexcept>

#include "workloads/doc_writer.h"
#include "workloads/kv_store_util.h"
#include "workloads/linkbench/store.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace eb {
namespace {
using namespace wl;


// linkbench: LinkbenchX's collections <prefix>node {_id, type, version, time, data} (record id = node
// id), <prefix>link {id1, link_type, id2, visibility, data, time, version, rtime} with indexes pk
// (link_type, id1, id2) and the covering id1_type (id1, link_type, visibility, rtime, id2, version,
// data), <prefix>count {id, link_type, count, time, version} with id_type (id, link_type).
// rtime = -time: the document layer only scans forward, so the covering index stores time
// descending and get_links_list (ORDER BY time DESC) is one forward prefix scan. add_link and
// delete_link change the link and its count row in ONE transaction.
constexpr int64_t kVisible = 1, kHidden = 0;
enum LinkIx { kPk = 0, kId1Type = 1 };
constexpr size_t kId1TypeDataField = 6;  // data is the 7th value of an id1_type key

void write_node(Doc* d, const LbNode& n) {
  DocWriter w(&d->bytes);
  w.i64("_id", n.id);
  w.i32("type", 2048);
  w.i64("version", n.version);
  w.i64("time", n.time);
  w.binary("data", n.data.data(), n.data.size());
  w.finish();
}
void write_link(Doc* d, const LbLink& l) {
  DocWriter w(&d->bytes);
  w.i64("id1", l.id1);
  w.i64("link_type", l.link_type);
  w.i64("id2", l.id2);
  w.i64("visibility", l.visibility);
  w.utf8("data", l.data.data(), l.data.size());
  w.i64("time", l.time);
  w.i64("version", l.version);
  w.i64("rtime", -l.time);
  w.finish();
}
void write_count(Doc* d, const LbCount& c) {
  DocWriter w(&d->bytes);
  w.i64("id", c.id);
  w.i64("link_type", c.link_type);
  w.i64("count", c.count);
  w.i64("time", c.time);
  w.i64("version", c.version);
  w.finish();
}
template <class T>
std::vector<Doc> docs_of(const std::vector<T>& rows, void (*write)(Doc*, const T&)) {
  std::vector<Doc> docs(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) write(&docs[i], rows[i]);
  return docs;
}
std::vector<KeyValue> ints(std::initializer_list<int64_t> v) {
  std::vector<KeyValue> out;
  for (int64_t x : v) out.push_back(KeyValue::Int(x));
  return out;
}

struct KvLinkbenchTables {
  std::unique_ptr<Collection> node, link, count;
};

class KvLinkbenchClient final : public LinkbenchClient {
 public:
  KvLinkbenchClient(Engine& e, KvLinkbenchTables& t) : s_(e.session()), t_(t) {}

  void load_nodes(const std::vector<LbNode>& nodes) override { t_.node->insert_batch(*s_, docs_of(nodes, write_node)); }
  void load_links(const std::vector<LbLink>& links) override { t_.link->insert_batch(*s_, docs_of(links, write_link)); }
  void load_counts(const std::vector<LbCount>& counts) override {
    t_.count->insert_batch(*s_, docs_of(counts, write_count));
  }

  int64_t add_node(const LbNode& node) override {
    std::vector<uint64_t> got;
    t_.node->insert_batch(*s_, docs_of(std::vector<LbNode>{node}, write_node), &got);
    return static_cast<int64_t>(got.at(0));
  }
  bool update_node(int64_t id, const std::string& data, int64_t time) override {
    return t_.node->update(*s_, static_cast<uint64_t>(id), [&](const Doc& old) {
      Doc d;
      write_node(&d, LbNode{id, get_int(old.bytes, "version") + 1, time, data});
      return d;
    });
  }
  bool delete_node(int64_t id) override { return t_.node->remove(*s_, static_cast<uint64_t>(id)); }
  bool get_node(int64_t id, std::string* data) override {
    Doc doc;
    if (!t_.node->get(*s_, static_cast<uint64_t>(id), &doc)) return false;
    if (data) *data = get_bytes(doc.bytes, "data");
    return true;
  }

  // LinkBench addLink: insert, or un-hide/overwrite an existing link; the count row follows.
  void add_link(const LbLink& l) override {
    std::vector<IndexRow> rows;
    bool exists = find_link(l.id1, l.link_type, l.id2, &rows);
    in_txn([&] {
      int64_t delta = 1;
      if (exists) {
        delta = get_int(rows[0].doc, "visibility") == kVisible ? 0 : 1;
        t_.link->update_in_txn(*s_, rows[0].record_id, [&](const Doc& old) {
          LbLink now = l;
          now.visibility = kVisible;
          now.version = get_int(old.bytes, "version") + 1;
          Doc d;
          write_link(&d, now);
          return d;
        });
      } else {
        Doc d;
        LbLink now = l;
        now.visibility = kVisible;
        now.version = 0;
        write_link(&d, now);
        t_.link->insert_in_txn(*s_, d);
      }
      if (delta) bump_count(l.id1, l.link_type, delta, l.time);
    });
  }
  // LinkBench deleteLink (expunge = false): hide a visible link and decrement the count.
  bool delete_link(int64_t id1, int64_t lt, int64_t id2, int64_t time) override {
    std::vector<IndexRow> rows;
    if (!find_link(id1, lt, id2, &rows) || get_int(rows[0].doc, "visibility") != kVisible) return false;
    in_txn([&] {
      t_.link->update_in_txn(*s_, rows[0].record_id, [&](const Doc& old) {
        Doc d = old;
        set_int64(&d.bytes, "visibility", kHidden);
        return d;
      });
      bump_count(id1, lt, -1, time);
    });
    return true;
  }
  bool count_link(int64_t id1, int64_t lt, int64_t* count) override {
    std::vector<IndexRow> rows;
    if (!t_.count->index_scan_prefix(*s_, 0, ints({id1, lt}), 1, true, &rows)) return false;
    *count = get_int(rows[0].doc, "count");
    return true;
  }
  bool get_link(int64_t id1, int64_t lt, int64_t id2, LbLink* out) override {
    std::vector<IndexRow> rows;
    if (!find_link(id1, lt, id2, &rows)) return false;
    if (out) {
      out->visibility = get_int(rows[0].doc, "visibility");
      out->data = get_bytes(rows[0].doc, "data");
    }
    return true;
  }
  // A covering scan of id1_type: each link's data comes from its index key.
  size_t get_links_list(int64_t id1, int64_t lt, size_t limit, std::vector<LbLink>* out) override {
    std::vector<IndexRow> rows;
    t_.link->index_scan_prefix(*s_, kId1Type, ints({id1, lt, kVisible}), limit, false, &rows);
    for (const auto& r : rows) out->push_back(listed(id1, lt, r));
    return rows.size();
  }

  // getlinklist_history through the covering index, as LinkBench's getLinkList(id1, type, 0,
  // max_time, offset, limit): rtime = -time ascending is time descending, so the visible links with
  // time <= max_time start at (id1, lt, visible, -max_time); `offset` of them are skipped. Reads
  // offset + limit rows (the default read the whole list down to the page: up to ~1M rows of the
  // hottest list, ~100 MB).
  size_t get_links_list_older(int64_t id1, int64_t lt, int64_t max_time, size_t offset, size_t limit, size_t /*newer*/,
                              std::vector<LbLink>* out) override {
    const std::string prefix = encode_prefix(ints({id1, lt, kVisible}));
    std::vector<IndexRow> rows;
    t_.link->index_scan(*s_, kId1Type, ints({id1, lt, kVisible, -max_time}), offset + limit, false, &rows);
    size_t n = 0;
    for (size_t i = 0; i < rows.size() && rows[i].key.compare(0, prefix.size(), prefix) == 0; ++i)
      if (i >= offset) {
        out->push_back(listed(id1, lt, rows[i]));
        ++n;
      }
    return n;
  }

 private:
  // A get_links_list row of the covering index: the link's data is its 7th value.
  static LbLink listed(int64_t id1, int64_t lt, const IndexRow& r) {
    size_t pos = 0;
    for (size_t f = 0; f < kId1TypeDataField; ++f) pos = encoded_value_end(r.key, pos);
    LbLink l;
    l.id1 = id1;
    l.link_type = lt;
    l.data = decode_string_at(r.key, pos);
    return l;
  }

  template <class F>
  void in_txn(F body) {
    s_->begin();
    try {
      body();
      s_->commit();
    } catch (...) {
      try { s_->rollback(); } catch (...) {}
      throw;
    }
  }
  // The link (lt, id1, id2) through the pk index; rows gets it (with its document).
  bool find_link(int64_t id1, int64_t lt, int64_t id2, std::vector<IndexRow>* rows) {
    return t_.link->index_scan_prefix(*s_, kPk, ints({lt, id1, id2}), 1, true, rows) == 1;
  }
  // Adds delta to the count row of (id1, lt), creating it; inside the caller's transaction.
  void bump_count(int64_t id1, int64_t lt, int64_t delta, int64_t now_ms) {
    std::vector<IndexRow> rows;
    if (t_.count->index_scan_prefix(*s_, 0, ints({id1, lt}), 1, false, &rows)) {
      t_.count->update_in_txn(*s_, rows[0].record_id, [&](const Doc& old) {
        Doc d;
        write_count(&d, LbCount{id1, lt, std::max<int64_t>(0, get_int(old.bytes, "count") + delta), now_ms,
                                get_int(old.bytes, "version") + 1});
        return d;
      });
    } else if (delta > 0) {
      Doc d;
      write_count(&d, LbCount{id1, lt, delta, now_ms, 0});
      t_.count->insert_in_txn(*s_, d);
    }
  }
  std::unique_ptr<Session> s_;
  KvLinkbenchTables& t_;
};

class KvLinkbenchStore final : public LinkbenchStore {
 public:
  explicit KvLinkbenchStore(Engine& e) : engine_(e) {}
  void create(const std::string& pre) override {
    t_.node = std::make_unique<Collection>(engine_, pre + "node", std::vector<IndexDef>{});
    t_.link = std::make_unique<Collection>(
        engine_, pre + "link",
        std::vector<IndexDef>{{"pk", {"link_type", "id1", "id2"}},
                              {"id1_type", {"id1", "link_type", "visibility", "rtime", "id2", "version", "data"}}});
    t_.count = std::make_unique<Collection>(engine_, pre + "count", std::vector<IndexDef>{{"id_type", {"id", "link_type"}}});
    if (t_.node->next_id() != 1 || t_.link->next_id() != 1)
      throw std::runtime_error("linkbench: the collections exist already; use a fresh data_dir");
  }
  std::unique_ptr<LinkbenchClient> client() override { return std::make_unique<KvLinkbenchClient>(engine_, t_); }
  json summary_extra() const override {
    if (!t_.link) return json::object();
    return {{"logical_index_key_bytes", t_.link->index_key_bytes() + t_.count->index_key_bytes()}};
  }

 private:
  Engine& engine_;
  KvLinkbenchTables t_;
};

}  // namespace

std::unique_ptr<LinkbenchStore> kv_linkbench_store(Engine& engine) { return std::make_unique<KvLinkbenchStore>(engine); }

}  // namespace eb
