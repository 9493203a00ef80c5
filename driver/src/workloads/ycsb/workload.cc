// ycsb: YCSB's core workloads A–F (CoreWorkload and workloads/workload[a-f] of brianfrankcooper/YCSB,
// whose parameter names and defaults are kept): a load phase inserts `recordcount` records
// {_id: "user<fnv64(n)>", field0..9: 100 bytes} in setup (its own window: summary `load`), then the
// run phase draws `operationcount` operations from the letter's mix:
//   a  read 0.50 / update 0.50                 zipfian     b  read 0.95 / update 0.05   zipfian
//   c  read 1.00                               zipfian     d  read 0.95 / insert 0.05   latest
//   e  scan 0.95 / insert 0.05 (1..100 records) zipfian    f  read 0.50 / read-modify-write 0.50
// Ops: `request` (every operation once, items 1; main unit), then the mix's own of read, update,
// insert, scan, read_modify_write (items: records found, returned or written; a read, update or
// read-modify-write of a key not (yet) present has items 0 and is counted in summary `misses`).
// A read-modify-write is recorded once, as read_modify_write (not also as a read and an update).
// Generators and key naming: generators.h; stores: store.h.
#include <sys/resource.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>

#include "workloads/doc_writer.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"
#include "workloads/ycsb/generators.h"
#include "workloads/ycsb/store.h"

namespace eb {
namespace {
using namespace wl;
using ycsb::Op;

struct Letter {
  ycsb::Mix mix;
  const char* distribution;
};

Letter letter(const std::string& w) {
  if (w == "a") return {{{0.5, 0.5, 0, 0, 0}}, "zipfian"};
  if (w == "b") return {{{0.95, 0.05, 0, 0, 0}}, "zipfian"};
  if (w == "c") return {{{1.0, 0, 0, 0, 0}}, "zipfian"};
  if (w == "d") return {{{0.95, 0, 0.05, 0, 0}}, "latest"};
  if (w == "e") return {{{0, 0, 0.05, 0.95, 0}}, "zipfian"};
  return {{{0.5, 0, 0, 0, 0.5}}, "zipfian"};  // f (validated)
}

// CoreWorkload's transactioninsertkeysequence: run-phase inserts take the next key number; reads
// only pick keys up to the highest one acknowledged with all below it (lastValue()).
class AckCounter {
 public:
  void reset(int64_t first) {
    next_ = first;
    last_ = first - 1;
  }
  int64_t next() { return next_.fetch_add(1); }
  int64_t last() const { return last_.load(std::memory_order_acquire); }
  void ack(int64_t k) {
    std::lock_guard<std::mutex> g(mu_);
    pending_.insert(k);
    int64_t l = last_.load(std::memory_order_relaxed);
    while (!pending_.empty() && *pending_.begin() == l + 1) pending_.erase(pending_.begin()), ++l;
    last_.store(l, std::memory_order_release);
  }

 private:
  std::atomic<int64_t> next_{0}, last_{-1};
  std::mutex mu_;
  std::set<int64_t> pending_;
};

enum class Dist { Zipfian, Uniform, Latest };

struct Spec {
  ycsb::Mix mix;
  std::string distribution;
  Dist dist = Dist::Zipfian;
  int64_t records = 0, operations = 0, fieldcount = 10, fieldlength = 100, min_scan = 1, max_scan = 100;
  bool read_all = true, write_all = false, hashed = true;
  int zeropadding = 1, threads = 1, load_batch = 1;
  double theta = ycsb::kZipfianConstant;

  static Spec from(const ParamValues& p) {
    Spec s;
    Letter l = letter(p_str(p, "letter"));
    s.mix = l.mix;
    s.distribution = p_str(p, "requestdistribution") == "letter" ? l.distribution : p_str(p, "requestdistribution");
    s.dist = s.distribution == "latest" ? Dist::Latest : s.distribution == "uniform" ? Dist::Uniform : Dist::Zipfian;
    s.records = p_int(p, "recordcount");
    s.operations = p_int(p, "operationcount");
    s.fieldcount = p_int(p, "fieldcount");
    s.fieldlength = p_int(p, "fieldlength");
    s.min_scan = p_int(p, "minscanlength");
    s.max_scan = p_int(p, "maxscanlength");
    s.read_all = p_bool(p, "readallfields");
    s.write_all = p_bool(p, "writeallfields");
    s.hashed = p_str(p, "insertorder") == "hashed";
    s.zeropadding = static_cast<int>(p_int(p, "zeropadding"));
    s.threads = static_cast<int>(p_int(p, "threads"));
    s.load_batch = static_cast<int>(p_int(p, "load_batch"));
    s.theta = p_dbl(p, "zipfianconstant");
    return s;
  }
};

// Canonical logical size (docs/driver.md "Logical bytes") of {_id: key, <fields>} as returned or
// written: the BSON document of the key and the field values involved.
class RecordBytes {
 public:
  explicit RecordBytes(int64_t fieldcount) {
    for (int64_t i = 0; i < fieldcount; ++i) name_len_.push_back(("field" + std::to_string(i)).size());
  }
  // fields[j] is field number `field` when field >= 0, else field number j.
  uint64_t of(size_t key_len, const std::vector<std::string>& fields, int field) const {
    uint64_t n = BsonSize().utf8("_id", key_len).bytes();
    for (size_t j = 0; j < fields.size(); ++j)
      n += 1 + name_len_[field >= 0 ? static_cast<size_t>(field) : j] + 1 + 4 + fields[j].size() + 1;
    return n;
  }
  uint64_t of(const YcsbRecord& r, int field) const { return of(r.key.size(), r.fields, field); }
  uint64_t of_values(size_t key_len, const std::vector<std::pair<int, std::string>>& v) const {
    uint64_t n = BsonSize().utf8("_id", key_len).bytes();
    for (const auto& [f, s] : v) n += 1 + name_len_[static_cast<size_t>(f)] + 1 + 4 + s.size() + 1;
    return n;
  }

 private:
  std::vector<size_t> name_len_;
};

// YCSB's RandomByteIterator: printable bytes.
void random_value(Rng& r, size_t n, std::string* out) {
  out->resize(n);
  for (size_t i = 0; i < n; i += 8) {
    uint64_t w = r.next();
    for (size_t k = i; k < std::min(n, i + 8); ++k, w >>= 8)
      (*out)[k] = static_cast<char>(' ' + (((w & 0xff) * 95) >> 8));  // ' ' .. '~'
  }
}

class Ycsb final : public Workload {
 public:
  std::vector<std::string> op_names() const override {
    std::vector<std::string> v = {"request"};
    for (int i = 0; i < ycsb::kOps; ++i)
      if (spec_.mix.p[i] > 0) v.push_back(ycsb::op_name(static_cast<Op>(i)));
    return v;
  }

  void setup(Engine& engine, const ParamValues& p, uint64_t seed) override {
    store_ = ycsb_stores().kv(engine);
    setup_store(p, seed);
  }
  void setup_target(Target& target, const ParamValues& p, uint64_t seed) override {
    store_ = ycsb_stores().for_target(target);
    if (!store_) throw std::runtime_error("ycsb does not run on this target");
    setup_store(p, seed);
  }
  void setup_store(const ParamValues& p, uint64_t seed) {
    spec_ = Spec::from(p);
    store_->create({p_str(p, "table"), static_cast<int>(spec_.fieldcount), static_cast<int>(spec_.fieldlength)});
    bytes_ = std::make_unique<RecordBytes>(spec_.fieldcount);
    for (int i = 0, m = 1; i < ycsb::kOps; ++i) metric_[i] = spec_.mix.p[i] > 0 ? m++ : -1;
    make_choosers();
    load(seed);
    acked_.reset(spec_.records);
  }

  int threads() const override { return spec_.threads; }
  uint64_t target_ops() const override { return static_cast<uint64_t>(spec_.operations); }
  // Inserts by several threads interleave their key numbers (and move what reads may pick).
  bool thread_is_deterministic(int) const override {
    return spec_.threads == 1 || spec_.mix.p[static_cast<int>(Op::Insert)] == 0;
  }

  void run_thread(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) override;
  json summary_extra() const override;

 private:
  struct Worker;  // one run thread's generators, client and buffers

  void make_choosers() {
    const int64_t new_keys = static_cast<int64_t>(static_cast<double>(spec_.operations) *
                                                  spec_.mix.p[static_cast<int>(Op::Insert)] * 2.0);
    zipf_ = std::make_unique<ycsb::ScrambledZipf>(0, spec_.records + new_keys, spec_.theta);
    latest_ = std::make_unique<ycsb::YcsbZipfian>(std::max<int64_t>(1, spec_.records - 1), ycsb::kZipfianConstant);
  }
  void load(uint64_t seed);
  void load_range(int t, int64_t from, int64_t to, uint64_t seed, Histogram* lat);
  void full_record(Rng& r, int64_t keynum, YcsbRecord* rec) const {
    ycsb::key_name(keynum, spec_.hashed, spec_.zeropadding, &rec->key);
    rec->fields.resize(static_cast<size_t>(spec_.fieldcount));
    for (auto& f : rec->fields) random_value(r, static_cast<size_t>(spec_.fieldlength), &f);
  }

  Spec spec_;
  std::unique_ptr<YcsbStore> store_;
  std::unique_ptr<RecordBytes> bytes_;
  std::unique_ptr<ycsb::ScrambledZipf> zipf_;
  std::unique_ptr<ycsb::YcsbZipfian> latest_;
  int metric_[ycsb::kOps] = {-1, -1, -1, -1, -1};
  AckCounter acked_;
  std::atomic<uint64_t> stored_bytes_{0}, misses_{0};
  std::atomic<uint64_t> misses_by_op_[ycsb::kOps] = {};
  Histogram load_latency_;
  double load_seconds_ = 0, load_start_unix_s_ = 0, load_cpu_s_ = 0;
};

// Load: `threads` loaders, each inserting a contiguous range of key numbers in `load_batch`
// records per insert (YCSB's batchsize, default 1), in its own window before the run.
void Ycsb::load(uint64_t seed) {
  const int n = spec_.threads;
  std::vector<Histogram> lat(static_cast<size_t>(n));
  std::vector<std::string> errors(static_cast<size_t>(n));
  std::vector<std::thread> loaders;
  const uint64_t t0 = now_ns();
  const double cpu0 = process_cpu_s();
  load_start_unix_s_ = unix_now_s();
  for (int t = 0; t < n; ++t)
    loaders.emplace_back([&, t] {
      try {
        load_range(t, spec_.records * t / n, spec_.records * (t + 1) / n, seed, &lat[t]);
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (auto& th : loaders) th.join();
  for (auto& e : errors)
    if (!e.empty()) throw std::runtime_error("ycsb load: " + e);
  load_seconds_ = static_cast<double>(now_ns() - t0) / 1e9;
  load_cpu_s_ = process_cpu_s() - cpu0;
  for (auto& h : lat) load_latency_.merge(h);
}

void Ycsb::load_range(int t, int64_t from, int64_t to, uint64_t seed, Histogram* lat) {
  auto client = store_->client();
  Rng r(seed, 0x7C5B10AD0000ULL + static_cast<uint64_t>(t));
  std::vector<YcsbRecord> batch;
  uint64_t stored = 0;
  for (int64_t k = from; k < to;) {
    batch.resize(static_cast<size_t>(std::min<int64_t>(spec_.load_batch, to - k)));
    for (auto& rec : batch) {
      full_record(r, k++, &rec);
      stored += bytes_->of(rec, -1);
    }
    const uint64_t s = now_ns();
    client->insert(batch);
    lat->record((now_ns() - s) / 1000);
  }
  stored_bytes_.fetch_add(stored);
}

json latency_json(const Histogram& h) {
  return {{"mean", h.mean()}, {"p50", h.percentile(0.5)}, {"p95", h.percentile(0.95)},
          {"p99", h.percentile(0.99)}, {"p999", h.percentile(0.999)}, {"max", h.max()}};
}

json Ycsb::summary_extra() const {
  json j = store_ ? store_->summary_extra() : json::object();
  j["logical_bytes_stored"] = stored_bytes_.load();
  j["load"] = {{"records", spec_.records}, {"seconds", load_seconds_}, {"start_unix_s", load_start_unix_s_},
               {"end_unix_s", load_start_unix_s_ + load_seconds_},
               {"records_per_s", load_seconds_ > 0 ? static_cast<double>(spec_.records) / load_seconds_ : 0.0},
               {"inserts", load_latency_.count()}, {"cpu_s", load_cpu_s_}, {"latency_us", {{"insert", latency_json(load_latency_)}}}};
  json by_op = json::object();
  for (int i = 0; i < ycsb::kOps; ++i)
    if (metric_[i] > 0 && i != static_cast<int>(Op::Insert) && i != static_cast<int>(Op::Scan))
      by_op[ycsb::op_name(static_cast<Op>(i))] = misses_by_op_[i].load();
  j["misses"] = {{"total", misses_.load()}, {"by_op", by_op}};
  j["ycsb"] = {{"requestdistribution", spec_.distribution},
               {"proportions", {{"read", spec_.mix.p[0]}, {"update", spec_.mix.p[1]}, {"insert", spec_.mix.p[2]},
                                {"scan", spec_.mix.p[3]}, {"read_modify_write", spec_.mix.p[4]}}}};
  return j;
}

// One run thread: its generators (copies of the shared ones), client and reused buffers.
struct Ycsb::Worker {
  Ycsb& w;
  RunContext& ctx;
  ThreadMetrics& m;
  OpHasher& h;
  Rng rng;
  ycsb::ScrambledZipf zipf;
  ycsb::YcsbZipfian latest;
  ycsb::OpChooser chooser;
  std::unique_ptr<YcsbClient> client;
  YcsbRecord rec;
  std::vector<YcsbRecord> rows;
  std::vector<std::pair<int, std::string>> values;

  Worker(Ycsb& wl, int t, RunContext& c, ThreadMetrics& mm, OpHasher& hh)
      : w(wl), ctx(c), m(mm), h(hh), rng(c.seed, 0x7C5B00000000ULL + static_cast<uint64_t>(t)), zipf(*wl.zipf_),
        latest(*wl.latest_), chooser(wl.spec_.mix), client(wl.store_->client()) {}

  int64_t next_keynum() {
    const int64_t last = w.acked_.last();
    if (w.spec_.dist == Dist::Latest) return last - latest.next(rng, std::max<int64_t>(1, last));
    for (;;) {
      int64_t k = w.spec_.dist == Dist::Uniform ? static_cast<int64_t>(rng.uniform(static_cast<uint64_t>(w.spec_.records)))
                                                : zipf.next(rng);
      if (k <= last) return k;
    }
  }
  int field_to_read() { return w.spec_.read_all ? -1 : static_cast<int>(rng.uniform(w.spec_.fieldcount)); }
  void new_values() {
    values.clear();
    if (w.spec_.write_all)
      for (int f = 0; f < w.spec_.fieldcount; ++f) values.push_back({f, {}});
    else
      values.push_back({static_cast<int>(rng.uniform(w.spec_.fieldcount)), {}});
    for (auto& [f, v] : values) {
      random_value(rng, static_cast<size_t>(w.spec_.fieldlength), &v);
      h.u64(static_cast<uint64_t>(f));
      h.str(v);
    }
  }
  void miss(Op op) {
    w.misses_.fetch_add(1, std::memory_order_relaxed);
    w.misses_by_op_[static_cast<int>(op)].fetch_add(1, std::memory_order_relaxed);
  }
  struct Done {
    uint64_t items = 0, read = 0, written = 0;
  };
  Done read(int64_t keynum);
  Done update(int64_t keynum);
  Done insert();
  Done scan(int64_t keynum);
  Done read_modify_write(int64_t keynum);
  void one(uint64_t t0);
};

Ycsb::Worker::Done Ycsb::Worker::read(int64_t keynum) {
  const int f = field_to_read();
  h.u64(static_cast<uint64_t>(f + 1));
  ycsb::key_name(keynum, w.spec_.hashed, w.spec_.zeropadding, &rec.key);
  if (!client->read(rec.key, f, &rec)) return miss(Op::Read), Done{};
  return {1, w.bytes_->of(rec, f), 0};
}

Ycsb::Worker::Done Ycsb::Worker::update(int64_t keynum) {
  new_values();
  ycsb::key_name(keynum, w.spec_.hashed, w.spec_.zeropadding, &rec.key);
  const uint64_t written = w.bytes_->of_values(rec.key.size(), values);
  if (!client->update(rec.key, values)) return miss(Op::Update), Done{0, 0, written};
  return {1, 0, written};
}

Ycsb::Worker::Done Ycsb::Worker::insert() {
  const int64_t keynum = w.acked_.next();
  rows.resize(1);
  w.full_record(rng, keynum, &rows[0]);
  h.u64(static_cast<uint64_t>(keynum));
  for (const auto& f : rows[0].fields) h.str(f);
  client->insert(rows);
  w.acked_.ack(keynum);
  const uint64_t b = w.bytes_->of(rows[0], -1);
  w.stored_bytes_.fetch_add(b, std::memory_order_relaxed);
  return {1, 0, b};
}

Ycsb::Worker::Done Ycsb::Worker::scan(int64_t keynum) {
  const int64_t len = w.spec_.min_scan + static_cast<int64_t>(rng.uniform(w.spec_.max_scan - w.spec_.min_scan + 1));
  const int f = field_to_read();
  h.u64(static_cast<uint64_t>(len));
  h.u64(static_cast<uint64_t>(f + 1));
  ycsb::key_name(keynum, w.spec_.hashed, w.spec_.zeropadding, &rec.key);
  const size_t n = client->scan(rec.key, static_cast<size_t>(len), f, &rows);
  uint64_t read = 0;
  for (size_t i = 0; i < n; ++i) read += w.bytes_->of(rows[i], f);
  return {n, read, 0};
}

Ycsb::Worker::Done Ycsb::Worker::read_modify_write(int64_t keynum) {
  const int f = field_to_read();
  h.u64(static_cast<uint64_t>(f + 1));
  new_values();
  ycsb::key_name(keynum, w.spec_.hashed, w.spec_.zeropadding, &rec.key);
  const uint64_t written = w.bytes_->of_values(rec.key.size(), values);
  if (!client->read(rec.key, f, &rec)) return miss(Op::ReadModifyWrite), Done{0, 0, written};
  const uint64_t read = w.bytes_->of(rec, f);
  if (!client->update(rec.key, values)) return miss(Op::ReadModifyWrite), Done{0, read, written};
  return {1, read, written};
}

// One operation: choose it, carry it out, record it under `request` and under its own op.
void Ycsb::Worker::one(uint64_t t0) {
  const Op op = chooser.next(rng);
  h.u64(static_cast<uint64_t>(op));
  Done d;
  if (op == Op::Insert) {
    d = insert();
  } else {
    const int64_t k = next_keynum();
    h.u64(static_cast<uint64_t>(k));
    d = op == Op::Read ? read(k) : op == Op::Update ? update(k) : op == Op::Scan ? scan(k) : read_modify_write(k);
  }
  const uint64_t t1 = now_ns();
  const uint64_t lat = (t1 - std::min(t0, t1)) / 1000;
  m.record(0, lat, 1, d.read, d.written);
  m.record(w.metric_[static_cast<int>(op)], lat, d.items, d.read, d.written);
}

void Ycsb::run_thread(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) {
  Worker wk(*this, t, ctx, m, h);
  const int n = spec_.threads;
  const uint64_t quota = spec_.operations == 0 ? UINT64_MAX
                                               : static_cast<uint64_t>(spec_.operations * (t + 1) / n - spec_.operations * t / n);
  const double rate = p_dbl(ctx.params, "target_rate") / n;
  for (uint64_t done = 0; done < quota && !ctx.should_stop(); ++done) {
    const uint64_t intended = rate > 0 ? pace(ctx.start_ns, rate, done, ctx) : 0;
    if (ctx.should_stop()) break;
    wk.one(rate > 0 ? intended : now_ns());  // open loop: latency from the intended start
  }
}

}  // namespace

namespace ycsb {
std::unique_ptr<Workload> make_workload() { return std::make_unique<Ycsb>(); }
}  // namespace ycsb

}  // namespace eb
