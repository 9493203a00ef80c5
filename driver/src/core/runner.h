// Runs one resolved config: creates the directories, opens the engine, runs the workload's threads
// with a reporter thread, and writes every output file listed in docs/driver.md.
#pragma once
#include <atomic>
#include <iostream>

#include "core/config.h"

namespace eb {

struct RunOptions {
  std::ostream* progress = &std::cout;  // progress/done JSON lines
  std::atomic<bool>* stop = nullptr;    // external stop request (default: the signal flag)
};

// Returns the exit code: 0 ok, 1 failed, 130 interrupted.
int run_benchmark(const ResolvedConfig& cfg, const RunOptions& opts = {});

// SIGINT/SIGTERM set signal_stop_flag().
void install_signal_handlers();
std::atomic<bool>& signal_stop_flag();

}  // namespace eb
