// The end of a run: summary.json (docs/driver.md "summary.json") and the other output files.
#include <sys/resource.h>

#include <algorithm>
#include <iostream>

#include "core/run.h"

namespace eb {
namespace run {
namespace {

json totals_json(const std::vector<std::string>& names, const std::vector<OpSnapshot>& s) {
  json t = json::object();
  for (size_t o = 0; o < names.size(); ++o)
    t[names[o]] = {{"requests", s[o].requests}, {"items", s[o].items}, {"logical_bytes_read", s[o].bytes_read},
                   {"logical_bytes_written", s[o].bytes_written}, {"errors", s[o].errors}};
  return t;
}

// What ran where: status, workload, engine or target (as the target describes itself), seed.
json summary_head(Run& r) {
  const ResolvedConfig& cfg = r.cfg;
  json summary;
  summary["status"] = r.status;
  summary["error"] = r.error;
  summary["workload"] = cfg.workload->name;
  summary["engine"] = cfg.backend_name();
  summary["engine_library"] = cfg.engine ? cfg.engine->library : cfg.target->library;
  summary["engine_version"] = cfg.engine ? cfg.engine->library_version : cfg.target->library_version;
  if (cfg.target) {
    json d = cfg.to_json()["target"];
    if (r.target) {
      try {
        d = r.target->describe();
      } catch (const std::exception& e) {
        r.warnings.push_back(std::string("target describe failed (summary target is the config's): ") + e.what());
      }
    }
    summary["target"] = d;
  }
  summary["driver_version"] = kDriverVersion;
  summary["seed"] = cfg.seed;
  return summary;
}

// op_stream_hash (the deterministic threads') and each thread's.
void add_stream_hashes(const Run& r, json* summary) {
  std::vector<uint64_t> all, det;
  for (int t = 0; t < static_cast<int>(r.hashers.size()); ++t) {
    all.push_back(r.hashers[t].digest());
    if (r.wl && r.wl->thread_is_deterministic(t)) det.push_back(r.hashers[t].digest());
  }
  (*summary)["op_stream_hash"] = OpHasher::combine_hex(det);
  json by_thread = json::array();
  for (uint64_t d : all) by_thread.push_back(OpHasher::hex(d));
  (*summary)["op_stream_hash_by_thread"] = by_thread;
}

// Totals, rates and latencies of the measured window (totals_all: warmup included), and the
// measured window's histograms as histograms.csv rows.
void add_totals(const Run& r, json* summary, std::ostringstream* hist_csv) {
  json totals = json::object(), totals_all = json::object(), rates = json::object(), lat = json::object();
  *hist_csv << "op,lo_us,hi_us,count\n";
  if (!r.final_snap.empty()) {
    std::vector<OpSnapshot> measured;
    for (size_t o = 0; o < r.op_names.size(); ++o) {
      OpSnapshot d = r.final_snap[o].minus(r.warm_snap[o]);
      d.hist.set_totals(d.requests, d.lat_sum, r.measured_max[o]);
      measured.push_back(d);
    }
    totals = totals_json(r.op_names, measured);
    totals_all = totals_json(r.op_names, r.final_snap);
    double secs = std::max(1e-9, r.client_end - r.measured_start);
    bool window = r.client_end > r.measured_start;
    for (size_t o = 0; o < r.op_names.size(); ++o) {
      const OpSnapshot& d = measured[o];
      rates[r.op_names[o]] = {{"requests_per_s", window ? d.requests / secs : 0.0},
                              {"items_per_s", window ? d.items / secs : 0.0}};
      lat[r.op_names[o]] = {{"mean", d.mean_latency()},
                            {"p50", d.hist.percentile(0.50)},
                            {"p95", d.hist.percentile(0.95)},
                            {"p99", d.hist.percentile(0.99)},
                            {"p999", d.hist.percentile(0.999)},
                            {"max", d.requests ? r.measured_max[o] : 0}};
      const auto& c = d.hist.counts();
      for (int i = 0; i < HistogramLayout::kBuckets; ++i)
        if (c[i])
          *hist_csv << r.op_names[o] << ',' << HistogramLayout::lo(i) << ',' << HistogramLayout::hi(i) << ',' << c[i]
                    << '\n';
    }
  }
  (*summary)["totals"] = totals;
  (*summary)["totals_all"] = totals_all;
  (*summary)["rates"] = rates;
  (*summary)["latency_us"] = lat;
}

// The data directory's size and the driver process's CPU time and peak memory.
void add_resources(const DiskUsage& du, json* summary) {
  (*summary)["disk"] = {{"apparent_bytes", du.apparent_bytes}, {"allocated_bytes", du.allocated_bytes}};
  json files = json::array();
  for (const auto& f : du.files)
    files.push_back({{"path", f.path}, {"apparent_bytes", f.apparent_bytes}, {"allocated_bytes", f.allocated_bytes}});
  (*summary)["disk"]["files"] = files;
  struct rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  (*summary)["driver_process"] = {
      {"cpu_user_s", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6},
      {"cpu_sys_s", ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6},
      {"max_rss_bytes", static_cast<uint64_t>(ru.ru_maxrss) * 1024}};
}

}  // namespace

void write_outputs(Run& r, const DiskUsage& du) {
  json summary = summary_head(r);
  add_stream_hashes(r, &summary);
  json resolved = r.cfg.to_json();
  summary["params"] = resolved["params"];
  summary["knobs"] = resolved["knobs"];
  summary["threads"] = r.nthreads;
  summary["client"] = {{"start_unix_s", r.client_start},
                       {"end_unix_s", r.client_end},
                       {"seconds", r.client_end - r.client_start},
                       {"measured_start_unix_s", r.measured_start},
                       {"measured_seconds", std::max(0.0, r.client_end - r.measured_start)}};
  std::ostringstream hist_csv;
  add_totals(r, &summary, &hist_csv);
  summary["logical_bytes_stored"] = 0;
  summary["conflict_retries"] = conflict_retries_total() - r.retries_before;
  summary["batches_split"] = batches_split_total() - r.splits_before;
  for (auto it = r.extra.begin(); it != r.extra.end(); ++it) summary[it.key()] = it.value();
  summary["engine_events"] = r.events;
  summary["warnings"] = r.warnings;
  if (r.cfg.drop_caches_after_load) summary["drop_caches"] = r.dropped;  // null: never reached (failed before)
  if (r.cfg.reopen_after_load) summary["reopen"] = r.reopened;          // likewise
  add_resources(du, &summary);

  namespace fs = std::filesystem;
  try {
    write_file(r.out_dir / "intervals.csv", r.intervals.str());
    write_file(r.out_dir / "histograms.csv", hist_csv.str());
    if (!fs::exists(r.out_dir / "engine_stats_before.json"))
      write_file(r.out_dir / "engine_stats_before.json", r.stats_before.dump(2) + "\n");
    write_file(r.out_dir / "engine_stats_after.json", r.stats_after.dump(2) + "\n");
    write_file(r.out_dir / "summary.json", summary.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "engbench-driver: " << e.what() << "\n";
    r.status = "failed";
  }
}

}  // namespace run
}  // namespace eb
