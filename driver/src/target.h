// Server targets: real database servers the driver reaches as a client (MariaDB with InnoDB or
// MyRocks over libmariadb, any MongoDB by URI over libmongoc). They are not key/value engines, so
// the workloads that run on them declare a *store* interface with what they need from a server;
// the KV engines get the Collection-based implementation of the same interface
// (workloads/stores_kv.cc), the servers a SQL one (targets/mariadb.cc) or a MongoDB one
// (targets/mongodb.cc). The workload generates every operation itself, so every target receives
// the same operation stream (and the same op_stream_hash). Stores only carry out requests and return
// what a client gets back; the workloads count logical bytes themselves, from the request and those
// results (docs/driver.md "Logical bytes"), so every target counts them the same way.
//
// Threading: one Target per process; a store is made once at setup; one client per worker thread.
#pragma once
#include <bson/bson.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/collection.h"
#include "engine.h"
#include "params.h"
#include "workloads/ycsb_store.h"

namespace eb {

// --- sysbench-update: tables <prefix>1..N {id PK, k (index k_1), c char(120), pad char(60)} ---
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
  virtual std::unique_ptr<SysbenchClient> client() = 0;
  // What the store itself measures for the summary (KV: logical_index_key_bytes, conflict_retries).
  virtual json summary_extra() const { return json::object(); }
};

// --- iibench: one table/collection of purchase documents with 0-3 secondary indexes ---
struct IibenchShape {
  std::string name;          // collection / table name
  std::string variant = "mongodb";  // or "iibench-py" (workloads/iibench.cc): columns, indexes, values
  int num_secondary = 3;     // pc {price,customerid}, rpc {cashregisterid,price,customerid}, ptc {price,dateandtime,customerid}
  bool id_index = true;      // documents carry an ObjectId _id with its own index (MongoDB shape)
  int num_char_fields = 1;   // cf1..cfN
  int length_char_fields = 1000;
};

// The secondary indexes of an iibench variant, in creation order (iibench.cc).
const std::vector<IndexDef>& iibench_secondary_indexes(const std::string& variant);

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

// --- linkbench: nodes, links, counts (LinkBench's MySQL tables / LinkbenchX's collections) ---
struct LbNode {
  int64_t id = 0, version = 0, time = 0;
  std::string data;
};
struct LbLink {
  int64_t id1 = 0, link_type = 0, id2 = 0, visibility = 1;
  std::string data;
  int64_t time = 0, version = 0;
};
struct LbCount {
  int64_t id = 0, link_type = 0, count = 0, time = 0, version = 0;
};

class LinkbenchClient {
 public:
  virtual ~LinkbenchClient() = default;
  // Load (one insert request each).
  virtual void load_nodes(const std::vector<LbNode>& nodes) = 0;
  virtual void load_links(const std::vector<LbLink>& links) = 0;
  virtual void load_counts(const std::vector<LbCount>& counts) = 0;
  // Requests. Writers of one id1 are serialized by the workload.
  // Inserts the node; returns the id it is found under (node.id; KV engines: its record id).
  virtual int64_t add_node(const LbNode& node) = 0;
  virtual bool update_node(int64_t id, const std::string& data, int64_t time) = 0;  // version + 1
  virtual bool delete_node(int64_t id) = 0;
  virtual bool get_node(int64_t id, std::string* data) = 0;  // data may be null
  // Insert, or un-hide/overwrite, the link (visible; version + 1); the count of (id1, link_type)
  // goes up by one when the link was not visible. One transaction where the server has them.
  virtual void add_link(const LbLink& link) = 0;
  // Hide a visible link and decrement its count. false: no visible link.
  virtual bool delete_link(int64_t id1, int64_t link_type, int64_t id2, int64_t time) = 0;
  virtual bool count_link(int64_t id1, int64_t link_type, int64_t* count) = 0;
  // The link whatever its visibility; out gets visibility and data.
  virtual bool get_link(int64_t id1, int64_t link_type, int64_t id2, LbLink* out) = 0;
  // Visible links of (id1, link_type), newest first, at most limit; out gets each one's data
  // (at least). Returns rows.
  virtual size_t get_links_list(int64_t id1, int64_t link_type, size_t limit, std::vector<LbLink>* out) = 0;
  // multiget_link: the links (whatever their visibility) of (id1, link_type) among id2s, each found
  // link once (as LinkBench's `id2 IN (...)`); out gets id2, visibility and data. Returns rows.
  // Default: one get_link per distinct id2 (stores with a set query override it).
  virtual size_t multiget_links(int64_t id1, int64_t link_type, const std::vector<int64_t>& id2s,
                                std::vector<LbLink>* out);
  // getlinklist_history: visible links of (id1, link_type) with time <= max_time, newest first,
  // skipping `offset`, at most limit (LinkBench's getLinkList(id1, type, 0, max_time, offset,
  // limit)). `newer` is how many of the list's rows the workload expects before that point (its
  // loaded rows newer than max_time, plus offset). Default, for stores whose list rows carry no
  // time: get_links_list of newer + limit rows, the first `newer` dropped (the same rows while the
  // run has not written that list).
  virtual size_t get_links_list_older(int64_t id1, int64_t link_type, int64_t max_time, size_t offset, size_t limit,
                                      size_t newer, std::vector<LbLink>* out);
};

class LinkbenchStore {
 public:
  virtual ~LinkbenchStore() = default;
  // Servers drop and recreate <prefix>node, link, count; KV engines create them in a fresh data_dir.
  virtual void create(const std::string& prefix) = 0;
  virtual std::unique_ptr<LinkbenchClient> client() = 0;
  virtual json summary_extra() const { return json::object(); }
  // Whether the workload must serialize writers of one id1 (a link write and its count update are
  // not one atomic step in this store). MariaDB: no (row locks of one transaction do it).
  virtual bool needs_writer_lock() const { return true; }
};

// --- targets ---
class Target {
 public:
  virtual ~Target() = default;
  // Connect once (fail fast with the server's words). `conn` is the config's `target` section,
  // `knobs` every declared knob of the target, typed.
  virtual void open(const json& conn, const ParamValues& knobs) = 0;
  virtual json stats() = 0;            // statistics snapshot (engine_stats_*.json)
  virtual json describe() const = 0;   // what the summary records (never a password)
  virtual void close() = 0;            // idempotent
  virtual std::unique_ptr<SysbenchStore> sysbench_store() { return nullptr; }
  virtual std::unique_ptr<IibenchStore> iibench_store() { return nullptr; }
  virtual std::unique_ptr<LinkbenchStore> linkbench_store() { return nullptr; }
  virtual std::unique_ptr<YcsbStore> ycsb_store() { return nullptr; }
};

struct TargetInfo {
  std::string name;                 // "mariadb-innodb", "mariadb-myrocks", "mongodb"
  std::string description;
  std::string library;              // client library
  std::string library_version;
  std::string knob_namespace;       // "mariadb", "mongodb"
  std::vector<ParamSpec> knobs;
  std::vector<std::string> workloads;  // workloads that run on this target
  // Keys of the config's `target` section: name → help.
  std::vector<std::pair<std::string, std::string>> connection;
  // Cross-key check of the `target` section (problems appended).
  std::function<void(const json&, std::vector<std::string>*)> check_connection;
  std::function<std::unique_ptr<Target>()> make;
};

const std::vector<TargetInfo>& target_registry();

// Collection-based stores for the KV engines (the behaviour the workloads had before targets).
std::unique_ptr<SysbenchStore> kv_sysbench_store(Engine& engine);
std::unique_ptr<IibenchStore> kv_iibench_store(Engine& engine);
std::unique_ptr<LinkbenchStore> kv_linkbench_store(Engine& engine);

// Errors of targets are EngineErrors too ("mariadb: UPDATE sbtest1 ...: <server message>").

}  // namespace eb
