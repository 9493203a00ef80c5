// engbench-driver: describe | validate CONFIG | run CONFIG (see docs/driver.md).
#include <iostream>
#include <string>

#include "core/config.h"
#include "core/runner.h"

namespace {

int usage() {
  std::cerr << "usage: engbench-driver describe\n"
               "       engbench-driver validate CONFIG.{json,yaml,yml}\n"
               "       engbench-driver run CONFIG.{json,yaml,yml}\n";
  return 2;
}

bool load_and_resolve(const std::string& path, eb::ResolvedConfig* cfg) {
  std::vector<std::string> problems;
  try {
    eb::json raw = eb::load_config_file(path);
    if (eb::resolve_config(raw, cfg, &problems)) return true;
  } catch (const std::exception& e) {
    problems.push_back(e.what());
  }
  for (const auto& p : problems) std::cerr << "engbench-driver: invalid config: " << p << "\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  try {
    if (cmd == "describe" && argc == 2) {
      std::cout << eb::describe_json().dump(2) << std::endl;
      return 0;
    }
    if ((cmd == "validate" || cmd == "run") && argc == 3) {
      eb::ResolvedConfig cfg;
      if (!load_and_resolve(argv[2], &cfg)) return 2;
      if (cmd == "validate") {
        std::cout << cfg.to_json().dump(2) << std::endl;
        return 0;
      }
      eb::install_signal_handlers();
      return eb::run_benchmark(cfg);
    }
  } catch (const std::exception& e) {
    std::cerr << "engbench-driver: " << e.what() << "\n";
    std::cout << eb::json{{"type", "done"}, {"status", "failed"}}.dump() << std::endl;
    return 1;
  }
  return usage();
}
