// The iibench store for the KV engines: the document layer (Collection), exactly as the workload used
// it before server targets existed (same documents, same transactions).

#include "workloads/doc_writer.h"
#include "workloads/kv_store_util.h"
#include "workloads/iibench/store.h"
#include "workloads/workload.h"

namespace eb {
namespace {
using namespace wl;

// iibench: one collection with the chosen indexes; queries are index range scans.
class KvIibenchClient final : public IibenchClient {
 public:
  KvIibenchClient(Engine& e, Collection& c) : s_(e.session()), coll_(c) {}
  void send(const std::vector<Doc>& docs, const Prepared&) override { coll_.insert_batch(*s_, docs); }
  size_t query(int index, const std::vector<KeyValue>& start, size_t limit, bool fetch) override {
    rows_.clear();
    return coll_.index_scan(*s_, index, start, limit, fetch, &rows_);
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
    coll_ = std::make_unique<Collection>(engine_, shape.name, iibench_indexes(shape.num_secondary, shape.id_index, shape.variant));
  }
  std::unique_ptr<IibenchClient> client() override { return std::make_unique<KvIibenchClient>(engine_, *coll_); }
  json summary_extra() const override {
    if (!coll_) return json::object();
    return {{"logical_index_key_bytes", coll_->index_key_bytes()}};
  }

 private:
  Engine& engine_;
  std::unique_ptr<Collection> coll_;
};

}  // namespace

std::unique_ptr<IibenchStore> kv_iibench_store(Engine& engine) { return std::make_unique<KvIibenchStore>(engine); }

}  // namespace eb
