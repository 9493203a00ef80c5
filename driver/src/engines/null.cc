// The `null` engine: accepts every operation and stores nothing. Measures the driver's own cost
// (document encoding, key generation, latency recording) without any storage work.
#include "engines/engine_util.h"

namespace eb {
namespace {

class NullSession final : public Session {
 public:
  void begin() override {}
  void commit() override {}
  void rollback() override {}
  void put(int, std::string_view, std::string_view) override {}
  bool get(int, std::string_view, std::string*) override { return false; }
  bool del(int, std::string_view) override { return false; }
  size_t scan(int, std::string_view, size_t, const RowFn&, const ScanOptions&) override { return 0; }
  bool last_key(int, std::string*) override { return false; }
};

class NullEngine final : public Engine {
 public:
  void open(const std::string&, const ParamValues&) override {}
  int table(const std::string& name, TableKind) override {
    for (size_t i = 0; i < names_.size(); ++i)
      if (names_[i] == name) return static_cast<int>(i);
    names_.push_back(name);
    return static_cast<int>(names_.size() - 1);
  }
  std::unique_ptr<Session> session() override { return std::make_unique<NullSession>(); }
  json stats() override { return json::object(); }
  void close() override {}

 private:
  std::vector<std::string> names_;
};

}  // namespace

EngineInfo null_engine_info() {
  EngineInfo info;
  info.name = "null";
  info.description = "accepts every operation and stores nothing (measures the driver's own cost)";
  info.library = "none";
  info.library_version = "0";
  info.make = [] { return std::unique_ptr<Engine>(new NullEngine()); };
  return info;
}

}  // namespace eb
