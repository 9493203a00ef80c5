// Typed parameter parsing (ParamSpec values of knobs and params): ints, bytes ("64KB"), doubles,
// bools, enums, strings and lists, each failure naming the expected type; then the spec's range
// (ParamSpec::bounds), each refusal naming it. The one place a knob's or a param's range is checked.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/config.h"
#include "core/config_internal.h"

namespace eb {
namespace cfg {

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

}  // namespace cfg

using namespace cfg;

namespace {

// A bound as refusals and `describe` show it: integers without a decimal point, byte counts that are
// a whole number of KiB with their binary unit ("1MiB", which the parser takes back).
std::string number_text(const ParamSpec& spec, double v) {
  if (spec.type == ParamType::Bytes && v > 0 && std::fmod(v, 1024) == 0) {
    static const char* const units[] = {"KiB", "MiB", "GiB", "TiB"};
    double d = v / 1024;
    int u = 0;
    while (u < 3 && std::fmod(d, 1024) == 0) d /= 1024, ++u;
    return std::to_string(static_cast<long long>(d)) + units[u];
  }
  if (v == std::floor(v) && std::fabs(v) < 9e15) return std::to_string(static_cast<long long>(v));
  std::ostringstream os;
  os << std::setprecision(15) << v;
  return os.str();
}

// The numeric types' nouns, as refusals name them.
std::string noun(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::Int: return "an integer";
    case ParamType::Bytes: return "a byte count";
    case ParamType::Double: return "a number";
    case ParamType::IntList: return "integers";
    default: return "a value";
  }
}

// What a value of the spec's type is: the type, its range, and the spellings it takes.
std::string expected(const ParamSpec& spec) {
  std::string range = range_text(spec);
  if (!range.empty()) range = " " + range;
  switch (spec.type) {
    case ParamType::Bool: return "a boolean (true/false, 1/0, on/off, yes/no)";
    case ParamType::Int: return "an integer" + range;
    case ParamType::Bytes: return "a byte count" + range + " (integer, or like 64KB, 512MB, 1GB, 2GiB)";
    case ParamType::Double: return "a number" + range;
    case ParamType::String: return "a string";
    case ParamType::Name: return name_rule();
    case ParamType::Enum: return "one of: " + join(spec.choices);
    case ParamType::IntList: return "a list of integers" + range + " (like [1,2,4] or \"1,2,4\")";
  }
  return "?";
}

bool inside(const Range& r, double v) {
  if (r.min && (r.min_exclusive ? !(v > *r.min) : !(v >= *r.min))) return false;
  if (r.max && (r.max_exclusive ? !(v < *r.max) : !(v <= *r.max))) return false;
  return true;
}

}  // namespace

std::string range_text(const ParamSpec& spec) {
  const Range& r = spec.bounds;
  auto num = [&](double d) { return number_text(spec, d); };
  if (r.min && r.max)
    return "in " + std::string(r.min_exclusive ? "(" : "[") + num(*r.min) + ", " + num(*r.max) +
           (r.max_exclusive ? ")" : "]");
  if (r.min) return (r.min_exclusive ? "> " : ">= ") + num(*r.min);
  if (r.max) return (r.max_exclusive ? "< " : "<= ") + num(*r.max);
  return "";
}

bool in_bounds(const ParamSpec& spec, const json& value) {
  switch (spec.type) {
    case ParamType::Int:
    case ParamType::Bytes: return inside(spec.bounds, static_cast<double>(value.get<int64_t>()));
    case ParamType::Double: return inside(spec.bounds, value.get<double>());
    case ParamType::IntList:
      for (const auto& e : value)
        if (!inside(spec.bounds, static_cast<double>(e.get<int64_t>()))) return false;
      return true;
    default: return true;
  }
}

const char* param_type_name(ParamType t) {
  switch (t) {
    case ParamType::Bool: return "bool";
    case ParamType::Int: return "int";
    case ParamType::Bytes: return "bytes";
    case ParamType::Double: return "double";
    case ParamType::String: return "string";
    case ParamType::Name: return "name";
    case ParamType::Enum: return "enum";
    case ParamType::IntList: return "int_list";
  }
  return "?";
}

bool is_file_name(const std::string& s) {
  if (s.empty() || s.size() > kNameMax) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::string name_rule() {
  return "one file-system name: 1 to " + std::to_string(kNameMax) +
         " letters, digits or '_' (no '/', '..' or other path; it names tables and files inside the data directory)";
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

namespace {

// One parser per ParamType: true with the typed value in *out, false when v is not one.
bool parse_bool(const json& v, json* out) {
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
  return false;
}

bool parse_int(const json& v, json* out) {
  int64_t i;
  if (!json_to_int(v, &i)) return false;
  *out = i;
  return true;
}

bool parse_bytes_value(const json& v, json* out) {
  int64_t i;
  if (!(v.is_string() ? parse_bytes(v.get<std::string>(), &i) : json_to_int(v, &i)) || i < 0) return false;
  *out = i;
  return true;
}

bool parse_double(const json& v, json* out) {
  if (v.is_number()) { *out = v.get<double>(); return true; }
  if (!v.is_string()) return false;
  std::string s = trim(v.get<std::string>());
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (s.empty() || !end || *end != '\0' || !std::isfinite(d)) return false;
  *out = d;
  return true;
}

bool parse_string(const json& v, json* out) {
  if (v.is_string()) { *out = v; return true; }
  if (v.is_number() || v.is_boolean()) { *out = v.dump(); return true; }
  return false;
}

bool parse_enum(const std::vector<std::string>& choices, const json& v, json* out) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (std::find(choices.begin(), choices.end(), s) == choices.end()) return false;
  *out = s;
  return true;
}

// A JSON array of integers, a comma-separated string of them, or one integer.
bool parse_int_list(const json& v, json* out) {
  json a = json::array();
  if (v.is_array()) {
    for (const auto& e : v) {
      int64_t i;
      if (!json_to_int(e, &i)) return false;
      a.push_back(i);
    }
  } else if (v.is_string()) {
    std::stringstream ss(v.get<std::string>());
    std::string part;
    while (std::getline(ss, part, ',')) {
      int64_t i;
      if (!parse_int_str(part, &i)) return false;
      a.push_back(i);
    }
  } else if (v.is_number_integer()) {
    a.push_back(v.get<int64_t>());
  } else {
    return false;
  }
  *out = a;
  return true;
}

bool parse_typed(const ParamSpec& spec, const json& v, json* out) {
  switch (spec.type) {
    case ParamType::Bool: return parse_bool(v, out);
    case ParamType::Int: return parse_int(v, out);
    case ParamType::Bytes: return parse_bytes_value(v, out);
    case ParamType::Double: return parse_double(v, out);
    case ParamType::String: return parse_string(v, out);
    case ParamType::Name: return v.is_string() && is_file_name(v.get<std::string>()) && parse_string(v, out);
    case ParamType::Enum: return parse_enum(spec.choices, v, out);
    case ParamType::IntList: return parse_int_list(v, out);
  }
  return false;
}

}  // namespace

bool parse_param(const ParamSpec& spec, const json& v, json* out, std::string* error) {
  if (!parse_typed(spec, v, out)) {
    *error = "expected " + expected(spec) + ", got " + v.dump();
    return false;
  }
  if (in_bounds(spec, *out)) return true;
  // "expected an integer >= 1, got 0", as the workloads' own checks said it before the ranges
  // were declared in their specs.
  *error = "expected " + noun(spec) + " " + range_text(spec) + ", got " + v.dump();
  return false;
}

}  // namespace eb
