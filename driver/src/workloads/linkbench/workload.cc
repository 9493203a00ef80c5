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
// Load (before the "before" engine stats): nodes 1..maxid1-1, then each id1's links and one count
// row per (id1, link_type) with links. graph=linkbench (default): LinkBench's real out-degree
// (driver/data/linkbench/, its Distribution.dat `nlinks` CDF) coupled to popularity as LinkBench
// couples them: the node of popularity rank r (the rank the requests' Zipf draws, before the id
// permutation) gets the CDF's value at 1 - r/n, split over link types by LinkBench's calcLinkCount;
// link j of a type has id2 = id1 + j; requests pick id2 = id1 + uniform(ceil(links / p_exist)) as
// ID2Chooser does. graph=lognormal: the earlier stand-in, a rounded log-normal out-degree (sigma 1.5,
// mean 4.74/node, cap 100000, a function of (seed, id1), independent of popularity), link j: id2 =
// linked_id2(id1, j), link_type = j mod link_type_count.
//
// Requests: the ten LinkBench operations with the 2011 default mix (params, percent), ids drawn from
// Zipf over [1, maxid1) (shapes 0.8 link reads, 0.741 link writes, 0.625 node reads, 0.606 node
// updates; uniform node deletes) and permuted by a fixed bijection (LinkBench's shuffler);
// read_uncorr_blend / write_uncorr_blend percent of the link ops' draws go through a second
// bijection first (LinkBench's uncorrelated blends: popularity independent of out-degree; defaults
// 99.5 / 95 as FBWorkload.properties ships them); getlinklist_history percent of get_links_list
// requests page past a list whose last page came back full (LinkBench's tail history, kept from the
// stream and the loaded graph: see TailHistory; default 0.3, FBWorkload's). With the blends at 0 (the
// defaults before issue 26) every link op's popularity follows out-degree and a get_links_list reads
// ~100x the rows of LinkBench's mix; the op streams of those runs are pinned with the 0s spelled
// out (driver/tests/test_stream_pins.cc). id2: an existing
// link of id1 with probability 0.5 (get), 0.9 (update/delete), 0.05 (add), else uniform. Payloads:
// log-normal sizes, median 8 B (links, capped at 255) and 128 B (nodes), sigma 1.0, bytes from a
// motif-like buffer (links: 32..100, nodes: 50..220; partly repeated so they compress somewhat).
// add_link/delete_link/update_link change the link and its count row (in ONE transaction where the
// store has them); writers of the same id1 are serialized by a striped lock here where the store
// needs it (KV engines, MongoDB; not MariaDB, whose row locks do it). multiget_link returns each
// found link once, as LinkBench's `id2 IN (...)`.
// delete_link hides the link (visibility 0, LinkBench's default) and decrements the count.
// Every target, the KV engines included, is reached through a LinkbenchStore (store.h; the KV one
// in store_kv.cc): one run loop, one loader. Logical bytes are counted here, per
// request, from the request and what the store returned (docs/driver.md "Logical bytes").
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>

#include "core/rng.h"
#include "workloads/distributions.h"
#include "workloads/doc_writer.h"
#include "workloads/linkbench/model.h"
#include "workloads/linkbench/store.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace eb {
namespace {
using namespace linkbench;

// What a request did: items (as in docs/driver.md) and its logical bytes.
struct Outcome {
  uint64_t items = 1, br = 0, bw = 0;
};

class LinkBench final : public Workload, private Model {
 public:
  std::vector<std::string> op_names() const override { return {kOpNames, kOpNames + kNumOps}; }

  void setup(Engine& engine, const ParamValues& p, uint64_t seed) override { setup_store(linkbench_stores().kv(engine), p, seed); }

  void setup_target(Target& target, const ParamValues& p, uint64_t seed) override {
    auto store = linkbench_stores().for_target(target);
    if (!store) throw std::runtime_error("linkbench does not run on this target");
    setup_store(std::move(store), p, seed);
  }

  void setup_store(std::unique_ptr<LinkbenchStore> store, const ParamValues& p, uint64_t seed) {
    init(p, seed);
    store_ = std::move(store);
    store_->create(p_str(p, "collection_prefix"));
    load(p);
    next_node_.store(static_cast<int64_t>(maxid1_));
  }


  int threads() const override { return threads_; }
  uint64_t target_ops() const override { return requests_; }


  void run_thread(int t, RunContext& ctx, ThreadMetrics& m, OpHasher& h) override {
    const ParamValues& p = ctx.params;
    const uint64_t quota = requests_ == 0 ? UINT64_MAX
                                          : requests_ / threads_ + (static_cast<uint64_t>(t) < requests_ % threads_ ? 1 : 0);
    const double rate = p_dbl(p, "target_rate") / threads_;
    const bool verify = p_bool(p, "verify");
    const size_t list_limit = static_cast<size_t>(p_int(p, "getlinklist_limit"));
    const Draws draws(p, nids_);
    Rng rng(ctx.seed, static_cast<uint64_t>(t));
    std::unique_ptr<LinkbenchClient> cl = store_->client();
    Request req;
    TailHistory tails;
    for (uint64_t done = 0; done < quota && !ctx.should_stop(); ++done) {
      uint64_t intended = rate > 0 ? pace(ctx.start_ns, rate, done, ctx) : 0;
      if (ctx.should_stop()) break;
      draw(rng, draws, h, &req, &tails, list_limit);
      uint64_t t0 = rate > 0 ? intended : now_ns();
      Outcome o = req.op <= kGetNode ? node_request(*cl, req, verify) : link_request(*cl, req, verify, list_limit);
      uint64_t t1 = now_ns();
      uint64_t lat = (t1 - std::min(t0, t1)) / 1000;
      m.record(req.op, lat, o.items, o.br, o.bw);
      m.record(kRequest, lat, 1, o.br, o.bw);
    }
  }

  // add_node, update_node, delete_node, get_node. Writes count the node image they write (delete:
  // its key) whether or not the node exists; get_node reads the node image it found.
  Outcome node_request(LinkbenchClient& cl, const Request& r, bool verify) {
    const int64_t id1 = static_cast<int64_t>(r.id1);
    std::string back;
    Outcome o;
    switch (r.op) {
      case kAddNode: {
        int64_t id = cl.add_node(LbNode{next_node_.fetch_add(1), 1, unix_now_ms(), r.data});
        if (verify) check(cl.get_node(id, &back) && back == r.data);
        o.bw = node_bytes(r.data.size());
        break;
      }
      case kUpdateNode:
        o.items = cl.update_node(id1, r.data, unix_now_ms()) ? 1 : 0;
        if (verify && o.items && threads_ == 1) check(cl.get_node(id1, &back) && back == r.data);
        o.bw = node_bytes(r.data.size());
        break;
      case kDeleteNode:
        o.items = cl.delete_node(id1) ? 1 : 0;
        if (verify) check(!cl.get_node(id1, nullptr));
        o.bw = BsonSize().i64("_id").bytes();
        break;
      case kGetNode:
        o.items = cl.get_node(id1, &back) ? 1 : 0;
        o.br = o.items ? node_bytes(back.size()) : 0;
        break;
    }
    return o;
  }

  // The link requests. Writes count the link image they write (delete_link: its key and
  // visibility) whether or not the link exists; the count row they maintain is not counted (like an
  // index entry). Reads count the image of every link or count row returned.
  Outcome link_request(LinkbenchClient& cl, const Request& r, bool verify, size_t list_limit) {
    const int64_t id1 = static_cast<int64_t>(r.id1), lt = static_cast<int64_t>(r.lt), id2 = static_cast<int64_t>(r.id2);
    LbLink back;
    Outcome o;
    switch (r.op) {
      case kAddLink:
      case kUpdateLink: {
        auto g = writer_lock(r.id1);
        cl.add_link(LbLink{id1, lt, id2, kVisible, r.data, unix_now_ms(), 0});
        if (verify && threads_ == 1) check(cl.get_link(id1, lt, id2, &back) && back.visibility == kVisible && back.data == r.data);
        o.bw = link_bytes(r.data.size());
        break;
      }
      case kDeleteLink: {
        auto g = writer_lock(r.id1);
        o.items = cl.delete_link(id1, lt, id2, unix_now_ms()) ? 1 : 0;
        if (verify && threads_ == 1) check(!(cl.get_link(id1, lt, id2, &back) && back.visibility == kVisible));
        o.bw = BsonSize().i64("id1").i64("link_type").i64("id2").i64("visibility").bytes();
        break;
      }
      case kCountLink: {
        int64_t c = 0;
        o.items = cl.count_link(id1, lt, &c) ? 1 : 0;
        h_count_ += static_cast<uint64_t>(c);  // not hashed (a result); keeps the read from being optimized away
        o.br = o.items * count_bytes();
        break;
      }
      case kMultigetLink: {
        std::vector<LbLink> rows;
        o.items = cl.multiget_links(id1, lt, std::vector<int64_t>(r.id2s.begin(), r.id2s.end()), &rows);
        for (const auto& l : rows) o.br += link_bytes(l.data.size());
        break;
      }
      case kGetLinksList: {
        std::vector<LbLink> rows;
        if (r.page) {  // LinkBench's getLinkListTail: older than the previous page's last, offset 1
          history_queries_.fetch_add(1, std::memory_order_relaxed);
          o.items = cl.get_links_list_older(id1, lt, page_last_time(r.id1, r.lt, r.page * list_limit - 1), 1,
                                            list_limit, r.page * list_limit, &rows);
        } else {
          o.items = cl.get_links_list(id1, lt, list_limit, &rows);
        }
        for (const auto& l : rows) o.br += link_bytes(l.data.size());
        break;
      }
    }
    return o;
  }

  json summary_extra() const override {
    json j = store_ ? store_->summary_extra() : json::object();
    const uint64_t links = loaded_links_.load();
    j["logical_bytes_stored"] = loaded_bytes_.load();  // the data set as loaded (see docs/driver.md)
    j["load"] = {{"graph", real_graph_ ? "linkbench" : "lognormal"}, {"nodes", loaded_nodes_}, {"links", links}, {"counts", loaded_counts_.load()},
                 {"links_per_node", loaded_nodes_ ? static_cast<double>(links) / loaded_nodes_ : 0.0},
                 {"seconds", load_seconds_}, {"cpu_s", load_cpu_s_}, {"start_unix_s", load_start_unix_s_}, {"end_unix_s", load_end_unix_s_}};
    j["getlinklist_history"] = {{"percent_of_get_links_list", hist_ * 100}, {"queries", history_queries_.load()}};
    j["verify"] = {{"checks", verify_checks_.load()}, {"mismatches", verify_bad_.load()}};
    return j;
  }

 private:
  void check(bool ok) {
    verify_checks_.fetch_add(1, std::memory_order_relaxed);
    if (!ok) verify_bad_.fetch_add(1, std::memory_order_relaxed);
  }
  // Serializes writers of one id1 on stores that need it (LinkbenchStore::needs_writer_lock).
  std::unique_lock<std::mutex> writer_lock(uint64_t id1) {
    if (!store_->needs_writer_lock()) return {};
    return std::unique_lock<std::mutex>(stripes_[(id1 * 0x9E3779B97F4A7C15ULL) >> 56]);
  }

  // Load (before the "before" engine stats): nodes 1..maxid1-1 in id order from one client (so a
  // node's record id is its id on the KV engines), then links and count rows from `loaders`
  // clients taking interleaved id1 ranges of `load_batch` ids.
  void load(const ParamValues& p) {
    const uint64_t t0 = now_ns();
    const double cpu0 = process_cpu_s();
    load_start_unix_s_ = static_cast<double>(unix_now_ms()) / 1000.0;
    const uint64_t chunk = static_cast<uint64_t>(p_int(p, "load_batch"));
    const int loaders = static_cast<int>(p_int(p, "loaders"));
    const int64_t now_ms = unix_now_ms();
    load_now_ms_ = now_ms;
    load_nodes(chunk, LogNormal{p_dbl(p, "node_datasize"), 1.0}, now_ms);
    std::vector<std::string> errors(loaders);
    std::vector<std::thread> th;
    for (int l = 0; l < loaders; ++l)
      th.emplace_back([&, l] {
        try {
          load_links(l, loaders, chunk, LogNormal{p_dbl(p, "link_datasize"), 1.0}, now_ms);
        } catch (const std::exception& e) {
          errors[l] = e.what();
        }
      });
    for (auto& t : th) t.join();
    for (auto& e : errors)
      if (!e.empty()) throw std::runtime_error("linkbench load: " + e);
    load_seconds_ = static_cast<double>(now_ns() - t0) / 1e9;
    load_cpu_s_ = process_cpu_s() - cpu0;
    load_end_unix_s_ = load_start_unix_s_ + load_seconds_;
  }

  void load_nodes(uint64_t chunk, const LogNormal& node_size, int64_t now_ms) {
    auto cl = store_->client();
    Rng r(seed_, 0x10AD0);
    std::vector<LbNode> nodes;
    for (uint64_t id = 1; id < maxid1_;) {
      uint64_t n = std::min(chunk, maxid1_ - id);
      nodes.resize(n);
      for (uint64_t i = 0; i < n; ++i, ++id) {
        size_t len = std::min<size_t>(1 << 20, static_cast<size_t>(std::llround(node_size.sample(r))));
        nodes[i] = LbNode{static_cast<int64_t>(id), 0, now_ms, std::string(node_buf_.data() + r.uniform(kBuf - len + 1), len)};
        loaded_bytes_ += node_bytes(len);
      }
      cl->load_nodes(nodes);
    }
    loaded_nodes_ = maxid1_ - 1;
  }

  // One loader's links and count rows (id1 ranges lo = 1 + l*chunk, stepping chunk*loaders): insert
  // requests of `chunk` links and of `chunk` count rows as they are generated, each buffer carried
  // over from one range to the next and the rest sent at the loader's end, as LinkBench's
  // LinkBenchLoad does (its loadBuffer and countLoadBuffer; a request per range end made ~4% more
  // statements than LinkBench's load). LinkBench's hottest node has ~960k links: held whole, its
  // range alone took ~100 MB.
  void load_links(int l, int loaders, uint64_t chunk, const LogNormal& link_size, int64_t now_ms) {
    auto cl = store_->client();
    Rng r(seed_, 0x11AD0000ULL + static_cast<uint64_t>(l));
    std::vector<LbLink> ld;
    std::vector<LbCount> cd;
    std::vector<uint64_t> per_type(ltc_);
    std::vector<std::pair<uint64_t, uint64_t>> links;
    std::vector<int64_t> times;
    uint64_t bytes = 0;
    auto send_links = [&] {
      if (ld.empty()) return;
      cl->load_links(ld);
      loaded_links_ += ld.size();
      ld.clear();
    };
    auto send_counts = [&] {
      if (cd.empty()) return;
      cl->load_counts(cd);
      loaded_counts_ += cd.size();
      cd.clear();
    };
    for (uint64_t lo = 1 + static_cast<uint64_t>(l) * chunk; lo < maxid1_; lo += chunk * loaders) {
      const uint64_t hi = std::min(maxid1_, lo + chunk);
      for (uint64_t id1 = lo; id1 < hi; ++id1) {
        links_of(id1, &links);
        load_times(id1, links, &times);
        std::fill(per_type.begin(), per_type.end(), 0);
        for (uint64_t j = 0; j < links.size(); ++j) {
          const auto [lt, id2] = links[j];
          size_t len = std::min(kLinkDataMax, static_cast<size_t>(std::llround(link_size.sample(r))));
          ld.push_back(LbLink{static_cast<int64_t>(id1), static_cast<int64_t>(lt), static_cast<int64_t>(id2), kVisible,
                              std::string(link_buf_.data() + r.uniform(kBuf - len + 1), len),
                              times[j], 0});
          bytes += link_bytes(len);
          ++per_type[lt];
          if (ld.size() == chunk) send_links();
        }
        for (uint64_t lt = 0; lt < ltc_; ++lt)
          if (per_type[lt]) {
            cd.push_back(LbCount{static_cast<int64_t>(id1), static_cast<int64_t>(lt), static_cast<int64_t>(per_type[lt]), now_ms, 0});
            bytes += count_bytes();
            if (cd.size() == chunk) send_counts();
          }
      }
    }
    send_links();
    send_counts();
    loaded_bytes_ += bytes;
  }

  std::unique_ptr<LinkbenchStore> store_;
  std::atomic<int64_t> next_node_{0};
  std::array<std::mutex, 256> stripes_;
  uint64_t loaded_nodes_ = 0;
  std::atomic<uint64_t> loaded_links_{0}, loaded_counts_{0}, loaded_bytes_{0};
  double load_seconds_ = 0;
  double load_cpu_s_ = 0;  // the driver process's CPU (user + sys, all threads) over the load
  // The load's wall window, so its OS costs can be computed from the captures (process: loads).
  double load_start_unix_s_ = 0, load_end_unix_s_ = 0;
  std::atomic<uint64_t> verify_checks_{0}, verify_bad_{0};
  std::atomic<uint64_t> h_count_{0};
  std::atomic<uint64_t> history_queries_{0};
};

void check_params(const ParamValues& p, std::vector<std::string>* problems) {
  auto need = [&](bool ok, const std::string& msg) {
    if (!ok) problems->push_back("bad value for param " + msg);
  };
  need(p_int(p, "requests") > 0 || p_dbl(p, "max_seconds") > 0, "'requests'/'max_seconds': set at least one bound");
  // Each percentage of the mix is >= 0 by its spec; together they must choose something.
  double total = 0;
  for (int o = 1; o < kNumOps; ++o) total += p_dbl(p, kMixParams[o]);
  need(total > 0, "'addlink'..'deletenode': expected percentages with a positive sum");
  // A Zipf shape is > 0 by its spec; 1 is the one value inside that the generator cannot take.
  for (const char* z : {"link_read_shape", "link_write_shape", "node_read_shape", "node_update_shape"})
    need(p_dbl(p, z) != 1.0, std::string("'") + z + "': expected a Zipf shape > 0 other than 1");
}

}  // namespace

size_t LinkbenchClient::multiget_links(int64_t id1, int64_t link_type, const std::vector<int64_t>& id2s,
                                       std::vector<LbLink>* out) {
  std::vector<int64_t> ids = id2s;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  size_t n = 0;
  LbLink l;
  for (int64_t id2 : ids)
    if (get_link(id1, link_type, id2, &l)) {
      l.id1 = id1, l.link_type = link_type, l.id2 = id2;
      out->push_back(l);
      ++n;
    }
  return n;
}

size_t LinkbenchClient::get_links_list_older(int64_t id1, int64_t link_type, int64_t /*max_time*/, size_t /*offset*/,
                                             size_t limit, size_t newer, std::vector<LbLink>* out) {
  std::vector<LbLink> rows;
  get_links_list(id1, link_type, newer + limit, &rows);
  size_t n = 0;
  for (size_t i = newer; i < rows.size(); ++i, ++n) out->push_back(std::move(rows[i]));
  return n;
}

WorkloadInfo linkbench_info() {
  WorkloadInfo w;
  w.name = "linkbench";
  w.description = "LinkBench social graph (node/link/count collections): load, then the 10-operation request mix";
  w.params = {
      {"maxid1", ParamType::Int, int64_t{10001}, "node ids 1..maxid1-1 are loaded; requests draw id1 from [1, maxid1)",
       at_least(2)},
      {"link_type_count", ParamType::Int, int64_t{2}, "link types", in_range(1, kMaxFields)},
      {"graph", ParamType::Enum, std::string("linkbench"),
       "out-degree: linkbench (LinkBench's real distribution, coupled to popularity) or lognormal (the earlier "
       "stand-in, independent of popularity)",
       {"linkbench", "lognormal"}},
      {"threads", ParamType::Int, int64_t{1}, "requester threads", in_range(1, kMaxThreads)},
      {"requests", ParamType::Int, int64_t{100000}, "requests in total over requesters (0 = until max_seconds)",
       at_least(0)},
      {"loaders", ParamType::Int, int64_t{1}, "loader threads for links and counts", in_range(1, kMaxThreads)},
      {"load_batch", ParamType::Int, int64_t{2048}, "ids per loader chunk / documents per load transaction",
       in_range(1, kMaxBatch)},
      {"load_time_window", ParamType::Int, int64_t{0},
       "the load shuffles a list's link times within runs of this many consecutive links (0 = the whole list, "
       "LinkBench's random times; a window keeps the index region one load inserts into at once that small)",
       at_least(0), "links"},
      {"addlink", ParamType::Double, 8.9886601, "percent of requests: add_link", at_least(0), "percent"},
      {"deletelink", ParamType::Double, 2.9907664, "percent: delete_link", at_least(0), "percent"},
      {"updatelink", ParamType::Double, 8.0122125, "percent: update_link", at_least(0), "percent"},
      {"countlink", ParamType::Double, 4.8863567, "percent: count_link", at_least(0), "percent"},
      {"getlink", ParamType::Double, 0.5261142, "percent: multiget_link", at_least(0), "percent"},
      {"getlinklist", ParamType::Double, 50.7119145, "percent: get_links_list", at_least(0), "percent"},
      {"getnode", ParamType::Double, 12.9326683, "percent: get_node", at_least(0), "percent"},
      {"addnode", ParamType::Double, 2.5732789, "percent: add_node", at_least(0), "percent"},
      {"updatenode", ParamType::Double, 7.366437, "percent: update_node", at_least(0), "percent"},
      {"deletenode", ParamType::Double, 1.0115914, "percent: delete_node", at_least(0), "percent"},
      {"read_uncorr_blend", ParamType::Double, 99.5,
       "percent of link reads whose id1's popularity is independent of its out-degree (LinkBench's "
       "read_uncorr_blend, FBWorkload.properties' 99.5; 0 = every link read follows out-degree)", in_range(0, 100),
       "percent"},
      {"write_uncorr_blend", ParamType::Double, 95.0,
       "percent of link writes whose id1's popularity is independent of its out-degree (LinkBench's "
       "write_uncorr_blend, FBWorkload.properties' 95)", in_range(0, 100), "percent"},
      {"link_read_shape", ParamType::Double, 0.8, "Zipf shape of id1 for count_link, multiget_link, get_links_list",
       above(0)},
      {"link_write_shape", ParamType::Double, 0.741, "Zipf shape of id1 for add/delete/update_link", above(0)},
      {"node_read_shape", ParamType::Double, 0.625, "Zipf shape of get_node ids", above(0)},
      {"node_update_shape", ParamType::Double, 0.606, "Zipf shape of update_node ids (delete_node: uniform)", above(0)},
      {"link_datasize", ParamType::Double, 8.0, "median link payload bytes (log-normal, sigma 1, cap 255)", above(0),
       "bytes"},
      {"node_datasize", ParamType::Double, 128.0, "median node payload bytes (log-normal, sigma 1)", above(0), "bytes"},
      {"getlinklist_history", ParamType::Double, 0.3,
       "percent of get_links_list requests that read the next page of a list whose last page came back full "
       "(LinkBench's getlinklist_history, FBWorkload.properties' 0.3); counted as get_links_list",
       in_range(0, 100), "percent"},
      {"getlinklist_limit", ParamType::Int, int64_t{10000}, "rows per get_links_list (LinkStore.DEFAULT_LIMIT)",
       in_range(1, kMaxRowsPerRead)},
      {"verify", ParamType::Bool, false, "read back after each write and count mismatches (summary verify)"},
      {"collection_prefix", ParamType::Name, std::string("lb_"), "collection names: <prefix>node, link, count"},
  };
  for (auto& c : common_params()) w.params.push_back(c);
  w.check = check_params;
  w.make = [] { return std::unique_ptr<Workload>(new LinkBench()); };
  return w;
}

}  // namespace eb
