// iibench's store interface: one table/collection of purchase documents with 0-3 secondary indexes.
// Stores: store_kv.cc (KV engines), store_mariadb.cc, store_mongodb.cc.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/collection.h"
#include "target.h"

namespace eb {

struct IibenchShape {
  std::string name;          // collection / table name
  std::string variant = "mongodb";  // or "iibench-py" (workloads/iibench/workload.cc): columns, indexes, values
  int num_secondary = 3;     // pc {price,customerid}, rpc {cashregisterid,price,customerid}, ptc {price,dateandtime,customerid}
  bool id_index = true;      // documents carry an ObjectId _id with its own index (MongoDB shape)
  int num_char_fields = 1;   // cf1..cfN
  int length_char_fields = 1000;
  // Documents per transaction within one insert request (param docs_per_txn): 0 = the whole request
  // in one transaction. MongoDB (the source documents') commits each document of an insert on its
  // own in WiredTiger: 1 is its behaviour on the KV engines, MariaDB runs one multi-row INSERT per
  // group, and on MongoDB it changes nothing (the server already commits per document).
  int docs_per_txn = 0;
};

// The secondary indexes of an iibench variant, in creation order (workload.cc).
const std::vector<IndexDef>& iibench_secondary_indexes(const std::string& variant);
// iibench's indexes: the first num_secondary of {price,customerid}, {cashregisterid,price,customerid},
// {price,dateandtime,customerid}, then _id when id_index.
std::vector<IndexDef> iibench_indexes(int num_secondary, bool id_index, const std::string& variant = "mongodb");

class IibenchClient {
 public:
  virtual ~IibenchClient() = default;
  // One insert request of BSON documents {_id?, dateandtime, cashregisterid, customerid, productid,
  // price, cf1..}.
  virtual void insert_batch(const std::vector<Doc>& docs) = 0;
  // Range query on secondary index `index` (iibench_secondary_indexes; mongodb: 0 = pc, 1 = rpc,
  // 2 = ptc) from `start`, the values of the index's first start.size() columns (a lexicographic
  // `>=`), in index order, with a limit. Returns rows.
  virtual size_t query(int index, const std::vector<KeyValue>& start, size_t limit, bool fetch) = 0;
};

class IibenchStore {
 public:
  virtual ~IibenchStore() = default;
  virtual void create(const IibenchShape& shape) = 0;
  virtual std::unique_ptr<IibenchClient> client() = 0;
  virtual json summary_extra() const { return json::object(); }
};

std::unique_ptr<IibenchStore> kv_iibench_store(Engine& engine);
std::unique_ptr<IibenchStore> mariadb_iibench_store(Target& target);
std::unique_ptr<IibenchStore> mongodb_iibench_store(Target& target);

// The stores, by backend (Target::backend()); a server backend not listed does not run this workload.
inline const StoreFactories<IibenchStore>& iibench_stores() {
  static const StoreFactories<IibenchStore> s{kv_iibench_store, {{"mariadb", mariadb_iibench_store}, {"mongodb", mongodb_iibench_store}}};
  return s;
}

}  // namespace eb
