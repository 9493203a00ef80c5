// iibench on MongoDB: collection purchases_index, indexes pc, rpc, ptc via createIndexes; insert_many
// (unordered) per batch; queries = iibench-mongodb's $or ranges with the index fields projected,
// sorted in index order, limit.
#include "targets/mongodb/mongodb.h"
#include "workloads/iibench/store.h"

namespace eb {
namespace {
using namespace mongo;

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

  void send(const std::vector<Doc>& docs, const Prepared&) override {
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
    return drain(mongoc_collection_find_with_opts(c_.coll(0, name_), &filter, &opts, nullptr), "iibench query",
                 [](const bson_t*) {});
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

}  // namespace

std::unique_ptr<IibenchStore> mongodb_iibench_store(Target& target) { return std::make_unique<MongoIibenchStore>(shared_of(target)); }

}  // namespace eb
