// MongoDB target `mongodb` over libmongoc 1.23 (Debian libmongoc-dev): any MongoDB-compatible server
// by URI. One pooled client per worker thread; every write carries the knobs' write concern
// (w, j). The documents are the KV engines' documents byte for byte (BSON), so the collections hold
// what the document layer would hold.
//
// sysbench-update: collections sbtest1..N {_id, k, c, pad}, index {k: 1} named k_1; load =
// insert_many (unordered) per load_batch; updates = update_one({_id}, {$set: {c}}) and
// update_one({_id}, {$inc: {k: 1}}) (sysbench-mongodb's non-index / index updates).
// iibench: collection purchases_index, indexes pc, rpc, ptc via createIndexes; insert_many
// (unordered) per batch; queries = iibench-mongodb's $or ranges with the index fields projected,
// sorted in index order, limit.
// FerretDB v1.24.2 hangs on a write command with more than ~40 operations: keep batches <= 40.
#include <mongoc/mongoc.h>

#include <cstring>
#include <mutex>

#include "target.h"

namespace eb {
namespace {

std::string jstr(const json& c, const char* k, const std::string& dflt) {
  return c.contains(k) && c[k].is_string() ? c[k].get<std::string>() : dflt;
}

std::string to_json_text(const bson_t* b) {
  size_t n = 0;
  char* s = bson_as_relaxed_extended_json(b, &n);
  if (!s) throw EngineError("mongodb: a server reply is not valid BSON");
  std::string out(s, n);
  bson_free(s);
  return out;
}

// A server reply as JSON; one that does not parse is an error (never an empty document).
json bson_to_json(const bson_t* b) {
  try {
    return json::parse(to_json_text(b));
  } catch (const json::exception& e) {
    throw EngineError(std::string("mongodb: cannot read a server reply as JSON: ") + e.what());
  }
}

struct BsonGuard {
  bson_t b;
  BsonGuard() { bson_init(&b); }
  ~BsonGuard() { bson_destroy(&b); }
  bson_t* operator&() { return &b; }
};

class Shared {  // what every client of the target shares
 public:
  mongoc_client_pool_t* pool = nullptr;
  std::string db;
  mongoc_write_concern_t* wc = nullptr;
  std::string uri_shown;
  void append_wc(bson_t* opts) const {
    if (wc && !mongoc_write_concern_append(wc, opts)) throw EngineError("mongodb: bad write concern");
  }
};

// A client popped from the pool for one thread, with its collections.
class Client {
 public:
  explicit Client(const Shared& s) : s_(s), c_(mongoc_client_pool_pop(s.pool)) {}
  ~Client() {
    for (auto* c : colls_)
      if (c) mongoc_collection_destroy(c);
    mongoc_client_pool_push(s_.pool, c_);
  }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  mongoc_collection_t* coll(size_t slot, const std::string& name) {
    if (slot >= colls_.size()) colls_.resize(slot + 1, nullptr);
    if (!colls_[slot]) colls_[slot] = mongoc_client_get_collection(c_, s_.db.c_str(), name.c_str());
    return colls_[slot];
  }
  mongoc_client_t* raw() { return c_; }
  const Shared& shared() const { return s_; }

  void insert_many(mongoc_collection_t* coll, const std::vector<const std::string*>& docs, const char* what) {
    std::vector<bson_t> views(docs.size());
    std::vector<const bson_t*> ptrs(docs.size());
    for (size_t i = 0; i < docs.size(); ++i) {
      if (!bson_init_static(&views[i], reinterpret_cast<const uint8_t*>(docs[i]->data()), docs[i]->size()))
        throw EngineError(std::string("mongodb: ") + what + ": invalid document");
      ptrs[i] = &views[i];
    }
    BsonGuard opts, reply;
    BSON_APPEND_BOOL(&opts, "ordered", false);
    s_.append_wc(&opts);
    bson_error_t err;
    if (!mongoc_collection_insert_many(coll, ptrs.data(), ptrs.size(), &opts, &reply, &err))
      throw EngineError(std::string("mongodb: insert_many into ") + what + ": " + err.message);
  }

  // update_one; returns matchedCount.
  int64_t update_one(mongoc_collection_t* coll, const bson_t* filter, const bson_t* update, const char* what) {
    BsonGuard opts, reply;
    s_.append_wc(&opts);
    bson_error_t err;
    if (!mongoc_collection_update_one(coll, filter, update, &opts, &reply, &err))
      throw EngineError(std::string("mongodb: update_one ") + what + ": " + err.message);
    return reply_count(&reply, "matchedCount", what);
  }

  // A count field of a write reply; a reply without it is an error (never "0 documents").
  static int64_t reply_count(const bson_t* reply, const char* field, const char* what) {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, reply, field) || !BSON_ITER_HOLDS_NUMBER(&it))
      throw EngineError(std::string("mongodb: the reply to ") + what + " has no " + field);
    return bson_iter_as_int64(&it);
  }

  void command(const char* db, const bson_t* cmd, bson_t* reply, const std::string& what, bool ignore_ns_missing = false) {
    bson_error_t err;
    bool ok = mongoc_client_write_command_with_opts(c_, db, cmd, nullptr, reply, &err);
    if (!ok && !(ignore_ns_missing && (err.code == 26 || std::strstr(err.message, "ns not found"))))
      throw EngineError("mongodb: " + what + ": " + err.message);
  }

  void drop(const std::string& name) {
    BsonGuard cmd, reply;
    BSON_APPEND_UTF8(&cmd, "drop", name.c_str());
    command(s_.db.c_str(), &cmd, &reply, "drop " + name, true);
  }

  void create_indexes(const std::string& coll, const std::vector<IndexDef>& idx) {
    if (idx.empty()) {
      BsonGuard cmd, reply;  // create the collection anyway
      BSON_APPEND_UTF8(&cmd, "create", coll.c_str());
      command(s_.db.c_str(), &cmd, &reply, "create " + coll);
      return;
    }
    BsonGuard cmd, reply;
    BSON_APPEND_UTF8(&cmd, "createIndexes", coll.c_str());
    bson_t arr;
    BSON_APPEND_ARRAY_BEGIN(&cmd, "indexes", &arr);
    for (size_t i = 0; i < idx.size(); ++i) {
      bson_t one, key;
      std::string n = std::to_string(i);
      BSON_APPEND_DOCUMENT_BEGIN(&arr, n.c_str(), &one);
      BSON_APPEND_DOCUMENT_BEGIN(&one, "key", &key);
      for (const auto& f : idx[i].fields) BSON_APPEND_INT32(&key, f.c_str(), 1);
      bson_append_document_end(&one, &key);
      BSON_APPEND_UTF8(&one, "name", idx[i].name.c_str());
      bson_append_document_end(&arr, &one);
    }
    bson_append_array_end(&cmd, &arr);
    command(s_.db.c_str(), &cmd, &reply, "createIndexes on " + coll);
  }

 private:
  const Shared& s_;
  mongoc_client_t* c_;
  std::vector<mongoc_collection_t*> colls_;
};

// --- sysbench-update ---
class MongoSysbenchClient final : public SysbenchClient {
 public:
  MongoSysbenchClient(const Shared& s, const std::string& prefix) : c_(s), prefix_(prefix) {}

  void load(int table, const std::vector<SbRow>& rows) override {
    docs_.resize(rows.size());
    std::vector<const std::string*> ptrs(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      bson_t b;
      bson_init(&b);
      BSON_APPEND_INT64(&b, "_id", rows[i].id);
      BSON_APPEND_INT64(&b, "k", rows[i].k);
      bson_append_utf8(&b, "c", 1, rows[i].c, kSbCLen);
      bson_append_utf8(&b, "pad", 3, rows[i].pad, kSbPadLen);
      docs_[i].assign(reinterpret_cast<const char*>(bson_get_data(&b)), b.len);
      bson_destroy(&b);
      ptrs[i] = &docs_[i];
    }
    c_.insert_many(coll(table), ptrs, name(table).c_str());
  }

  bool update_c(int table, int64_t id, const char* c) override {
    BsonGuard filter, update;
    BSON_APPEND_INT64(&filter, "_id", id);
    bson_t set;
    BSON_APPEND_DOCUMENT_BEGIN(&update, "$set", &set);
    bson_append_utf8(&set, "c", 1, c, kSbCLen);
    bson_append_document_end(&update, &set);
    return c_.update_one(coll(table), &filter, &update, "$set c") > 0;
  }

  bool update_k(int table, int64_t id, int64_t* new_k) override {
    BsonGuard filter, update;
    BSON_APPEND_INT64(&filter, "_id", id);
    bson_t inc;
    BSON_APPEND_DOCUMENT_BEGIN(&update, "$inc", &inc);
    BSON_APPEND_INT32(&inc, "k", 1);
    bson_append_document_end(&update, &inc);
    int64_t n = c_.update_one(coll(table), &filter, &update, "$inc k");
    *new_k = -1;
    return n > 0;
  }

  bool get(int table, int64_t id, int64_t* k, std::string* c) override {
    BsonGuard filter, opts;
    BSON_APPEND_INT64(&filter, "_id", id);
    BSON_APPEND_INT64(&opts, "limit", 1);
    mongoc_cursor_t* cur = mongoc_collection_find_with_opts(coll(table), &filter, &opts, nullptr);
    const bson_t* doc;
    bool found = false;
    while (mongoc_cursor_next(cur, &doc)) {
      found = true;
      bson_iter_t it;
      if (k && bson_iter_init_find(&it, doc, "k")) *k = bson_iter_as_int64(&it);
      if (c && bson_iter_init_find(&it, doc, "c") && BSON_ITER_HOLDS_UTF8(&it)) {
        uint32_t n;
        const char* s = bson_iter_utf8(&it, &n);
        c->assign(s, n);
      }
    }
    bson_error_t err;
    bool failed = mongoc_cursor_error(cur, &err);
    mongoc_cursor_destroy(cur);
    if (failed) throw EngineError(std::string("mongodb: find by _id: ") + err.message);
    return found;
  }

 private:
  std::string name(int t) const { return prefix_ + std::to_string(t + 1); }
  mongoc_collection_t* coll(int t) { return c_.coll(static_cast<size_t>(t), name(t)); }
  Client c_;
  std::string prefix_;
  std::vector<std::string> docs_;
};

class MongoSysbenchStore final : public SysbenchStore {
 public:
  explicit MongoSysbenchStore(const Shared& s) : s_(s) {}
  void create(const std::string& prefix, int tables) override {
    prefix_ = prefix;
    Client c(s_);
    for (int t = 0; t < tables; ++t) {
      std::string n = prefix + std::to_string(t + 1);
      c.drop(n);
      c.create_indexes(n, {{"k_1", {"k"}}});
    }
  }
  uint64_t rows(int) override { return 0; }
  std::unique_ptr<SysbenchClient> client() override { return std::make_unique<MongoSysbenchClient>(s_, prefix_); }

 private:
  const Shared& s_;
  std::string prefix_;
};

// --- iibench ---
void append_kv(bson_t* b, const char* key, const KeyValue& v) {
  switch (v.type) {
    case KeyValue::Type::Double: BSON_APPEND_DOUBLE(b, key, v.d); break;
    case KeyValue::Type::Int: BSON_APPEND_INT64(b, key, v.i); break;
    default: throw EngineError("mongodb: iibench query value of an unexpected type");
  }
}

class MongoIibenchClient final : public IibenchClient {
 public:
  MongoIibenchClient(const Shared& s, const std::string& name, const std::string& variant)
      : c_(s), name_(name), variant_(variant) {}

  void insert_batch(const std::vector<Doc>& docs) override {
    std::vector<const std::string*> ptrs(docs.size());
    for (size_t i = 0; i < docs.size(); ++i) ptrs[i] = &docs[i].bytes;
    c_.insert_many(c_.coll(0, name_), ptrs, name_.c_str());
  }

  size_t query(int index, const std::vector<KeyValue>& start, size_t limit, bool fetch) override {
    const auto& cols = iibench_secondary_indexes(variant_)[index].fields;
    BsonGuard filter, opts;
    bson_t ors;
    BSON_APPEND_ARRAY_BEGIN(&filter, "$or", &ors);
    for (size_t i = 0; i < start.size(); ++i) {
      bson_t term;
      std::string n = std::to_string(i);
      BSON_APPEND_DOCUMENT_BEGIN(&ors, n.c_str(), &term);
      for (size_t j = 0; j < i; ++j) append_kv(&term, cols[j].c_str(), start[j]);
      bson_t cmp;
      BSON_APPEND_DOCUMENT_BEGIN(&term, cols[i].c_str(), &cmp);
      append_kv(&cmp, i + 1 == start.size() ? "$gte" : "$gt", start[i]);
      bson_append_document_end(&term, &cmp);
      bson_append_document_end(&ors, &term);
    }
    bson_append_array_end(&filter, &ors);
    bson_t sort, proj;
    BSON_APPEND_DOCUMENT_BEGIN(&opts, "sort", &sort);
    for (const auto& f : cols) BSON_APPEND_INT32(&sort, f.c_str(), 1);
    bson_append_document_end(&opts, &sort);
    if (!fetch) {
      BSON_APPEND_DOCUMENT_BEGIN(&opts, "projection", &proj);
      BSON_APPEND_INT32(&proj, "_id", 0);
      for (const auto& f : cols) BSON_APPEND_INT32(&proj, f.c_str(), 1);
      bson_append_document_end(&opts, &proj);
    }
    BSON_APPEND_INT64(&opts, "limit", static_cast<int64_t>(limit));
    mongoc_cursor_t* cur = mongoc_collection_find_with_opts(c_.coll(0, name_), &filter, &opts, nullptr);
    const bson_t* doc;
    size_t n = 0;
    while (mongoc_cursor_next(cur, &doc)) ++n;
    bson_error_t err;
    bool failed = mongoc_cursor_error(cur, &err);
    mongoc_cursor_destroy(cur);
    if (failed) throw EngineError(std::string("mongodb: iibench query: ") + err.message);
    return n;
  }

 private:
  Client c_;
  std::string name_, variant_;
};

class MongoIibenchStore final : public IibenchStore {
 public:
  explicit MongoIibenchStore(const Shared& s) : s_(s) {}
  void create(const IibenchShape& shape) override {
    name_ = shape.name;
    variant_ = shape.variant;
    Client c(s_);
    c.drop(name_);
    const auto& sec = iibench_secondary_indexes(variant_);
    c.create_indexes(name_, std::vector<IndexDef>(sec.begin(), sec.begin() + shape.num_secondary));
  }
  std::unique_ptr<IibenchClient> client() override { return std::make_unique<MongoIibenchClient>(s_, name_, variant_); }

 private:
  const Shared& s_;
  std::string name_, variant_;
};

// --- linkbench: LinkbenchX's collections <prefix>node {_id = id}, link, count ---
// add_link / delete_link change the link and its count without a transaction (as LinkbenchX on
// servers without them); the workload serializes writers of one id1.
class MongoLinkbenchClient final : public LinkbenchClient {
 public:
  MongoLinkbenchClient(const Shared& s, const std::string& prefix)
      : c_(s), node_(prefix + "node"), link_(prefix + "link"), count_(prefix + "count") {}

  void load_nodes(const std::vector<LbNode>& nodes) override {
    std::vector<std::string> docs(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) docs[i] = node_doc(nodes[i]);
    insert(0, node_, docs);
  }
  void load_links(const std::vector<LbLink>& links) override {
    std::vector<std::string> docs(links.size());
    for (size_t i = 0; i < links.size(); ++i) docs[i] = link_doc(links[i]);
    insert(1, link_, docs);
  }
  void load_counts(const std::vector<LbCount>& counts) override {
    std::vector<std::string> docs(counts.size());
    for (size_t i = 0; i < counts.size(); ++i) {
      BsonGuard b;
      BSON_APPEND_INT64(&b, "id", counts[i].id);
      BSON_APPEND_INT64(&b, "link_type", counts[i].link_type);
      BSON_APPEND_INT64(&b, "count", counts[i].count);
      BSON_APPEND_INT64(&b, "time", counts[i].time);
      BSON_APPEND_INT64(&b, "version", counts[i].version);
      docs[i] = bytes_of(&b);
    }
    insert(2, count_, docs);
  }

  int64_t add_node(const LbNode& n) override {
    load_nodes({n});
    return n.id;
  }
  bool update_node(int64_t id, const std::string& data, int64_t time) override {
    BsonGuard f, u;
    BSON_APPEND_INT64(&f, "_id", id);
    bson_t set, inc;
    BSON_APPEND_DOCUMENT_BEGIN(&u, "$set", &set);
    bson_append_binary(&set, "data", 4, BSON_SUBTYPE_BINARY, reinterpret_cast<const uint8_t*>(data.data()),
                       static_cast<uint32_t>(data.size()));
    BSON_APPEND_INT64(&set, "time", time);
    bson_append_document_end(&u, &set);
    BSON_APPEND_DOCUMENT_BEGIN(&u, "$inc", &inc);
    BSON_APPEND_INT64(&inc, "version", 1);
    bson_append_document_end(&u, &inc);
    return c_.update_one(coll(0, node_), &f, &u, "node") > 0;
  }
  bool delete_node(int64_t id) override {
    BsonGuard f, opts, reply;
    BSON_APPEND_INT64(&f, "_id", id);
    c_.shared().append_wc(&opts);
    bson_error_t err;
    if (!mongoc_collection_delete_one(coll(0, node_), &f, &opts, &reply, &err))
      throw EngineError(std::string("mongodb: delete_one node: ") + err.message);
    return Client::reply_count(&reply, "deletedCount", "delete_one node") > 0;
  }
  bool get_node(int64_t id, std::string* data) override {
    BsonGuard f;
    BSON_APPEND_INT64(&f, "_id", id);
    return find_one(coll(0, node_), &f, nullptr, [&](const bson_t* d) {
      if (data) *data = field_bytes(d, "data", "node");
    });
  }

  void add_link(const LbLink& l) override {
    LbLink old;
    bool exists = get_link(l.id1, l.link_type, l.id2, &old);
    if (exists) {
      BsonGuard f, u;
      link_key(&f, l.id1, l.link_type, l.id2);
      bson_t set, inc;
      BSON_APPEND_DOCUMENT_BEGIN(&u, "$set", &set);
      BSON_APPEND_INT64(&set, "visibility", 1);
      bson_append_utf8(&set, "data", 4, l.data.data(), static_cast<int>(l.data.size()));
      BSON_APPEND_INT64(&set, "time", l.time);
      bson_append_document_end(&u, &set);
      BSON_APPEND_DOCUMENT_BEGIN(&u, "$inc", &inc);
      BSON_APPEND_INT64(&inc, "version", 1);
      bson_append_document_end(&u, &inc);
      c_.update_one(coll(1, link_), &f, &u, "link");
    } else {
      insert(1, link_, {link_doc(l)});
    }
    if (!exists || old.visibility != 1) bump_count(l.id1, l.link_type, 1, l.time);
  }
  bool delete_link(int64_t id1, int64_t lt, int64_t id2, int64_t time) override {
    LbLink old;
    if (!get_link(id1, lt, id2, &old) || old.visibility != 1) return false;
    BsonGuard f, u;
    link_key(&f, id1, lt, id2);
    bson_t set;
    BSON_APPEND_DOCUMENT_BEGIN(&u, "$set", &set);
    BSON_APPEND_INT64(&set, "visibility", 0);
    bson_append_document_end(&u, &set);
    c_.update_one(coll(1, link_), &f, &u, "link visibility");
    bump_count(id1, lt, -1, time);
    return true;
  }
  bool count_link(int64_t id1, int64_t lt, int64_t* count) override {
    BsonGuard f;
    BSON_APPEND_INT64(&f, "id", id1);
    BSON_APPEND_INT64(&f, "link_type", lt);
    return find_one(coll(2, count_), &f, nullptr, [&](const bson_t* d) {
      *count = field_int(d, "count", "count");
    });
  }
  bool get_link(int64_t id1, int64_t lt, int64_t id2, LbLink* out) override {
    BsonGuard f;
    link_key(&f, id1, lt, id2);
    return find_one(coll(1, link_), &f, nullptr, [&](const bson_t* d) {
      if (out) *out = link_of(d);
    });
  }
  size_t get_links_list(int64_t id1, int64_t lt, size_t limit, std::vector<LbLink>* out) override {
    BsonGuard f, opts;
    BSON_APPEND_INT64(&f, "id1", id1);
    BSON_APPEND_INT64(&f, "link_type", lt);
    BSON_APPEND_INT64(&f, "visibility", 1);
    bson_t sort;
    BSON_APPEND_DOCUMENT_BEGIN(&opts, "sort", &sort);
    BSON_APPEND_INT32(&sort, "time", -1);
    bson_append_document_end(&opts, &sort);
    BSON_APPEND_INT64(&opts, "limit", static_cast<int64_t>(limit));
    size_t n = 0;
    find_all(coll(1, link_), &f, &opts, [&](const bson_t* d) {
      ++n;
      out->push_back(link_of(d));
    });
    return n;
  }

 private:
  // Fields of a document the server returned; a missing or mistyped one is an error, not a default.
  static int64_t field_int(const bson_t* d, const char* field, const char* what) {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, d, field) || !BSON_ITER_HOLDS_NUMBER(&it))
      throw EngineError(std::string("mongodb: a ") + what + " document without a number '" + field + "'");
    return bson_iter_as_int64(&it);
  }
  static std::string field_bytes(const bson_t* d, const char* field, const char* what) {
    bson_iter_t it;
    if (bson_iter_init_find(&it, d, field) && BSON_ITER_HOLDS_UTF8(&it)) {
      uint32_t n;
      const char* p = bson_iter_utf8(&it, &n);
      return std::string(p, n);
    }
    if (bson_iter_init_find(&it, d, field) && BSON_ITER_HOLDS_BINARY(&it)) {
      bson_subtype_t st;
      uint32_t n;
      const uint8_t* p;
      bson_iter_binary(&it, &st, &n, &p);
      return std::string(reinterpret_cast<const char*>(p), n);
    }
    throw EngineError(std::string("mongodb: a ") + what + " document without a string or binary '" + field + "'");
  }
  static LbLink link_of(const bson_t* d) {
    LbLink l;
    l.id1 = field_int(d, "id1", "link");
    l.link_type = field_int(d, "link_type", "link");
    l.id2 = field_int(d, "id2", "link");
    l.visibility = field_int(d, "visibility", "link");
    l.data = field_bytes(d, "data", "link");
    l.time = field_int(d, "time", "link");
    l.version = field_int(d, "version", "link");
    return l;
  }
  static std::string bytes_of(bson_t* b) { return std::string(reinterpret_cast<const char*>(bson_get_data(b)), b->len); }
  static std::string node_doc(const LbNode& n) {
    BsonGuard b;
    BSON_APPEND_INT64(&b, "_id", n.id);
    BSON_APPEND_INT32(&b, "type", 2048);
    BSON_APPEND_INT64(&b, "version", n.version);
    BSON_APPEND_INT64(&b, "time", n.time);
    bson_append_binary(&b, "data", 4, BSON_SUBTYPE_BINARY, reinterpret_cast<const uint8_t*>(n.data.data()),
                       static_cast<uint32_t>(n.data.size()));
    return bytes_of(&b);
  }
  static std::string link_doc(const LbLink& l) {
    BsonGuard b;
    BSON_APPEND_INT64(&b, "id1", l.id1);
    BSON_APPEND_INT64(&b, "link_type", l.link_type);
    BSON_APPEND_INT64(&b, "id2", l.id2);
    BSON_APPEND_INT64(&b, "visibility", l.visibility);
    bson_append_utf8(&b, "data", 4, l.data.data(), static_cast<int>(l.data.size()));
    BSON_APPEND_INT64(&b, "time", l.time);
    BSON_APPEND_INT64(&b, "version", l.version);
    return bytes_of(&b);
  }
  static void link_key(bson_t* f, int64_t id1, int64_t lt, int64_t id2) {
    BSON_APPEND_INT64(f, "link_type", lt);
    BSON_APPEND_INT64(f, "id1", id1);
    BSON_APPEND_INT64(f, "id2", id2);
  }
  void bump_count(int64_t id1, int64_t lt, int64_t delta, int64_t time) {
    BsonGuard f, u, opts, reply;
    BSON_APPEND_INT64(&f, "id", id1);
    BSON_APPEND_INT64(&f, "link_type", lt);
    bson_t set, inc;
    BSON_APPEND_DOCUMENT_BEGIN(&u, "$set", &set);
    BSON_APPEND_INT64(&set, "time", time);
    bson_append_document_end(&u, &set);
    BSON_APPEND_DOCUMENT_BEGIN(&u, "$inc", &inc);
    BSON_APPEND_INT64(&inc, "count", delta);
    BSON_APPEND_INT64(&inc, "version", 1);
    bson_append_document_end(&u, &inc);
    BSON_APPEND_BOOL(&opts, "upsert", delta > 0);
    c_.shared().append_wc(&opts);
    bson_error_t err;
    if (!mongoc_collection_update_one(coll(2, count_), &f, &u, &opts, &reply, &err))
      throw EngineError(std::string("mongodb: update_one count: ") + err.message);
  }
  mongoc_collection_t* coll(size_t slot, const std::string& name) { return c_.coll(slot, name); }
  void insert(size_t slot, const std::string& name, const std::vector<std::string>& docs) {
    std::vector<const std::string*> p(docs.size());
    for (size_t i = 0; i < docs.size(); ++i) p[i] = &docs[i];
    c_.insert_many(coll(slot, name), p, name.c_str());
  }
  template <class F>
  size_t find_all(mongoc_collection_t* coll, const bson_t* filter, const bson_t* opts, F fn) {
    mongoc_cursor_t* cur = mongoc_collection_find_with_opts(coll, filter, opts, nullptr);
    const bson_t* doc;
    size_t n = 0;
    while (mongoc_cursor_next(cur, &doc)) {
      fn(doc);
      ++n;
    }
    bson_error_t err;
    bool failed = mongoc_cursor_error(cur, &err);
    mongoc_cursor_destroy(cur);
    if (failed) throw EngineError(std::string("mongodb: find: ") + err.message);
    return n;
  }
  template <class F>
  bool find_one(mongoc_collection_t* coll, const bson_t* filter, const bson_t*, F fn) {
    BsonGuard opts;
    BSON_APPEND_INT64(&opts, "limit", 1);
    return find_all(coll, filter, &opts, fn) > 0;
  }

  Client c_;
  std::string node_, link_, count_;
};

class MongoLinkbenchStore final : public LinkbenchStore {
 public:
  explicit MongoLinkbenchStore(const Shared& s) : s_(s) {}
  void create(const std::string& prefix) override {
    prefix_ = prefix;
    Client c(s_);
    for (const char* t : {"node", "link", "count"}) c.drop(prefix + t);
    BsonGuard node_cmd, r0;
    BSON_APPEND_UTF8(&node_cmd, "create", (prefix + "node").c_str());
    c.command(s_.db.c_str(), &node_cmd, &r0, "create " + prefix + "node");
    index(c, prefix + "link", "pk", {"link_type", "id1", "id2"}, true);
    index(c, prefix + "link", "id1_type", {"id1", "link_type", "visibility", "time", "id2", "version", "data"}, false);
    index(c, prefix + "count", "id_type", {"id", "link_type"}, true);
  }
  std::unique_ptr<LinkbenchClient> client() override { return std::make_unique<MongoLinkbenchClient>(s_, prefix_); }

 private:
  void index(Client& c, const std::string& coll, const char* name, const std::vector<std::string>& fields, bool unique) {
    BsonGuard cmd, reply;
    BSON_APPEND_UTF8(&cmd, "createIndexes", coll.c_str());
    bson_t arr, one, key;
    BSON_APPEND_ARRAY_BEGIN(&cmd, "indexes", &arr);
    BSON_APPEND_DOCUMENT_BEGIN(&arr, "0", &one);
    BSON_APPEND_DOCUMENT_BEGIN(&one, "key", &key);
    for (const auto& f : fields) BSON_APPEND_INT32(&key, f.c_str(), 1);
    bson_append_document_end(&one, &key);
    BSON_APPEND_UTF8(&one, "name", name);
    if (unique) BSON_APPEND_BOOL(&one, "unique", true);
    bson_append_document_end(&arr, &one);
    bson_append_array_end(&cmd, &arr);
    c.command(s_.db.c_str(), &cmd, &reply, "createIndexes on " + coll);
  }
  const Shared& s_;
  std::string prefix_;
};

// --- ycsb: YCSB's MongoDB binding's documents {_id: key, field0..N-1: string} in usertable ---
class MongoYcsbClient final : public YcsbClient {
 public:
  MongoYcsbClient(const Shared& s, const YcsbShape& shape) : c_(s), shape_(shape) {}

  void insert(const std::vector<YcsbRecord>& records) override {
    docs_.resize(records.size());
    std::vector<const std::string*> ptrs(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
      BsonGuard b;
      bson_append_utf8(&b, "_id", 3, records[i].key.data(), static_cast<int>(records[i].key.size()));
      for (size_t f = 0; f < records[i].fields.size(); ++f)
        bson_append_utf8(&b, field(static_cast<int>(f)).c_str(), -1, records[i].fields[f].data(),
                         static_cast<int>(records[i].fields[f].size()));
      docs_[i].assign(reinterpret_cast<const char*>(bson_get_data(&b)), b.b.len);
      ptrs[i] = &docs_[i];
    }
    c_.insert_many(coll(), ptrs, shape_.table.c_str());
  }

  bool read(const std::string& key, int field_no, YcsbRecord* out) override {
    BsonGuard filter;
    bson_append_utf8(&filter, "_id", 3, key.data(), static_cast<int>(key.size()));
    std::vector<YcsbRecord> got;
    find(&filter, 1, field_no, false, &got);
    if (got.empty()) return false;
    *out = std::move(got[0]);
    return true;
  }

  size_t scan(const std::string& start, size_t count, int field_no, std::vector<YcsbRecord>* out) override {
    BsonGuard filter;
    bson_t gte;
    BSON_APPEND_DOCUMENT_BEGIN(&filter, "_id", &gte);
    bson_append_utf8(&gte, "$gte", 4, start.data(), static_cast<int>(start.size()));
    bson_append_document_end(&filter, &gte);
    find(&filter, count, field_no, true, out);
    return out->size();
  }

  bool update(const std::string& key, const std::vector<std::pair<int, std::string>>& values) override {
    BsonGuard filter, update;
    bson_append_utf8(&filter, "_id", 3, key.data(), static_cast<int>(key.size()));
    bson_t set;
    BSON_APPEND_DOCUMENT_BEGIN(&update, "$set", &set);
    for (const auto& [f, v] : values) bson_append_utf8(&set, field(f).c_str(), -1, v.data(), static_cast<int>(v.size()));
    bson_append_document_end(&update, &set);
    return c_.update_one(coll(), &filter, &update, "$set usertable fields") > 0;
  }

 private:
  static std::string field(int i) { return "field" + std::to_string(i); }
  mongoc_collection_t* coll() { return c_.coll(0, shape_.table); }
  // find(filter) with limit, the projection of one field (field_no >= 0) and, for scans, _id order.
  void find(const bson_t* filter, size_t limit, int field_no, bool sorted, std::vector<YcsbRecord>* out) {
    BsonGuard opts;
    BSON_APPEND_INT64(&opts, "limit", static_cast<int64_t>(limit));
    if (sorted) {
      bson_t sort;
      BSON_APPEND_DOCUMENT_BEGIN(&opts, "sort", &sort);
      BSON_APPEND_INT32(&sort, "_id", 1);
      bson_append_document_end(&opts, &sort);
    }
    if (field_no >= 0) {
      bson_t proj;
      BSON_APPEND_DOCUMENT_BEGIN(&opts, "projection", &proj);
      BSON_APPEND_INT32(&proj, field(field_no).c_str(), 1);
      bson_append_document_end(&opts, &proj);
    }
    mongoc_cursor_t* cur = mongoc_collection_find_with_opts(coll(), filter, &opts, nullptr);
    out->clear();
    const bson_t* doc;
    while (mongoc_cursor_next(cur, &doc)) out->push_back(to_record(doc, field_no));
    bson_error_t err;
    bool failed = mongoc_cursor_error(cur, &err);
    mongoc_cursor_destroy(cur);
    if (failed) throw EngineError(std::string("mongodb: find in ") + shape_.table + ": " + err.message);
  }
  YcsbRecord to_record(const bson_t* doc, int field_no) const {
    YcsbRecord r;
    r.key = utf8_of(doc, "_id");
    if (field_no >= 0) r.fields.push_back(utf8_of(doc, field(field_no).c_str()));
    for (int i = 0; field_no < 0 && i < shape_.fieldcount; ++i) r.fields.push_back(utf8_of(doc, field(i).c_str()));
    return r;
  }
  static std::string utf8_of(const bson_t* doc, const char* name) {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, doc, name) || !BSON_ITER_HOLDS_UTF8(&it))
      throw EngineError(std::string("mongodb: a usertable document has no string ") + name);
    uint32_t n;
    const char* s = bson_iter_utf8(&it, &n);
    return std::string(s, n);
  }
  Client c_;
  YcsbShape shape_;
  std::vector<std::string> docs_;
};

class MongoYcsbStore final : public YcsbStore {
 public:
  explicit MongoYcsbStore(const Shared& s) : s_(s) {}
  void create(const YcsbShape& shape) override {
    shape_ = shape;
    Client c(s_);
    c.drop(shape.table);
    c.create_indexes(shape.table, {});
  }
  std::unique_ptr<YcsbClient> client() override { return std::make_unique<MongoYcsbClient>(s_, shape_); }

 private:
  const Shared& s_;
  YcsbShape shape_;
};

class MongoDBTarget final : public Target {
 public:
  ~MongoDBTarget() override { close(); }

  void open(const json& conn, const ParamValues& knobs) override {
    static std::once_flag once;
    std::call_once(once, [] { mongoc_init(); });
    std::string uri_text = jstr(conn, "uri", "");
    if (uri_text.empty()) {
      std::string env = jstr(conn, "uri_env", "ENGBENCH_MONGO_URI");
      const char* v = std::getenv(env.c_str());
      if (!v || !*v) throw EngineError("mongodb: no URI: the target's uri_env " + env + " is not set");
      uri_text = v;
    }
    shared_.uri_shown = redact_uri_text(uri_text);
    shared_.db = jstr(conn, "database", "engbench");
    bson_error_t err;
    mongoc_uri_t* uri = mongoc_uri_new_with_error(uri_text.c_str(), &err);
    if (!uri) throw EngineError("mongodb: bad URI " + shared_.uri_shown + ": " + err.message);
    shared_.pool = mongoc_client_pool_new(uri);
    mongoc_uri_destroy(uri);
    if (!shared_.pool) throw EngineError("mongodb: cannot create a client pool for " + shared_.uri_shown);
    mongoc_client_pool_set_error_api(shared_.pool, MONGOC_ERROR_API_VERSION_2);
    mongoc_client_pool_set_appname(shared_.pool, "engbench-driver");
    // write concern from the knobs
    shared_.wc = mongoc_write_concern_new();
    std::string w = knobs.count("write_concern") ? knobs.at("write_concern").get<std::string>() : "1";
    if (w == "majority") {
      mongoc_write_concern_set_w(shared_.wc, MONGOC_WRITE_CONCERN_W_MAJORITY);
    } else if (!w.empty() && w.find_first_not_of("0123456789") == std::string::npos) {
      mongoc_write_concern_set_w(shared_.wc, std::stoi(w));
    } else {
      mongoc_write_concern_set_wtag(shared_.wc, w.c_str());
    }
    std::string j = knobs.count("journal") ? knobs.at("journal").get<std::string>() : "default";
    if (j != "default") mongoc_write_concern_set_journal(shared_.wc, j == "true");
    wc_shown_ = {{"w", w}, {"j", j}};
    // reach the server now (fail fast), and learn its version
    Client c(shared_);
    BsonGuard cmd, reply;
    BSON_APPEND_INT32(&cmd, "buildInfo", 1);
    if (!mongoc_client_command_simple(c.raw(), "admin", &cmd, nullptr, &reply, &err))
      throw EngineError("mongodb: cannot reach " + shared_.uri_shown + ": " + err.message);
    bson_iter_t it;
    if (bson_iter_init_find(&it, &reply, "version") && BSON_ITER_HOLDS_UTF8(&it)) version_ = bson_iter_utf8(&it, nullptr);
    if (bson_iter_init_find(&it, &reply, "ferretdbVersion") && BSON_ITER_HOLDS_UTF8(&it))
      flavor_ = std::string("FerretDB ") + bson_iter_utf8(&it, nullptr);
  }

  json stats() override {
    if (!shared_.pool) return json::object();
    Client c(shared_);
    BsonGuard cmd, reply;
    BSON_APPEND_INT32(&cmd, "serverStatus", 1);
    bson_error_t err;
    if (!mongoc_client_command_simple(c.raw(), "admin", &cmd, nullptr, &reply, &err))
      throw EngineError(std::string("mongodb: serverStatus: ") + err.message);
    return {{"serverStatus", bson_to_json(&reply)}};
  }

  json describe() const override {
    return {{"kind", "mongodb"}, {"uri", shared_.uri_shown}, {"database", shared_.db},
            {"server_version", version_}, {"server_flavor", flavor_.empty() ? json(nullptr) : json(flavor_)},
            {"write_concern", wc_shown_}};
  }

  void close() override {
    if (shared_.pool) {
      mongoc_client_pool_destroy(shared_.pool);
      shared_.pool = nullptr;
    }
    if (shared_.wc) {
      mongoc_write_concern_destroy(shared_.wc);
      shared_.wc = nullptr;
    }
  }

  std::unique_ptr<SysbenchStore> sysbench_store() override { return std::make_unique<MongoSysbenchStore>(shared_); }
  std::unique_ptr<IibenchStore> iibench_store() override { return std::make_unique<MongoIibenchStore>(shared_); }
  std::unique_ptr<LinkbenchStore> linkbench_store() override { return std::make_unique<MongoLinkbenchStore>(shared_); }
  std::unique_ptr<YcsbStore> ycsb_store() override { return std::make_unique<MongoYcsbStore>(shared_); }

 private:
  static std::string redact_uri_text(const std::string& uri) {
    size_t scheme = uri.find("://");
    if (scheme == std::string::npos) return uri;
    size_t start = scheme + 3, end = uri.find_first_of("/?#", start);
    std::string auth = uri.substr(start, end == std::string::npos ? std::string::npos : end - start);
    size_t at = auth.rfind('@');
    if (at == std::string::npos) return uri;
    std::string ui = auth.substr(0, at);
    size_t colon = ui.find(':');
    return uri.substr(0, start) + (colon == std::string::npos ? "***" : ui.substr(0, colon) + ":***") +
           uri.substr(start + at);
  }

  Shared shared_;
  std::string version_, flavor_;
  json wc_shown_ = json::object();
};

void check_mongo_connection(const json& c, std::vector<std::string>* problems) {
  if (!c.is_object() || (!c.contains("uri") && !c.contains("uri_env")))
    problems->push_back("target: the mongodb target needs 'uri' or 'uri_env'");
}

}  // namespace

TargetInfo mongodb_target_info() {
  TargetInfo t;
  t.name = "mongodb";
  t.description = "any MongoDB-compatible server by URI (verified against FerretDB v1.24.2 only), the "
                  "KV engines' documents and indexes";
  t.library = "libmongoc";
  t.library_version = mongoc_get_version();
  t.knob_namespace = "mongodb";
  t.knobs = {
      {"write_concern", ParamType::String, std::string("1"), "w of every write: a number, 'majority' or a tag"},
      {"journal", ParamType::Enum, std::string("default"), "j of every write (default: not sent, the server's)",
       {"default", "true", "false"}},
  };
  t.workloads = {"sysbench-update", "iibench", "linkbench", "ycsb"};
  t.connection = {
      {"uri", "mongodb:// URI (one with a password: use uri_env, it would sit in the config file)"},
      {"uri_env", "environment variable holding the URI (default ENGBENCH_MONGO_URI)"},
      {"database", "database (default engbench); the workload's collections in it are dropped and recreated"},
  };
  t.check_connection = check_mongo_connection;
  t.make = [] { return std::unique_ptr<Target>(new MongoDBTarget()); };
  return t;
}

}  // namespace eb
