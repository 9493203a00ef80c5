#include "core/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace eb {

const char* const kDriverVersion = "0.1.0";

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

bool parse_int_str(const std::string& s0, int64_t* out) {
  std::string s = trim(s0);
  if (s.empty()) return false;
  size_t pos = 0;
  try {
    long long v = std::stoll(s, &pos, 10);
    if (pos != s.size()) return false;
    *out = v;
    return true;
  } catch (...) {
    return false;
  }
}

bool json_to_int(const json& v, int64_t* out) {
  if (v.is_number_integer()) {
    *out = v.get<int64_t>();
    return true;
  }
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::floor(d) != d || std::fabs(d) > 9.2e18) return false;
    *out = static_cast<int64_t>(d);
    return true;
  }
  if (v.is_string()) return parse_int_str(v.get<std::string>(), out);
  return false;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

std::string expected(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::Bool: return "a boolean (true/false, 1/0, on/off, yes/no)";
    case ParamType::Int: return "an integer";
    case ParamType::Bytes: return "a byte count (integer, or like 64KB, 512MB, 1GB, 2GiB)";
    case ParamType::Double: return "a number";
    case ParamType::String: return "a string";
    case ParamType::Enum: return "one of: " + join(spec.choices);
    case ParamType::IntList: return "a list of integers (like [1,2,4] or \"1,2,4\")";
  }
  return "?";
}

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

json spec_json(const ParamSpec& s) {
  json j = {{"name", s.name}, {"type", param_type_name(s.type)}, {"default", s.default_value},
            {"help", s.help}};
  j["choices"] = s.type == ParamType::Enum ? json(s.choices) : json(nullptr);
  return j;
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

const char* param_type_name(ParamType t) {
  switch (t) {
    case ParamType::Bool: return "bool";
    case ParamType::Int: return "int";
    case ParamType::Bytes: return "bytes";
    case ParamType::Double: return "double";
    case ParamType::String: return "string";
    case ParamType::Enum: return "enum";
    case ParamType::IntList: return "int_list";
  }
  return "?";
}

std::string knob_namespace(const std::string& engine) {
  if (engine == "wiredtiger-lsm") return "wiredtiger";
  for (const auto& t : target_registry())
    if (t.name == engine) return t.knob_namespace;
  return engine;
}

bool parse_bytes(const std::string& s0, int64_t* out) {
  std::string s = trim(s0);
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
  if (i == 0) return false;
  std::string num = s.substr(0, i), unit = lower(trim(s.substr(i)));
  double mult;
  if (unit.empty() || unit == "b") mult = 1;
  else if (unit == "k" || unit == "kb" || unit == "kib") mult = 1024.0;
  else if (unit == "m" || unit == "mb" || unit == "mib") mult = 1024.0 * 1024;
  else if (unit == "g" || unit == "gb" || unit == "gib") mult = 1024.0 * 1024 * 1024;
  else if (unit == "t" || unit == "tb" || unit == "tib") mult = 1024.0 * 1024 * 1024 * 1024;
  else return false;
  char* end = nullptr;
  double v = std::strtod(num.c_str(), &end);
  if (!end || *end != '\0') return false;
  double bytes = v * mult;
  if (bytes != std::floor(bytes) || bytes > 9.2e18) return false;
  *out = static_cast<int64_t>(bytes);
  return true;
}

bool parse_param(const ParamSpec& spec, const json& v, json* out, std::string* error) {
  auto fail = [&](const std::string& got) {
    *error = "expected " + expected(spec) + ", got " + got;
    return false;
  };
  std::string shown = v.dump();
  switch (spec.type) {
    case ParamType::Bool: {
      if (v.is_boolean()) { *out = v; return true; }
      if (v.is_number_integer() && (v.get<int64_t>() == 0 || v.get<int64_t>() == 1)) {
        *out = v.get<int64_t>() == 1;
        return true;
      }
      if (v.is_string()) {
        std::string l = lower(trim(v.get<std::string>()));
        if (l == "true" || l == "1" || l == "on" || l == "yes") { *out = true; return true; }
        if (l == "false" || l == "0" || l == "off" || l == "no") { *out = false; return true; }
      }
      return fail(shown);
    }
    case ParamType::Int: {
      int64_t i;
      if (json_to_int(v, &i)) { *out = i; return true; }
      return fail(shown);
    }
    case ParamType::Bytes: {
      int64_t i;
      if (v.is_string() ? parse_bytes(v.get<std::string>(), &i) : json_to_int(v, &i)) {
        if (i < 0) return fail(shown);
        *out = i;
        return true;
      }
      return fail(shown);
    }
    case ParamType::Double: {
      if (v.is_number()) { *out = v.get<double>(); return true; }
      if (v.is_string()) {
        std::string s = trim(v.get<std::string>());
        char* end = nullptr;
        double d = std::strtod(s.c_str(), &end);
        if (!s.empty() && end && *end == '\0' && std::isfinite(d)) { *out = d; return true; }
      }
      return fail(shown);
    }
    case ParamType::String:
      if (v.is_string()) { *out = v; return true; }
      if (v.is_number() || v.is_boolean()) { *out = v.dump(); return true; }
      return fail(shown);
    case ParamType::Enum: {
      std::string s = v.is_string() ? v.get<std::string>() : v.dump();
      if (std::find(spec.choices.begin(), spec.choices.end(), s) != spec.choices.end()) {
        *out = s;
        return true;
      }
      return fail(shown);
    }
    case ParamType::IntList: {
      json a = json::array();
      if (v.is_array()) {
        for (const auto& e : v) {
          int64_t i;
          if (!json_to_int(e, &i)) return fail(shown);
          a.push_back(i);
        }
      } else if (v.is_string()) {
        std::stringstream ss(v.get<std::string>());
        std::string part;
        while (std::getline(ss, part, ',')) {
          int64_t i;
          if (!parse_int_str(part, &i)) return fail(shown);
          a.push_back(i);
        }
      } else if (v.is_number_integer()) {
        a.push_back(v.get<int64_t>());
      } else {
        return fail(shown);
      }
      *out = a;
      return true;
    }
  }
  return fail(shown);
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

bool resolve_config(const json& raw, ResolvedConfig* out, std::vector<std::string>* problems) {
  size_t before = problems->size();
  out->raw = raw;
  if (!raw.is_object()) {
    problems->push_back("config must be a mapping with keys workload, engine, knobs, params, seed, data_dir, output_dir");
    return false;
  }
  static const std::vector<std::string> keys = {"workload", "engine", "knobs", "params",
                                                "seed", "data_dir", "output_dir", "target",
                                                "drop_caches_after_load"};
  for (auto it = raw.begin(); it != raw.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
      problems->push_back("unknown config key '" + it.key() + "'; valid: " + join(keys));

  // engine
  out->engine = nullptr;
  std::string ename = raw.contains("engine") && raw["engine"].is_string() ? raw["engine"].get<std::string>() : "";
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
  std::string wname = raw.contains("workload") && raw["workload"].is_string() ? raw["workload"].get<std::string>() : "";
  for (const auto& w : workload_registry())
    if (w.name == wname) out->workload = &w;
  if (!out->workload)
    problems->push_back((wname.empty() ? std::string("missing workload") : "unknown workload '" + wname + "'") +
                        "; valid: " + join(names_of_workloads()));

  json knobs = raw.contains("knobs") ? raw["knobs"] : json(nullptr);
  json params = raw.contains("params") ? raw["params"] : json(nullptr);
  out->knobs.clear();
  out->params.clear();
  if (out->engine)
    resolve_params(out->engine->knobs, knobs, knob_namespace(out->engine->name) + ".", "knob", &out->knobs,
                   problems);
  // target: the connection section of a server target (refused for KV engines)
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
  if (out->workload) {
    resolve_params(out->workload->params, params, "", "param", &out->params, problems);
    if (problems->size() == before && out->workload->check) out->workload->check(out->params, problems);
  }

  // seed
  out->seed = 1;
  if (raw.contains("seed") && !raw["seed"].is_null()) {
    int64_t s;
    if (json_to_int(raw["seed"], &s) && s >= 0) out->seed = static_cast<uint64_t>(s);
    else if (raw["seed"].is_number_unsigned()) out->seed = raw["seed"].get<uint64_t>();
    else problems->push_back("bad value for 'seed': expected a non-negative integer, got " + raw["seed"].dump());
  }
  for (const char* k : {"data_dir", "output_dir"}) {
    std::string v = raw.contains(k) && raw[k].is_string() ? raw[k].get<std::string>() : "";
    if (v.empty()) problems->push_back(std::string("missing '") + k + "': expected a path (string)");
    (k[0] == 'd' ? out->data_dir : out->output_dir) = v;
  }
  out->drop_caches_after_load = false;
  if (raw.contains("drop_caches_after_load") && !raw["drop_caches_after_load"].is_null()) {
    if (raw["drop_caches_after_load"].is_boolean()) out->drop_caches_after_load = raw["drop_caches_after_load"].get<bool>();
    else problems->push_back("bad value for 'drop_caches_after_load': expected true or false, got " +
                             raw["drop_caches_after_load"].dump());
  }
  if (!out->data_dir.empty() && out->data_dir == out->output_dir)
    problems->push_back("data_dir and output_dir must differ");
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
  if (target) {
    json c = target_conn;
    if (c.is_object() && c.contains("password")) c["password"] = "***";
    if (c.is_object() && c.contains("uri") && c["uri"].is_string()) c["uri"] = redact_uri(c["uri"].get<std::string>());
    out["target"] = c;
  }
  return out;
}

const std::string& ResolvedConfig::backend_name() const {
  static const std::string none;
  return engine ? engine->name : target ? target->name : none;
}

std::string redact_uri(const std::string& uri) {
  // scheme://user:password@host... → scheme://user:***@host...
  size_t scheme = uri.find("://");
  if (scheme == std::string::npos) return uri;
  size_t start = scheme + 3;
  size_t end = uri.find_first_of("/?#", start);
  std::string authority = uri.substr(start, end == std::string::npos ? std::string::npos : end - start);
  size_t at = authority.rfind('@');
  if (at == std::string::npos) return uri;
  std::string userinfo = authority.substr(0, at);
  size_t colon = userinfo.find(':');
  std::string shown = colon == std::string::npos ? "***" : userinfo.substr(0, colon) + ":***";
  return uri.substr(0, start) + shown + uri.substr(start + at);
}

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
