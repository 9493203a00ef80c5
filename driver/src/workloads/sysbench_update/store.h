// sysbench-update's store interface: tables <prefix>1..N {id PK, k (index k_1), c char(120), pad
// char(60)}; k_1 exists once loaded() has returned. Stores: store_kv.cc (KV engines), store_mariadb.cc, store_mongodb.cc.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "target.h"

namespace eb {

constexpr size_t kSbCLen = 120, kSbPadLen = 60;
struct SbRow {
  int64_t id = 0, k = 0;
  char c[kSbCLen];
  char pad[kSbPadLen];
};

class SysbenchClient {
 public:
  virtual ~SysbenchClient() = default;
  // One insert request (one transaction / one multi-row INSERT / one insert_many) of rows.
  virtual void load(int table, const std::vector<SbRow>& rows) = 0;
  // UPDATE ... SET c=? WHERE id=?  → rows matched (false: no such row).
  virtual bool update_c(int table, int64_t id, const char* c) = 0;
  // UPDATE ... SET k=k+1 WHERE id=?  → matched; *new_k = the new k where the store sees it (KV),
  // else -1.
  virtual bool update_k(int table, int64_t id, int64_t* new_k) = 0;
  // Point read of k and c (verify mode).
  virtual bool get(int table, int64_t id, int64_t* k, std::string* c) = 0;
};

class SysbenchStore {
 public:
  virtual ~SysbenchStore() = default;
  // Tables <prefix>1..<tables> with the k index. KV engines open existing ones (rows() tells the
  // loader what is there); servers drop and recreate them, so every run starts empty.
  virtual void create(const std::string& prefix, int tables) = 0;
  virtual uint64_t rows(int table) = 0;  // rows already present (0 for a fresh table)
  // After the load, before the updates (inside the load's window). MariaDB builds the k index here,
  // after the rows, as sysbench's prepare does (CREATE INDEX k_1 once the table is filled: a sorted
  // build, whose packed pages an index-mode update splits as it splits sysbench's).
  virtual void loaded(int tables) { (void)tables; }
  virtual std::unique_ptr<SysbenchClient> client() = 0;
  // What the store itself measures for the summary (KV: logical_index_key_bytes, conflict_retries).
  virtual json summary_extra() const { return json::object(); }
};

std::unique_ptr<SysbenchStore> kv_sysbench_store(Engine& engine);
std::unique_ptr<SysbenchStore> mariadb_sysbench_store(Target& target);
std::unique_ptr<SysbenchStore> mongodb_sysbench_store(Target& target);

// The stores, by backend (Target::backend()); a server backend not listed does not run this workload.
inline const StoreFactories<SysbenchStore>& sysbench_stores() {
  static const StoreFactories<SysbenchStore> s{kv_sysbench_store, {{"mariadb", mariadb_sysbench_store}, {"mongodb", mongodb_sysbench_store}}};
  return s;
}

}  // namespace eb
