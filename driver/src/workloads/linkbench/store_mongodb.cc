// linkbench on MongoDB.
#include "targets/mongodb/mongodb.h"
#include "workloads/linkbench/store.h"

namespace eb {
namespace {
using namespace mongo;

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
    return drain(mongoc_collection_find_with_opts(coll, filter, opts, nullptr), "find", fn);
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

}  // namespace

std::unique_ptr<LinkbenchStore> mongodb_linkbench_store(Target& target) { return std::make_unique<MongoLinkbenchStore>(shared_of(target)); }

}  // namespace eb
