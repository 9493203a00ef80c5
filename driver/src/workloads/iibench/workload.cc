// iibench, after iibench-mongodb (tmcallaghan/iibench-mongodb jmongoiibench.java; see
// ../shared/reference/workloads-and-metrics.md §4.1): loader threads insert batches of
// purchase documents into a collection with 0–3 secondary indexes (plus MongoDB's _id index), and
// optional query threads run the three range queries round robin as index range scans.
// Two variants (param `variant`): "mongodb" (the default, the source documents' iibench-mongodb:
// ms timestamps per document, DOUBLE price continuous in customerid, ObjectId _id, indexes pc, rpc,
// ptc) and "iibench-py" (mdcallag/mytools bench/ibench/iibench.py, MySQL mode: one second-resolution
// timestamp per batch, INT price in [0, 500), a `data` column of 10 characters ('a's then 3
// base64 characters), no _id (transactionid is the key), indexes marketsegment (productid,
// customerid, price), registersegment (cashregisterid, customerid, price), pdc (price, dateandtime,
// customerid); its queries `col >= x ORDER BY <index columns> LIMIT n` on the first column).
#include <bson/bson.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "core/collection.h"
#include "core/rng.h"
#include "workloads/ahead.h"
#include "workloads/doc_writer.h"
#include "workloads/iibench/store.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace eb {
namespace {

constexpr size_t kCharBuffer = 4u << 20;  // 4 MiB of random lowercase letters

// BSON written straight into reused strings (the generator's hot path; libbson's bson_t would
// grow, copy and then be copied again into the batch), and the typed parameter accessors.
using wl::BsonSize;
using wl::DocWriter;
using wl::p_bool;
using wl::p_dbl;
using wl::p_int;
using wl::p_str;

constexpr const char* kPy = "iibench-py";

// Logical bytes (docs/driver.md "Logical bytes"): an insert writes its documents (their BSON, the
// canonical encoding, whatever a target stores: MariaDB keeps no _id); a query reads, per row
// returned, the index's fields {price, customerid, ...} (covered) or the whole document (fetch).
// Every document of a run has the same size, so both follow from the params.
uint64_t document_bytes(const ParamValues& p) {
  if (p_str(p, "variant") == kPy)
    return BsonSize().i64("dateandtime").i32("cashregisterid").i32("customerid").i32("productid").i32("price")
        .utf8("data", static_cast<size_t>(p_int(p, "data_length"))).bytes();
  BsonSize b;
  if (p_bool(p, "id_index")) b.oid("_id");
  b.i64("dateandtime").i32("cashregisterid").i32("customerid").i32("productid").dbl("price");
  const int64_t ncf = p_int(p, "num_char_fields");
  for (int64_t i = 1; i <= ncf; ++i) b.utf8(("cf" + std::to_string(i)).c_str(), static_cast<size_t>(p_int(p, "length_char_fields")));
  return b.bytes();
}
uint64_t index_row_bytes(int index, bool py) {
  if (py && index == 0) return BsonSize().i32("productid").i32("customerid").i32("price").bytes();
  if (py && index == 1) return BsonSize().i32("cashregisterid").i32("customerid").i32("price").bytes();
  if (py) return BsonSize().i32("price").i64("dateandtime").i32("customerid").bytes();
  if (index == 0) return BsonSize().dbl("price").i32("customerid").bytes();
  if (index == 1) return BsonSize().i32("cashregisterid").dbl("price").i32("customerid").bytes();
  return BsonSize().dbl("price").i64("dateandtime").i32("customerid").bytes();
}

class IIBench final : public Workload {
 public:
  std::vector<std::string> op_names() const override { return {"insert", "query"}; }

  void setup(Engine& engine, const ParamValues& p, uint64_t seed) override {
    loaders_ = static_cast<int>(p_int(p, "loader_threads"));
    queriers_ = static_cast<int>(p_int(p, "query_threads"));
    max_rows_ = static_cast<uint64_t>(p_int(p, "max_rows"));
    nsec_ = static_cast<int>(p_int(p, "num_secondary_indexes"));
    store_ = iibench_stores().kv(engine);
    ahead_ = p_str(p, "generate_ahead") == "always";  // the loader thread is the engine's writer
    setup_store(p, seed);
  }

  void setup_target(Target& target, const ParamValues& p, uint64_t seed) override {
    loaders_ = static_cast<int>(p_int(p, "loader_threads"));
    queriers_ = static_cast<int>(p_int(p, "query_threads"));
    max_rows_ = static_cast<uint64_t>(p_int(p, "max_rows"));
    nsec_ = static_cast<int>(p_int(p, "num_secondary_indexes"));
    store_ = iibench_stores().for_target(target);
    if (!store_) throw std::runtime_error("iibench does not run on this target");
    ahead_ = p_str(p, "generate_ahead") != "never";  // the server works while the next batch is made
    setup_store(p, seed);
  }

  void setup_store(const ParamValues& p, uint64_t seed) {
    py_ = p_str(p, "variant") == kPy;
    IibenchShape shape;
    shape.name = p.at("collection").get<std::string>();
    shape.variant = p_str(p, "variant");
    shape.num_secondary = nsec_;
    shape.id_index = !py_ && p_bool(p, "id_index");
    shape.num_char_fields = static_cast<int>(p_int(p, "num_char_fields"));
    shape.length_char_fields = static_cast<int>(p_int(p, "length_char_fields"));
    shape.docs_per_txn = static_cast<int>(p_int(p, "docs_per_txn"));
    shape.bulk_load = py_ && p_bool(p, "bulk_load");
    store_->create(shape);
    doc_bytes_ = document_bytes(p);
    Rng r(seed, 0xC4A5);
    chars_.resize(kCharBuffer);
    static const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (auto& c : chars_) c = py_ ? kB64[r.uniform(64)] : static_cast<char>('a' + r.uniform(26));
    running_loaders_ = loaders_;
  }

  int threads() const override { return loaders_ + queriers_; }
  bool thread_is_deterministic(int t) const override { return t < loaders_; }
  uint64_t target_ops() const override { return max_rows_; }

  void run_thread(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) override {
    if (t < loaders_) {
      std::unique_ptr<IibenchClient> client = store_->client();
      try {
        load(t, ctx, m, h, *client);
      } catch (...) {
        running_loaders_.fetch_sub(1);
        throw;
      }
      running_loaders_.fetch_sub(1);
      client->finish();
    } else {
      query(t - loaders_, ctx, m, h);
    }
  }

  json summary_extra() const override {
    if (!store_) return json::object();
    json j = store_->summary_extra();
    j["variant"] = py_ ? kPy : "mongodb";
    j["documents_inserted"] = inserted_.load();
    j["logical_bytes_stored"] = inserted_.load() * doc_bytes_;
    return j;
  }

  const std::string& char_buffer() const { return chars_; }

 private:
  // What a loader's documents are made of (variant mongodb), and its ObjectId state.
  struct LoadShape {
    bool with_id = true;
    int ncf = 0;
    size_t len = 0, rand_len = 0, data_len = 0;
    std::vector<std::string> cf_names;
    uint8_t oid_mid[5];
    uint32_t oid_counter = 0;
  };

  LoadShape load_shape(const ParamValues& p, Rng& rng) const {
    LoadShape sh;
    sh.ncf = static_cast<int>(p_int(p, "num_char_fields"));
    sh.len = static_cast<size_t>(p_int(p, "length_char_fields"));
    sh.rand_len = sh.len * static_cast<size_t>(100 - p_int(p, "percent_compressible")) / 100;
    sh.with_id = p_bool(p, "id_index");
    sh.data_len = static_cast<size_t>(p_int(p, "data_length"));
    // ObjectId: 4-byte time, 5 bytes per-thread random, 3-byte counter (as MongoDB drivers make them).
    for (auto& b : sh.oid_mid) b = static_cast<uint8_t>(rng.next());
    sh.oid_counter = static_cast<uint32_t>(rng.next() & 0xFFFFFF);
    for (int i = 1; i <= sh.ncf; ++i) sh.cf_names.push_back("cf" + std::to_string(i));
    return sh;
  }

  // A loader's batch: its documents, what the store prepared of them (the SQL text), and the
  // loader's op hash once the batch is in it.
  struct LoadBatch {
    std::vector<Doc> docs;
    IibenchClient::Prepared prepared;
    OpHasher hash;
  };

  // Batches of `batch` documents until this loader's share of max_rows (or a stop). Generating a
  // batch (documents, op hash) and preparing it (the store's statement) is `make`; sending it and
  // recording it is `sent`. generate_ahead (server targets by default): `make` runs on a helper
  // thread one batch ahead while the loader sends the current one (wl::Ahead), as iibench.py's
  // generator process does; the same batches are made in the same order from the same Rng, so the
  // documents, the statements and the op hash are those of the sequential loop (the loader's hash
  // takes each batch's value when that batch is sent: a batch made but never sent, at a stop, is
  // not in it). Latency: sequential, from before the batch is made (as before generate_ahead
  // existed); ahead, from the send, the batch being ready.
  void load(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h, IibenchClient& client) {
    const ParamValues& p = ctx.params;
    uint64_t rows = max_rows_ == 0 ? UINT64_MAX
                                   : max_rows_ / loaders_ + (static_cast<uint64_t>(t) < max_rows_ % loaders_ ? 1 : 0);
    const uint64_t batch = static_cast<uint64_t>(p_int(p, "batch"));
    const double rate = p_dbl(p, "target_rate") / loaders_;
    Rng rng(ctx.seed, static_cast<uint64_t>(t));
    LoadShape sh = load_shape(p, rng);
    OpHasher made_hash = h;
    uint64_t made = 0, done = 0;
    auto make = [&](LoadBatch& b) {
      const uint64_t n = std::min(batch, rows - made);
      made_hash.u64(0x494E53 /* INS */);
      made_hash.u64(n);
      b.docs.resize(n);
      const int64_t now_ms = unix_now_ms();
      for (uint64_t i = 0; i < n; ++i) {
        if (py_) py_document(&b.docs[i].bytes, rng, made_hash, now_ms / 1000 * 1000, sh.data_len);
        else purchase_document(&b.docs[i].bytes, rng, made_hash, now_ms, &sh);
      }
      client.prepare(b.docs, &b.prepared);
      b.hash = made_hash;
      made += n;
    };
    auto sent = [&](LoadBatch& b, uint64_t t0) {
      client.send(b.docs, b.prepared);
      uint64_t t1 = now_ns();
      const uint64_t n = b.docs.size();
      m.record(0, (t1 - std::min(t0, t1)) / 1000, n, 0, n * doc_bytes_);
      h = b.hash;
      done += n;
      inserted_.fetch_add(n, std::memory_order_relaxed);
    };
    if (!ahead_) {
      LoadBatch b;
      while (done < rows && !ctx.should_stop()) {
        uint64_t intended = rate > 0 ? pace(ctx.start_ns, rate, done, ctx) : 0;
        if (ctx.should_stop()) break;
        uint64_t t0 = rate > 0 ? intended : now_ns();
        make(b);
        sent(b, t0);
      }
      return;
    }
    wl::Ahead<LoadBatch> ahead([&](LoadBatch& b) {
      if (made >= rows || ctx.should_stop()) return false;
      make(b);
      return true;
    });
    while (LoadBatch* b = ahead.next()) {
      uint64_t intended = rate > 0 ? pace(ctx.start_ns, rate, done, ctx) : 0;
      if (ctx.should_stop()) break;
      sent(*b, rate > 0 ? intended : now_ns());
      ahead.done();
    }
  }

  // iibench-mongodb's purchase document {_id?, dateandtime, cashregisterid, customerid, productid,
  // price, cf1..}.
  void purchase_document(std::string* out, Rng& rng, OpHasher& h, int64_t now_ms, LoadShape* sh) const {
    DocWriter w(out);
    if (sh->with_id) {
      const uint32_t now_s = static_cast<uint32_t>(now_ms / 1000);
      uint8_t oid[12];
      uint32_t c = sh->oid_counter++ & 0xFFFFFF;
      oid[0] = static_cast<uint8_t>(now_s >> 24);
      oid[1] = static_cast<uint8_t>(now_s >> 16);
      oid[2] = static_cast<uint8_t>(now_s >> 8);
      oid[3] = static_cast<uint8_t>(now_s);
      std::copy(sh->oid_mid, sh->oid_mid + 5, oid + 4);
      oid[9] = static_cast<uint8_t>(c >> 16);
      oid[10] = static_cast<uint8_t>(c >> 8);
      oid[11] = static_cast<uint8_t>(c);
      w.oid("_id", oid);
      h.bytes(oid + 4, 8);  // the time part is wall clock: not hashed
    }
    // dateandtime: client wall-clock ms as a long, like System.currentTimeMillis() (not hashed).
    w.i64("dateandtime", now_ms);
    int32_t cashregisterid = static_cast<int32_t>(rng.uniform(1000));
    int32_t customerid = static_cast<int32_t>(rng.uniform(100000));
    int32_t productid = static_cast<int32_t>(rng.uniform(10000));
    double price = (rng.uniform01() * 500.0 + customerid) / 100.0;
    w.i32("cashregisterid", cashregisterid);
    w.i32("customerid", customerid);
    w.i32("productid", productid);
    w.dbl("price", price);
    h.u64(static_cast<uint64_t>(cashregisterid));
    h.u64(static_cast<uint64_t>(customerid));
    h.u64(static_cast<uint64_t>(productid));
    h.f64(price);
    for (int f = 0; f < sh->ncf; ++f) {
      // (100 - percent_compressible)% random letters from the buffer, then 'a's.
      size_t off = static_cast<size_t>(rng.uniform(kCharBuffer - sh->rand_len + 1));
      const char* str = w.utf8_two_parts(sh->cf_names[f], chars_.data() + off, sh->rand_len, 'a', sh->len - sh->rand_len);
      h.bytes(str, sh->len);
    }
    w.finish();
    if (out->size() != doc_bytes_) throw std::logic_error("iibench: a document's size differs from the logical size");
  }

  // iibench.py's row: one timestamp per batch (seconds), uniform ids, INT price in [0, 500), data =
  // 'a's then int(len * 0.75 * 50%) base64 characters (its data_random_pct 50).
  void py_document(std::string* out, Rng& rng, OpHasher& h, int64_t when_ms, size_t len) const {
    DocWriter w(out);
    w.i64("dateandtime", when_ms);
    int32_t v[4] = {static_cast<int32_t>(rng.uniform(1000)), static_cast<int32_t>(rng.uniform(100000)),
                    static_cast<int32_t>(rng.uniform(10000)), static_cast<int32_t>(rng.uniform(500))};
    const char* names[4] = {"cashregisterid", "customerid", "productid", "price"};
    for (int k = 0; k < 4; ++k) {
      w.i32(names[k], v[k]);
      h.u64(static_cast<uint64_t>(v[k]));
    }
    const size_t rand_len = static_cast<size_t>(static_cast<double>(len) * 0.75 * 0.5);
    std::string data(len - rand_len, 'a');
    data.append(chars_, static_cast<size_t>(rng.uniform(kCharBuffer - rand_len + 1)), rand_len);
    w.utf8("data", data.data(), data.size());
    h.str(data);
    w.finish();
    if (out->size() != doc_bytes_) throw std::logic_error("iibench: a document's size differs from the logical size");
  }

  void query(int q, RunContext& ctx, ThreadMetrics& m, OpHasher& h) {
    const ParamValues& p = ctx.params;
    const uint64_t begin_docs = static_cast<uint64_t>(p_int(p, "query_begin_docs"));
    const size_t limit = static_cast<size_t>(p_int(p, "query_limit"));
    const bool fetch = p_bool(p, "query_fetch");
    const double rate = p_dbl(p, "queries_per_second") / queriers_;
    Rng rng(ctx.seed, 0x51000000ULL + static_cast<uint64_t>(q));
    // Round robin 1 → 2 → 3 over the queries whose index exists: query 1 needs index 3 (p,t,c),
    // query 2 index 1 (p,c), query 3 index 2 (r,p,c) — indexes counted 1-based as created.
    static constexpr int kIndexNeeded[4] = {0, 3, 1, 2};
    std::vector<int> order;
    for (int which : {1, 2, 3})
      if (kIndexNeeded[which] <= nsec_) order.push_back(which);
    if (order.empty()) return;  // no secondary index: nothing to query
    auto client = store_->client();
    while (!ctx.should_stop() && running_loaders_.load() > 0 && inserted_.load() < begin_docs)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const int64_t start_ms = static_cast<int64_t>(ctx.start_unix_s * 1000);
    const uint64_t qstart = now_ns();
    for (uint64_t i = 0; !ctx.should_stop() && running_loaders_.load() > 0; ++i) {
      // A throttled query thread waiting for its next slot stops as soon as the loaders are done.
      uint64_t intended = rate > 0 ? pace(qstart, rate, i, ctx, [this] { return running_loaders_.load() == 0; }) : 0;
      if (ctx.should_stop() || running_loaders_.load() == 0) break;
      uint64_t t0 = rate > 0 ? intended : now_ns();
      int which = order[i % order.size()];
      int64_t c = static_cast<int64_t>(rng.uniform(100000));
      double price = (rng.uniform01() * 500.0 + static_cast<double>(c)) / 100.0;
      int64_t r = static_cast<int64_t>(rng.uniform(1000));
      int64_t now_ms = unix_now_ms();
      int64_t t = start_ms + static_cast<int64_t>(rng.uniform(static_cast<uint64_t>(std::max<int64_t>(1, now_ms - start_ms + 1))));
      h.u64(0x515259 /* QRY */);
      h.u64(static_cast<uint64_t>(which));
      h.u64(static_cast<uint64_t>(c));
      h.f64(price);
      h.u64(static_cast<uint64_t>(r));
      std::vector<KeyValue> start;
      if (py_) start = {KeyValue::Int(which == 1 ? static_cast<int64_t>(rng.uniform(500))
                                                 : static_cast<int64_t>(rng.uniform(which == 2 ? 10000 : 1000)))};
      else if (which == 1) start = {KeyValue::Double(price), KeyValue::Int(t), KeyValue::Int(c)};
      else if (which == 2) start = {KeyValue::Double(price), KeyValue::Int(c)};
      else start = {KeyValue::Int(r), KeyValue::Double(price), KeyValue::Int(c)};
      int index = which == 1 ? 2 : (which == 2 ? 0 : 1);
      size_t n = client->query(index, start, limit, fetch);
      uint64_t t1 = now_ns();
      m.record(1, (t1 - std::min(t0, t1)) / 1000, n, n * (fetch ? doc_bytes_ : index_row_bytes(index, py_)), 0);
    }
  }

  int loaders_ = 1, queriers_ = 0, nsec_ = 0;
  bool py_ = false, ahead_ = false;
  uint64_t max_rows_ = 0, doc_bytes_ = 0;
  std::unique_ptr<IibenchStore> store_;
  std::string chars_;
  std::atomic<int> running_loaders_{0};
  std::atomic<uint64_t> inserted_{0};
};

// MariaDB 10.11's MyRocks cannot end a bulk load on a table that another session read or wrote
// while it ran: "Rows inserted during bulk load must not overlap existing rows", and the loaded
// rows are gone (measured 2026-11-26 by hand: 5 of 5 loads of 5,000 rows with a reader on the same
// table, none with a reader on another table or with no reader; and one of two loaders of a table
// in the driver). iibench.py gives each loader process its own table; its default (--bulk_load=1
// with query processes) would lose its rows the same way, silently.
void check_backend(const std::string& backend, const ParamValues& p, std::vector<std::string>* problems) {
  if (backend == "mariadb-myrocks" && p_str(p, "variant") == kPy && p_bool(p, "bulk_load") &&
      (p_int(p, "query_threads") > 0 || p_int(p, "loader_threads") > 1))
    problems->push_back("bad value for param 'bulk_load': on mariadb-myrocks a bulk load cannot end after another "
                        "session read or wrote its table (MyRocks refuses it and the rows are lost); with "
                        "query_threads > 0 or loader_threads > 1 set bulk_load=false");
}

void check(const ParamValues& p, std::vector<std::string>* problems) {
  auto need = [&](bool ok, const std::string& msg) {
    if (!ok) problems->push_back("bad value for param " + msg);
  };
  need(!(p_int(p, "query_threads") > 0 && p_int(p, "num_secondary_indexes") == 0),
       "'query_threads': query threads need num_secondary_indexes >= 1 (the queries use them)");
  need(p_int(p, "max_rows") > 0 || p_dbl(p, "max_seconds") > 0,
       "'max_rows'/'max_seconds': set at least one bound");
  // every loader builds its batch of documents (each ~ its string fields plus 100 bytes of numbers)
  double doc = static_cast<double>(p_int(p, "num_char_fields")) * static_cast<double>(p_int(p, "length_char_fields")) + 100;
  need_memory("'batch'/'loader_threads'/'num_char_fields'/'length_char_fields'",
              doc * static_cast<double>(p_int(p, "batch")) * static_cast<double>(p_int(p, "loader_threads")),
              "the loaders' batches of documents", problems);
}

}  // namespace

const std::vector<IndexDef>& iibench_secondary_indexes(const std::string& variant) {
  static const std::vector<IndexDef> mongodb = {
      {"pc", {"price", "customerid"}},
      {"rpc", {"cashregisterid", "price", "customerid"}},
      {"ptc", {"price", "dateandtime", "customerid"}},
  };
  static const std::vector<IndexDef> py = {
      {"marketsegment", {"productid", "customerid", "price"}},
      {"registersegment", {"cashregisterid", "customerid", "price"}},
      {"pdc", {"price", "dateandtime", "customerid"}},
  };
  return variant == kPy ? py : mongodb;
}

std::vector<IndexDef> iibench_indexes(int num_secondary, bool id_index, const std::string& variant) {
  const auto& sec = iibench_secondary_indexes(variant);
  std::vector<IndexDef> idx(sec.begin(), sec.begin() + num_secondary);
  if (id_index) idx.push_back({"_id_", {"_id"}});
  return idx;
}

WorkloadInfo iibench_info() {
  WorkloadInfo w;
  w.name = "iibench";
  w.description = "iibench-mongodb: batched inserts of purchase documents with 0-3 secondary indexes, "
                  "optional range-query threads";
  w.params = {
      {"variant", ParamType::Enum, std::string("mongodb"),
       "mongodb (iibench-mongodb, the source documents') or iibench-py (mytools bench/ibench/iibench.py's MySQL schema, "
       "indexes and values; id_index, num_char_fields, length_char_fields, percent_compressible do not apply)",
       {"mongodb", kPy}},
      {"data_length", ParamType::Int, int64_t{10}, "variant iibench-py: characters of `data` (iibench.py's data_length_min = max)",
       in_range(0, 4000), "characters"},
      {"bulk_load", ParamType::Bool, true,
       "variant iibench-py on mariadb-myrocks: each loader's connection sets rocksdb_bulk_load=1 before its first INSERT, "
       "as iibench.py does on RocksDB by default (--bulk_load=1): the primary key's rows go straight to SST files, "
       "written and visible when the loader ends it; refused with query_threads > 0 or loader_threads > 1 (MyRocks "
       "cannot end a bulk load on a table other sessions used); no effect on other variants, engines and targets"},
      {"max_rows", ParamType::Int, int64_t{100000000}, "documents to insert in total (split evenly across loader threads)",
       at_least(0)},
      {"loader_threads", ParamType::Int, int64_t{1}, "inserting threads", in_range(1, kMaxThreads)},
      {"batch", ParamType::Int, int64_t{1000}, "documents per insert request", in_range(1, kMaxBatch)},
      {"docs_per_txn", ParamType::Int, int64_t{0},
       "documents per transaction within a request: 0 = the whole batch in one; 1 = each document on its own, "
       "as MongoDB commits the documents of an insert (KV engines; MariaDB: one INSERT per group; MongoDB: no effect)",
       in_range(0, kMaxBatch)},
      {"generate_ahead", ParamType::Enum, std::string("server"),
       "server: on a server target each loader makes its next batch (documents and statement) on a helper thread "
       "while the current one is in flight, as iibench.py's generator process does; always: on embedded engines too "
       "(a second thread beside the engine's writer); never: make, then send. Same documents, statements and op "
       "stream either way",
       {"server", "always", "never"}},
      {"num_secondary_indexes", ParamType::Int, int64_t{3}, "0-3: {price,customerid}, {cashregisterid,price,customerid}, {price,dateandtime,customerid}",
       in_range(0, 3)},
      {"id_index", ParamType::Bool, true, "documents get an ObjectId _id with its own index, as in MongoDB"},
      {"num_char_fields", ParamType::Int, int64_t{1}, "string fields cf1..cfN per document", in_range(0, kMaxFields)},
      {"length_char_fields", ParamType::Int, int64_t{1000}, "characters per string field", in_range(0, 1 << 20),
       "characters"},
      {"percent_compressible", ParamType::Int, int64_t{90}, "percent of each string that is 'a' (the rest random letters)",
       in_range(0, 100), "percent"},
      {"query_threads", ParamType::Int, int64_t{0}, "range-query threads (queries 1,2,3 round robin)", in_range(0, kMaxThreads)},
      {"query_limit", ParamType::Int, int64_t{10}, "rows per range query", in_range(1, kMaxRowsPerRead)},
      {"queries_per_second", ParamType::Double, 0.0, "total query rate over query threads (0 = unthrottled)",
       unbounded(), "1/s"},
      {"query_begin_docs", ParamType::Int, int64_t{1000000}, "queries start once this many documents were inserted"},
      {"query_fetch", ParamType::Bool, false, "fetch each row's document (the original's queries are covered: indexed fields only)"},
      {"collection", ParamType::Name, std::string("purchases_index"), "collection (table name prefix)"},
  };
  for (auto& c : common_params()) w.params.push_back(c);
  w.check = check;
  w.check_backend = check_backend;
  w.make = [] { return std::unique_ptr<Workload>(new IIBench()); };
  return w;
}

}  // namespace eb
