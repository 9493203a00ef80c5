// linkbench's load times: load_times shuffles each list's times in place over the list's positions
// (no scratch of the list's length); the times must be exactly those of the plain algorithm (each
// list's positions gathered, a copy shuffled by Fisher-Yates with the same draws), on both graphs,
// for lists short and long.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/rng.h"
#include "workloads/linkbench/model.h"
#include "core/collection.h"
#include "core/metrics.h"
#include "core/ophash.h"
#include "workload.h"

namespace {

struct Probe : eb::linkbench::Model {
  explicit Probe(const std::string& graph, int64_t window = 0) {
    eb::ParamValues p;
    for (const auto& w : eb::workload_registry())
      if (w.name == "linkbench")
        for (const auto& s : w.params) p[s.name] = s.default_value;
    p["graph"] = graph;
    p["link_type_count"] = int64_t{3};
    p["maxid1"] = int64_t{200001};
    p["load_time_window"] = window;
    init(p, 11);
  }
  // The plain algorithm: positions gathered, a copy of them shuffled, one list after the other.
  std::vector<int64_t> reference(uint64_t id1, const std::vector<std::pair<uint64_t, uint64_t>>& links) const {
    std::vector<int64_t> times(links.size());
    eb::Rng r(seed_ ^ 0x71AE5ULL, id1);
    for (uint64_t lt = 0; lt < ltc_; ++lt) {
      std::vector<uint64_t> pos;
      for (uint64_t j = 0; j < links.size(); ++j)
        if (links[j].first == lt) pos.push_back(j);
      std::vector<uint64_t> from = pos;
      for (size_t i = from.size(); i > 1; --i) std::swap(from[i - 1], from[r.uniform(i)]);
      for (size_t k = 0; k < pos.size(); ++k) times[pos[k]] = load_now_ms_ - static_cast<int64_t>(from[k]);
    }
    return times;
  }
  void links_of_for_test(uint64_t id1, std::vector<std::pair<uint64_t, uint64_t>>* links) const { links_of(id1, links); }
  std::vector<int64_t> times_of(uint64_t id1, std::vector<std::pair<uint64_t, uint64_t>>* links) const {
    std::vector<int64_t> times;
    links_of(id1, links);
    load_times(id1, *links, &times);
    return times;
  }
  void check(uint64_t id1, size_t* longest) {
    std::vector<std::pair<uint64_t, uint64_t>> links;
    std::vector<int64_t> times;
    links_of(id1, &links);
    load_times(id1, links, &times);
    ASSERT_EQ(times, reference(id1, links)) << "id1 " << id1;
    *longest = std::max(*longest, links.size());
  }
};

TEST(LinkBenchLoadTimes, InPlaceShuffleGivesThePlainAlgorithmsTimesOnBothGraphs) {
  for (const std::string graph : {"linkbench", "lognormal"}) {
    Probe m(graph);
    size_t longest = 0;
    for (uint64_t id1 = 1; id1 < 200001; id1 += 97) m.check(id1, &longest);
    for (uint64_t id1 = 1; id1 < 64; ++id1) m.check(id1, &longest);
    EXPECT_GT(longest, 50u) << graph << ": no long list was checked";
  }
}

// load_time_window = w: a list's k-th link (in load order) gets one of the times of the positions of
// its window [w*floor(k/w), w*floor(k/w) + w), each exactly once; w = 1 keeps the plain descending
// times; a window as long as the list is the whole-list shuffle (the default's times, same draws).
TEST(LinkBenchLoadTimes, AWindowShufflesOnlyWithinItsRunOfPositions) {
  Probe whole("linkbench"), one("linkbench", 1), w64("linkbench", 64), huge("linkbench", int64_t{1} << 40);
  size_t longest = 0, moved = 0;
  for (uint64_t id1 = 1; id1 < 200001; ++id1) {
    std::vector<std::pair<uint64_t, uint64_t>> links;
    whole.links_of_for_test(id1, &links);
    if (id1 % 89 != 0 && links.size() < 200) continue;  // every long list, and a sample of the rest
    auto t_whole = whole.times_of(id1, &links), t_one = one.times_of(id1, &links),
         t_64 = w64.times_of(id1, &links), t_huge = huge.times_of(id1, &links);
    ASSERT_EQ(t_huge, t_whole) << "id1 " << id1;
    longest = std::max(longest, links.size());
    for (uint64_t lt = 0; lt < 3; ++lt) {
      std::vector<size_t> pos;
      for (size_t j = 0; j < links.size(); ++j)
        if (links[j].first == lt) pos.push_back(j);
      for (size_t k = 0; k < pos.size(); ++k) {
        ASSERT_EQ(t_one[pos[k]], t_one[pos[0]] - static_cast<int64_t>(pos[k] - pos[0])) << "w=1 is not ordered";
        moved += t_64[pos[k]] != t_one[pos[k]];
      }
      for (size_t lo = 0; lo < pos.size(); lo += 64) {
        std::vector<int64_t> got, want;
        for (size_t k = lo; k < std::min(pos.size(), lo + 64); ++k) {
          got.push_back(t_64[pos[k]]);
          want.push_back(t_one[pos[k]]);
        }
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        ASSERT_EQ(got, want) << "id1 " << id1 << " type " << lt << " window at " << lo;
      }
    }
  }
  EXPECT_GT(longest, 200u);
  EXPECT_GT(moved, 100u) << "a 64-link window shuffled nothing";
}

}  // namespace
