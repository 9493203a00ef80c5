// The engine interface: the smallest key/value surface every storage engine here can offer.
// The document layer (record table + index tables, BSON) is built on it, identically for all engines.
//
// Threading: one Engine per process; one Session per worker thread (sessions are not shared).
// Keys compare as unsigned bytes (memcmp order) in every engine.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "params.h"

namespace eb {

enum class TableKind { Record, Index };  // Index tables store keys with empty values.

struct ScanOptions {
  bool read_once = false;  // WiredTiger read_once cursor; RocksDB fill_cache=false; others ignore
};

// Row visitor for scans: return false to stop.
using RowFn = std::function<bool(std::string_view key, std::string_view value)>;

class Session {
 public:
  virtual ~Session() = default;
  // A transaction groups writes (one per request). Reads outside begin/commit see committed data.
  virtual void begin() = 0;
  virtual void commit() = 0;
  virtual void rollback() = 0;
  virtual void put(int table, std::string_view key, std::string_view value) = 0;  // insert or overwrite
  virtual bool get(int table, std::string_view key, std::string* value) = 0;      // false: not found
  virtual bool del(int table, std::string_view key) = 0;                          // false: not found
  // Visit rows with key >= start in key order; at most `limit` rows (0 = no limit). Returns rows visited.
  virtual size_t scan(int table, std::string_view start, size_t limit, const RowFn& fn,
                      const ScanOptions& opts = {}) = 0;
  // Largest key in the table (used to recover record-id counters on reopen). false: table empty.
  virtual bool last_key(int table, std::string* key) = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Open (creating if needed) the database in `dir`, which exists. `knobs` holds every declared knob
  // of this engine, resolved and typed (unqualified names).
  virtual void open(const std::string& dir, const ParamValues& knobs) = 0;
  // Create the table if it does not exist, open it, return a handle used by sessions. Not thread-safe:
  // called before workers start.
  virtual int table(const std::string& name, TableKind kind) = 0;
  virtual std::unique_ptr<Session> session() = 0;
  // Engine statistics snapshot: a JSON object of counters (names as the engine prints them).
  virtual json stats() = 0;
  // The engine's background work so far, each with its wall-clock times, so that a run can count
  // what fell inside its measured window: {"<kind>": [{"start_unix_s", "end_unix_s", ...}]}
  // (WiredTiger: checkpoints; RocksDB: flushes, compactions; end_unix_s null while one runs).
  // Engines without such work return {}.
  virtual json events() { return json::object(); }
  // Flush everything durable and close. Idempotent.
  virtual void close() = 0;
};

struct EngineInfo {
  std::string name;             // "wiredtiger", "wiredtiger-lsm", "rocksdb", "lmdb", "sqlite", "null"
  std::string description;      // one line: what kind of engine it is
  std::string library;          // library name, e.g. "WiredTiger", "RocksDB"
  std::string library_version;  // from the library at run time where it says, else build time
  std::vector<ParamSpec> knobs;
  std::function<std::unique_ptr<Engine>()> make;
};

// All engines compiled into this driver, in display order.
const std::vector<EngineInfo>& engine_registry();

// Errors: engines throw eb::EngineError with a message naming the engine and the failing call.
struct EngineError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The engine rolled the transaction back on its own (a write conflict, or WiredTiger's eviction
// under cache pressure: WT_ROLLBACK). Nothing of it was applied; the caller may retry it, as
// MongoDB retries a WriteConflict.
struct EngineConflict : EngineError {
  using EngineError::EngineError;
};

}  // namespace eb
