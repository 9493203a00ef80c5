// The sysbench-update store for the KV engines: the document layer (Collection), exactly as the workload used
// it before server targets existed (same documents, same transactions).

#include "workloads/doc_writer.h"
#include "workloads/kv_store_util.h"
#include "workloads/sysbench_update/store.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

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

  bool update_c(int table, int64_t id, const char* c) override {
    return colls_[table]->update(*s_, static_cast<uint64_t>(id), [&](const Doc& old) {
      Doc d = old;
      set_utf8_same_size(&d.bytes, "c", c, kSbCLen);
      return d;
    });
  }

  bool update_k(int table, int64_t id, int64_t* new_k) override {
    return colls_[table]->update(*s_, static_cast<uint64_t>(id), [&](const Doc& old) {
      Doc d = old;
      *new_k = get_int(d.bytes, "k") + 1;
      set_int64(&d.bytes, "k", *new_k);
      return d;
    });
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
  json summary_extra() const override { return index_key_bytes(colls_); }

 private:
  Engine& engine_;
  std::vector<std::unique_ptr<Collection>> colls_;
};

}  // namespace

std::unique_ptr<SysbenchStore> kv_sysbench_store(Engine& engine) { return std::make_unique<KvSysbenchStore>(engine); }

}  // namespace eb
