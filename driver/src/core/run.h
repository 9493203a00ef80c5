// The steps of one run_benchmark (core/runner.cc) and what they hand on to each other: internal to
// the runner. runner.cc: directories, open and setup, the reopen and the page-cache drop, the
// warm-up, close; run_measure.cc:
// the measured phase (worker threads and the interval reporter); run_summary.cc: summary.json and
// the other output files (docs/driver.md).
#pragma once
#include <atomic>
#include <filesystem>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/collection.h"
#include "core/config.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "core/reopen.h"

namespace eb {
namespace run {

struct Run {
  Run(const ResolvedConfig& c, std::ostream& p, std::atomic<bool>& ext);
  // The first failure is the run's (status "failed", its message the summary's error).
  void fail(const std::string& msg);

  const ResolvedConfig& cfg;
  std::ostream& progress;         // progress/done JSON lines
  std::atomic<bool>& external;    // stop request from outside (signal)
  const std::filesystem::path out_dir;
  double interval_s = 1, warmup_s = 0, max_s = 0;  // the common params

  std::string status = "ok";
  json error = nullptr;
  std::vector<std::string> warnings;  // non-fatal problems, all recorded in summary.json
  uint64_t retries_before = 0, splits_before = 0;

  std::unique_ptr<Engine> engine;
  std::unique_ptr<Target> target;  // a server target instead of an engine
  std::unique_ptr<Workload> wl;
  std::unique_ptr<Metrics> metrics;
  std::vector<OpHasher> hashers;
  std::vector<std::string> op_names;
  std::ostringstream intervals;  // intervals.csv
  std::vector<OpSnapshot> final_snap, warm_snap;
  std::vector<uint64_t> measured_max;
  double client_start = 0, client_end = 0, measured_start = 0;
  int nthreads = 0;
  bool interrupted = false;
  json stats_before = json::object(), stats_after = json::object();
  json events = json::object();  // Engine::events() at the end (before close): summary engine_events
  json dropped = nullptr;  // drop_caches_after_load: when and how long
  ReopenableEngine* reopenable = nullptr;  // reopen_after_load: the engine (owned by `engine`)
  json reopened = nullptr;  // reopen_after_load: when and how long
  json extra = json::object();  // the workload's own summary fields
};

void write_file(const std::filesystem::path& p, const std::string& text);

// run_measure.cc: the workload's threads with the reporter until they finish or are stopped.
void measured_phase(Run& r);

// run_summary.cc: summary.json, intervals.csv, histograms.csv and the engine stats files.
void write_outputs(Run& r, const DiskUsage& du);

}  // namespace run
}  // namespace eb
