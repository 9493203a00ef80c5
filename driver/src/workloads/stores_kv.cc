// The workload stores (target.h) for the KV engines: the document layer (Collection), exactly as the
// workloads used it before server targets existed (same documents, same transactions).
#include <stdexcept>

#include "target.h"
#include "workloads/doc_writer.h"

namespace eb {
namespace {
using namespace wl;

// sysbench-update: sbtestN {_id, k, c, pad} with index k; a row's record id is its id.
class KvSysbenchClient final : public SysbenchClient {
 public:
  KvSysbenchClient(Engine& e, std::vector<std::unique_ptr<Collection>>& colls) : s_(e.session()), colls_(colls) {}

  void load(int table, const std::vector<SbRow>& rows) override {
    docs_.resize(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      DocWriter w(&docs_[i].bytes);
      w.i64("_id", rows[i].id);
      w.i64("k", rows[i].k);
      w.utf8("c", rows[i].c, kSbCLen);
      w.utf8("pad", rows[i].pad, kSbPadLen);
      w.finish();
    }
    colls_[table]->insert_batch(*s_, docs_);
  }

  bool update_c(int table, int64_t id, const char* c, uint64_t* br, uint64_t* bw) override {
    return colls_[table]->update(*s_, static_cast<uint64_t>(id), [&](const Doc& old) {
      Doc d = old;
      set_utf8_same_size(&d.bytes, "c", c, kSbCLen);
      return d;
    }, br, bw);
  }

  bool update_k(int table, int64_t id, int64_t* new_k, uint64_t* br, uint64_t* bw) override {
    return colls_[table]->update(*s_, static_cast<uint64_t>(id), [&](const Doc& old) {
      Doc d = old;
      *new_k = get_int(d.bytes, "k") + 1;
      set_int64(&d.bytes, "k", *new_k);
      return d;
    }, br, bw);
  }

  bool get(int table, int64_t id, int64_t* k, std::string* c) override {
    Doc back;
    if (!colls_[table]->get(*s_, static_cast<uint64_t>(id), &back)) return false;
    if (k) *k = get_int(back.bytes, "k");
    if (c) *c = get_bytes(back.bytes, "c");
    return true;
  }

 private:
  std::unique_ptr<Session> s_;
  std::vector<std::unique_ptr<Collection>>& colls_;
  std::vector<Doc> docs_;
};

class KvSysbenchStore final : public SysbenchStore {
 public:
  explicit KvSysbenchStore(Engine& e) : engine_(e) {}
  void create(const std::string& prefix, int tables) override {
    for (int t = 0; t < tables; ++t)
      colls_.push_back(std::make_unique<Collection>(engine_, prefix + std::to_string(t + 1),
                                                    std::vector<IndexDef>{{"k", {"k"}}}));
  }
  uint64_t rows(int table) override { return colls_[table]->next_id() - 1; }
  std::unique_ptr<SysbenchClient> client() override { return std::make_unique<KvSysbenchClient>(engine_, colls_); }
  int64_t live_bytes() const override {
    int64_t live = 0;
    for (auto& c : colls_) live += static_cast<int64_t>(c->live_bytes());
    return live;
  }

 private:
  Engine& engine_;
  std::vector<std::unique_ptr<Collection>> colls_;
};

// iibench: one collection with the chosen indexes; queries are index range scans.
class KvIibenchClient final : public IibenchClient {
 public:
  KvIibenchClient(Engine& e, Collection& c) : s_(e.session()), coll_(c) {}
  uint64_t insert_batch(const std::vector<Doc>& docs) override { return coll_.insert_batch(*s_, docs); }
  size_t query(int index, const std::vector<KeyValue>& start, size_t limit, bool fetch, uint64_t* br) override {
    rows_.clear();
    return coll_.index_scan(*s_, index, start, limit, fetch, &rows_, br);
  }

 private:
  std::unique_ptr<Session> s_;
  Collection& coll_;
  std::vector<IndexRow> rows_;
};

class KvIibenchStore final : public IibenchStore {
 public:
  explicit KvIibenchStore(Engine& e) : engine_(e) {}
  void create(const IibenchShape& shape) override {
    coll_ = std::make_unique<Collection>(engine_, shape.name, iibench_indexes_kv(shape.num_secondary, shape.id_index));
  }
  std::unique_ptr<IibenchClient> client() override { return std::make_unique<KvIibenchClient>(engine_, *coll_); }
  json summary_extra() const override {
    if (!coll_) return json::object();
    return {{"logical_bytes_stored", coll_->live_bytes()}, {"logical_index_key_bytes", coll_->index_key_bytes()}};
  }
  static std::vector<IndexDef> iibench_indexes_kv(int n, bool id);

 private:
  Engine& engine_;
  std::unique_ptr<Collection> coll_;
};

}  // namespace

std::vector<IndexDef> iibench_indexes(int num_secondary, bool id_index);
std::vector<IndexDef> KvIibenchStore::iibench_indexes_kv(int n, bool id) { return iibench_indexes(n, id); }

std::unique_ptr<SysbenchStore> kv_sysbench_store(Engine& engine) { return std::make_unique<KvSysbenchStore>(engine); }
std::unique_ptr<IibenchStore> kv_iibench_store(Engine& engine) { return std::make_unique<KvIibenchStore>(engine); }

}  // namespace eb
