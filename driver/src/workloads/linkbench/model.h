// linkbench's model (see workload.cc's header): the graph the load writes and the request generator
// (the mix), both pure functions of (seed, params); the run loop, the requests against a store and
// the load are in workload.cc.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ophash.h"
#include "core/rng.h"
#include "params.h"
#include "workloads/distributions.h"
#include "workloads/doc_writer.h"

namespace eb {
namespace linkbench {
using namespace wl;

enum Op { kRequest, kAddNode, kUpdateNode, kDeleteNode, kGetNode, kAddLink, kDeleteLink, kUpdateLink,
          kCountLink, kMultigetLink, kGetLinksList, kNumOps };
extern const char* const kOpNames[kNumOps];
// Mix parameter per request type (kAddNode..kGetLinksList).
extern const char* const kMixParams[kNumOps];
constexpr int64_t kVisible = 1;
constexpr size_t kBuf = 1u << 20;
constexpr size_t kLinkDataMax = 255;

// Logical bytes (docs/driver.md "Logical bytes"): the BSON size of LinkbenchX's document for a row
// image, or for the fields a request names, the same on every target whatever its storage layout.
uint64_t node_bytes(size_t data);
uint64_t link_bytes(size_t data);
uint64_t count_bytes();

// A second bijection of [1, n] for the uncorrelated blends: k -> 1 + ((k-1) * m + a) mod n with a
// multiplier unrelated to Scramble's, so that the popular ranks land on ranks of every out-degree
// (LinkBench: a shuffler with another seed, UNCORR_SHUFFLER_SEED).
class Remix {
 public:
  explicit Remix(uint64_t n) : n_(n ? n : 1) {
    m_ = 0xD1B54A32D192ED03ULL % n_;
    if (m_ == 0) m_ = 1;
    while (std::gcd(m_, n_) != 1) ++m_;
    a_ = 0x8CB92BA72F3D8DD7ULL % n_;
  }
  uint64_t operator()(uint64_t k) const {
    return 1 + static_cast<uint64_t>((static_cast<unsigned __int128>(k - 1) * m_ + a_) % n_);
  }

 private:
  uint64_t n_, m_ = 1, a_ = 0;
};

// What a requester draws from.
struct Draws {
  Zipf link_read, link_write, node_read, node_update;
  LogNormal link_size, node_size;
  explicit Draws(const ParamValues& p, uint64_t nids)
      : link_read(nids, p_dbl(p, "link_read_shape")), link_write(nids, p_dbl(p, "link_write_shape")),
        node_read(nids, p_dbl(p, "node_read_shape")), node_update(nids, p_dbl(p, "node_update_shape")),
        link_size{p_dbl(p, "link_datasize"), 1.0}, node_size{p_dbl(p, "node_datasize"), 1.0} {}
};

// One generated request.
struct Request {
  int op = 0;
  uint64_t id1 = 0, lt = 0, id2 = 0;
  uint64_t page = 0;           // get_links_list: 0 = the first page; p >= 1 = history page p
  std::vector<uint64_t> id2s;  // multiget_link
  std::string data;            // payload of add_node, update_node, add_link, update_link
};

// LinkBench's list-tail history (LinkBenchRequest.listTailHistory: at most 2048 (id1, link type)
// whose last list read came back full, each with the pages read so far), one per requester. Kept
// from the stream and the loaded graph, not from results: a list is taken as full when its loaded
// length reaches the page (see draw), so the stream stays a pure function of the seed.
struct TailHistory {
  static constexpr size_t kLimit = 2048;  // LinkBenchRequest's listTailHistoryLimit
  struct Entry {
    uint64_t id1, lt, pages;
  };
  std::vector<Entry> entries;
  std::map<std::pair<uint64_t, uint64_t>, size_t> index;
  void remove(size_t pos) {  // LinkBench's removeTailCacheEntry(pos, null): the last one moves in
    index.erase({entries[pos].id1, entries[pos].lt});
    if (pos + 1 != entries.size()) {
      entries[pos] = entries.back();
      index[{entries[pos].id1, entries[pos].lt}] = pos;
    }
    entries.pop_back();
  }
};

// The graph and the generator's state; the workload (LinkBench in workload.cc) derives from it.
class Model {
 protected:
  void init(const ParamValues& p, uint64_t seed);
  // Payload buffers: bytes in [lo, hi], with a share (1 - uniqueness) of 8-byte pieces copied from
  // a 128-byte motif, like LinkBench's MotifDataGenerator.
  void fill_payloads(std::string* b, int lo, int hi, double uniq, uint64_t stream) const;
  // LinkBench outdegree stand-in (see the header), a pure function of (seed, id1).
  uint64_t outdeg(uint64_t id1) const;
  uint64_t linked_id2(uint64_t id1, uint64_t j) const { return 1 + (id1 - 1 + 1 + j) % nids_; }
  // graph=linkbench: links of (id1, link type) as LinkBench's ID2Chooser.calcLinkCount gives them
  // (its split, leftOver = total - total / types, is kept as it is: it makes LinkBench's counts).
  uint64_t real_links(uint64_t id1, uint64_t lt) const;
  // id1's links in load order, as (link type, id2).
  void links_of(uint64_t id1, std::vector<std::pair<uint64_t, uint64_t>>* out) const;
  // The load's times of id1's links (links_of order): each list (id1, link type) gets the times
  // load time - j of its links' positions j, shuffled among its links (a pure function of (seed,
  // id1)). LinkBench stamps each loaded link with a random time "so that id2 and timestamp aren't
  // closely correlated" (LinkBenchLoad.chooseInitialTimestamp): the covering index then takes a
  // list's entries in random order, as LinkBench's load inserts them. load_time_window = w > 0
  // shuffles within each run of w consecutive positions instead (w >= the list: the same as 0), so
  // that the index region a load inserts into at once is w entries, not the list. A list's times
  // stay the same set, so page_last_time holds.
  void load_times(uint64_t id1, const std::vector<std::pair<uint64_t, uint64_t>>& links,
                  std::vector<int64_t>* times) const;
  // Loaded links of (id1, link type).
  uint64_t list_length(uint64_t id1, uint64_t lt) const;
  // The load's time of the k-th newest (k from 0) loaded link of (id1, link type): the load stamps
  // id1's links with the times load time - j of the list's positions j (links_of order), in
  // shuffled order (load_times). Links written during the run are newer, so a history page starts
  // where the loaded list's page boundary was.
  int64_t page_last_time(uint64_t id1, uint64_t lt, uint64_t k) const;
  // The next request: every draw happens here, before any store call (the stream never depends on
  // results), and everything drawn is hashed.
  void draw(Rng& rng, const Draws& d, OpHasher& h, Request* r, TailHistory* tails, uint64_t limit) const;

 private:
  void pick_data(Rng& rng, OpHasher& h, const std::string& buf, const LogNormal& ln, size_t cap, std::string* data) const;
  uint64_t id_of(Rng& rng, const Zipf& z) const;
  uint64_t link_id_of(Rng& rng, const Zipf& z, double uncorr) const;
  void pick_id2(Rng& rng, uint64_t id1, double p_exist, uint64_t* lt, uint64_t* id2, bool lt_given = false) const;
  void draw_multiget(Rng& rng, const Draws& d, Request* r) const;
  void draw_links_list(Rng& rng, const Draws& d, Request* r, TailHistory* tails, uint64_t limit) const;

 protected:
  uint64_t seed_ = 1, maxid1_ = 2, nids_ = 1, ltc_ = 2, requests_ = 0;
  bool real_graph_ = true;
  int threads_ = 1;
  double cum_[kNumOps] = {};
  std::unique_ptr<Scramble> scramble_;
  std::unique_ptr<Remix> uncorr_;  // the uncorrelated blend's ranks -> ranks of scramble_
  double read_uncorr_ = 0, write_uncorr_ = 0;
  std::string link_buf_, node_buf_;
  double hist_ = 0;          // getlinklist_history / 100
  int64_t load_now_ms_ = 0;  // the time the load stamps links with (link j of an id1: this - j)
  uint64_t load_window_ = 0;  // load_time_window: positions shuffled together (0 = the whole list)
};

}  // namespace linkbench
}  // namespace eb
