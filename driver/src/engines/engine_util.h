// Small helpers shared by the engine implementations (not part of the engine interface).
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "engine.h"

namespace eb {

namespace engine_util {

// Typed knob access. The core resolves every declared knob; a missing knob falls back to `dflt`
// so that engines can be opened directly (tests) with a partial map.
inline const json* find_knob(const ParamValues& k, const std::string& name) {
  auto it = k.find(name);
  return it == k.end() ? nullptr : &it->second;
}
inline bool knob_bool(const ParamValues& k, const std::string& name, bool dflt) {
  const json* v = find_knob(k, name);
  if (!v || v->is_null()) return dflt;
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_number()) return v->get<double>() != 0;
  return dflt;
}
inline int64_t knob_int(const ParamValues& k, const std::string& name, int64_t dflt) {
  const json* v = find_knob(k, name);
  if (!v || !v->is_number()) return dflt;
  return v->get<int64_t>();
}
inline std::string knob_str(const ParamValues& k, const std::string& name, const std::string& dflt) {
  const json* v = find_knob(k, name);
  if (!v || !v->is_string()) return dflt;
  return v->get<std::string>();
}

// Defaults of a knob list as a ParamValues map (what the core would pass with no knobs set).
inline ParamValues default_knobs(const EngineInfo& info) {
  ParamValues out;
  for (const auto& s : info.knobs) out[s.name] = s.default_value;
  return out;
}

// Background work with its wall-clock times, for Engine::events(): begin() records a start (end
// null), end() its end; list() is what events() reports for one kind. Thread-safe (engines' own
// threads and listeners call it).
class EventLog {
 public:
  static double now_s() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  }
  // Starts the event `key` (unique among running ones), with extra fields.
  void begin(const std::string& key, json fields = json::object()) {
    std::lock_guard<std::mutex> g(mu_);
    fields["start_unix_s"] = now_s();
    fields["end_unix_s"] = nullptr;
    running_[key] = events_.size();
    events_.push_back(std::move(fields));
  }
  // Ends it (an end without a begin records a start equal to the end); `ok` false adds "failed".
  void end(const std::string& key, bool ok = true) {
    std::lock_guard<std::mutex> g(mu_);
    const double t = now_s();
    auto it = running_.find(key);
    if (it == running_.end()) {
      events_.push_back({{"start_unix_s", t}, {"end_unix_s", nullptr}});
      it = running_.emplace(key, events_.size() - 1).first;
    }
    events_[it->second]["end_unix_s"] = t;
    if (!ok) events_[it->second]["failed"] = true;
    running_.erase(it);
  }
  size_t completed() const {
    std::lock_guard<std::mutex> g(mu_);
    return events_.size() - running_.size();
  }
  json list() const {
    std::lock_guard<std::mutex> g(mu_);
    json out = json::array();
    for (const auto& e : events_) out.push_back(e);
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::vector<json> events_;
  std::map<std::string, size_t> running_;
};

}  // namespace engine_util
}  // namespace eb
