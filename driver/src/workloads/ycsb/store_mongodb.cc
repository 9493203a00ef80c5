// ycsb on MongoDB.
#include "targets/mongodb/mongodb.h"
#include "workloads/ycsb/store.h"

namespace eb {
namespace {
using namespace mongo;

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
    out->clear();
    drain(mongoc_collection_find_with_opts(coll(), filter, &opts, nullptr), "find in " + shape_.table,
          [&](const bson_t* doc) { out->push_back(to_record(doc, field_no)); });
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

}  // namespace

std::unique_ptr<YcsbStore> mongodb_ycsb_store(Target& target) { return std::make_unique<MongoYcsbStore>(shared_of(target)); }

}  // namespace eb
