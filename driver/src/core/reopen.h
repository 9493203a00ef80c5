// run config `reopen_after_load`: the engine closed and opened again between the workload's load
// (setup) and its measured phase, as the source documents restarted mongod after loading (seed 004).
// The runner hands the workload a ReopenableEngine: it forwards every call to the engine it wraps
// and remembers the tables the workload opened (name, kind, handle). reopen() closes that engine,
// runs `between` (the page-cache drop, when asked), makes a fresh engine object (as a restarted
// process would), opens it on the same directory with the same knobs and opens the tables again in
// handle order, so every handle the workload holds (Collection, index tables) means the same table
// as before; a handle that comes back different is an error. Sessions opened before the reopen must
// be gone by then (workloads open theirs per thread, in run_thread).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine.h"

namespace eb {

class ReopenableEngine final : public Engine {
 public:
  using Make = std::function<std::unique_ptr<Engine>()>;
  explicit ReopenableEngine(Make make) : make_(std::move(make)), inner_(make_()) {}

  void open(const std::string& dir, const ParamValues& knobs) override;
  int table(const std::string& name, TableKind kind) override;
  std::unique_ptr<Session> session() override { return live("session").session(); }
  json stats() override { return live("stats").stats(); }
  void close() override {
    if (inner_) inner_->close();
  }

  // Close, `between`, a fresh engine opened, the tables opened again. Returns the timing
  // ({start_unix_s, close_seconds, open_seconds, tables_seconds, end_unix_s, tables}) and what
  // `between` returned (key "between", null when it returns null). Throws on any failure.
  json reopen(const std::function<json()>& between);

 private:
  Engine& live(const char* call);  // the wrapped engine; throws when a failed reopen left none
  struct TableRef {
    std::string name;
    TableKind kind;
  };
  Make make_;
  std::unique_ptr<Engine> inner_;
  std::string dir_;
  ParamValues knobs_;
  std::vector<TableRef> tables_;  // by handle (engines hand out 0, 1, ... in order of first open)
};

}  // namespace eb
