// Config loading (JSON/YAML) and validation (config.cc), typed parameter parsing (param_parse.cc),
// `describe` (describe.cc); redaction of secrets in what is shown: core/redact.h.
#pragma once
#include <string>
#include <vector>

#include "engine.h"
#include "core/redact.h"
#include "params.h"
#include "target.h"
#include "workload.h"

namespace eb {

extern const char* const kDriverVersion;

struct ResolvedConfig {
  const EngineInfo* engine = nullptr;  // a KV engine, or
  const TargetInfo* target = nullptr;  // a server target (docs/driver.md "Server targets")
  json target_conn = json::object();   // the config's `target` section (connection details)
  const WorkloadInfo* workload = nullptr;
  ParamValues knobs;   // unqualified names, every declared knob
  ParamValues params;  // every declared param
  uint64_t seed = 1;
  std::string data_dir, output_dir;
  // `drop_caches_after_load`: sync and drop the kernel's page cache between the workload's load
  // (setup) and its measured phase (needs root; engbench's run.drop_caches=between).
  bool drop_caches_after_load = false;
  // `reopen_after_load`: close the engine and open it again (a fresh engine object, the same
  // directory and knobs) between the load and the measured phase, as a server restart would
  // (core/reopen.h; engbench's run.reopen_after_load). With drop_caches_after_load the page cache
  // is dropped while the engine is closed. KV engines only.
  bool reopen_after_load = false;
  json raw;  // as given
  json to_json() const;  // resolved config (knobs namespaced as in the input; a password shown as ***)
  const std::string& backend_name() const;  // engine or target name
};

// The knob namespace of an engine ("wiredtiger" for wiredtiger and wiredtiger-lsm).
std::string knob_namespace(const std::string& engine);

const char* param_type_name(ParamType t);

// Parse one value per its spec and check it against the spec's range. On failure returns false with
// a message naming the expected type with its range (and the choices for enums).
bool parse_param(const ParamSpec& spec, const json& value, json* out, std::string* error);
// A value of the spec's type (as parse_param returns it) inside the spec's range (IntList: each)?
bool in_bounds(const ParamSpec& spec, const json& value);
// The range in the words of the refusals: ">= 1", "in [0, 100]", "in (0, 1)", "in [1MiB, 10TiB]";
// "" when the spec has none.
std::string range_text(const ParamSpec& spec);
// "64KB" → 65536 (KB/MB/GB/TB and KiB/MiB/GiB/TiB = powers of 1024; B optional).
bool parse_bytes(const std::string& s, int64_t* out);

// Read a JSON or YAML file (by extension) into JSON. Throws std::runtime_error.
json load_config_file(const std::string& path);

// Resolve and type-check; every problem goes to `problems`, each with the valid choices.
bool resolve_config(const json& raw, ResolvedConfig* out, std::vector<std::string>* problems);

json describe_json();

}  // namespace eb
