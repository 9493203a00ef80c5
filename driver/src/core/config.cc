#include "core/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/config_internal.h"
#include "core/redact.h"

namespace eb {

const char* const kDriverVersion = "0.1.0";

using namespace cfg;

namespace {

json yaml_to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return nullptr;
    case YAML::NodeType::Sequence: {
      json a = json::array();
      for (const auto& e : n) a.push_back(yaml_to_json(e));
      return a;
    }
    case YAML::NodeType::Map: {
      json o = json::object();
      for (const auto& kv : n) o[kv.first.as<std::string>()] = yaml_to_json(kv.second);
      return o;
    }
    case YAML::NodeType::Scalar: {
      std::string s = n.Scalar();
      if (n.Tag() == "!") return s;  // quoted: keep as a string
      // A plain `null` stays the string "null" (the engine of that name); `~` or empty is null.
      if (s.empty() || s == "~") return nullptr;
      int64_t i;
      if (parse_int_str(s, &i)) return i;
      char* end = nullptr;
      double d = std::strtod(s.c_str(), &end);
      if (!s.empty() && end && *end == '\0') return d;
      std::string l = lower(s);
      if (l == "true") return true;
      if (l == "false") return false;
      return s;
    }
  }
  return nullptr;
}

std::vector<std::string> names_of_engines() {
  std::vector<std::string> v;
  for (const auto& e : engine_registry()) v.push_back(e.name);
  for (const auto& t : target_registry()) v.push_back(t.name);
  return v;
}
std::vector<std::string> names_of_workloads() {
  std::vector<std::string> v;
  for (const auto& w : workload_registry()) v.push_back(w.name);
  return v;
}

// Resolve a map of given values against specs; problems name the valid choices.
void resolve_params(const std::vector<ParamSpec>& specs, const json& given, const std::string& prefix,
                    const std::string& what, ParamValues* out, std::vector<std::string>* problems) {
  for (const auto& s : specs) (*out)[s.name] = s.default_value;
  if (given.is_null()) return;
  if (!given.is_object()) {
    problems->push_back("'" + what + "' must be a mapping of name to value");
    return;
  }
  std::vector<std::string> valid;
  for (const auto& s : specs) valid.push_back(prefix + s.name);
  for (auto it = given.begin(); it != given.end(); ++it) {
    std::string key = it.key();
    std::string name = key;
    if (!prefix.empty()) {
      if (key.compare(0, prefix.size(), prefix) != 0) {
        problems->push_back("unknown " + what + " '" + key + "': knobs are namespaced '" + prefix +
                            "<knob>'; valid: " + join(valid));
        continue;
      }
      name = key.substr(prefix.size());
    }
    auto sp = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == name; });
    if (sp == specs.end()) {
      problems->push_back("unknown " + what + " '" + key + "'; valid: " + (valid.empty() ? "(none)" : join(valid)));
      continue;
    }
    json v;
    std::string err;
    if (!parse_param(*sp, it.value(), &v, &err)) {
      problems->push_back("bad value for " + what + " '" + key + "': " + err);
      continue;
    }
    (*out)[name] = v;
  }
}

}  // namespace
std::string knob_namespace(const std::string& engine) {
  if (engine == "wiredtiger-lsm") return "wiredtiger";
  for (const auto& t : target_registry())
    if (t.name == engine) return t.knob_namespace;
  return engine;
}
json load_config_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read config file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::string ext = lower(path.substr(path.find_last_of('.') == std::string::npos ? path.size()
                                                                                   : path.find_last_of('.')));
  try {
    if (ext == ".yaml" || ext == ".yml") {
      json j = yaml_to_json(YAML::Load(text));
      // `engine: null` is YAML's null value, but here it names the null engine.
      if (j.is_object() && j.contains("engine") && j["engine"].is_null()) j["engine"] = "null";
      return j;
    }
    if (ext == ".json") return json::parse(text);
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot parse config file " + path + ": " + e.what());
  }
  throw std::runtime_error("config file " + path + ": extension must be .json, .yaml or .yml");
}

namespace {

// A string key of the config ("" when absent or not a string).
std::string string_key(const json& raw, const char* k) {
  return raw.contains(k) && raw[k].is_string() ? raw[k].get<std::string>() : "";
}

// The config's keys, its engine (a KV engine or a server target) and its workload.
void resolve_names(const json& raw, ResolvedConfig* out, std::vector<std::string>* problems) {
  static const std::vector<std::string> keys = {"workload", "engine", "knobs", "params",
                                                "seed", "data_dir", "output_dir", "target",
                                                "drop_caches_after_load", "reopen_after_load"};
  for (auto it = raw.begin(); it != raw.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
      problems->push_back("unknown config key '" + it.key() + "'; valid: " + join(keys));

  // engine
  out->engine = nullptr;
  std::string ename = string_key(raw, "engine");
  for (const auto& e : engine_registry())
    if (e.name == ename) out->engine = &e;
  out->target = nullptr;
  for (const auto& t : target_registry())
    if (t.name == ename) out->target = &t;
  if (!out->engine && !out->target)
    problems->push_back((ename.empty() ? std::string("missing engine") : "unknown engine '" + ename + "'") +
                        "; valid: " + join(names_of_engines()));
  // workload
  out->workload = nullptr;
  std::string wname = string_key(raw, "workload");
  for (const auto& w : workload_registry())
    if (w.name == wname) out->workload = &w;
  if (!out->workload)
    problems->push_back((wname.empty() ? std::string("missing workload") : "unknown workload '" + wname + "'") +
                        "; valid: " + join(names_of_workloads()));
}

// A server target's knobs, its connection section and whether the workload runs on it; the
// connection section is refused for KV engines.
void resolve_target(const json& raw, const json& knobs, ResolvedConfig* out, std::vector<std::string>* problems) {
  std::string ename = string_key(raw, "engine");
  out->target_conn = raw.contains("target") && !raw["target"].is_null() ? raw["target"] : json::object();
  if (out->target) {
    const TargetInfo& t = *out->target;
    resolve_params(t.knobs, knobs, t.knob_namespace + ".", "knob", &out->knobs, problems);
    std::vector<std::string> valid;
    for (const auto& kv : t.connection) valid.push_back(kv.first);
    if (!out->target_conn.is_object()) {
      problems->push_back("'target' must be a mapping; valid keys: " + join(valid));
    } else {
      for (auto it = out->target_conn.begin(); it != out->target_conn.end(); ++it) {
        if (std::find(valid.begin(), valid.end(), it.key()) == valid.end())
          problems->push_back("unknown target key '" + it.key() + "' for " + t.name + "; valid: " + join(valid));
        else if (it.key() == "port" ? !it.value().is_number_integer() : !it.value().is_string())
          problems->push_back("bad value for target key '" + it.key() + "': expected " +
                              (it.key() == "port" ? "an integer" : "a string"));
        else if (it.key() == "database" && !is_file_name(it.value().get<std::string>()))
          problems->push_back("bad value for target key 'database': expected " + name_rule() + ", got " +
                              it.value().dump());
      }
      if (t.check_connection) t.check_connection(out->target_conn, problems);
    }
    if (out->workload && std::find(t.workloads.begin(), t.workloads.end(), out->workload->name) == t.workloads.end())
      problems->push_back("workload '" + out->workload->name + "' does not run on target " + t.name +
                          "; it runs: " + join(t.workloads));
  } else if (raw.contains("target") && !raw["target"].is_null() && !raw["target"].empty()) {
    problems->push_back("'target' (connection details) is for server targets only: " +
                        std::string("engine '") + ename + "' is not one");
  }
}

// seed, data_dir, output_dir, drop_caches_after_load, reopen_after_load.
void resolve_run_keys(const json& raw, ResolvedConfig* out, std::vector<std::string>* problems) {
  out->seed = 1;
  if (raw.contains("seed") && !raw["seed"].is_null()) {
    int64_t s;
    if (json_to_int(raw["seed"], &s) && s >= 0) out->seed = static_cast<uint64_t>(s);
    else if (raw["seed"].is_number_unsigned()) out->seed = raw["seed"].get<uint64_t>();
    else problems->push_back("bad value for 'seed': expected a non-negative integer, got " + raw["seed"].dump());
  }
  for (const char* k : {"data_dir", "output_dir"}) {
    std::string v = string_key(raw, k);
    if (v.empty()) problems->push_back(std::string("missing '") + k + "': expected a path (string)");
    (k[0] == 'd' ? out->data_dir : out->output_dir) = v;
  }
  for (const char* k : {"drop_caches_after_load", "reopen_after_load"}) {
    bool v = false;
    if (raw.contains(k) && !raw[k].is_null()) {
      if (raw[k].is_boolean()) v = raw[k].get<bool>();
      else problems->push_back(std::string("bad value for '") + k + "': expected true or false, got " + raw[k].dump());
    }
    (k[0] == 'd' ? out->drop_caches_after_load : out->reopen_after_load) = v;
  }
  if (out->reopen_after_load && out->target)
    problems->push_back("'reopen_after_load' is for KV engines only: the driver does not restart server " +
                        std::string("target ") + out->target->name);
  if (!out->data_dir.empty() && out->data_dir == out->output_dir)
    problems->push_back("data_dir and output_dir must differ");
}

}  // namespace

bool resolve_config(const json& raw, ResolvedConfig* out, std::vector<std::string>* problems) {
  size_t before = problems->size();
  out->raw = raw;
  if (!raw.is_object()) {
    problems->push_back("config must be a mapping with keys workload, engine, knobs, params, seed, data_dir, output_dir");
    return false;
  }
  resolve_names(raw, out, problems);

  json knobs = raw.contains("knobs") ? raw["knobs"] : json(nullptr);
  json params = raw.contains("params") ? raw["params"] : json(nullptr);
  out->knobs.clear();
  out->params.clear();
  if (out->engine)
    resolve_params(out->engine->knobs, knobs, knob_namespace(out->engine->name) + ".", "knob", &out->knobs,
                   problems);
  resolve_target(raw, knobs, out, problems);
  if (out->workload) {
    resolve_params(out->workload->params, params, "", "param", &out->params, problems);
    if (problems->size() == before && out->workload->check) out->workload->check(out->params, problems);
    if (problems->size() == before && out->workload->check_backend)
      out->workload->check_backend(out->backend_name(), out->params, problems);
  }
  resolve_run_keys(raw, out, problems);
  return problems->size() == before;
}

json ResolvedConfig::to_json() const {
  json k = json::object(), p = json::object();
  std::string ns = engine ? knob_namespace(engine->name) + "." : target ? target->knob_namespace + "." : "";
  for (const auto& [n, v] : knobs) k[ns + n] = v;
  for (const auto& [n, v] : params) p[n] = v;
  json out = {{"workload", workload ? workload->name : ""}, {"engine", backend_name()},
              {"knobs", k}, {"params", p}, {"seed", seed}, {"data_dir", data_dir}, {"output_dir", output_dir}};
  if (drop_caches_after_load) out["drop_caches_after_load"] = true;  // absent when false: configs stay as they were
  if (reopen_after_load) out["reopen_after_load"] = true;
  if (target) {
    out["target"] = redact_target_conn(target_conn);
  }
  return out;
}

const std::string& ResolvedConfig::backend_name() const {
  static const std::string none;
  return engine ? engine->name : target ? target->name : none;
}
}  // namespace eb
