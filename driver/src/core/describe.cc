// `engbench-driver describe`: every engine, target and workload with its knobs or params (JSON).
#include "core/config.h"

namespace eb {
namespace {

json spec_json(const ParamSpec& s) {
  json j = {{"name", s.name}, {"type", param_type_name(s.type)}, {"default", s.default_value},
            {"help", s.help}};
  j["choices"] = s.type == ParamType::Enum ? json(s.choices) : json(nullptr);
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
