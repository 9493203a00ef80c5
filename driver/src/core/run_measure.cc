// The measured phase of a run: the workload's worker threads, and the reporter on the calling thread
// that cuts intervals.csv rows and progress lines at every interval boundary and at the end of the
// warmup, until the workers finish or are stopped.
#include <algorithm>
#include <cstdio>
#include <mutex>
#include <thread>

#include "core/run.h"

namespace eb {
namespace run {
namespace {

std::string fmt(double v, int prec = 6) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, v);
  return b;
}

// The worker threads: one per workload thread, each hashing its op stream; the first error stops
// them all.
struct Workers {
  std::atomic<bool> stop{false};
  std::atomic<int> finished{0};
  std::atomic<uint64_t> last_end_ns{0};  // when the last worker returned (the client window's end)
  std::mutex err_mu;
  std::string error;
  RunContext ctx;
  std::vector<std::thread> threads;

  void start(Run& r) {
    ctx.engine = r.engine.get();
    ctx.params = r.cfg.params;
    ctx.seed = r.cfg.seed;
    ctx.metrics = r.metrics.get();
    ctx.stop = &stop;
    ctx.start_ns = now_ns();
    ctx.start_unix_s = unix_now_s();
    ctx.data_dir = r.cfg.data_dir;
    ctx.output_dir = r.cfg.output_dir;
    ctx.deadline_ns = r.max_s > 0 ? ctx.start_ns + static_cast<uint64_t>(r.max_s * 1e9) : 0;
    r.client_start = ctx.start_unix_s;
    for (int t = 0; t < r.nthreads; ++t) threads.emplace_back([this, &r, t] { work(r, t); });
  }

  void work(Run& r, int t) {
    OpHasher local;  // a thread-local copy: adjacent hashers in one vector would false-share
    try {
      r.wl->run_thread(t, ctx, r.metrics->thread(t), local);
      r.hashers[t] = local;
    } catch (const std::exception& e) {
      r.hashers[t] = local;
      std::lock_guard<std::mutex> g(err_mu);
      if (error.empty()) error = "thread " + std::to_string(t) + ": " + e.what();
      stop.store(true);
    }
    const uint64_t end = now_ns();
    if (finished.fetch_add(1) + 1 == r.nthreads) last_end_ns.store(end);
  }

  bool all_finished(const Run& r) const { return finished.load() >= r.nthreads; }
  void join() {
    for (auto& th : threads) th.join();
  }
};

// Interval boundaries every interval_s, plus one at the end of the warmup.
class Reporter {
 public:
  Reporter(Run& r, uint64_t start_ns, const std::vector<OpSnapshot>& zero)
      : r_(r),
        start_ns_(start_ns),
        interval_ns_(static_cast<uint64_t>(r.interval_s * 1e9)),
        warmup_end_(start_ns + static_cast<uint64_t>(r.warmup_s * 1e9)),
        in_warmup_(r.warmup_s > 0),
        next_tick_(start_ns + interval_ns_),
        prev_ns_(start_ns),
        prev_(zero),
        target_s_(r.max_s),
        target_ops_(r.wl->target_ops()) {
    r.warm_snap = zero;
    r.measured_start = r.client_start;
  }

  // Reports each boundary until every worker has finished (an external stop stops them).
  void run(Workers& w) {
    while (!w.all_finished(r_)) {
      check_external(w);  // also when the reporter is behind and never sleeps below
      uint64_t boundary = next_tick_;
      if (in_warmup_ && warmup_end_ < boundary) boundary = warmup_end_;
      while (now_ns() < boundary && !w.all_finished(r_)) {
        check_external(w);
        uint64_t left = boundary - std::min(boundary, now_ns());
        std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<uint64_t>(left, 10'000'000)));
      }
      if (w.all_finished(r_)) break;
      auto cur = r_.metrics->snapshot(true);
      emit(boundary, cur);
      prev_ = cur;
      prev_ns_ = boundary;
      if (in_warmup_ && boundary == warmup_end_) {
        r_.warm_snap = cur;
        in_warmup_ = false;
        r_.measured_start = to_unix(warmup_end_);
      }
      if (boundary == next_tick_) next_tick_ += interval_ns_;
    }
  }

  // After the workers joined: the last (partial) interval and the final totals. The window ends
  // when the last worker returned, not when this thread (which looks every 10 ms) noticed it.
  void finish(const Workers& w) {
    if (r_.external.load()) r_.interrupted = true;
    uint64_t end_ns = w.last_end_ns.load();
    if (end_ns == 0 || end_ns < prev_ns_) end_ns = now_ns();
    r_.client_end = to_unix(end_ns);
    r_.final_snap = r_.metrics->snapshot(true);
    if (end_ns > prev_ns_) emit(end_ns, r_.final_snap);
    if (in_warmup_) {  // the run ended inside the warmup: the measured window is empty
      r_.warm_snap = r_.final_snap;
      r_.measured_start = r_.client_end;
    }
  }

 private:
  double to_unix(uint64_t ns) const { return r_.client_start + (static_cast<double>(ns) - start_ns_) / 1e9; }

  void check_external(Workers& w) {
    if (!r_.external.load()) return;
    r_.interrupted = true;
    w.stop.store(true);
  }

  // One intervals.csv row per op and one progress line for the interval ending at t_end.
  void emit(uint64_t t_end, const std::vector<OpSnapshot>& cur) {
    for (size_t o = 0; o < r_.op_names.size(); ++o) {
      OpSnapshot d = cur[o].minus(prev_[o]);
      if (!in_warmup_) r_.measured_max[o] = std::max(r_.measured_max[o], cur[o].max_since_reset);
      r_.intervals << interval_no_ << ',' << fmt(to_unix(prev_ns_)) << ',' << fmt(to_unix(t_end)) << ','
                   << (in_warmup_ ? 1 : 0) << ',' << r_.op_names[o] << ',' << d.requests << ',' << d.items << ','
                   << d.bytes_read << ',' << d.bytes_written << ',' << fmt(d.mean_latency(), 3) << ','
                   << (d.requests ? d.hist.percentile(0.99) : 0) << ',' << (d.requests ? cur[o].max_since_reset : 0)
                   << '\n';
    }
    double secs = static_cast<double>(t_end - prev_ns_) / 1e9;
    uint64_t items = cur[0].items - prev_[0].items;
    r_.progress << json{{"type", "progress"},
                        {"elapsed_s", static_cast<double>(t_end - start_ns_) / 1e9},
                        {"ops", cur[0].items},
                        {"ops_per_s", secs > 0 ? items / secs : 0.0},
                        {"target_ops", target_ops_},
                        {"target_s", target_s_}}
                       .dump()
                << std::endl;
    ++interval_no_;
  }

  Run& r_;
  const uint64_t start_ns_, interval_ns_, warmup_end_;
  bool in_warmup_;
  uint64_t next_tick_, prev_ns_;
  std::vector<OpSnapshot> prev_;
  int interval_no_ = 0;
  const double target_s_;
  const uint64_t target_ops_;
};

}  // namespace

void measured_phase(Run& r) {
  r.op_names = r.wl->op_names();
  r.nthreads = r.wl->threads();
  r.metrics = std::make_unique<Metrics>(r.op_names, r.nthreads);
  r.hashers.resize(r.nthreads);
  const std::vector<OpSnapshot> zero_snap = r.metrics->snapshot(true);
  r.measured_max.assign(r.op_names.size(), 0);

  Workers w;
  w.start(r);
  Reporter rep(r, w.ctx.start_ns, zero_snap);
  rep.run(w);
  w.join();
  rep.finish(w);
  if (!w.error.empty()) r.fail(w.error);
}

}  // namespace run
}  // namespace eb
