// Workloads: each declares its parameters (ParamSpec, validated by the core like engine knobs) and
// runs its worker threads against one engine. Registered in workloads/registry.cc.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "clock.h"
#include "engine.h"
#include "params.h"

namespace eb {

class Target;  // target.h: a server the driver reaches as a client
class Metrics;        // core/metrics.h: the run's counters
class ThreadMetrics;  // core/metrics.h: one worker thread's
class OpHasher;       // core/ophash.h: the operation stream's hash

// What a worker thread sees while it runs.
struct RunContext {
  Engine* engine = nullptr;
  ParamValues params;
  uint64_t seed = 1;
  Metrics* metrics = nullptr;
  std::atomic<bool>* stop = nullptr;  // set on signal, error, deadline or when the work is done
  uint64_t start_ns = 0;              // steady clock at the start of the measured run (incl. warmup)
  uint64_t deadline_ns = 0;           // 0 = none (max_seconds)
  double start_unix_s = 0;
  std::string data_dir, output_dir;  // the config's directories (workloads that write extra files)
  bool should_stop() const {
    return stop->load(std::memory_order_relaxed) || (deadline_ns && now_ns() >= deadline_ns);
  }
};

class Workload {
 public:
  virtual ~Workload() = default;
  // Operation names; index 0 is the main unit shown in progress lines (its items are counted).
  virtual std::vector<std::string> op_names() const = 0;
  // Create tables/indexes (before the engine stats "before" snapshot).
  virtual void setup(Engine& engine, const ParamValues& params, uint64_t seed) = 0;
  // The same against a server target (only workloads listed in the target's TargetInfo::workloads).
  virtual void setup_target(Target& /*target*/, const ParamValues& /*params*/, uint64_t /*seed*/) {
    throw std::runtime_error("this workload does not run on server targets");
  }
  // After the load, and after the engine's reopen and the page-cache drop when the run asks for
  // them (reopen_after_load, drop_caches_after_load), before the "before" statistics: what brings
  // the engine to the measured phase's starting state (cache-pollution's scan of the hot
  // collection). KV engines only; the default does nothing.
  virtual void warm_up(Engine& /*engine*/, const ParamValues& /*params*/, uint64_t /*seed*/) {}
  virtual int threads() const = 0;
  // Threads whose generated stream length depends only on seed and params (these form op_stream_hash).
  virtual bool thread_is_deterministic(int /*thread*/) const { return true; }
  virtual void run_thread(int thread, RunContext& ctx, ThreadMetrics& m, OpHasher& h) = 0;
  virtual uint64_t target_ops() const { return 0; }
  // Extra summary fields (logical_bytes_stored, ...).
  virtual json summary_extra() const { return json::object(); }
};

struct WorkloadInfo {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  // Cross-parameter checks, once every value is typed and inside its spec's range (a value's own
  // range belongs in its ParamSpec, checked by the core); problems appended, one per line.
  std::function<void(const ParamValues&, std::vector<std::string>*)> check;
  // Checks of the parameters against the engine or server target they run on (its name), after check.
  std::function<void(const std::string&, const ParamValues&, std::vector<std::string>*)> check_backend;
  std::function<std::unique_ptr<Workload>()> make;
};

const std::vector<WorkloadInfo>& workload_registry();

// The machine's physical memory in bytes (sysconf).
double machine_memory_bytes();
// Appends "bad value for param <names>: ..." when `bytes` (the buffers of a run's requests at once, as
// `what` says) exceed half the machine's memory: the rest is the engine's and the OS's.
void need_memory(const std::string& names, double bytes, const std::string& what, std::vector<std::string>* problems);

// Parameters every workload has (appended to each workload's own list).
std::vector<ParamSpec> common_params();

// Per-thread open-loop pacing: with rate > 0 (units/s for this thread), returns the intended start
// time (steady ns) of the request that starts after `done` units, sleeping until then.
uint64_t pace(uint64_t start_ns, double rate_per_s, uint64_t done, const RunContext& ctx);
// The same, also returning early once `done_early()` says the thread has nothing left to do
// (e.g. a query thread whose loaders have finished).
uint64_t pace(uint64_t start_ns, double rate_per_s, uint64_t done, const RunContext& ctx,
              const std::function<bool()>& done_early);

// The driver process's CPU seconds so far (user + sys, all threads): what a load cost.
double process_cpu_s();


}  // namespace eb
