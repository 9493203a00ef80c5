// The YCSB store interface (the `DB` binding of YCSB): what the ycsb workload needs from a store, in
// the shape of the other workloads' stores (workloads/<name>/store.h). YCSB's table `usertable` holds records {_id: "user<digits>",
// field0..field<N-1>: <fieldlength> bytes}. The KV engines get a Collection-based implementation
// (store_kv.cc; the servers': store_mariadb.cc, store_mongodb.cc): the record table plus a unique `_id` index, as MongoDB keeps a
// collection. Stores only carry out requests and return what a client gets back; the workload
// counts logical bytes from that (docs/driver.md "Logical bytes").
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "target.h"

namespace eb {

struct YcsbShape {
  std::string table = "usertable";
  int fieldcount = 10;
  int fieldlength = 100;
};

// One record as returned to the client: its key and the values of the fields read (all fields in
// order when read_field < 0, else only that one: fields[0] of field number `field`).
struct YcsbRecord {
  std::string key;
  std::vector<std::string> fields;
};

class YcsbClient {
 public:
  virtual ~YcsbClient() = default;
  // One insert request (one transaction) of records holding every field.
  virtual void insert(const std::vector<YcsbRecord>& records) = 0;
  // Point read of field `field` (< 0: all fields). false: no such key (a miss).
  virtual bool read(const std::string& key, int field, YcsbRecord* out) = 0;
  // Up to `count` records with key >= start, in key order. Returns records.
  virtual size_t scan(const std::string& start, size_t count, int field, std::vector<YcsbRecord>* out) = 0;
  // Overwrite the given fields (field number, value) of a record. false: no such key.
  virtual bool update(const std::string& key, const std::vector<std::pair<int, std::string>>& values) = 0;
};

class YcsbStore {
 public:
  virtual ~YcsbStore() = default;
  // Creates (KV: in a fresh data_dir) the table; refuses a table that already holds records.
  virtual void create(const YcsbShape& shape) = 0;
  virtual std::unique_ptr<YcsbClient> client() = 0;
  virtual json summary_extra() const { return json::object(); }
};

std::unique_ptr<YcsbStore> kv_ycsb_store(Engine& engine);
std::unique_ptr<YcsbStore> mariadb_ycsb_store(Target& target);
std::unique_ptr<YcsbStore> mongodb_ycsb_store(Target& target);

// The stores, by backend (Target::backend()); a server backend not listed does not run this workload.
inline const StoreFactories<YcsbStore>& ycsb_stores() {
  static const StoreFactories<YcsbStore> s{kv_ycsb_store, {{"mariadb", mariadb_ycsb_store}, {"mongodb", mongodb_ycsb_store}}};
  return s;
}

}  // namespace eb
