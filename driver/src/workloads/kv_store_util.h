// What the KV engines' workload stores (workloads/<name>/store_kv.cc) share.
#pragma once
#include <memory>
#include <vector>

#include "core/collection.h"

namespace eb {

// What the document layer measures of a store's collections for the summary: the bytes of its index
// keys (the KV engines' own layout, not a logical quantity shared with the servers).
inline json index_key_bytes(const std::vector<std::unique_ptr<Collection>>& colls) {
  uint64_t keys = 0;
  for (const auto& c : colls) keys += c->index_key_bytes();
  return {{"logical_index_key_bytes", keys}};
}

}  // namespace eb
