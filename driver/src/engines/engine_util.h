// Small helpers shared by the engine implementations (not part of the engine interface).
#pragma once
#include <cstdint>
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

}  // namespace engine_util
}  // namespace eb
