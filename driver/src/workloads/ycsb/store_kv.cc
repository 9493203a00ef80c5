// The YCSB store for the KV engines: usertable is a document-layer Collection (record table of BSON
// documents {_id, field0..} plus the index "_id"), so a read is an index lookup and a record fetch,
// a scan an index range scan fetching each record, an update a lookup and an in-place rewrite of
// the record (fields keep their length), as MongoDB does on WiredTiger.
#include <bson/bson.h>

#include <stdexcept>

#include "core/collection.h"
#include "workloads/doc_writer.h"
#include "workloads/ycsb/store.h"

namespace eb {
namespace {
using namespace wl;

std::string field_name(int i) { return "field" + std::to_string(i); }

// The fields of a stored document into out->fields (all, or the one numbered `field`).
void project(const std::string& doc, const std::vector<std::string>& names, int field, YcsbRecord* out) {
  out->fields.clear();
  if (field >= 0) {
    out->fields.push_back(get_bytes(doc, names[static_cast<size_t>(field)].c_str()));
    return;
  }
  for (const auto& n : names) out->fields.push_back(get_bytes(doc, n.c_str()));
}

class KvYcsbClient final : public YcsbClient {
 public:
  KvYcsbClient(Engine& e, Collection& c, const std::vector<std::string>& names)
      : s_(e.session()), coll_(c), names_(names) {}

  void insert(const std::vector<YcsbRecord>& records) override {
    docs_.resize(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
      DocWriter w(&docs_[i].bytes);
      w.utf8("_id", records[i].key.data(), records[i].key.size());
      for (size_t f = 0; f < records[i].fields.size(); ++f)
        w.utf8(names_[f].c_str(), records[i].fields[f].data(), records[i].fields[f].size());
      w.finish();
    }
    coll_.insert_batch(*s_, docs_);
  }

  bool read(const std::string& key, int field, YcsbRecord* out) override {
    if (!lookup(key, true)) return false;
    out->key = key;
    project(rows_[0].doc, names_, field, out);
    return true;
  }

  size_t scan(const std::string& start, size_t count, int field, std::vector<YcsbRecord>* out) override {
    rows_.clear();
    key_[0].s.assign(start);
    size_t n = coll_.index_scan(*s_, 0, key_, count, true, &rows_);
    out->resize(n);
    for (size_t i = 0; i < n; ++i) {
      (*out)[i].key = get_bytes(rows_[i].doc, "_id");
      project(rows_[i].doc, names_, field, &(*out)[i]);
    }
    return n;
  }

  bool update(const std::string& key, const std::vector<std::pair<int, std::string>>& values) override {
    if (!lookup(key, false)) return false;
    return coll_.update(*s_, rows_[0].record_id, [&](const Doc& old) {
      Doc d = old;
      for (const auto& [f, v] : values)
        set_utf8_same_size(&d.bytes, names_[static_cast<size_t>(f)].c_str(), v.data(), v.size());
      return d;
    });
  }

 private:
  bool lookup(const std::string& key, bool fetch) {
    rows_.clear();
    key_[0].s.assign(key);
    return coll_.index_scan_prefix(*s_, 0, key_, 1, fetch, &rows_) == 1;
  }

  std::unique_ptr<Session> s_;
  Collection& coll_;
  const std::vector<std::string>& names_;
  std::vector<Doc> docs_;
  std::vector<IndexRow> rows_;
  std::vector<KeyValue> key_ = {KeyValue::Str("")};  // the _id looked up (reused)
};

class KvYcsbStore final : public YcsbStore {
 public:
  explicit KvYcsbStore(Engine& e) : engine_(e) {}
  void create(const YcsbShape& shape) override {
    coll_ = std::make_unique<Collection>(engine_, shape.table, std::vector<IndexDef>{{"_id", {"_id"}}});
    if (coll_->next_id() != 1)
      throw std::runtime_error(shape.table + " already holds records; use a fresh data_dir");
    for (int i = 0; i < shape.fieldcount; ++i) names_.push_back(field_name(i));
  }
  std::unique_ptr<YcsbClient> client() override { return std::make_unique<KvYcsbClient>(engine_, *coll_, names_); }
  json summary_extra() const override {
    if (!coll_) return json::object();
    return {{"logical_index_key_bytes", coll_->index_key_bytes()}};
  }

 private:
  Engine& engine_;
  std::unique_ptr<Collection> coll_;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<YcsbStore> kv_ycsb_store(Engine& engine) { return std::make_unique<KvYcsbStore>(engine); }

}  // namespace eb
