// Typed, declared parameters: engine knobs and workload parameters share one declaration form so
// that validation (and the list of valid choices printed on refusal) has a single implementation.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace eb {
using json = nlohmann::json;

enum class ParamType {
  Bool,    // true/false, 1/0, on/off, yes/no
  Int,     // signed 64-bit integer
  Bytes,   // integer byte count; also "64KB", "512MB", "1GB", "2GiB" (KB/MB/GB = powers of 1024)
  Double,  // floating point
  String,  // free text
  Enum,    // one of `choices`
  IntList  // list of integers, e.g. [1,2,4] or "1,2,4"
};

struct ParamSpec {
  std::string name;           // unqualified: "cache_size" (engine knobs are addressed as "engine.name")
  ParamType type;
  json default_value;         // already of the parsed type
  std::string help;           // one line
  std::vector<std::string> choices = {};  // Enum only
};

// Resolved values: every declared name present, values of the declared type (bool, int64, double,
// string, array of int64).
using ParamValues = std::map<std::string, json>;

}  // namespace eb
