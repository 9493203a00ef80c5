#include "core/reopen.h"

#include "core/metrics.h"

namespace eb {

Engine& ReopenableEngine::live(const char* call) {
  if (!inner_) throw EngineError(std::string("reopen_after_load: ") + call + ": the engine did not reopen");
  return *inner_;
}

void ReopenableEngine::open(const std::string& dir, const ParamValues& knobs) {
  dir_ = dir;
  knobs_ = knobs;
  inner_->open(dir, knobs);
}

int ReopenableEngine::table(const std::string& name, TableKind kind) {
  int h = live("table").table(name, kind);
  if (h < 0) throw EngineError("reopen_after_load: the engine returned table handle " + std::to_string(h));
  if (static_cast<size_t>(h) >= tables_.size()) tables_.resize(static_cast<size_t>(h) + 1, {"", TableKind::Record});
  if (tables_[h].name.empty()) tables_[h] = {name, kind};
  return h;
}

json ReopenableEngine::reopen(const std::function<json()>& between) {
  json r = json::object();
  const double t0 = unix_now_s();
  r["start_unix_s"] = t0;
  inner_->close();
  inner_.reset();  // the old engine object goes, as the process of a restarted server would
  const double t1 = unix_now_s();
  r["close_seconds"] = t1 - t0;
  r["between"] = between ? between() : json(nullptr);
  const double t2 = unix_now_s();
  inner_ = make_();
  inner_->open(dir_, knobs_);
  const double t3 = unix_now_s();
  r["open_seconds"] = t3 - t2;
  for (size_t h = 0; h < tables_.size(); ++h) {
    if (tables_[h].name.empty())
      throw EngineError("reopen_after_load: table handle " + std::to_string(h) + " was never opened by name");
    int got = inner_->table(tables_[h].name, tables_[h].kind);
    if (got != static_cast<int>(h))
      throw EngineError("reopen_after_load: table '" + tables_[h].name + "' came back as handle " +
                        std::to_string(got) + ", was " + std::to_string(h));
  }
  const double t4 = unix_now_s();
  r["tables_seconds"] = t4 - t3;
  r["tables"] = tables_.size();
  r["end_unix_s"] = t4;
  return r;
}

}  // namespace eb
