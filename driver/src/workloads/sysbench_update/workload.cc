// sysbench-update, after the sysbench / sysbench-mongodb update tests (../shared/reference/
// workloads-and-metrics.md §4.3, seed 001): `tables` collections sbtest1..N shaped like sysbench's
// table {_id/id int, k int (indexed), c char(120), pad char(60)} are loaded with `table_size` rows,
// then clients update rows by primary key (uniform ids): mode=non-index sets c to a fresh 120-char
// string (no index entry moves), mode=index does k = k + 1 (the k index entry moves). One
// invocation sweeps the client counts in `clients`, `seconds_per_step` (and/or `updates_per_step`)
// each; every step's requests are also recorded under the op "update.c<N>" and its window is in
// summary.json "steps" so that disk reads per update can be computed per step from iostat.
#include <algorithm>
#include <thread>

#include "core/rng.h"
#include "workloads/doc_writer.h"
#include "workloads/sysbench_update/store.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace eb {
namespace {
using namespace wl;

constexpr size_t kCLen = kSbCLen;

// sysbench's mask: groups of 11 '#' and a '-', '#' replaced by a random digit.
void sb_string(Rng& r, size_t groups, char* out) {
  for (size_t g = 0; g < groups; ++g) {
    for (int i = 0; i < 11; ++i) *out++ = static_cast<char>('0' + r.uniform(10));
    *out++ = '-';
  }
}

std::string table_name(const std::string& prefix, int t) { return prefix + std::to_string(t + 1); }

// Logical bytes (docs/driver.md "Logical bytes"), in the canonical BSON encoding of the fields
// involved: a row image {_id, k, c, pad}; non-index updates write {_id, c}; index updates read and
// write {_id, k}. Counted per request, whether or not a row matched.
uint64_t row_bytes() { return BsonSize().i64("_id").i64("k").utf8("c", kSbCLen).utf8("pad", kSbPadLen).bytes(); }
uint64_t c_update_bytes() { return BsonSize().i64("_id").utf8("c", kSbCLen).bytes(); }
uint64_t k_update_bytes() { return BsonSize().i64("_id").i64("k").bytes(); }

class SysbenchUpdate final : public Workload {
 public:
  std::vector<std::string> op_names() const override {
    std::vector<std::string> v = {"update"};
    for (int64_t c : clients_) v.push_back("update.c" + std::to_string(c));
    return v;
  }

  void setup(Engine& engine, const ParamValues& p, uint64_t seed) override {
    store_ = sysbench_stores().kv(engine);
    setup_store(p, seed);
  }

  void setup_target(Target& target, const ParamValues& p, uint64_t seed) override {
    store_ = sysbench_stores().for_target(target);
    if (!store_) throw std::runtime_error("sysbench-update does not run on this target");
    setup_store(p, seed);
  }

  void setup_store(const ParamValues& p, uint64_t seed) {
    clients_ = p.at("clients").get<std::vector<int64_t>>();
    tables_ = static_cast<int>(p_int(p, "tables"));
    table_size_ = static_cast<uint64_t>(p_int(p, "table_size"));
    index_mode_ = p_str(p, "mode") == "index";
    updates_per_step_ = static_cast<uint64_t>(p_int(p, "updates_per_step"));
    max_clients_ = static_cast<int>(*std::max_element(clients_.begin(), clients_.end()));
    const std::string prefix = p_str(p, "collection");
    store_->create(prefix, tables_);
    // Load phase (before the "before" engine stats): one loader thread per table, ids 1..table_size
    // in order, so a row's record id is its id (the primary key lookup of an update).
    const uint64_t batch = static_cast<uint64_t>(p_int(p, "load_batch"));
    const uint64_t t0 = now_ns();
    const double cpu0 = process_cpu_s();
    load_start_unix_s_ = static_cast<double>(unix_now_ms()) / 1000.0;
    k_sum_loaded_.assign(tables_, 0);
    std::vector<std::thread> loaders;
    std::vector<std::string> errors(tables_);
    for (int t = 0; t < tables_; ++t)
      loaders.emplace_back([&, t] {
        try {
          auto client = store_->client();
          const uint64_t present = store_->rows(t);
          if (present != 0) {
            if (present != table_size_)
              throw std::runtime_error(table_name(prefix, t) + " exists with another size; use a fresh data_dir");
            return;  // reopened: already loaded
          }
          Rng r(seed, 0x5B0000 + static_cast<uint64_t>(t));
          std::vector<SbRow> rows;
          for (uint64_t id = 1; id <= table_size_;) {
            uint64_t n = std::min(batch, table_size_ - id + 1);
            rows.resize(n);
            for (uint64_t i = 0; i < n; ++i, ++id) {
              int64_t k = 1 + static_cast<int64_t>(r.uniform(table_size_));
              k_sum_loaded_[t] += k;
              rows[i].id = static_cast<int64_t>(id);
              rows[i].k = k;
              sb_string(r, 10, rows[i].c);
              sb_string(r, 5, rows[i].pad);
            }
            client->load(t, rows);
          }
        } catch (const std::exception& e) {
          errors[t] = e.what();
        }
      });
    for (auto& th : loaders) th.join();
    for (auto& e : errors)
      if (!e.empty()) throw std::runtime_error("sysbench-update load: " + e);
    store_->loaded(tables_);
    load_seconds_ = static_cast<double>(now_ns() - t0) / 1e9;
    load_end_unix_s_ = load_start_unix_s_ + load_seconds_;
    load_cpu_s_ = process_cpu_s() - cpu0;
    steps_.assign(clients_.size(), Step{});
    barrier_.reset(max_clients_);
  }

  int threads() const override { return max_clients_; }
  uint64_t target_ops() const override { return updates_per_step_total(); }

  void run_thread(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) override {
    try {
      work(t, ctx, m, h);
    } catch (...) {
      barrier_.break_all();
      throw;
    }
  }

  json summary_extra() const override {
    json steps = json::array();
    for (size_t s = 0; s < steps_.size(); ++s) {
      const Step& st = steps_[s];
      steps.push_back({{"name", "update.c" + std::to_string(clients_[s])},
                       {"clients", clients_[s]},
                       {"start_unix_s", st.start_unix_s},
                       {"end_unix_s", st.end_unix_s},
                       {"seconds", std::max(0.0, st.end_unix_s - st.start_unix_s)},
                       {"requests", st.requests.load()},
                       {"cpu_s", st.cpu_s},
                       {"requests_per_s", st.end_unix_s > st.start_unix_s
                                              ? static_cast<double>(st.requests.load()) / (st.end_unix_s - st.start_unix_s)
                                              : 0.0},
                       {"ran", st.ran}});
    }
    int64_t ksum = 0;
    for (int64_t k : k_sum_loaded_) ksum += k;
    const uint64_t rows = table_size_ * static_cast<uint64_t>(tables_);
    json j = store_ ? store_->summary_extra() : json::object();
    j["steps"] = steps;
    j["logical_bytes_stored"] = rows * row_bytes();  // every loaded row; updates keep row sizes
    j["load"] = {{"rows", rows}, {"seconds", load_seconds_}, {"start_unix_s", load_start_unix_s_},
                 {"end_unix_s", load_end_unix_s_}, {"k_sum", ksum}, {"cpu_s", load_cpu_s_}};
    j["verify"] = {{"checks", verify_checks_.load()}, {"mismatches", verify_bad_.load()}};
    return j;
  }

 private:
  struct Step {
    double start_unix_s = 0, end_unix_s = 0;
    double cpu_s = 0;  // the driver process's CPU (user + sys, every thread) over the step's window
    uint64_t start_ns = 0, deadline_ns = 0;
    std::atomic<uint64_t> requests{0};
    bool ran = false;
    Step() = default;
    Step(const Step&) {}
    Step& operator=(const Step&) { return *this; }
  };

  uint64_t updates_per_step_total() const { return updates_per_step_ * clients_.size(); }

  void work(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) {
    const ParamValues& p = ctx.params;
    const double step_s = p_dbl(p, "seconds_per_step");
    auto s = store_->client();
    const size_t nsteps = clients_.size();
    for (size_t st = 0; st <= nsteps; ++st) {
      // All threads meet at every step boundary; the last to arrive closes the previous step's
      // window and opens the next one.
      bool ok = barrier_.wait([&] { turn_step(st, ctx, step_s); });
      if (!ok || st == nsteps) break;
      const int c = static_cast<int>(clients_[st]);
      if (t >= c || ctx.should_stop()) continue;
      run_step(st, t, c, ctx, m, h, *s);
    }
  }

  double to_unix(const RunContext& ctx, uint64_t ns) const {
    return ctx.start_unix_s + (static_cast<double>(ns) - static_cast<double>(ctx.start_ns)) / 1e9;
  }

  // At the boundary before step st (st == clients_.size(): after the last one).
  void turn_step(size_t st, const RunContext& ctx, double step_s) {
    uint64_t now = now_ns();
    const double cpu = process_cpu_s();
    if (st > 0) {
      steps_[st - 1].end_unix_s = to_unix(ctx, now);
      steps_[st - 1].cpu_s += cpu;
    }
    if (st < clients_.size()) {
      Step& n = steps_[st];
      n.cpu_s = -cpu;
      n.start_ns = now;
      n.start_unix_s = to_unix(ctx, now);
      n.deadline_ns = step_s > 0 ? now + static_cast<uint64_t>(step_s * 1e9) : 0;
      n.ran = !ctx.should_stop();
    }
  }

  // Thread t's updates in step st, one of c clients: its share of updates_per_step, until the
  // step's deadline or a stop.
  void run_step(size_t st, int t, int c, RunContext& ctx, ThreadMetrics& m, OpHasher& h, SysbenchClient& s) {
    const ParamValues& p = ctx.params;
    const uint64_t per_step = static_cast<uint64_t>(p_int(p, "updates_per_step"));
    const bool verify = p_bool(p, "verify");
    char cbuf[kCLen];
    Step& step = steps_[st];
    const uint64_t quota = per_step == 0 ? UINT64_MAX : per_step / c + (static_cast<uint64_t>(t) < per_step % c ? 1 : 0);
    const double rate = p_dbl(p, "target_rate") / c;
    Rng rng(ctx.seed, (static_cast<uint64_t>(st) << 20) | static_cast<uint64_t>(t));
    h.u64(0x535445500000ULL + st);  // STEP
    for (uint64_t done = 0; done < quota; ++done) {
      if (ctx.should_stop() || (step.deadline_ns && now_ns() >= step.deadline_ns)) break;
      uint64_t intended = rate > 0 ? pace(step.start_ns, rate, done, ctx) : 0;
      if (ctx.should_stop() || (step.deadline_ns && intended >= step.deadline_ns)) break;
      uint64_t t0 = rate > 0 ? intended : now_ns();
      const int table = static_cast<int>(rng.uniform(static_cast<uint64_t>(tables_)));
      const uint64_t id = 1 + rng.uniform(table_size_);
      h.u64(static_cast<uint64_t>(table));
      h.u64(id);
      int64_t new_k = 0;
      if (!index_mode_) {
        sb_string(rng, 10, cbuf);
        h.bytes(cbuf, kCLen);
      }
      bool found = index_mode_ ? s.update_k(table, static_cast<int64_t>(id), &new_k)
                               : s.update_c(table, static_cast<int64_t>(id), cbuf);
      const uint64_t br = index_mode_ ? k_update_bytes() : 0, bw = index_mode_ ? k_update_bytes() : c_update_bytes();
      uint64_t t1 = now_ns();
      uint64_t lat = (t1 - std::min(t0, t1)) / 1000;
      // A request that found no row (only on the null engine, which stores nothing) still counts,
      // with items = 0, like an UPDATE that matched no row.
      m.record(0, lat, found ? 1 : 0, br, bw);
      m.record(1 + static_cast<int>(st), lat, found ? 1 : 0, br, bw);
      step.requests.fetch_add(1, std::memory_order_relaxed);
      if (verify) verify_update(s, table, id, new_k, cbuf, c);
    }
  }

  // Reads the row back after an update (verify mode) and counts a mismatch.
  void verify_update(SysbenchClient& s, int table, uint64_t id, int64_t new_k, const char* cbuf, int c) {
    int64_t k_back = 0;
    std::string c_back;
    bool same = s.get(table, static_cast<int64_t>(id), &k_back, &c_back);
    if (same) {
      if (index_mode_) same = k_back >= new_k;  // another client may have added 1 since (-1: unknown)
      else same = c > 1 || c_back == std::string(cbuf, kCLen);
    }
    verify_checks_.fetch_add(1, std::memory_order_relaxed);
    if (!same) verify_bad_.fetch_add(1, std::memory_order_relaxed);
  }

  std::vector<int64_t> clients_;
  int tables_ = 1, max_clients_ = 1;
  uint64_t table_size_ = 0, updates_per_step_ = 0;
  bool index_mode_ = false;
  std::unique_ptr<SysbenchStore> store_;
  std::vector<int64_t> k_sum_loaded_;
  double load_seconds_ = 0, load_cpu_s_ = 0;
  // The load's wall window, so its OS costs can be computed from the captures (process: loads).
  double load_start_unix_s_ = 0, load_end_unix_s_ = 0;
  std::vector<Step> steps_;
  StepBarrier barrier_;
  std::atomic<uint64_t> verify_checks_{0}, verify_bad_{0};
};

void check(const ParamValues& p, std::vector<std::string>* problems) {
  auto need = [&](bool ok, const std::string& msg) {
    if (!ok) problems->push_back("bad value for param " + msg);
  };
  auto clients = p.at("clients").get<std::vector<int64_t>>();
  need(!clients.empty() && clients.size() < static_cast<size_t>(kMaxOps),
       "'clients': expected 1.." + std::to_string(kMaxOps - 1) + " client counts");
  auto sorted = clients;
  std::sort(sorted.begin(), sorted.end());
  need(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(),
       "'clients': each client count once (a step's op is named update.c<N>)");
  need(p_int(p, "updates_per_step") > 0 || p_dbl(p, "seconds_per_step") > 0,
       "'seconds_per_step'/'updates_per_step': set at least one bound per step");
}

}  // namespace

WorkloadInfo sysbench_update_info() {
  WorkloadInfo w;
  w.name = "sysbench-update";
  w.description = "sysbench update_non_index / update_index by primary key over sbtest1..N, one step per "
                  "client count (concurrency sweep)";
  w.params = {
      {"tables", ParamType::Int, int64_t{1}, "collections sbtest1..N (an update picks one uniformly)",
       in_range(1, kMaxThreads)},
      {"table_size", ParamType::Int, int64_t{10000}, "rows per collection, loaded before the updates", at_least(1)},
      {"mode", ParamType::Enum, std::string("non-index"),
       "non-index: set c to a new 120-char string; index: k = k + 1 (moves the k index entry)",
       {"non-index", "index"}},
      {"clients", ParamType::IntList, json::array({1, 2, 4, 8}), "client threads per step, one step each, in order",
       in_range(1, kMaxThreads)},
      {"seconds_per_step", ParamType::Double, 10.0, "seconds per step (0 = bounded by updates_per_step only)",
       at_least(0), "s"},
      {"updates_per_step", ParamType::Int, int64_t{0}, "updates per step over its clients (0 = bounded by time only)",
       at_least(0)},
      {"load_batch", ParamType::Int, int64_t{1000}, "rows per insert transaction in the load phase", in_range(1, kMaxBatch)},
      {"verify", ParamType::Bool, false, "read each updated row back and count mismatches (summary verify)"},
      {"collection", ParamType::Name, std::string("sbtest"), "collection name prefix (sbtest -> sbtest1..N)"},
  };
  for (auto& c : common_params()) w.params.push_back(c);
  w.check = check;
  w.make = [] { return std::unique_ptr<Workload>(new SysbenchUpdate()); };
  return w;
}

}  // namespace eb
