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
  bool bulk_load = false;    // MyRocks: loaders' connections SET rocksdb_bulk_load=1 (iibench.py's --bulk_load)
};

// The secondary indexes of an iibench variant, in creation order (workload.cc).
const std::vector<IndexDef>& iibench_secondary_indexes(const std::string& variant);
// iibench's indexes: the first num_secondary of {price,customerid}, {cashregisterid,price,customerid},
// {price,dateandtime,customerid}, then _id when id_index.
std::vector<IndexDef> iibench_indexes(int num_secondary, bool id_index, const std::string& variant = "mongodb");

class IibenchClient {
 public:
  virtual ~IibenchClient() = default;
  // What a store makes of a batch before its request: the statement text of a SQL store (empty
  // where the documents are sent as they are).
  struct Prepared {
    std::string text;
    std::vector<std::string> more;  // the next statements of the request (docs_per_txn), sent in order
  };
  // Client-side work on a batch of BSON documents {_id?, dateandtime, cashregisterid, customerid,
  // productid, price, cf1..}; may run on another thread than send() while an earlier batch is in
  // flight (the loaders' generate_ahead), so it must not use the connection.
  virtual void prepare(const std::vector<Doc>& docs, Prepared* out) {
    (void)docs;
    out->text.clear();
    out->more.clear();
  }
  // One insert request of `docs`, as prepare() left them in `p`.
  virtual void send(const std::vector<Doc>& docs, const Prepared& p) = 0;
  void insert_batch(const std::vector<Doc>& docs) {
    Prepared p;
    prepare(docs, &p);
    send(docs, p);
  }
  // Range query on secondary index `index` (iibench_secondary_indexes; mongodb: 0 = pc, 1 = rpc,
  // 2 = ptc) from `start`, the values of the index's first start.size() columns (a lexicographic
  // `>=`), in index order, with a limit. Returns rows.
  virtual size_t query(int index, const std::vector<KeyValue>& start, size_t limit, bool fetch) = 0;
  // A loader's last call: ends what its session left open (MyRocks: the bulk load, whose rows are
  // written only then). Throws when that fails: the rows would be lost.
  virtual void finish() {}
};

class IibenchStore {
 public:
  virtual ~IibenchStore() = default;
  virtual void create(const IibenchShape& shape) = 0;
  virtual std::unique_ptr<IibenchClient> client() = 0;
  virtual json summary_extra() const { return json::object(); }
};

// The INSERT statement the MariaDB store sends for `docs` in a table of `shape` (store_mariadb.cc;
// also what its prepare() makes). Strings are escaped as mysql_real_escape_string does on a
// connection whose character set is ASCII-transparent (utf8*, latin1, ascii, binary).
std::string iibench_insert_sql(const IibenchShape& shape, const std::vector<Doc>& docs);

std::unique_ptr<IibenchStore> kv_iibench_store(Engine& engine);
std::unique_ptr<IibenchStore> mariadb_iibench_store(Target& target);
std::unique_ptr<IibenchStore> mongodb_iibench_store(Target& target);

// The stores, by backend (Target::backend()); a server backend not listed does not run this workload.
inline const StoreFactories<IibenchStore>& iibench_stores() {
  static const StoreFactories<IibenchStore> s{kv_iibench_store, {{"mariadb", mariadb_iibench_store}, {"mongodb", mongodb_iibench_store}}};
  return s;
}

}  // namespace eb
