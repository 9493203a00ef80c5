// Server targets: real database servers the driver reaches as a client (MariaDB with InnoDB or
// MyRocks over libmariadb, any MongoDB by URI over libmongoc). They are not key/value engines, so
// each workload that runs on them declares a *store* interface with what it needs from a server
// (workloads/<name>/store.h); the KV engines get the Collection-based implementation of it
// (store_kv.cc), the servers a SQL one (store_mariadb.cc) or a MongoDB one (store_mongodb.cc), on
// the backend's client plumbing (targets/mariadb/mariadb.h, targets/mongodb/mongodb.h). The workload
// generates every operation itself, so every target receives the same operation stream (and the
// same op_stream_hash). Stores only carry out requests and return what a client gets back; the
// workloads count logical bytes themselves, from the request and those results (docs/driver.md
// "Logical bytes"), so every target counts them the same way.
//
// Threading: one Target per process; a store is made once at setup; one client per worker thread.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine.h"
#include "params.h"

namespace eb {

class Target {
 public:
  virtual ~Target() = default;
  // The client plumbing the target is reached through: "mariadb", "mongodb". A workload picks its
  // store for the target by this name (StoreFactories::for_target).
  virtual std::string backend() const = 0;
  // Connect once (fail fast with the server's words). `conn` is the config's `target` section,
  // `knobs` every declared knob of the target, typed.
  virtual void open(const json& conn, const ParamValues& knobs) = 0;
  virtual json stats() = 0;            // statistics snapshot (engine_stats_*.json)
  virtual json describe() const = 0;   // what the summary records (never a password)
  virtual void close() = 0;            // idempotent
};

// A workload's stores: the KV engines' one and one per server backend, listed explicitly in the
// workload's folder (the factories live in a static library whose unreferenced objects the linker
// would drop, so nothing registers itself).
template <class Store>
struct StoreFactories {
  std::function<std::unique_ptr<Store>(Engine&)> kv;
  std::vector<std::pair<std::string, std::function<std::unique_ptr<Store>(Target&)>>> servers;  // backend → factory

  // The store for a server target; null when the workload has none for its backend.
  std::unique_ptr<Store> for_target(Target& target) const {
    for (const auto& [backend, make] : servers)
      if (backend == target.backend()) return make(target);
    return nullptr;
  }
};

struct TargetInfo {
  std::string name;                 // "mariadb-innodb", "mariadb-myrocks", "mongodb"
  std::string description;
  std::string library;              // client library
  std::string library_version;
  std::string knob_namespace;       // "mariadb", "mongodb"
  std::vector<ParamSpec> knobs;
  std::vector<std::string> workloads;  // workloads that run on this target (each has a store for its backend)
  // Keys of the config's `target` section: name → help.
  std::vector<std::pair<std::string, std::string>> connection;
  // Cross-key check of the `target` section (problems appended).
  std::function<void(const json&, std::vector<std::string>*)> check_connection;
  std::function<std::unique_ptr<Target>()> make;
};

const std::vector<TargetInfo>& target_registry();

// Errors of targets are EngineErrors too ("mariadb: UPDATE sbtest1 ...: <server message>").

}  // namespace eb
