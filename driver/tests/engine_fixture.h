// The engine conformance fixture: one engine of engine_registry() opened in a temporary directory
// with small knobs, for test_engines.cc, test_engines_lifecycle.cc and test_engine_knobs.cc (the
// suite AllEngines/EngineTest is instantiated once, in test_engines.cc).
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine.h"
#include "test_support.h"

namespace engtest {

using ebtest::TempDir;

inline const eb::EngineInfo& info_of(const std::string& name) { return ebtest::engine_info(name); }

inline eb::ParamValues defaults_of(const eb::EngineInfo& info) {
  eb::ParamValues out;
  for (const auto& s : info.knobs) out[s.name] = s.default_value;
  return out;
}

// Small knob values so that tests do not reserve gigabytes.
inline eb::ParamValues test_knobs(const eb::EngineInfo& info) { return ebtest::small_knobs(info.name); }

inline std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s.push_back(static_cast<char>(c));
  return s;
}

class EngineTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    info_ = &info_of(GetParam());
    is_null_ = info_->name == "null";
    open_engine(test_knobs(*info_));
  }
  void TearDown() override {
    if (engine_) engine_->close();
    engine_.reset();
  }
  void open_engine(const eb::ParamValues& knobs) {
    engine_ = info_->make();
    engine_->open(dir_.path, knobs);
  }
  void reopen() {
    engine_->close();
    engine_->close();  // idempotent
    engine_.reset();
    open_engine(test_knobs(*info_));
  }
  std::vector<std::pair<std::string, std::string>> scan_all(eb::Session& s, int t,
                                                            std::string_view start = {},
                                                            size_t limit = 0) {
    std::vector<std::pair<std::string, std::string>> rows;
    size_t n = s.scan(t, start, limit, [&](std::string_view k, std::string_view v) {
      rows.emplace_back(std::string(k), std::string(v));
      return true;
    });
    EXPECT_EQ(n, rows.size());
    return rows;
  }

  TempDir dir_;
  const eb::EngineInfo* info_ = nullptr;
  bool is_null_ = false;
  std::unique_ptr<eb::Engine> engine_;
};

}  // namespace engtest
