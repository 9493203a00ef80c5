// linkbench's store interface: nodes, links, counts (LinkBench's MySQL tables / LinkbenchX's
// collections). Stores: store_kv.cc (KV engines), store_mariadb.cc, store_mongodb.cc.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "target.h"

namespace eb {

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
std::unique_ptr<LinkbenchStore> kv_linkbench_store(Engine& engine);
std::unique_ptr<LinkbenchStore> mariadb_linkbench_store(Target& target);
std::unique_ptr<LinkbenchStore> mongodb_linkbench_store(Target& target);

// The stores, by backend (Target::backend()); a server backend not listed does not run this workload.
inline const StoreFactories<LinkbenchStore>& linkbench_stores() {
  static const StoreFactories<LinkbenchStore> s{kv_linkbench_store, {{"mariadb", mariadb_linkbench_store}, {"mongodb", mongodb_linkbench_store}}};
  return s;
}

}  // namespace eb
