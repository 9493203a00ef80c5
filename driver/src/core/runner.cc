#include "core/runner.h"

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/collection.h"
#include "core/metrics.h"

namespace eb {
namespace {

std::atomic<bool> g_signal_stop{false};

extern "C" void on_signal(int) { g_signal_stop.store(true); }

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + p.string());
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + p.string());
}

std::string fmt(double v, int prec = 6) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, v);
  return b;
}

json totals_json(const std::vector<std::string>& names, const std::vector<OpSnapshot>& s) {
  json t = json::object();
  for (size_t o = 0; o < names.size(); ++o)
    t[names[o]] = {{"requests", s[o].requests}, {"items", s[o].items}, {"logical_bytes_read", s[o].bytes_read},
                   {"logical_bytes_written", s[o].bytes_written}, {"errors", s[o].errors}};
  return t;
}

// "Cached:" of /proc/meminfo in kB (the whole machine's page cache), -1 if unreadable.
int64_t meminfo_cached_kb() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  int64_t kb;
  std::string unit;
  while (in >> key >> kb) {
    std::getline(in, unit);
    if (key == "Cached:") return kb;
  }
  return -1;
}

// sync(2), then `echo 3 > /proc/sys/vm/drop_caches` (page cache, dentries, inodes), as the source
// documents' runs did between load and measurement. Throws when the kernel refuses (not root).
json drop_page_cache() {
  json d;
  d["when"] = "after_load";
  d["cached_kb_before"] = meminfo_cached_kb();
  const double t0 = unix_now_s();
  d["start_unix_s"] = t0;
  ::sync();
  const double t1 = unix_now_s();
  {
    std::ofstream f("/proc/sys/vm/drop_caches");
    if (!f || !(f << "3\n") || !f.flush())
      throw std::runtime_error("drop_caches_after_load: cannot write /proc/sys/vm/drop_caches (needs root)");
  }
  const double t2 = unix_now_s();
  d["sync_seconds"] = t1 - t0;
  d["drop_seconds"] = t2 - t1;
  d["end_unix_s"] = t2;
  d["cached_kb_after"] = meminfo_cached_kb();
  return d;
}

}  // namespace

std::atomic<bool>& signal_stop_flag() { return g_signal_stop; }

void install_signal_handlers() {
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int run_benchmark(const ResolvedConfig& cfg, const RunOptions& opts) {
  namespace fs = std::filesystem;
  std::ostream& progress = *opts.progress;
  std::atomic<bool>& external = opts.stop ? *opts.stop : g_signal_stop;
  const fs::path out_dir(cfg.output_dir);

  std::string status = "ok";
  json error = nullptr;
  std::vector<std::string> warnings;  // non-fatal problems, all recorded in summary.json
  const uint64_t retries_before = conflict_retries_total();
  auto fail = [&](const std::string& msg) {
    if (status != "failed") {
      status = "failed";
      error = msg;
      std::cerr << "engbench-driver: " << msg << "\n";
    }
  };

  try {
    fs::create_directories(out_dir);
    fs::create_directories(cfg.data_dir);
    write_file(out_dir / "config.resolved.json", cfg.to_json().dump(2) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "engbench-driver: " << e.what() << "\n";
    progress << json{{"type", "done"}, {"status", "failed"}}.dump() << std::endl;
    return 1;
  }

  const double interval_s = std::max(0.01, cfg.params.at("report_interval_s").get<double>());
  const double warmup_s = std::max(0.0, cfg.params.at("warmup_seconds").get<double>());
  const double max_s = std::max(0.0, cfg.params.at("max_seconds").get<double>());

  std::unique_ptr<Engine> engine;
  std::unique_ptr<Target> target;  // a server target instead of an engine
  std::unique_ptr<Workload> wl;
  std::unique_ptr<Metrics> metrics;
  std::vector<OpHasher> hashers;
  std::vector<std::string> op_names;
  std::ostringstream intervals;
  intervals << "interval,t_start_unix_s,t_end_unix_s,warmup,op,requests,items,logical_bytes_read,"
               "logical_bytes_written,latency_us_mean,latency_us_p99,latency_us_max\n";
  std::vector<OpSnapshot> final_snap, warm_snap, zero_snap;
  std::vector<uint64_t> measured_max;
  double client_start = 0, client_end = 0, measured_start = 0;
  int nthreads = 0;
  bool interrupted = false;
  json stats_before = json::object(), stats_after = json::object();
  json dropped = nullptr;  // drop_caches_after_load: when and how long

  try {
    wl = cfg.workload->make();
    if (cfg.target) {
      target = cfg.target->make();
      target->open(cfg.target_conn, cfg.knobs);
      wl->setup_target(*target, cfg.params, cfg.seed);
      stats_before = target->stats();
    } else {
      engine = cfg.engine->make();
      engine->open(cfg.data_dir, cfg.knobs);
      wl->setup(*engine, cfg.params, cfg.seed);
      stats_before = engine->stats();
    }
    write_file(out_dir / "engine_stats_before.json", stats_before.dump(2) + "\n");
    // Between the load (setup) and the measured phase: the measured phase starts with a cold page
    // cache (the engine's own cache stays as the load left it). Nothing else changes: the op
    // streams and the measured window are the same with or without it.
    if (cfg.drop_caches_after_load && !external.load()) {
      dropped = drop_page_cache();
      progress << json{{"type", "phase"}, {"event", "caches_dropped"}, {"at_unix_s", dropped["end_unix_s"]}}.dump()
               << std::endl;
    }

    op_names = wl->op_names();
    nthreads = wl->threads();
    metrics = std::make_unique<Metrics>(op_names, nthreads);
    hashers.resize(nthreads);
    zero_snap = metrics->snapshot(true);
    measured_max.assign(op_names.size(), 0);

    std::atomic<bool> stop{false};
    std::atomic<int> finished{0};
    std::mutex err_mu;
    std::string worker_error;
    RunContext ctx;
    ctx.engine = engine.get();
    ctx.params = cfg.params;
    ctx.seed = cfg.seed;
    ctx.metrics = metrics.get();
    ctx.stop = &stop;
    ctx.start_ns = now_ns();
    ctx.start_unix_s = unix_now_s();
    ctx.data_dir = cfg.data_dir;
    ctx.output_dir = cfg.output_dir;
    ctx.deadline_ns = max_s > 0 ? ctx.start_ns + static_cast<uint64_t>(max_s * 1e9) : 0;
    client_start = ctx.start_unix_s;
    const uint64_t start_ns = ctx.start_ns;
    auto to_unix = [&](uint64_t ns) { return client_start + (static_cast<double>(ns) - start_ns) / 1e9; };

    std::vector<std::thread> threads;
    for (int t = 0; t < nthreads; ++t)
      threads.emplace_back([&, t] {
        OpHasher local;  // a thread-local copy: adjacent hashers in one vector would false-share
        try {
          wl->run_thread(t, ctx, metrics->thread(t), local);
          hashers[t] = local;
        } catch (const std::exception& e) {
          hashers[t] = local;
          std::lock_guard<std::mutex> g(err_mu);
          if (worker_error.empty()) worker_error = "thread " + std::to_string(t) + ": " + e.what();
          stop.store(true);
        }
        finished.fetch_add(1);
      });

    // Reporter: interval boundaries every interval_s, plus one at the end of the warmup.
    const uint64_t interval_ns = static_cast<uint64_t>(interval_s * 1e9);
    const uint64_t warmup_end = start_ns + static_cast<uint64_t>(warmup_s * 1e9);
    bool in_warmup = warmup_s > 0;
    uint64_t next_tick = start_ns + interval_ns, prev_ns = start_ns;
    std::vector<OpSnapshot> prev = zero_snap;
    warm_snap = zero_snap;
    measured_start = client_start;
    int interval_no = 0;
    const double target_s = max_s;
    const uint64_t target_ops = wl->target_ops();

    auto emit = [&](uint64_t t_end, const std::vector<OpSnapshot>& cur) {
      for (size_t o = 0; o < op_names.size(); ++o) {
        OpSnapshot d = cur[o].minus(prev[o]);
        if (!in_warmup) measured_max[o] = std::max(measured_max[o], cur[o].max_since_reset);
        intervals << interval_no << ',' << fmt(to_unix(prev_ns)) << ',' << fmt(to_unix(t_end)) << ','
                  << (in_warmup ? 1 : 0) << ',' << op_names[o] << ',' << d.requests << ',' << d.items << ','
                  << d.bytes_read << ',' << d.bytes_written << ',' << fmt(d.mean_latency(), 3) << ','
                  << (d.requests ? d.hist.percentile(0.99) : 0) << ',' << (d.requests ? cur[o].max_since_reset : 0)
                  << '\n';
      }
      double secs = static_cast<double>(t_end - prev_ns) / 1e9;
      uint64_t items = cur[0].items - prev[0].items;
      progress << json{{"type", "progress"},
                       {"elapsed_s", static_cast<double>(t_end - start_ns) / 1e9},
                       {"ops", cur[0].items},
                       {"ops_per_s", secs > 0 ? items / secs : 0.0},
                       {"target_ops", target_ops},
                       {"target_s", target_s}}
                      .dump()
               << std::endl;
      ++interval_no;
    };

    while (finished.load() < nthreads) {
      if (external.load()) {  // also when the reporter is behind and never sleeps below
        interrupted = true;
        stop.store(true);
      }
      uint64_t boundary = next_tick;
      if (in_warmup && warmup_end < boundary) boundary = warmup_end;
      while (now_ns() < boundary && finished.load() < nthreads) {
        if (external.load()) {
          interrupted = true;
          stop.store(true);
        }
        uint64_t left = boundary - std::min(boundary, now_ns());
        std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<uint64_t>(left, 10'000'000)));
      }
      if (finished.load() >= nthreads) break;
      auto cur = metrics->snapshot(true);
      emit(boundary, cur);
      prev = cur;
      prev_ns = boundary;
      if (in_warmup && boundary == warmup_end) {
        warm_snap = cur;
        in_warmup = false;
        measured_start = to_unix(warmup_end);
      }
      if (boundary == next_tick) next_tick += interval_ns;
    }
    for (auto& th : threads) th.join();
    if (external.load()) interrupted = true;
    uint64_t end_ns = now_ns();
    client_end = to_unix(end_ns);
    final_snap = metrics->snapshot(true);
    if (end_ns > prev_ns) emit(end_ns, final_snap);
    if (in_warmup) {  // the run ended inside the warmup: the measured window is empty
      warm_snap = final_snap;
      measured_start = client_end;
    }
    if (!worker_error.empty()) fail(worker_error);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (status == "ok" && interrupted) status = "interrupted";

  if (target) {
    try {
      stats_after = target->stats();
    } catch (const std::exception& e) {
      fail(std::string("target stats: ") + e.what());
    }
    try {
      target->close();
    } catch (const std::exception& e) {
      fail(std::string("target close: ") + e.what());
    }
  }
  if (engine) {
    try {
      stats_after = engine->stats();
    } catch (const std::exception& e) {
      fail(std::string("engine stats: ") + e.what());
    }
    try {
      engine->close();
    } catch (const std::exception& e) {
      fail(std::string("engine close: ") + e.what());
    }
  }
  DiskUsage du = disk_usage(cfg.data_dir);
  // The workload's own summary fields (logical bytes stored, load window, ...): a failure here
  // fails the run with its reason; the numbers would otherwise vanish without a word.
  json extra = json::object();
  if (wl) {
    try {
      extra = wl->summary_extra();
    } catch (const std::exception& e) {
      fail(std::string("workload summary: ") + e.what());
    }
  }

  // Summary and files.
  json summary;
  summary["status"] = status;
  summary["error"] = error;
  summary["workload"] = cfg.workload->name;
  summary["engine"] = cfg.backend_name();
  summary["engine_library"] = cfg.engine ? cfg.engine->library : cfg.target->library;
  summary["engine_version"] = cfg.engine ? cfg.engine->library_version : cfg.target->library_version;
  if (cfg.target) {
    json d = cfg.to_json()["target"];
    if (target) {
      try {
        d = target->describe();
      } catch (const std::exception& e) {
        warnings.push_back(std::string("target describe failed (summary target is the config's): ") + e.what());
      }
    }
    summary["target"] = d;
  }
  summary["driver_version"] = kDriverVersion;
  summary["seed"] = cfg.seed;
  std::vector<uint64_t> all, det;
  for (int t = 0; t < static_cast<int>(hashers.size()); ++t) {
    all.push_back(hashers[t].digest());
    if (wl && wl->thread_is_deterministic(t)) det.push_back(hashers[t].digest());
  }
  summary["op_stream_hash"] = OpHasher::combine_hex(det);
  json by_thread = json::array();
  for (uint64_t d : all) by_thread.push_back(OpHasher::hex(d));
  summary["op_stream_hash_by_thread"] = by_thread;
  json resolved = cfg.to_json();
  summary["params"] = resolved["params"];
  summary["knobs"] = resolved["knobs"];
  summary["threads"] = nthreads;
  summary["client"] = {{"start_unix_s", client_start},
                       {"end_unix_s", client_end},
                       {"seconds", client_end - client_start},
                       {"measured_start_unix_s", measured_start},
                       {"measured_seconds", std::max(0.0, client_end - measured_start)}};
  json totals = json::object(), totals_all = json::object(), rates = json::object(), lat = json::object();
  std::ostringstream hist_csv;
  hist_csv << "op,lo_us,hi_us,count\n";
  if (!final_snap.empty()) {
    std::vector<OpSnapshot> measured;
    for (size_t o = 0; o < op_names.size(); ++o) {
      OpSnapshot d = final_snap[o].minus(warm_snap[o]);
      d.hist.set_totals(d.requests, d.lat_sum, measured_max[o]);
      measured.push_back(d);
    }
    totals = totals_json(op_names, measured);
    totals_all = totals_json(op_names, final_snap);
    double secs = std::max(1e-9, client_end - measured_start);
    for (size_t o = 0; o < op_names.size(); ++o) {
      const OpSnapshot& d = measured[o];
      rates[op_names[o]] = {{"requests_per_s", client_end > measured_start ? d.requests / secs : 0.0},
                            {"items_per_s", client_end > measured_start ? d.items / secs : 0.0}};
      lat[op_names[o]] = {{"mean", d.mean_latency()},
                          {"p50", d.hist.percentile(0.50)},
                          {"p95", d.hist.percentile(0.95)},
                          {"p99", d.hist.percentile(0.99)},
                          {"p999", d.hist.percentile(0.999)},
                          {"max", d.requests ? measured_max[o] : 0}};
      const auto& c = d.hist.counts();
      for (int i = 0; i < HistogramLayout::kBuckets; ++i)
        if (c[i])
          hist_csv << op_names[o] << ',' << HistogramLayout::lo(i) << ',' << HistogramLayout::hi(i) << ',' << c[i]
                   << '\n';
    }
  }
  summary["totals"] = totals;
  summary["totals_all"] = totals_all;
  summary["rates"] = rates;
  summary["latency_us"] = lat;
  summary["logical_bytes_stored"] = 0;
  summary["conflict_retries"] = conflict_retries_total() - retries_before;
  for (auto it = extra.begin(); it != extra.end(); ++it) summary[it.key()] = it.value();
  summary["warnings"] = warnings;
  if (cfg.drop_caches_after_load) summary["drop_caches"] = dropped;  // null: never reached (failed before)
  summary["disk"] = {{"apparent_bytes", du.apparent_bytes}, {"allocated_bytes", du.allocated_bytes}};
  json files = json::array();
  for (const auto& f : du.files)
    files.push_back({{"path", f.path}, {"apparent_bytes", f.apparent_bytes}, {"allocated_bytes", f.allocated_bytes}});
  summary["disk"]["files"] = files;
  struct rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  summary["driver_process"] = {
      {"cpu_user_s", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6},
      {"cpu_sys_s", ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6},
      {"max_rss_bytes", static_cast<uint64_t>(ru.ru_maxrss) * 1024}};

  try {
    write_file(out_dir / "intervals.csv", intervals.str());
    write_file(out_dir / "histograms.csv", hist_csv.str());
    if (!fs::exists(out_dir / "engine_stats_before.json"))
      write_file(out_dir / "engine_stats_before.json", stats_before.dump(2) + "\n");
    write_file(out_dir / "engine_stats_after.json", stats_after.dump(2) + "\n");
    write_file(out_dir / "summary.json", summary.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "engbench-driver: " << e.what() << "\n";
    status = "failed";
  }
  progress << json{{"type", "done"}, {"status", status}}.dump() << std::endl;
  return status == "ok" ? 0 : (status == "interrupted" ? 130 : 1);
}

}  // namespace eb
