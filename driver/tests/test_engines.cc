// Conformance tests for every engine in engine_registry().
#include <gtest/gtest.h>

#include "engine.h"

namespace {

TEST(EngineRegistry, HasNull) {
  bool found = false;
  for (const auto& e : eb::engine_registry()) found |= e.name == "null";
  EXPECT_TRUE(found);
}

}  // namespace
