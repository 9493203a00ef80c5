// run_benchmark as named steps: output directory, open and setup (the load), the engine's reopen
// and the page-cache drop, the workload's warm-up, the "before" statistics, the measured phase
// (run_measure.cc), close, and the output files (run_summary.cc).
#include "core/runner.h"

#include <unistd.h>

#include <csignal>
#include <fstream>
#include <type_traits>

#include "core/reopen.h"
#include "core/run.h"

namespace eb {
namespace run {

Run::Run(const ResolvedConfig& c, std::ostream& p, std::atomic<bool>& ext)
    : cfg(c), progress(p), external(ext), out_dir(c.output_dir) {
  intervals << "interval,t_start_unix_s,t_end_unix_s,warmup,op,requests,items,logical_bytes_read,"
               "logical_bytes_written,latency_us_mean,latency_us_p99,latency_us_max\n";
}

void Run::fail(const std::string& msg) {
  if (status != "failed") {
    status = "failed";
    error = msg;
    std::cerr << "engbench-driver: " << msg << "\n";
  }
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + p.string());
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + p.string());
}

namespace {

std::atomic<bool> g_signal_stop{false};

extern "C" void on_signal(int) { g_signal_stop.store(true); }

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

// The output and data directories and config.resolved.json; false (reported) when they fail.
bool prepare_dirs(Run& r) {
  try {
    std::filesystem::create_directories(r.out_dir);
    std::filesystem::create_directories(r.cfg.data_dir);
    write_file(r.out_dir / "config.resolved.json", r.cfg.to_json().dump(2) + "\n");
    return true;
  } catch (const std::exception& e) {
    std::cerr << "engbench-driver: " << e.what() << "\n";
    r.progress << json{{"type", "done"}, {"status", "failed"}}.dump() << std::endl;
    return false;
  }
}

// Opens the engine or connects to the target and runs the workload's setup (its load). With
// reopen_after_load the engine is a ReopenableEngine (core/reopen.h) that remembers the tables.
void open_and_setup(Run& r) {
  const ResolvedConfig& cfg = r.cfg;
  r.wl = cfg.workload->make();
  if (cfg.target) {
    r.target = cfg.target->make();
    r.target->open(cfg.target_conn, cfg.knobs);
    r.wl->setup_target(*r.target, cfg.params, cfg.seed);
  } else {
    if (cfg.reopen_after_load) {
      auto re = std::make_unique<ReopenableEngine>(cfg.engine->make);
      r.reopenable = re.get();
      r.engine = std::move(re);
    } else {
      r.engine = cfg.engine->make();
    }
    r.engine->open(cfg.data_dir, cfg.knobs);
    r.wl->setup(*r.engine, cfg.params, cfg.seed);
  }
}

// Between the load (setup) and the measured phase: the measured phase starts with a cold page
// cache (the engine's own cache stays as the load left it, unless the engine is reopened too).
// Nothing else changes: the op streams and the measured window are the same with or without it.
void drop_caches(Run& r) {
  if (!r.cfg.drop_caches_after_load || r.external.load() || !r.dropped.is_null()) return;
  r.dropped = drop_page_cache();
  r.progress << json{{"type", "phase"}, {"event", "caches_dropped"}, {"at_unix_s", r.dropped["end_unix_s"]}}.dump()
             << std::endl;
}

// reopen_after_load: the engine closed, the page cache dropped while it is closed (when asked, as
// the source documents shut mongod down, dropped the caches and started it again), the engine
// opened again with the workload's tables; its cache starts empty.
void reopen_engine(Run& r) {
  if (!r.reopenable || r.external.load()) return;
  r.reopened = r.reopenable->reopen([&r]() -> json {
    drop_caches(r);
    return nullptr;
  });
  r.reopened["when"] = "after_load";
  r.reopened.erase("between");
  r.reopened["caches_dropped_while_closed"] = !r.dropped.is_null();
  r.progress << json{{"type", "phase"}, {"event", "engine_reopened"}, {"at_unix_s", r.reopened["end_unix_s"]}}.dump()
             << std::endl;
}

// The workload's warm-up (after the load, the reopen and the drop), then the "before" statistics.
void warm_up_and_stats(Run& r) {
  if (r.engine && !r.external.load()) r.wl->warm_up(*r.engine, r.cfg.params, r.cfg.seed);
  r.stats_before = r.target ? r.target->stats() : r.engine->stats();
  write_file(r.out_dir / "engine_stats_before.json", r.stats_before.dump(2) + "\n");
}

// The "after" statistics and close, of the target or the engine (failures fail the run).
template <class Backend>
void stats_and_close(Run& r, Backend& b, const std::string& what) {
  try {
    r.stats_after = b.stats();
    if constexpr (std::is_base_of_v<Engine, Backend>) r.events = b.events();
  } catch (const std::exception& e) {
    r.fail(what + " stats: " + e.what());
  }
  try {
    b.close();
  } catch (const std::exception& e) {
    r.fail(what + " close: " + e.what());
  }
}

// The workload's own summary fields (logical bytes stored, load window, ...): a failure here fails
// the run with its reason; the numbers would otherwise vanish without a word.
void workload_summary(Run& r) {
  if (!r.wl) return;
  try {
    r.extra = r.wl->summary_extra();
  } catch (const std::exception& e) {
    r.fail(std::string("workload summary: ") + e.what());
  }
}

}  // namespace
}  // namespace run

std::atomic<bool>& signal_stop_flag() { return run::g_signal_stop; }

void install_signal_handlers() {
  struct sigaction sa{};
  sa.sa_handler = run::on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int run_benchmark(const ResolvedConfig& cfg, const RunOptions& opts) {
  using namespace run;
  Run r(cfg, *opts.progress, opts.stop ? *opts.stop : g_signal_stop);
  r.retries_before = conflict_retries_total();
  r.splits_before = batches_split_total();
  if (!prepare_dirs(r)) return 1;
  r.interval_s = std::max(0.01, cfg.params.at("report_interval_s").get<double>());
  r.warmup_s = std::max(0.0, cfg.params.at("warmup_seconds").get<double>());
  r.max_s = std::max(0.0, cfg.params.at("max_seconds").get<double>());

  try {
    open_and_setup(r);
    reopen_engine(r);
    drop_caches(r);
    warm_up_and_stats(r);
    measured_phase(r);
  } catch (const std::exception& e) {
    r.fail(e.what());
  }
  if (r.status == "ok" && r.interrupted) r.status = "interrupted";

  if (r.target) stats_and_close(r, *r.target, "target");
  if (r.engine) stats_and_close(r, *r.engine, "engine");
  DiskUsage du = disk_usage(cfg.data_dir);
  workload_summary(r);
  write_outputs(r, du);
  r.progress << json{{"type", "done"}, {"status", r.status}}.dump() << std::endl;
  return r.status == "ok" ? 0 : (r.status == "interrupted" ? 130 : 1);
}

}  // namespace eb
