// `engbench-driver describe`: every engine, target and workload with its knobs or params (JSON).
#include <cmath>

#include "core/config.h"

namespace eb {
namespace {

// One end of a range as JSON: an integer when whole (every bound of an integer type is), null when
// there is none.
json bound_json(const std::optional<double>& b) {
  if (!b) return nullptr;
  if (*b == std::floor(*b) && std::fabs(*b) < 9e15) return static_cast<int64_t>(*b);
  return *b;
}

json spec_json(const ParamSpec& s) {
  json j = {{"name", s.name}, {"type", param_type_name(s.type)}, {"default", s.default_value},
            {"help", s.help}};
  j["choices"] = s.type == ParamType::Enum ? json(s.choices) : json(nullptr);
  // The range (IntList: of each element), as the core refuses values outside it: min/max null
  // where there is none, an exclusive end flagged, and in the refusals' words ("" when none).
  j["min"] = bound_json(s.bounds.min);
  j["max"] = bound_json(s.bounds.max);
  j["min_exclusive"] = s.bounds.min && s.bounds.min_exclusive;
  j["max_exclusive"] = s.bounds.max && s.bounds.max_exclusive;
  j["range"] = range_text(s);
  j["unit"] = s.unit.empty() ? json(nullptr) : json(s.unit);
  return j;
}

}  // namespace

json describe_json() {
  json engines = json::array(), workloads = json::array();
  for (const auto& e : engine_registry()) {
    json knobs = json::array();
    for (const auto& s : e.knobs) knobs.push_back(spec_json(s));
    engines.push_back({{"name", e.name}, {"description", e.description}, {"library", e.library},
                       {"library_version", e.library_version}, {"available", static_cast<bool>(e.make)},
                       {"knob_namespace", knob_namespace(e.name)}, {"knobs", knobs}});
  }
  json targets = json::array();
  for (const auto& t : target_registry()) {
    json knobs = json::array(), conn = json::array();
    for (const auto& s : t.knobs) knobs.push_back(spec_json(s));
    for (const auto& kv : t.connection) conn.push_back({{"name", kv.first}, {"help", kv.second}});
    targets.push_back({{"name", t.name}, {"description", t.description}, {"library", t.library},
                       {"library_version", t.library_version}, {"available", static_cast<bool>(t.make)},
                       {"knob_namespace", t.knob_namespace}, {"knobs", knobs}, {"workloads", t.workloads},
                       {"connection", conn}});
  }
  for (const auto& w : workload_registry()) {
    json params = json::array();
    for (const auto& s : w.params) params.push_back(spec_json(s));
    workloads.push_back({{"name", w.name}, {"description", w.description}, {"params", params}});
  }
  return {{"driver_version", kDriverVersion}, {"engines", engines}, {"targets", targets}, {"workloads", workloads}};
}

}  // namespace eb
