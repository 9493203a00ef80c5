// bulk-insert, after the "bulk insert of tiny documents" tests (seed 002): documents holding only an
// id, inserted as unordered batches of `batch` documents by `threads` loaders, until `num`
// documents or max_seconds. id_type=int64 (the default): {_id: <int64>} over disjoint id ranges.
// id_type=objectid: {_id: ObjectId} (22 bytes, the source's avgObjSize) made as MongoDB's drivers
// make them: 4-byte big-endian seconds, 5 random bytes per loader (each loader is one client
// process, as the source's 16 mongo shells were) and a 3-byte big-endian counter starting at a
// random value, so each loader's ids increase. docs_per_txn: documents per transaction (0 = the
// whole batch in one; 1 = one commit, so one log record, per document, as MongoDB 3.0 committed
// each document of a bulk insert in its own WriteUnitOfWork). The collection (one per loader with
// collection_per_loader) has MongoDB's _id index unless id_index=false. Journal and compression are engine knobs (wiredtiger.log,
// wiredtiger.block_compressor, wiredtiger.index_block_compressor, rocksdb.wal,
// rocksdb.compression), varied by the experiment YAMLs. Summary: documents_inserted, insert rate
// (rates.insert.items_per_s) and bytes_per_document = disk.allocated_bytes / documents (data_dir
// after the engine closed).
#include <algorithm>
#include <cstring>
#include <ctime>

#include "core/rng.h"
#include "workloads/doc_writer.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace eb {
namespace {
using namespace wl;

class BulkInsert final : public Workload {
 public:
  std::vector<std::string> op_names() const override { return {"insert"}; }

  void setup(Engine& engine, const ParamValues& p, uint64_t) override {
    threads_ = static_cast<int>(p_int(p, "threads"));
    num_ = static_cast<uint64_t>(p_int(p, "num"));
    std::vector<IndexDef> ix;
    if (p_bool(p, "id_index")) ix.push_back({"_id_", {"_id"}});
    // One collection, or one per loader ("<collection>_<t>", as the source's 16 loaders each filled
    // their own collection).
    const std::string name = p_str(p, "collection");
    if (p_bool(p, "collection_per_loader")) {
      for (int t = 0; t < threads_; ++t)
        colls_.push_back(std::make_unique<Collection>(engine, name + "_" + std::to_string(t), ix));
    } else {
      colls_.push_back(std::make_unique<Collection>(engine, name, ix));
    }
    base_ = static_cast<int64_t>(colls_[0]->next_id()) - 1;  // a reopened collection continues after its rows
    oid_ = p_str(p, "id_type") == "objectid";
    DocWriter w(&tmpl_);
    const uint8_t zero[12] = {};
    if (oid_) w.oid("_id", zero);
    else w.i64("_id", 0);
    w.finish();
    if (tmpl_.size() != kIdAt + (oid_ ? 13 : 9)) throw std::logic_error("bulk-insert: unexpected document layout");
  }
  int threads() const override { return threads_; }
  uint64_t target_ops() const override { return num_; }

  void run_thread(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) override {
    if (t == 0) data_dir_ = ctx.data_dir;
    const ParamValues& p = ctx.params;
    const uint64_t batch = static_cast<uint64_t>(p_int(p, "batch"));
    const bool shuffle = p_bool(p, "shuffle_batches");
    const uint64_t per_txn = p_int(p, "docs_per_txn") > 0 ? static_cast<uint64_t>(p_int(p, "docs_per_txn")) : batch;
    // ObjectId: this loader's 5 random bytes and its counter's random start (a stream of its own,
    // so the shuffle draws stay those of int64 ids).
    Rng oid_rng(ctx.seed, 0x4F49440000ULL + static_cast<uint64_t>(t));
    const uint64_t process_random = oid_rng.next() & 0xFFFFFFFFFFULL;
    uint64_t counter = oid_rng.next() & 0xFFFFFFULL;
    const double rate = p_dbl(p, "target_rate") / threads_;
    // Disjoint ranges; with num = 0 (time-bounded) thread t takes ids t+1, t+1+T, ... in batches.
    const uint64_t lo = num_ ? num_ * t / threads_ : 0, hi = num_ ? num_ * (t + 1) / threads_ : UINT64_MAX;
    Rng rng(ctx.seed, static_cast<uint64_t>(t));
    auto s = ctx.engine->session();
    Collection& coll = *colls_[colls_.size() > 1 ? t : 0];
    std::vector<Doc> docs;
    std::vector<int64_t> ids;
    uint64_t done = 0, b = 0;
    for (uint64_t next = lo; next < hi && !ctx.should_stop(); ++b) {
      uint64_t n = std::min(batch, hi - next);
      uint64_t intended = rate > 0 ? pace(ctx.start_ns, rate, done, ctx) : 0;
      if (ctx.should_stop()) break;
      uint64_t t0 = rate > 0 ? intended : now_ns();
      ids.resize(n);
      if (oid_) {  // the 8 bytes after the timestamp: random (5) then counter (3), as one number
        for (uint64_t i = 0; i < n; ++i, counter = (counter + 1) & 0xFFFFFFULL)
          ids[i] = static_cast<int64_t>((process_random << 24) | counter);
      } else {
        for (uint64_t i = 0; i < n; ++i)
          ids[i] = base_ + 1 + static_cast<int64_t>(num_ ? next + i : (b * batch + i) * threads_ + t);
      }
      if (shuffle)  // unordered batch: the ids of one batch arrive in random order
        for (uint64_t i = n; i > 1; --i) std::swap(ids[i - 1], ids[rng.uniform(i)]);
      h.u64(0x42554C4B /* BULK */);
      h.u64(n);
      docs.resize(n);
      // The timestamp of a batch's ObjectIds: wall-clock, so not in op_stream_hash.
      const uint32_t secs = oid_ ? static_cast<uint32_t>(std::time(nullptr)) : 0;
      for (uint64_t i = 0; i < n; ++i) {
        // {_id: int64} is 18 fixed bytes, {_id: ObjectId} 22: the template (kept from the previous
        // batch: insert_batch does not change documents), then the id (the hot path at millions/s).
        std::string& b = docs[i].bytes;
        if (b.size() != tmpl_.size()) b.assign(tmpl_);
        if (oid_) {
          put_be(secs, 4, &b[kIdAt]);
          put_be(static_cast<uint64_t>(ids[i]), 8, &b[kIdAt + 4]);
        } else {
          std::memcpy(&b[kIdAt], &ids[i], 8);
        }
        h.u64(static_cast<uint64_t>(ids[i]));
      }
      uint64_t bytes = 0;
      for (uint64_t off = 0; off < n; off += per_txn)
        bytes += coll.insert_batch(*s, docs.data() + off, std::min(per_txn, n - off));
      uint64_t t1 = now_ns();
      m.record(0, (t1 - std::min(t0, t1)) / 1000, n, 0, bytes);
      done += n;
      next += n;
      inserted_.fetch_add(n, std::memory_order_relaxed);
    }
  }

  json summary_extra() const override {
    if (colls_.empty()) return json::object();
    uint64_t live = 0, keys = 0;
    for (const auto& c : colls_) {
      live += c->live_bytes();
      keys += c->index_key_bytes();
    }
    uint64_t docs = inserted_.load();
    DiskUsage du = data_dir_.empty() ? DiskUsage{} : disk_usage(data_dir_);
    return {{"logical_bytes_stored", live},
            {"logical_index_key_bytes", keys},
            {"documents_inserted", docs},
            {"bytes_per_document", docs ? static_cast<double>(du.allocated_bytes) / static_cast<double>(docs) : 0.0}};
  }

 private:
  int threads_ = 1;
  uint64_t num_ = 0;
  int64_t base_ = 0;
  std::vector<std::unique_ptr<Collection>> colls_;
  std::string data_dir_, tmpl_;
  std::atomic<uint64_t> inserted_{0};
  bool oid_ = false;
  static constexpr size_t kIdAt = 4 + 1 + 4;  // length, type byte, "_id\0"
  static void put_be(uint64_t v, int bytes, char* out) {
    for (int i = bytes - 1; i >= 0; --i, v >>= 8) out[i] = static_cast<char>(v & 0xFF);
  }

};

void check(const ParamValues& p, std::vector<std::string>* problems) {
  auto need = [&](bool ok, const std::string& msg) {
    if (!ok) problems->push_back("bad value for param " + msg);
  };
  need(p_int(p, "num") > 0 || p_dbl(p, "max_seconds") > 0, "'num'/'max_seconds': set at least one bound");
  // every loader builds its batch (a document: an id of at most 12 bytes in ~64 bytes of encoding)
  need_memory("'batch'/'threads'", 64.0 * static_cast<double>(p_int(p, "batch")) * static_cast<double>(p_int(p, "threads")),
              "the loaders' batches", problems);
}

}  // namespace

WorkloadInfo bulk_insert_info() {
  WorkloadInfo w;
  w.name = "bulk-insert";
  w.description = "unordered batch inserts of tiny documents {_id: int64 | ObjectId} (journal/compression via engine knobs)";
  w.params = {
      {"num", ParamType::Int, int64_t{1000000}, "documents to insert (0 = until max_seconds)", at_least(0)},
      {"batch", ParamType::Int, int64_t{1000}, "documents per insert request (one transaction)", in_range(1, kMaxBatch)},
      {"threads", ParamType::Int, int64_t{1}, "loader threads (disjoint id ranges)", in_range(1, kMaxThreads)},
      {"id_index", ParamType::Bool, true, "keep MongoDB's _id index"},
      {"shuffle_batches", ParamType::Bool, false, "insert each batch's ids in random order"},
      {"id_type", ParamType::Enum, std::string("int64"),
       "int64: {_id: int64} over disjoint ranges; objectid: {_id: ObjectId} as MongoDB's drivers make them "
       "(time, per-loader random, counter)",
       {"int64", "objectid"}},
      {"docs_per_txn", ParamType::Int, int64_t{0},
       "documents per transaction (commit) within a batch; 0 = the whole batch (1 = MongoDB 3.0's commit per document)",
       in_range(0, kMaxBatch)},
      {"collection", ParamType::Name, std::string("bulk"), "collection name"},
      {"collection_per_loader", ParamType::Bool, false,
       "each loader fills its own collection <collection>_<t> (the source's 16 loaders, 16 collections)"},
  };
  for (auto& c : common_params()) w.params.push_back(c);
  w.check = check;
  w.make = [] { return std::unique_ptr<Workload>(new BulkInsert()); };
  return w;
}

}  // namespace eb
