// Every workload a target lists (TargetInfo::workloads, validated against configs and shown by
// describe) has a store for the target's backend (the workload's StoreFactories), and no other
// workload has one. A stand-in target with the backend's name stops at the store's backend_of,
// before any connection.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "target.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace {

class NamedTarget final : public eb::Target {
 public:
  explicit NamedTarget(std::string backend) : backend_(std::move(backend)) {}
  std::string backend() const override { return backend_; }
  void open(const eb::json&, const eb::ParamValues&) override {}
  eb::json stats() override { return eb::json::object(); }
  eb::json describe() const override { return eb::json::object(); }
  void close() override {}

 private:
  std::string backend_;
};

TEST(TargetStores, ListedWorkloadsAndStoreFactoriesAgree) {
  for (const auto& t : eb::target_registry()) {
    NamedTarget stand_in(t.make()->backend());
    for (const auto& w : eb::workload_registry()) {
      eb::ParamValues p;
      for (const auto& s : w.params) p[s.name] = s.default_value;
      bool listed = std::find(t.workloads.begin(), t.workloads.end(), w.name) != t.workloads.end();
      bool has_store = false;
      try {
        w.make()->setup_target(stand_in, p, 1);
      } catch (const std::logic_error& e) {
        // the store's backend_of refused the stand-in ("not a <backend> target"): a store exists
        has_store = std::string(e.what()).rfind("not a " + stand_in.backend(), 0) == 0;
      } catch (const std::runtime_error&) {
        // "... does not run on this target"
      }
      EXPECT_EQ(listed, has_store) << t.name << " / " << w.name;
    }
  }
}

}  // namespace
