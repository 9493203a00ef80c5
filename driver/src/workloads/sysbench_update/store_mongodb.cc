// sysbench-update on MongoDB: collections sbtest1..N {_id, k, c, pad}, index {k: 1} named k_1; load =
// insert_many (unordered) per load_batch; updates = update_one({_id}, {$set: {c}}) and
// update_one({_id}, {$inc: {k: 1}}) (sysbench-mongodb's non-index / index updates).
#include "targets/mongodb/mongodb.h"
#include "workloads/sysbench_update/store.h"

namespace eb {
namespace {
using namespace mongo;

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
    auto read = [&](const bson_t* doc) {
      bson_iter_t it;
      if (k && bson_iter_init_find(&it, doc, "k")) *k = bson_iter_as_int64(&it);
      if (c && bson_iter_init_find(&it, doc, "c") && BSON_ITER_HOLDS_UTF8(&it)) {
        uint32_t n;
        const char* s = bson_iter_utf8(&it, &n);
        c->assign(s, n);
      }
    };
    return drain(mongoc_collection_find_with_opts(coll(table), &filter, &opts, nullptr), "find by _id", read) > 0;
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

}  // namespace

std::unique_ptr<SysbenchStore> mongodb_sysbench_store(Target& target) { return std::make_unique<MongoSysbenchStore>(shared_of(target)); }

}  // namespace eb
