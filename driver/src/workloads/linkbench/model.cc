// linkbench's model: the graph (out-degrees, links, load times) and the request generator.
#include "workloads/linkbench/model.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace eb {
namespace linkbench {

extern const char* const kOpNames[kNumOps] = {"request", "add_node", "update_node", "delete_node", "get_node",
                                       "add_link", "delete_link", "update_link", "count_link",
                                       "multiget_link", "get_links_list"};
extern const char* const kMixParams[kNumOps] = {nullptr, "addnode", "updatenode", "deletenode", "getnode",
                                         "addlink", "deletelink", "updatelink", "countlink", "getlink",
                                         "getlinklist"};

namespace {

// LinkBench's out-degree CDF: (value, cumulative percent) pairs (driver/data/linkbench/README.md).
constexpr double kNlinksCdf[] = {
#include "../../../data/linkbench/nlinks.inc"
};
constexpr size_t kNlinksPoints = sizeof kNlinksCdf / sizeof kNlinksCdf[0] / 2;

// RealDistribution.expectedCount: the value of the first point whose cumulative probability is
// >= 1 - rank/n (rank 0 = the most popular node: the highest degree).
uint64_t real_outdeg(uint64_t rank, uint64_t n) {
  const double u = 1.0 - static_cast<double>(rank) / static_cast<double>(n);
  size_t lo = 0, hi = kNlinksPoints - 1;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (kNlinksCdf[2 * mid + 1] / 100.0 >= u) hi = mid;
    else lo = mid + 1;
  }
  return static_cast<uint64_t>(kNlinksCdf[2 * lo]);
}

}  // namespace

uint64_t node_bytes(size_t data) {
  return BsonSize().i64("_id").i32("type").i64("version").i64("time").binary("data", data).bytes();
}
uint64_t link_bytes(size_t data) {
  return BsonSize().i64("id1").i64("link_type").i64("id2").i64("visibility").utf8("data", data).i64("time")
      .i64("version").bytes();
}
uint64_t count_bytes() { return BsonSize().i64("id").i64("link_type").i64("count").i64("time").i64("version").bytes(); }

void Model::init(const ParamValues& p, uint64_t seed) {
  seed_ = seed;
  threads_ = static_cast<int>(p_int(p, "threads"));
  maxid1_ = static_cast<uint64_t>(p_int(p, "maxid1"));
  nids_ = maxid1_ - 1;
  ltc_ = static_cast<uint64_t>(p_int(p, "link_type_count"));
  real_graph_ = p_str(p, "graph") == "linkbench";
  requests_ = static_cast<uint64_t>(p_int(p, "requests"));
  double total = 0;
  for (int o = 1; o < kNumOps; ++o) {
    total += p_dbl(p, kMixParams[o]);
    cum_[o] = total;
  }
  for (int o = 1; o < kNumOps; ++o) cum_[o] /= total;
  scramble_ = std::make_unique<Scramble>(nids_);
  uncorr_ = std::make_unique<Remix>(nids_);
  read_uncorr_ = p_dbl(p, "read_uncorr_blend") / 100.0;
  write_uncorr_ = p_dbl(p, "write_uncorr_blend") / 100.0;
  hist_ = p_dbl(p, "getlinklist_history") / 100.0;
  load_window_ = static_cast<uint64_t>(p_int(p, "load_time_window"));
  fill_payloads(&link_buf_, 32, 100, 0.225, 0x11B0F);
  fill_payloads(&node_buf_, 50, 220, 0.63, 0x20DEB);
}

// Payload buffers: bytes in [lo, hi], with a share (1 - uniqueness) of 8-byte pieces copied from
// a 128-byte motif, like LinkBench's MotifDataGenerator.
void Model::fill_payloads(std::string* b, int lo, int hi, double uniq, uint64_t stream) const {
  Rng r(seed_, stream);
  std::string motif(128, ' ');
  for (auto& c : motif) c = static_cast<char>(lo + r.uniform(static_cast<uint64_t>(hi - lo + 1)));
  b->resize(kBuf);
  for (size_t i = 0; i < kBuf; i += 8) {
    bool fresh = r.uniform01() < uniq;
    size_t m = r.uniform(16) * 8;
    for (size_t k = 0; k < 8 && i + k < kBuf; ++k)
      (*b)[i + k] = fresh ? static_cast<char>(lo + r.uniform(static_cast<uint64_t>(hi - lo + 1))) : motif[m + k];
  }
}

// LinkBench outdegree stand-in (see the header), a pure function of (seed, id1).
uint64_t Model::outdeg(uint64_t id1) const {
  Rng r(seed_ ^ 0x0DE6, id1);
  static const double mu = std::log(4.74) - 1.5 * 1.5 / 2;
  double x = std::exp(mu + 1.5 * standard_normal(r));
  return std::min<uint64_t>(100000, static_cast<uint64_t>(std::llround(x)));
}

// graph=linkbench: links of (id1, link type) as LinkBench's ID2Chooser.calcLinkCount gives them
// (its split, leftOver = total - total / types, is kept as it is: it makes LinkBench's counts).
uint64_t Model::real_links(uint64_t id1, uint64_t lt) const {
  uint64_t total = real_outdeg(scramble_->inverse(id1) - 1, nids_);
  uint64_t min = total / ltc_, left = total - min;
  return lt < left ? min + 1 : min;
}

// id1's links in load order, as (link type, id2).
void Model::links_of(uint64_t id1, std::vector<std::pair<uint64_t, uint64_t>>* out) const {
  out->clear();
  if (!real_graph_) {
    for (uint64_t j = 0, od = outdeg(id1); j < od; ++j) out->emplace_back(j % ltc_, linked_id2(id1, j));
    return;
  }
  for (uint64_t lt = 0; lt < ltc_; ++lt)
    for (uint64_t j = 0, n = real_links(id1, lt); j < n; ++j) out->emplace_back(lt, id1 + j);
}

// The load's times of id1's links: each list's times load time - j (j its links' positions),
// shuffled among its links (Fisher-Yates; within each run of load_time_window positions if that is
// set) by a stream of (seed, id1). A list's positions in
// links_of order are an arithmetic progression (graph=linkbench: one run per link type; otherwise
// every ltc-th link), so the shuffle runs in place in `times` over that progression: no scratch as
// long as the list (a hot node's list holds ~1M links, and two 8-byte scratch vectors of it per
// loader pushed the 112 MB IO-bound LinkBench runs over their memory cap).
void Model::load_times(uint64_t id1, const std::vector<std::pair<uint64_t, uint64_t>>& links,
                       std::vector<int64_t>* times) const {
  times->resize(links.size());
  Rng r(seed_ ^ 0x71AE5ULL, id1);
  int64_t* t = times->data();
  for (uint64_t lt = 0; lt < ltc_; ++lt) {
    size_t first = links.size(), n = 0, stride = 1;
    for (size_t j = 0; j < links.size(); ++j)
      if (links[j].first == lt) {
        if (n == 0) first = j;
        else if (n == 1) stride = j - first;
        if (j != first + n * stride) throw std::logic_error("linkbench: a list's links are not evenly spaced in load order");
        ++n;
      }
    auto at = [&](size_t k) -> int64_t& { return t[first + k * stride]; };
    for (size_t k = 0; k < n; ++k) at(k) = static_cast<int64_t>(first + k * stride);
    // Fisher-Yates over each window [lo, lo + w) of the list's positions (one window: the list).
    const size_t w = load_window_ ? static_cast<size_t>(load_window_) : std::max<size_t>(n, 1);
    for (size_t lo = 0; lo < n; lo += w) {
      const size_t m = std::min(w, n - lo);
      for (size_t i = m; i > 1; --i) std::swap(at(lo + i - 1), at(lo + r.uniform(i)));
    }
    for (size_t k = 0; k < n; ++k) at(k) = load_now_ms_ - at(k);
  }
}

// Loaded links of (id1, link type).
uint64_t Model::list_length(uint64_t id1, uint64_t lt) const {
  if (real_graph_) return real_links(id1, lt);
  uint64_t od = outdeg(id1);
  return od / ltc_ + (lt < od % ltc_ ? 1 : 0);
}

// The load's time of the k-th newest (k from 0) loaded link of (id1, link type): the load gives a
// list the times load time - j of its links' positions j (links_of order), shuffled among its links
// (load_times), so its k-th newest time is that of its k-th position. Links written during the run
// are newer, so a history page starts where the loaded list's page boundary was.
int64_t Model::page_last_time(uint64_t id1, uint64_t lt, uint64_t k) const {
  uint64_t j;
  if (real_graph_) {
    j = k;
    for (uint64_t t = 0; t < lt; ++t) j += real_links(id1, t);
  } else {
    j = k * ltc_ + lt;
  }
  return load_now_ms_ - static_cast<int64_t>(j);
}

// Payload of n = lognormal (capped) bytes from a random offset of a payload buffer.
void Model::pick_data(Rng& rng, OpHasher& h, const std::string& buf, const LogNormal& ln, size_t cap,
                      std::string* data) const {
  size_t n = std::min(cap, static_cast<size_t>(std::llround(ln.sample(rng))));
  size_t off = rng.uniform(kBuf - n + 1);
  data->assign(buf.data() + off, n);
  h.str(*data);
}

uint64_t Model::id_of(Rng& rng, const Zipf& z) const { return (*scramble_)(z.sample(rng)); }

// Link ops: LinkBench's blend (read_uncorr_blend / write_uncorr_blend percent of the draws rank ids
// by a second permutation, so that their popularity is independent of out-degree); the blend's coin
// is only drawn when the blend is on.
uint64_t Model::link_id_of(Rng& rng, const Zipf& z, double uncorr) const {
  if (uncorr > 0 && rng.uniform01() < uncorr) return (*scramble_)((*uncorr_)(z.sample(rng)));
  return id_of(rng, z);
}

// id2 and link type. graph=linkbench: ID2Chooser.chooseForOp (a uniform link type unless given,
// id2 = id1 + uniform(ceil(links / p_exist))); lognormal: an existing link of id1 with probability
// p_exist, else uniform.
void Model::pick_id2(Rng& rng, uint64_t id1, double p_exist, uint64_t* lt, uint64_t* id2, bool lt_given) const {
  if (real_graph_) {
    if (!lt_given) *lt = rng.uniform(ltc_);
    uint64_t range = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(real_links(id1, *lt) / p_exist)));
    *id2 = id1 + rng.uniform(range);
    return;
  }
  uint64_t od = outdeg(id1);
  if (od > 0 && rng.uniform01() < p_exist) {
    uint64_t j = rng.uniform(od);
    *lt = j % ltc_;
    *id2 = linked_id2(id1, j);
  } else {
    *lt = rng.uniform(ltc_);
    *id2 = 1 + rng.uniform(nids_);
  }
}

// multiget_link: id1, a link type and 1..128 id2s of it.
void Model::draw_multiget(Rng& rng, const Draws& d, Request* r) const {
  r->id1 = link_id_of(rng, d.link_read, read_uncorr_);
  r->lt = rng.uniform(ltc_);
  uint64_t nget = std::min<uint64_t>(128, 1 + geometric(rng, 0.382));
  for (uint64_t i = 0; i < nget; ++i) {
    uint64_t l2 = r->lt, i2;
    pick_id2(rng, r->id1, 0.5, &l2, &i2, true);
    r->id2s.push_back(i2);
  }
}

// get_links_list. LinkBench: with probability getlinklist_history (of get_links_list), when it has
// tails, the next page of a random tail (links older than the last one read); else a first page,
// whose tail is kept when the page is full. A history page that is full moves its tail on, a short
// one drops it.
void Model::draw_links_list(Rng& rng, const Draws& d, Request* r, TailHistory* tails, uint64_t limit) const {
  if (hist_ > 0 && rng.uniform01() < hist_ && !tails->entries.empty()) {
    size_t pos = rng.uniform(tails->entries.size());
    TailHistory::Entry& e = tails->entries[pos];
    r->id1 = e.id1, r->lt = e.lt, r->page = e.pages;
    if (list_length(e.id1, e.lt) >= (e.pages + 1) * limit) ++e.pages;
    else tails->remove(pos);
    return;
  }
  r->id1 = link_id_of(rng, d.link_read, read_uncorr_);
  r->lt = rng.uniform(ltc_);
  if (hist_ > 0 && list_length(r->id1, r->lt) >= limit && !tails->index.count({r->id1, r->lt})) {
    if (tails->entries.size() < TailHistory::kLimit) {
      tails->index[{r->id1, r->lt}] = tails->entries.size();
      tails->entries.push_back({r->id1, r->lt, 1});
    } else {  // full: a random tail gives way (LinkBench's addTailCacheEntry)
      size_t pos = rng.uniform(tails->entries.size());
      tails->index.erase({tails->entries[pos].id1, tails->entries[pos].lt});
      tails->entries[pos] = {r->id1, r->lt, 1};
      tails->index[{r->id1, r->lt}] = pos;
    }
  }
}

// The next request: every draw happens here, before any store call (the stream never depends on
// results), and everything drawn is hashed.
void Model::draw(Rng& rng, const Draws& d, OpHasher& h, Request* r, TailHistory* tails, uint64_t limit) const {
  double u = rng.uniform01();
  int op = 1;
  while (op < kNumOps - 1 && u >= cum_[op]) ++op;
  h.u64(static_cast<uint64_t>(op));
  *r = Request{};
  r->op = op;
  switch (op) {
    case kAddNode: pick_data(rng, h, node_buf_, d.node_size, 1 << 20, &r->data); break;
    case kUpdateNode:
      r->id1 = id_of(rng, d.node_update);
      pick_data(rng, h, node_buf_, d.node_size, 1 << 20, &r->data);
      break;
    case kDeleteNode: r->id1 = 1 + rng.uniform(nids_); break;
    case kGetNode: r->id1 = id_of(rng, d.node_read); break;
    case kAddLink:
    case kUpdateLink:
      r->id1 = link_id_of(rng, d.link_write, write_uncorr_);
      pick_id2(rng, r->id1, op == kAddLink ? 0.05 : 0.9, &r->lt, &r->id2);
      pick_data(rng, h, link_buf_, d.link_size, kLinkDataMax, &r->data);
      break;
    case kDeleteLink:
      r->id1 = link_id_of(rng, d.link_write, write_uncorr_);
      pick_id2(rng, r->id1, 0.9, &r->lt, &r->id2);
      break;
    case kCountLink: r->id1 = link_id_of(rng, d.link_read, read_uncorr_); r->lt = rng.uniform(ltc_); break;
    case kMultigetLink: draw_multiget(rng, d, r); break;
    case kGetLinksList: draw_links_list(rng, d, r, tails, limit); break;
  }
  h.u64(r->id1);
  h.u64(r->lt);
  h.u64(r->id2);
  for (uint64_t x : r->id2s) h.u64(x);
  if (r->page) h.u64(r->page);  // history pages only: streams without them hash as before
}

}  // namespace linkbench
}  // namespace eb
