// linkbench, after LinkBench (facebookarchive/linkbench; ../shared/reference/workloads-and-metrics.md
// §4.2, seed 000) and LinkbenchX's MongoDB layout: three collections
//   <prefix>node   {_id, type, version, time, data}           record id = node id, no extra index
//   <prefix>link   {id1, link_type, id2, visibility, data, time, version, rtime}
//                  index "pk"      (link_type, id1, id2)        — unique by construction (looked up first)
//                  index "id1_type"(id1, link_type, visibility, rtime, id2, version, data) — covering
//   <prefix>count  {id, link_type, count, time, version}      index "id_type" (id, link_type)
// rtime = -time: the document layer only scans forward, so the covering index stores time
// descending and get_links_list (ORDER BY time DESC LIMIT 10000) is one forward prefix scan.
//
// Load (before the "before" engine stats): nodes 1..maxid1-1, then for each id1 outdeg(id1) links
// (link j: id2 = linked_id2(id1, j), link_type = j mod link_type_count) and one count row per
// (id1, link_type) with links. LinkBench's empirical outdegree file (Distribution.dat) is not
// available: outdeg is a stand-in, a rounded log-normal with sigma 1.5 and mean 4.74 links/node (the
// README's 47.4M links for 10M nodes), heavy-tailed, capped at 100000; a function of (seed, id1).
//
// Requests: the ten LinkBench operations with the 2011 default mix (params, percent), ids drawn from
// Zipf over [1, maxid1) (shapes 0.8 link reads, 0.741 link writes, 0.625 node reads, 0.606 node
// updates; uniform node deletes) and permuted by a fixed bijection (LinkBench's shuffler); the
// correlated/uncorrelated blends and getlinklist_history paging are not modelled. id2: an existing
// link of id1 with probability 0.5 (get), 0.9 (update/delete), 0.05 (add), else uniform. Payloads:
// log-normal sizes, median 8 B (links, capped at 255) and 128 B (nodes), sigma 1.0, bytes from a
// motif-like buffer (links: 32..100, nodes: 50..220; partly repeated so they compress somewhat).
// add_link/delete_link/update_link change the link and its count row in ONE transaction; writers of
// the same id1 are serialized by a striped lock (the engines have no conflict detection here).
// delete_link hides the link (visibility 0, LinkBench's default) and decrements the count.
#include <algorithm>
#include <array>
#include <mutex>
#include <thread>

#include "core/rng.h"
#include "target.h"
#include "workloads/distributions.h"
#include "workloads/doc_writer.h"
#include "workloads/workload.h"

namespace eb {
namespace {
using namespace wl;

enum Op { kRequest, kAddNode, kUpdateNode, kDeleteNode, kGetNode, kAddLink, kDeleteLink, kUpdateLink,
          kCountLink, kMultigetLink, kGetLinksList, kNumOps };
const char* const kOpNames[kNumOps] = {"request", "add_node", "update_node", "delete_node", "get_node",
                                       "add_link", "delete_link", "update_link", "count_link",
                                       "multiget_link", "get_links_list"};
// Mix parameter per request type (kAddNode..kGetLinksList).
const char* const kMixParams[kNumOps] = {nullptr, "addnode", "updatenode", "deletenode", "getnode",
                                         "addlink", "deletelink", "updatelink", "countlink", "getlink",
                                         "getlinklist"};
constexpr int64_t kVisible = 1, kHidden = 0;
constexpr size_t kBuf = 1u << 20;
constexpr size_t kLinkDataMax = 255;

enum LinkIx { kPk = 0, kId1Type = 1 };

class LinkBench final : public Workload {
 public:
  std::vector<std::string> op_names() const override { return {kOpNames, kOpNames + kNumOps}; }

  void setup(Engine& engine, const ParamValues& p, uint64_t seed) override {
    init(p, seed);
    const std::string pre = p_str(p, "collection_prefix");
    node_ = std::make_unique<Collection>(engine, pre + "node", std::vector<IndexDef>{});
    link_ = std::make_unique<Collection>(
        engine, pre + "link",
        std::vector<IndexDef>{{"pk", {"link_type", "id1", "id2"}},
                              {"id1_type", {"id1", "link_type", "visibility", "rtime", "id2", "version", "data"}}});
    count_ = std::make_unique<Collection>(engine, pre + "count", std::vector<IndexDef>{{"id_type", {"id", "link_type"}}});
    if (node_->next_id() != 1 || link_->next_id() != 1)
      throw std::runtime_error("linkbench: the collections exist already; use a fresh data_dir");
    load(engine, p);
  }

  // Server targets: the same generated requests through a LinkbenchStore (target.h).
  void setup_target(Target& target, const ParamValues& p, uint64_t seed) override {
    init(p, seed);
    store_ = target.linkbench_store();
    if (!store_) throw std::runtime_error("linkbench does not run on this target");
    store_->create(p_str(p, "collection_prefix"));
    load_server(p);
    next_node_.store(static_cast<int64_t>(maxid1_));
  }

  void init(const ParamValues& p, uint64_t seed) {
    seed_ = seed;
    threads_ = static_cast<int>(p_int(p, "threads"));
    maxid1_ = static_cast<uint64_t>(p_int(p, "maxid1"));
    nids_ = maxid1_ - 1;
    ltc_ = static_cast<uint64_t>(p_int(p, "link_type_count"));
    requests_ = static_cast<uint64_t>(p_int(p, "requests"));
    double total = 0;
    for (int o = 1; o < kNumOps; ++o) {
      total += p_dbl(p, kMixParams[o]);
      cum_[o] = total;
    }
    for (int o = 1; o < kNumOps; ++o) cum_[o] /= total;
    scramble_ = std::make_unique<Scramble>(nids_);
    // Payload buffers: bytes in [lo, hi], with a share (1 - uniqueness) of 8-byte pieces copied from
    // a 128-byte motif, like LinkBench's MotifDataGenerator.
    auto fill = [&](std::string* b, int lo, int hi, double uniq, uint64_t stream) {
      Rng r(seed, stream);
      std::string motif(128, ' ');
      for (auto& c : motif) c = static_cast<char>(lo + r.uniform(static_cast<uint64_t>(hi - lo + 1)));
      b->resize(kBuf);
      for (size_t i = 0; i < kBuf; i += 8) {
        bool fresh = r.uniform01() < uniq;
        size_t m = r.uniform(16) * 8;
        for (size_t k = 0; k < 8 && i + k < kBuf; ++k)
          (*b)[i + k] = fresh ? static_cast<char>(lo + r.uniform(static_cast<uint64_t>(hi - lo + 1))) : motif[m + k];
      }
    };
    fill(&link_buf_, 32, 100, 0.225, 0x11B0F);
    fill(&node_buf_, 50, 220, 0.63, 0x20DEB);
  }

  int threads() const override { return threads_; }
  uint64_t target_ops() const override { return requests_; }

  // LinkBench outdegree stand-in (see the header), a pure function of (seed, id1).
  uint64_t outdeg(uint64_t id1) const {
    Rng r(seed_ ^ 0x0DE6, id1);
    static const double mu = std::log(4.74) - 1.5 * 1.5 / 2;
    double x = std::exp(mu + 1.5 * standard_normal(r));
    return std::min<uint64_t>(100000, static_cast<uint64_t>(std::llround(x)));
  }
  uint64_t linked_id2(uint64_t id1, uint64_t j) const { return 1 + (id1 - 1 + 1 + j) % nids_; }

  void run_thread(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) override {
    const ParamValues& p = ctx.params;
    const uint64_t quota = requests_ == 0 ? UINT64_MAX
                                          : requests_ / threads_ + (static_cast<uint64_t>(t) < requests_ % threads_ ? 1 : 0);
    const double rate = p_dbl(p, "target_rate") / threads_;
    const bool verify = p_bool(p, "verify");
    const size_t list_limit = static_cast<size_t>(p_int(p, "getlinklist_limit"));
    const Zipf link_read(nids_, p_dbl(p, "link_read_shape")), link_write(nids_, p_dbl(p, "link_write_shape"));
    const Zipf node_read(nids_, p_dbl(p, "node_read_shape")), node_update(nids_, p_dbl(p, "node_update_shape"));
    const LogNormal link_size{p_dbl(p, "link_datasize"), 1.0}, node_size{p_dbl(p, "node_datasize"), 1.0};
    Rng rng(ctx.seed, static_cast<uint64_t>(t));
    std::unique_ptr<Session> s;
    std::unique_ptr<LinkbenchClient> cl;  // server targets
    if (store_) cl = store_->client();
    else s = ctx.engine->session();
    std::vector<IndexRow> rows;
    std::string data;
    Doc doc;
    auto pick_data = [&](const std::string& buf, const LogNormal& ln, size_t cap) {
      size_t n = std::min(cap, static_cast<size_t>(std::llround(ln.sample(rng))));
      size_t off = rng.uniform(kBuf - n + 1);
      data.assign(buf.data() + off, n);
      h.str(data);
    };
    auto id_of = [&](const Zipf& z) { return (*scramble_)(z.sample(rng)); };
    // id2 and link type: an existing link of id1 with probability p_exist, else uniform.
    auto pick_id2 = [&](uint64_t id1, double p_exist, uint64_t* lt, uint64_t* id2) {
      uint64_t od = outdeg(id1);
      if (od > 0 && rng.uniform01() < p_exist) {
        uint64_t j = rng.uniform(od);
        *lt = j % ltc_;
        *id2 = linked_id2(id1, j);
      } else {
        *lt = rng.uniform(ltc_);
        *id2 = 1 + rng.uniform(nids_);
      }
    };
    for (uint64_t done = 0; done < quota && !ctx.should_stop(); ++done) {
      uint64_t intended = rate > 0 ? pace(ctx.start_ns, rate, done, ctx) : 0;
      if (ctx.should_stop()) break;
      double u = rng.uniform01();
      int op = 1;
      while (op < kNumOps - 1 && u >= cum_[op]) ++op;
      h.u64(static_cast<uint64_t>(op));
      // Generate the request (all draws before any engine call: the stream never depends on results).
      uint64_t id1 = 0, lt = 0, id2 = 0, nget = 0;
      std::vector<uint64_t> id2s;
      switch (op) {
        case kAddNode: pick_data(node_buf_, node_size, 1 << 20); break;
        case kUpdateNode: id1 = id_of(node_update); pick_data(node_buf_, node_size, 1 << 20); break;
        case kDeleteNode: id1 = 1 + rng.uniform(nids_); break;
        case kGetNode: id1 = id_of(node_read); break;
        case kAddLink: id1 = id_of(link_write); pick_id2(id1, 0.05, &lt, &id2); pick_data(link_buf_, link_size, kLinkDataMax); break;
        case kUpdateLink: id1 = id_of(link_write); pick_id2(id1, 0.9, &lt, &id2); pick_data(link_buf_, link_size, kLinkDataMax); break;
        case kDeleteLink: id1 = id_of(link_write); pick_id2(id1, 0.9, &lt, &id2); break;
        case kCountLink: id1 = id_of(link_read); lt = rng.uniform(ltc_); break;
        case kMultigetLink: {
          id1 = id_of(link_read);
          lt = rng.uniform(ltc_);
          nget = std::min<uint64_t>(128, 1 + geometric(rng, 0.382));
          for (uint64_t i = 0; i < nget; ++i) {
            uint64_t l2, i2;
            pick_id2(id1, 0.5, &l2, &i2);
            id2s.push_back(i2);
          }
          break;
        }
        case kGetLinksList: id1 = id_of(link_read); lt = rng.uniform(ltc_); break;
      }
      h.u64(id1);
      h.u64(lt);
      h.u64(id2);
      for (uint64_t x : id2s) h.u64(x);
      uint64_t t0 = rate > 0 ? intended : now_ns();
      uint64_t items = 1, br = 0, bw = 0;
      const int64_t now_ms = unix_now_ms();
      if (cl) {
        items = run_server(*cl, op, id1, lt, id2, id2s, data, now_ms, verify, list_limit, &br, &bw);
      } else switch (op) {
        case kAddNode: {
          std::vector<Doc> one(1);
          uint64_t id = node_->next_id();  // the id the insert will take unless another thread races
          write_node(&one[0], static_cast<int64_t>(id), 1, now_ms, data);
          std::vector<uint64_t> got;
          bw = node_->insert_batch(*s, one, &got);
          if (verify) check(node_->get(*s, got[0], &doc) && get_bytes(doc.bytes, "data") == data);
          break;
        }
        case kUpdateNode: {
          bool found = node_->update(*s, id1, [&](const Doc& old) {
            Doc d;
            write_node(&d, static_cast<int64_t>(id1), get_int(old.bytes, "version") + 1, now_ms, data);
            return d;
          }, &br, &bw);
          items = found ? 1 : 0;
          if (verify && found && threads_ == 1) check(node_->get(*s, id1, &doc) && get_bytes(doc.bytes, "data") == data);
          break;
        }
        case kDeleteNode:
          items = node_->remove(*s, id1, &br) ? 1 : 0;
          if (verify) check(!node_->get(*s, id1, &doc));
          break;
        case kGetNode:
          items = node_->get(*s, id1, &doc) ? 1 : 0;
          br = items ? doc.bytes.size() : 0;
          break;
        case kAddLink:
        case kUpdateLink:
          items = add_link(*s, id1, lt, id2, data, now_ms, &br, &bw);
          if (verify && threads_ == 1) check(link_is(*s, id1, lt, id2, kVisible, &data));
          break;
        case kDeleteLink:
          items = delete_link(*s, id1, lt, id2, now_ms, &br, &bw);
          if (verify && threads_ == 1) check(!link_is(*s, id1, lt, id2, kVisible, nullptr));
          break;
        case kCountLink: {
          rows.clear();
          uint64_t c = 0;
          if (count_->index_scan_prefix(*s, 0, {KeyValue::Int(static_cast<int64_t>(id1)), KeyValue::Int(static_cast<int64_t>(lt))},
                                        1, true, &rows, &br))
            c = static_cast<uint64_t>(get_int(rows[0].doc, "count"));
          items = rows.empty() ? 0 : 1;
          h_count_ += c;  // not hashed (a result); keeps the read from being optimized away
          break;
        }
        case kMultigetLink: {
          items = 0;
          for (uint64_t x : id2s) {
            rows.clear();
            if (find_link(*s, id1, lt, x, &rows, &br)) ++items;
          }
          break;
        }
        case kGetLinksList:
          rows.clear();
          items = link_->index_scan_prefix(*s, kId1Type,
                                           {KeyValue::Int(static_cast<int64_t>(id1)), KeyValue::Int(static_cast<int64_t>(lt)),
                                            KeyValue::Int(kVisible)},
                                           list_limit, false, &rows, &br);
          break;
      }
      uint64_t t1 = now_ns();
      uint64_t lat = (t1 - std::min(t0, t1)) / 1000;
      m.record(op, lat, items, br, bw);
      m.record(kRequest, lat, 1, br, bw);
    }
  }

  // One request against a server target; returns items (as the KV path counts them).
  uint64_t run_server(LinkbenchClient& cl, int op, uint64_t id1u, uint64_t ltu, uint64_t id2u,
                      const std::vector<uint64_t>& id2s, const std::string& data, int64_t now_ms, bool verify,
                      size_t list_limit, uint64_t* br, uint64_t* bw) {
    const int64_t id1 = static_cast<int64_t>(id1u), lt = static_cast<int64_t>(ltu), id2 = static_cast<int64_t>(id2u);
    std::string back;
    int64_t vis = 0;
    switch (op) {
      case kAddNode: {
        LbNode n;
        n.id = next_node_.fetch_add(1);
        n.version = 1;
        n.time = now_ms;
        n.data = data;
        cl.add_node(n, bw);
        if (verify) check(cl.get_node(n.id, &back, nullptr) && back == data);
        return 1;
      }
      case kUpdateNode: {
        bool found = cl.update_node(id1, data, now_ms, br, bw);
        if (verify && found && threads_ == 1) check(cl.get_node(id1, &back, nullptr) && back == data);
        return found ? 1 : 0;
      }
      case kDeleteNode: {
        bool found = cl.delete_node(id1, br);
        if (verify) check(!cl.get_node(id1, nullptr, nullptr));
        return found ? 1 : 0;
      }
      case kGetNode: return cl.get_node(id1, &back, br) ? 1 : 0;
      case kAddLink:
      case kUpdateLink: {
        std::lock_guard<std::mutex> g(lock_for(id1u));
        LbLink l;
        l.id1 = id1;
        l.link_type = lt;
        l.id2 = id2;
        l.visibility = kVisible;
        l.data = data;
        l.time = now_ms;
        cl.add_link(l, br, bw);
        if (verify && threads_ == 1) check(cl.get_link(id1, lt, id2, &vis, &back, nullptr) && vis == kVisible && back == data);
        return 1;
      }
      case kDeleteLink: {
        std::lock_guard<std::mutex> g(lock_for(id1u));
        bool done = cl.delete_link(id1, lt, id2, now_ms, br, bw);
        if (verify && threads_ == 1) check(!(cl.get_link(id1, lt, id2, &vis, nullptr, nullptr) && vis == kVisible));
        return done ? 1 : 0;
      }
      case kCountLink: {
        int64_t c = 0;
        bool found = cl.count_link(id1, lt, &c, br);
        h_count_ += static_cast<uint64_t>(c);
        return found ? 1 : 0;
      }
      case kMultigetLink: {
        uint64_t n = 0;
        for (uint64_t x : id2s)
          if (cl.get_link(id1, lt, static_cast<int64_t>(x), &vis, nullptr, br)) ++n;
        return n;
      }
      case kGetLinksList: return cl.get_links_list(id1, lt, list_limit, br);
    }
    return 0;
  }

  json summary_extra() const override {
    if (store_)
      return {{"load", {{"nodes", loaded_nodes_}, {"links", loaded_links_}, {"counts", loaded_counts_},
                        {"links_per_node", loaded_nodes_ ? static_cast<double>(loaded_links_) / loaded_nodes_ : 0.0},
                        {"seconds", load_seconds_}, {"start_unix_s", load_start_unix_s_},
                        {"end_unix_s", load_end_unix_s_}}},
              {"verify", {{"checks", verify_checks_.load()}, {"mismatches", verify_bad_.load()}}}};
    if (!node_) return json::object();
    return {{"logical_bytes_stored", node_->live_bytes() + link_->live_bytes() + count_->live_bytes()},
            {"logical_index_key_bytes", link_->index_key_bytes() + count_->index_key_bytes()},
            {"load", {{"nodes", loaded_nodes_}, {"links", loaded_links_}, {"counts", loaded_counts_},
                      {"links_per_node", loaded_nodes_ ? static_cast<double>(loaded_links_) / loaded_nodes_ : 0.0},
                      {"seconds", load_seconds_}, {"start_unix_s", load_start_unix_s_},
                        {"end_unix_s", load_end_unix_s_}}},
            {"verify", {{"checks", verify_checks_.load()}, {"mismatches", verify_bad_.load()}}}};
  }

  // Test access.
  Collection& links() { return *link_; }
  Collection& counts() { return *count_; }

 private:
  void check(bool ok) {
    verify_checks_.fetch_add(1, std::memory_order_relaxed);
    if (!ok) verify_bad_.fetch_add(1, std::memory_order_relaxed);
  }
  std::mutex& lock_for(uint64_t id1) { return stripes_[(id1 * 0x9E3779B97F4A7C15ULL) >> 56]; }

  static void write_node(Doc* d, int64_t id, int64_t version, int64_t time, const std::string& data) {
    DocWriter w(&d->bytes);
    w.i64("_id", id);
    w.i32("type", 2048);
    w.i64("version", version);
    w.i64("time", time);
    w.binary("data", data.data(), data.size());
    w.finish();
  }
  static void write_link(Doc* d, uint64_t id1, uint64_t lt, uint64_t id2, int64_t vis, const std::string& data,
                         int64_t time, int64_t version) {
    DocWriter w(&d->bytes);
    w.i64("id1", static_cast<int64_t>(id1));
    w.i64("link_type", static_cast<int64_t>(lt));
    w.i64("id2", static_cast<int64_t>(id2));
    w.i64("visibility", vis);
    w.utf8("data", data.data(), data.size());
    w.i64("time", time);
    w.i64("version", version);
    w.i64("rtime", -time);
    w.finish();
  }
  static void write_count(Doc* d, uint64_t id, uint64_t lt, int64_t count, int64_t time, int64_t version) {
    DocWriter w(&d->bytes);
    w.i64("id", static_cast<int64_t>(id));
    w.i64("link_type", static_cast<int64_t>(lt));
    w.i64("count", count);
    w.i64("time", time);
    w.i64("version", version);
    w.finish();
  }

  // The link (lt, id1, id2) through the pk index; rows gets it (with its document).
  bool find_link(Session& s, uint64_t id1, uint64_t lt, uint64_t id2, std::vector<IndexRow>* rows, uint64_t* br) {
    return link_->index_scan_prefix(s, kPk,
                                    {KeyValue::Int(static_cast<int64_t>(lt)), KeyValue::Int(static_cast<int64_t>(id1)),
                                     KeyValue::Int(static_cast<int64_t>(id2))},
                                    1, true, rows, br) == 1 &&
           !rows->back().doc.empty();
  }
  bool link_is(Session& s, uint64_t id1, uint64_t lt, uint64_t id2, int64_t vis, const std::string* data) {
    std::vector<IndexRow> rows;
    if (!find_link(s, id1, lt, id2, &rows, nullptr)) return false;
    const std::string& d = rows[0].doc;
    return get_int(d, "visibility") == vis && (!data || get_bytes(d, "data") == *data);
  }
  // Adds delta to the count row of (id1, lt), creating it; inside the caller's transaction.
  void bump_count(Session& s, uint64_t id1, uint64_t lt, int64_t delta, int64_t now_ms, uint64_t* br, uint64_t* bw) {
    std::vector<IndexRow> rows;
    if (count_->index_scan_prefix(s, 0, {KeyValue::Int(static_cast<int64_t>(id1)), KeyValue::Int(static_cast<int64_t>(lt))},
                                  1, false, &rows, br)) {
      count_->update_in_txn(s, rows[0].record_id, [&](const Doc& old) {
        Doc d;
        write_count(&d, id1, lt, std::max<int64_t>(0, get_int(old.bytes, "count") + delta), now_ms,
                    get_int(old.bytes, "version") + 1);
        return d;
      }, br, bw);
    } else if (delta > 0) {
      Doc d;
      write_count(&d, id1, lt, delta, now_ms, 0);
      count_->insert_in_txn(s, d);
      *bw += d.bytes.size();
    }
  }
  // LinkBench addLink: insert, or un-hide/overwrite an existing link; the count row follows.
  uint64_t add_link(Session& s, uint64_t id1, uint64_t lt, uint64_t id2, const std::string& data, int64_t now_ms,
                    uint64_t* br, uint64_t* bw) {
    std::lock_guard<std::mutex> g(lock_for(id1));
    std::vector<IndexRow> rows;
    bool exists = find_link(s, id1, lt, id2, &rows, br);
    s.begin();
    try {
      int64_t delta = 1;
      if (exists) {
        delta = get_int(rows[0].doc, "visibility") == kVisible ? 0 : 1;
        link_->update_in_txn(s, rows[0].record_id, [&](const Doc& old) {
          Doc d;
          write_link(&d, id1, lt, id2, kVisible, data, now_ms, get_int(old.bytes, "version") + 1);
          return d;
        }, br, bw);
      } else {
        Doc d;
        write_link(&d, id1, lt, id2, kVisible, data, now_ms, 0);
        link_->insert_in_txn(s, d);
        *bw += d.bytes.size();
      }
      if (delta) bump_count(s, id1, lt, delta, now_ms, br, bw);
      s.commit();
      return 1;
    } catch (...) {
      try { s.rollback(); } catch (...) {}
      throw;
    }
  }
  // LinkBench deleteLink (expunge = false): hide a visible link and decrement the count.
  uint64_t delete_link(Session& s, uint64_t id1, uint64_t lt, uint64_t id2, int64_t now_ms, uint64_t* br, uint64_t* bw) {
    std::lock_guard<std::mutex> g(lock_for(id1));
    std::vector<IndexRow> rows;
    if (!find_link(s, id1, lt, id2, &rows, br) || get_int(rows[0].doc, "visibility") != kVisible) return 0;
    s.begin();
    try {
      link_->update_in_txn(s, rows[0].record_id, [&](const Doc& old) {
        Doc d = old;
        set_int64(&d.bytes, "visibility", kHidden);
        return d;
      }, br, bw);
      bump_count(s, id1, lt, -1, now_ms, br, bw);
      s.commit();
      return 1;
    } catch (...) {
      try { s.rollback(); } catch (...) {}
      throw;
    }
  }

  void load(Engine& engine, const ParamValues& p) {
    const uint64_t t0 = now_ns();
    load_start_unix_s_ = static_cast<double>(unix_now_ms()) / 1000.0;
    const uint64_t chunk = static_cast<uint64_t>(p_int(p, "load_batch"));
    const int loaders = static_cast<int>(p_int(p, "loaders"));
    const int64_t now_ms = unix_now_ms();
    const LogNormal link_size{p_dbl(p, "link_datasize"), 1.0}, node_size{p_dbl(p, "node_datasize"), 1.0};
    // Nodes first, in id order from one thread, so that a node's record id is its id.
    {
      auto s = engine.session();
      Rng r(seed_, 0x10AD0);
      std::vector<Doc> docs;
      for (uint64_t id = 1; id < maxid1_;) {
        uint64_t n = std::min(chunk, maxid1_ - id);
        docs.resize(n);
        for (uint64_t i = 0; i < n; ++i, ++id) {
          size_t len = std::min<size_t>(1 << 20, static_cast<size_t>(std::llround(node_size.sample(r))));
          std::string d(node_buf_.data() + r.uniform(kBuf - len + 1), len);
          write_node(&docs[i], static_cast<int64_t>(id), 0, now_ms, d);
        }
        node_->insert_batch(*s, docs);
      }
      loaded_nodes_ = maxid1_ - 1;
    }
    // Links and count rows: loaders take interleaved id1 ranges of `chunk` ids.
    std::atomic<uint64_t> links{0}, counts{0};
    std::vector<std::string> errors(loaders);
    std::vector<std::thread> th;
    for (int l = 0; l < loaders; ++l)
      th.emplace_back([&, l] {
        try {
          auto s = engine.session();
          Rng r(seed_, 0x11AD0000ULL + static_cast<uint64_t>(l));
          std::vector<Doc> ld, cd;
          std::vector<uint64_t> per_type(ltc_);
          for (uint64_t lo = 1 + static_cast<uint64_t>(l) * chunk; lo < maxid1_; lo += chunk * loaders) {
            uint64_t hi = std::min(maxid1_, lo + chunk);
            ld.clear();
            cd.clear();
            for (uint64_t id1 = lo; id1 < hi; ++id1) {
              uint64_t od = outdeg(id1);
              std::fill(per_type.begin(), per_type.end(), 0);
              for (uint64_t j = 0; j < od; ++j) {
                size_t len = std::min(kLinkDataMax, static_cast<size_t>(std::llround(link_size.sample(r))));
                std::string d(link_buf_.data() + r.uniform(kBuf - len + 1), len);
                ld.emplace_back();
                write_link(&ld.back(), id1, j % ltc_, linked_id2(id1, j), kVisible, d, now_ms - static_cast<int64_t>(j), 0);
                ++per_type[j % ltc_];
              }
              for (uint64_t lt = 0; lt < ltc_; ++lt)
                if (per_type[lt]) {
                  cd.emplace_back();
                  write_count(&cd.back(), id1, lt, static_cast<int64_t>(per_type[lt]), now_ms, 0);
                }
            }
            // Bounded transactions: link batches of at most `chunk` documents.
            for (size_t i = 0; i < ld.size(); i += chunk) {
              std::vector<Doc> part(std::make_move_iterator(ld.begin() + i),
                                    std::make_move_iterator(ld.begin() + std::min(ld.size(), i + chunk)));
              link_->insert_batch(*s, part);
            }
            if (!cd.empty()) count_->insert_batch(*s, cd);
            links += ld.size();
            counts += cd.size();
          }
        } catch (const std::exception& e) {
          errors[l] = e.what();
        }
      });
    for (auto& t : th) t.join();
    for (auto& e : errors)
      if (!e.empty()) throw std::runtime_error("linkbench load: " + e);
    loaded_links_ = links.load();
    loaded_counts_ = counts.load();
    load_seconds_ = static_cast<double>(now_ns() - t0) / 1e9;
    load_end_unix_s_ = load_start_unix_s_ + load_seconds_;
  }

  // load() for server targets: the same rows, drawn the same way, through a LinkbenchClient.
  void load_server(const ParamValues& p) {
    const uint64_t t0 = now_ns();
    load_start_unix_s_ = static_cast<double>(unix_now_ms()) / 1000.0;
    const uint64_t chunk = static_cast<uint64_t>(p_int(p, "load_batch"));
    const int loaders = static_cast<int>(p_int(p, "loaders"));
    const int64_t now_ms = unix_now_ms();
    const LogNormal link_size{p_dbl(p, "link_datasize"), 1.0}, node_size{p_dbl(p, "node_datasize"), 1.0};
    {
      auto cl = store_->client();
      Rng r(seed_, 0x10AD0);
      std::vector<LbNode> nodes;
      for (uint64_t id = 1; id < maxid1_;) {
        uint64_t n = std::min(chunk, maxid1_ - id);
        nodes.resize(n);
        for (uint64_t i = 0; i < n; ++i, ++id) {
          size_t len = std::min<size_t>(1 << 20, static_cast<size_t>(std::llround(node_size.sample(r))));
          nodes[i].id = static_cast<int64_t>(id);
          nodes[i].version = 0;
          nodes[i].time = now_ms;
          nodes[i].data.assign(node_buf_.data() + r.uniform(kBuf - len + 1), len);
        }
        cl->load_nodes(nodes);
      }
      loaded_nodes_ = maxid1_ - 1;
    }
    std::atomic<uint64_t> links{0}, counts{0};
    std::vector<std::string> errors(loaders);
    std::vector<std::thread> th;
    for (int l = 0; l < loaders; ++l)
      th.emplace_back([&, l] {
        try {
          auto cl = store_->client();
          Rng r(seed_, 0x11AD0000ULL + static_cast<uint64_t>(l));
          std::vector<LbLink> ld;
          std::vector<LbCount> cd;
          std::vector<uint64_t> per_type(ltc_);
          for (uint64_t lo = 1 + static_cast<uint64_t>(l) * chunk; lo < maxid1_; lo += chunk * loaders) {
            uint64_t hi = std::min(maxid1_, lo + chunk);
            ld.clear();
            cd.clear();
            for (uint64_t id1 = lo; id1 < hi; ++id1) {
              uint64_t od = outdeg(id1);
              std::fill(per_type.begin(), per_type.end(), 0);
              for (uint64_t j = 0; j < od; ++j) {
                size_t len = std::min(kLinkDataMax, static_cast<size_t>(std::llround(link_size.sample(r))));
                LbLink k;
                k.id1 = static_cast<int64_t>(id1);
                k.link_type = static_cast<int64_t>(j % ltc_);
                k.id2 = static_cast<int64_t>(linked_id2(id1, j));
                k.visibility = kVisible;
                k.data.assign(link_buf_.data() + r.uniform(kBuf - len + 1), len);
                k.time = now_ms - static_cast<int64_t>(j);
                ld.push_back(std::move(k));
                ++per_type[j % ltc_];
              }
              for (uint64_t lt = 0; lt < ltc_; ++lt)
                if (per_type[lt]) {
                  LbCount c;
                  c.id = static_cast<int64_t>(id1);
                  c.link_type = static_cast<int64_t>(lt);
                  c.count = static_cast<int64_t>(per_type[lt]);
                  c.time = now_ms;
                  cd.push_back(c);
                }
            }
            for (size_t i = 0; i < ld.size(); i += chunk)
              cl->load_links(std::vector<LbLink>(ld.begin() + i, ld.begin() + std::min(ld.size(), i + chunk)));
            for (size_t i = 0; i < cd.size(); i += chunk)
              cl->load_counts(std::vector<LbCount>(cd.begin() + i, cd.begin() + std::min(cd.size(), i + chunk)));
            links += ld.size();
            counts += cd.size();
          }
        } catch (const std::exception& e) {
          errors[l] = e.what();
        }
      });
    for (auto& t : th) t.join();
    for (auto& e : errors)
      if (!e.empty()) throw std::runtime_error("linkbench load: " + e);
    loaded_links_ = links.load();
    loaded_counts_ = counts.load();
    load_seconds_ = static_cast<double>(now_ns() - t0) / 1e9;
    load_end_unix_s_ = load_start_unix_s_ + load_seconds_;
  }

  std::unique_ptr<LinkbenchStore> store_;
  std::atomic<int64_t> next_node_{0};
  uint64_t seed_ = 1, maxid1_ = 2, nids_ = 1, ltc_ = 2, requests_ = 0;
  int threads_ = 1;
  double cum_[kNumOps] = {};
  std::unique_ptr<Scramble> scramble_;
  std::unique_ptr<Collection> node_, link_, count_;
  std::string link_buf_, node_buf_;
  std::array<std::mutex, 256> stripes_;
  uint64_t loaded_nodes_ = 0, loaded_links_ = 0, loaded_counts_ = 0;
  double load_seconds_ = 0;
  // The load's wall window, so its OS costs can be computed from the captures (process: loads).
  double load_start_unix_s_ = 0, load_end_unix_s_ = 0;
  std::atomic<uint64_t> verify_checks_{0}, verify_bad_{0};
  std::atomic<uint64_t> h_count_{0};
};

void check_params(const ParamValues& p, std::vector<std::string>* problems) {
  auto need = [&](bool ok, const std::string& msg) {
    if (!ok) problems->push_back("bad value for param " + msg);
  };
  need(p_int(p, "maxid1") >= 2, "'maxid1': expected an integer >= 2 (node ids are 1..maxid1-1)");
  need(p_int(p, "link_type_count") >= 1, "'link_type_count': expected an integer >= 1");
  need(p_int(p, "threads") >= 1, "'threads': expected an integer >= 1");
  need(p_int(p, "loaders") >= 1, "'loaders': expected an integer >= 1");
  need(p_int(p, "load_batch") >= 1, "'load_batch': expected an integer >= 1");
  need(p_int(p, "requests") >= 0, "'requests': expected an integer >= 0");
  need(p_int(p, "getlinklist_limit") >= 1, "'getlinklist_limit': expected an integer >= 1");
  need(p_int(p, "requests") > 0 || p_dbl(p, "max_seconds") > 0, "'requests'/'max_seconds': set at least one bound");
  double total = 0;
  bool nonneg = true;
  for (int o = 1; o < kNumOps; ++o) {
    total += p_dbl(p, kMixParams[o]);
    nonneg = nonneg && p_dbl(p, kMixParams[o]) >= 0;
  }
  need(nonneg && total > 0, "'addlink'..'deletenode': expected percentages >= 0 with a positive sum");
  for (const char* z : {"link_read_shape", "link_write_shape", "node_read_shape", "node_update_shape"})
    need(p_dbl(p, z) > 0 && p_dbl(p, z) != 1.0, std::string("'") + z + "': expected a Zipf shape > 0");
  need(p_dbl(p, "link_datasize") > 0 && p_dbl(p, "node_datasize") > 0, "'link_datasize'/'node_datasize': expected > 0");
}

}  // namespace

WorkloadInfo linkbench_info() {
  WorkloadInfo w;
  w.name = "linkbench";
  w.description = "LinkBench social graph (node/link/count collections): load, then the 10-operation request mix";
  w.params = {
      {"maxid1", ParamType::Int, int64_t{10001}, "node ids 1..maxid1-1 are loaded; requests draw id1 from [1, maxid1)"},
      {"link_type_count", ParamType::Int, int64_t{2}, "link types"},
      {"threads", ParamType::Int, int64_t{1}, "requester threads"},
      {"requests", ParamType::Int, int64_t{100000}, "requests in total over requesters (0 = until max_seconds)"},
      {"loaders", ParamType::Int, int64_t{1}, "loader threads for links and counts"},
      {"load_batch", ParamType::Int, int64_t{2048}, "ids per loader chunk / documents per load transaction"},
      {"addlink", ParamType::Double, 8.9886601, "percent of requests: add_link"},
      {"deletelink", ParamType::Double, 2.9907664, "percent: delete_link"},
      {"updatelink", ParamType::Double, 8.0122125, "percent: update_link"},
      {"countlink", ParamType::Double, 4.8863567, "percent: count_link"},
      {"getlink", ParamType::Double, 0.5261142, "percent: multiget_link"},
      {"getlinklist", ParamType::Double, 50.7119145, "percent: get_links_list"},
      {"getnode", ParamType::Double, 12.9326683, "percent: get_node"},
      {"addnode", ParamType::Double, 2.5732789, "percent: add_node"},
      {"updatenode", ParamType::Double, 7.366437, "percent: update_node"},
      {"deletenode", ParamType::Double, 1.0115914, "percent: delete_node"},
      {"link_read_shape", ParamType::Double, 0.8, "Zipf shape of id1 for count_link, multiget_link, get_links_list"},
      {"link_write_shape", ParamType::Double, 0.741, "Zipf shape of id1 for add/delete/update_link"},
      {"node_read_shape", ParamType::Double, 0.625, "Zipf shape of get_node ids"},
      {"node_update_shape", ParamType::Double, 0.606, "Zipf shape of update_node ids (delete_node: uniform)"},
      {"link_datasize", ParamType::Double, 8.0, "median link payload bytes (log-normal, sigma 1, cap 255)"},
      {"node_datasize", ParamType::Double, 128.0, "median node payload bytes (log-normal, sigma 1)"},
      {"getlinklist_limit", ParamType::Int, int64_t{10000}, "rows per get_links_list (LinkStore.DEFAULT_LIMIT)"},
      {"verify", ParamType::Bool, false, "read back after each write and count mismatches (summary verify)"},
      {"collection_prefix", ParamType::String, std::string("lb_"), "collection names: <prefix>node, link, count"},
  };
  for (auto& c : common_params()) w.params.push_back(c);
  w.check = check_params;
  w.make = [] { return std::unique_ptr<Workload>(new LinkBench()); };
  return w;
}

}  // namespace eb
