// The iibench store for the KV engines: the document layer (Collection), exactly as the workload used
// it before server targets existed (same documents, same transactions).

#include <algorithm>

#include "workloads/doc_writer.h"
#include "workloads/kv_store_util.h"
#include "workloads/iibench/store.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace eb {
namespace {
using namespace wl;

// iibench: one collection with the chosen indexes; queries are index range scans.
class KvIibenchClient final : public IibenchClient {
 public:
  KvIibenchClient(Engine& e, Collection& c, size_t per_txn) : s_(e.session()), coll_(c), per_txn_(per_txn) {}
  // One transaction per request, or per group of per_txn_ documents of it (docs_per_txn).
  void send(const std::vector<Doc>& docs, const Prepared&) override {
    const size_t step = per_txn_ == 0 ? docs.size() : per_txn_;
    for (size_t i = 0; i < docs.size(); i += step) coll_.insert_batch(*s_, docs.data() + i, std::min(step, docs.size() - i));
  }
  size_t query(int index, const std::vector<KeyValue>& start, size_t limit, bool fetch) override {
    rows_.clear();
    return coll_.index_scan(*s_, index, start, limit, fetch, &rows_);
  }

 private:
  std::unique_ptr<Session> s_;
  Collection& coll_;
  const size_t per_txn_;
  std::vector<IndexRow> rows_;
};

class KvIibenchStore final : public IibenchStore {
 public:
  explicit KvIibenchStore(Engine& e) : engine_(e) {}
  void create(const IibenchShape& shape) override {
    coll_ = std::make_unique<Collection>(engine_, shape.name, iibench_indexes(shape.num_secondary, shape.id_index, shape.variant));
    per_txn_ = static_cast<size_t>(shape.docs_per_txn);
  }
  std::unique_ptr<IibenchClient> client() override { return std::make_unique<KvIibenchClient>(engine_, *coll_, per_txn_); }
  json summary_extra() const override {
    if (!coll_) return json::object();
    return {{"logical_index_key_bytes", coll_->index_key_bytes()}};
  }

 private:
  Engine& engine_;
  std::unique_ptr<Collection> coll_;
  size_t per_txn_ = 0;
};

}  // namespace

std::unique_ptr<IibenchStore> kv_iibench_store(Engine& engine) { return std::make_unique<KvIibenchStore>(engine); }

}  // namespace eb
