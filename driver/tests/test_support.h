// Helpers shared by the core's tests (engine lookup, small knobs, temporary directories).
#pragma once
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/runner.h"
#include "engine.h"

namespace ebtest {

inline const eb::EngineInfo& engine_info(const std::string& name) {
  for (const auto& e : eb::engine_registry())
    if (e.name == name) return e;
  throw std::runtime_error("no engine " + name);
}

inline std::vector<std::string> engine_names() {
  std::vector<std::string> v;
  for (const auto& e : eb::engine_registry()) v.push_back(e.name);
  return v;
}

// Small namespaced knob values (for configs) so tests do not reserve gigabytes.
inline eb::json small_knobs_json(const std::string& engine) {
  const auto& info = engine_info(engine);
  const std::string ns = eb::knob_namespace(engine);
  eb::json k = eb::json::object();
  for (const auto& s : info.knobs) {
    if (s.name == "cache_size") k[ns + ".cache_size"] = "64MB";
    if (s.name == "block_cache_size") k[ns + ".block_cache_size"] = "32MB";
    if (s.name == "write_buffer_size") k[ns + ".write_buffer_size"] = "8MB";
    if (s.name == "map_size") k[ns + ".map_size"] = "1GB";
  }
  return k;
}

inline eb::ParamValues small_knobs(const std::string& engine) {
  eb::ParamValues out;
  const auto& info = engine_info(engine);
  for (const auto& s : info.knobs) out[s.name] = s.default_value;
  const std::string ns = eb::knob_namespace(engine) + ".";
  eb::json small = small_knobs_json(engine);
  for (auto it = small.begin(); it != small.end(); ++it) {
    const std::string k = it.key();
    int64_t n = 0;
    std::string s = it.value().get<std::string>();
    n = std::stoll(s) * (s.find("GB") != std::string::npos ? (1LL << 30) : (1LL << 20));
    out[k.substr(ns.size())] = n;
  }
  return out;
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/engbench-core-test-XXXXXX";
    char* p = mkdtemp(tmpl);
    if (!p) throw std::runtime_error("mkdtemp failed");
    path = p;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs a raw config through run_benchmark (never interrupted); the exit code in *rc, summary.json back.
inline eb::json run_summary(const eb::json& raw, int* rc = nullptr) {
  eb::ResolvedConfig cfg;
  std::vector<std::string> problems;
  if (!eb::resolve_config(raw, &cfg, &problems)) throw std::runtime_error("invalid: " + problems[0]);
  std::ostringstream progress;
  eb::RunOptions o;
  o.progress = &progress;
  std::atomic<bool> never{false};
  o.stop = &never;
  int r = eb::run_benchmark(cfg, o);
  if (rc) *rc = r;
  return eb::json::parse(read_text(cfg.output_dir + "/summary.json"));
}

}  // namespace ebtest
