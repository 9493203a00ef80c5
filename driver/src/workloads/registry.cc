#include <sys/resource.h>
#include <unistd.h>

#include <thread>

#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace eb {

// Each workload's folder (workloads/<name>/) defines its <name>_info(); one line here and one in the
// list below register it.
WorkloadInfo iibench_info();
WorkloadInfo fillseq_info();
WorkloadInfo sysbench_update_info();
WorkloadInfo bulk_insert_info();
WorkloadInfo linkbench_info();
WorkloadInfo cache_pollution_info();
WorkloadInfo ycsb_info();

const std::vector<WorkloadInfo>& workload_registry() {
  static const std::vector<WorkloadInfo> v = {iibench_info(), fillseq_info(), sysbench_update_info(),
                                          bulk_insert_info(), linkbench_info(),
                                          cache_pollution_info(), ycsb_info()};
  return v;
}

double machine_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0;
}

void need_memory(const std::string& names, double bytes, const std::string& what, std::vector<std::string>* problems) {
  double mem = machine_memory_bytes();
  if (mem <= 0 || bytes <= mem / 2) return;
  auto mib = [](double b) { return std::to_string(static_cast<long long>(b / (1 << 20))); };
  problems->push_back("bad value for param " + names + ": " + what + " need about " + mib(bytes) +
                      " MiB at once, more than half this machine's memory (" + mib(mem) + " MiB); lower them");
}

std::vector<ParamSpec> common_params() {
  return {
      // No range: nothing ever refused a value of these (the runner reads a negative time or rate
      // as none, a report interval below 0.01 s as 0.01 s), and a range would refuse some now.
      {"max_seconds", ParamType::Double, 0.0, "stop after this many seconds (0 = no time limit)", unbounded(), "s"},
      {"warmup_seconds", ParamType::Double, 0.0,
       "seconds at the start kept in intervals.csv (warmup=1) but excluded from totals and histograms",
       unbounded(), "s"},
      {"target_rate", ParamType::Double, 0.0,
       "open loop: main units per second over all threads (0 = closed loop, as fast as possible)",
       unbounded(), "1/s"},
      {"report_interval_s", ParamType::Double, 1.0, "seconds per intervals.csv row and progress line",
       unbounded(), "s"},
  };
}

uint64_t pace(uint64_t start_ns, double rate_per_s, uint64_t done, const RunContext& ctx) {
  return pace(start_ns, rate_per_s, done, ctx, [] { return false; });
}

uint64_t pace(uint64_t start_ns, double rate_per_s, uint64_t done, const RunContext& ctx,
              const std::function<bool()>& done_early) {
  uint64_t intended = start_ns + static_cast<uint64_t>(static_cast<double>(done) * 1e9 / rate_per_s);
  for (;;) {
    uint64_t now = now_ns();
    if (now >= intended || ctx.should_stop() || done_early()) return intended;
    uint64_t wait = intended - now;
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<uint64_t>(wait, 50'000'000)));
  }
}

double process_cpu_s() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

}  // namespace eb
