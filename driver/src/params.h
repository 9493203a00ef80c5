// Typed, declared parameters: engine knobs and workload parameters share one declaration form so
// that validation (and the list of valid choices, or the range, printed on refusal) has a single
// implementation (core/param_parse.cc).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <utility>
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
  Name,    // one file-system name (a table, collection or prefix): see kNameRule
  Enum,    // one of `choices`
  IntList  // list of integers, e.g. [1,2,4] or "1,2,4"
};

// The range of a numeric parameter (Int, Bytes, Double; IntList: each element), each end optional.
// Made by the helpers below so that a declaration reads as what it means: at_least(1),
// in_range(0, 100), above(0), strictly_between(0, 1). Every bound used is an integer below 2^53 or
// a plain decimal, exact as a double.
struct Range {
  std::optional<double> min, max;
  bool min_exclusive = false, max_exclusive = false;
};
inline Range unbounded() { return {}; }                           // any value (a unit without a range)
inline Range at_least(double lo) { return {lo, std::nullopt}; }   // >= lo
inline Range at_most(double hi) { return {std::nullopt, hi}; }    // <= hi
inline Range in_range(double lo, double hi) { return {lo, hi}; }  // [lo, hi]
inline Range above(double lo) { return {lo, std::nullopt, true, false}; }               // > lo
inline Range strictly_between(double lo, double hi) { return {lo, hi, true, true}; }  // (lo, hi)

// What a ParamType::Name value is: it names tables, collections and their files inside the run's
// data directory (WiredTiger's <name>.wt, a MariaDB table's .ibd), so never a path: no '/', no
// '..', no NUL, nothing an SQL statement would need quoted.
constexpr size_t kNameMax = 48;
bool is_file_name(const std::string& s);  // 1..kNameMax of [A-Za-z0-9_] (core/param_parse.cc)
std::string name_rule();                  // the rule in words, as refusals and `describe` say it

// Upper bounds of the counts that become threads, per-request buffers or tables (issue 42 item 4): fixed, so
// `describe` states them, and far above any experiment (the shipped ones use at most 32 threads). A
// request's buffers inside these bounds are checked against the machine's memory by the workload's
// check (need_memory, workload.h).
constexpr double kMaxThreads = 1024;        // threads of one kind (ycsb threads, sysbench clients)
constexpr double kMaxBatch = 1000000;       // documents, rows or keys per request or transaction
constexpr double kMaxRowsPerRead = 1000000;  // rows one read returns (a scan, a range query, a links list)
constexpr double kMaxFields = 1000;         // fields per document (ycsb fieldcount)

constexpr double kKiB = 1024.0, kMiB = kKiB * 1024, kGiB = kMiB * 1024, kTiB = kGiB * 1024;

struct ParamSpec {
  std::string name;           // unqualified: "cache_size" (engine knobs are addressed as "engine.name")
  ParamType type;
  json default_value;         // already of the parsed type
  std::string help;           // one line
  std::vector<std::string> choices;  // Enum only
  Range bounds;               // Int, Bytes, Double, IntList (each element): refused outside by the core
  std::string unit;           // of the numbers where one applies: "bytes", "s", "percent", "characters"

  // Any type (Enum: with its choices); no range.
  ParamSpec(std::string name, ParamType type, json default_value, std::string help,
            std::vector<std::string> choices = {})
      : name(std::move(name)), type(type), default_value(std::move(default_value)), help(std::move(help)),
        choices(std::move(choices)) {
    normalize();
  }
  // Int, Bytes, Double, IntList: the range, and the unit where one applies.
  ParamSpec(std::string name, ParamType type, json default_value, std::string help, Range bounds,
            std::string unit = "")
      : name(std::move(name)), type(type), default_value(std::move(default_value)), help(std::move(help)),
        bounds(bounds), unit(std::move(unit)) {
    normalize();
  }

  bool is_numeric() const {
    return type == ParamType::Int || type == ParamType::Bytes || type == ParamType::Double ||
           type == ParamType::IntList;
  }

 private:
  // A byte count is never negative (the parser refuses "-1" as no byte count) and is in bytes.
  void normalize() {
    if (type != ParamType::Bytes) return;
    if (!bounds.min) bounds.min = 0;
    if (unit.empty()) unit = "bytes";
  }
};

// Resolved values: every declared name present, values of the declared type (bool, int64, double,
// string, array of int64).
using ParamValues = std::map<std::string, json>;

}  // namespace eb
