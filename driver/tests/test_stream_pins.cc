// The operation streams pinned: for a fixed seed and small params, every workload's op_stream_hash
// (and OpHasher's digest of a fixed input) equals the value the driver gave before the hot paths
// were reworked for speed. A faster path that generates, orders or hashes anything differently
// fails here; the same pins on a storing engine show that the engine does not change the stream.
#include <gtest/gtest.h>

#include "core/ophash.h"
#include "test_support.h"

namespace {

struct Pin {
  const char* workload;
  const char* params;  // JSON
  const char* hash;    // op_stream_hash, seed 7
};

// Values from the driver as of commit 852719a (before the headroom work), identical on every engine.
const Pin kPins[] = {
    {"iibench", R"({"max_rows": 3000, "batch": 100, "loader_threads": 2, "length_char_fields": 50})",
     "fec28d9b8b60be15"},
    // re-pinned in issue 30 (was 4b8ef4dcc7ea57d8): fillseq hashes each key's counter and value offset
    // (and once per thread the sizes and the value buffer) instead of every key and value byte
    {"fillseq", R"({"num": 5000, "threads": 2, "batch": 100})", "e4e4dd9fc39a2372"},
    {"sysbench-update", R"({"table_size": 2000, "clients": [1, 2], "seconds_per_step": 0, "updates_per_step": 3000})",
     "81b106ab0e947d6d"},
    {"sysbench-update",
     R"({"table_size": 2000, "clients": [2], "seconds_per_step": 0, "updates_per_step": 3000, "mode": "index"})",
     "c117b70b81b1eeae"},
    {"bulk-insert", R"({"num": 5000, "batch": 100, "threads": 2})", "b4494cbb9d9050be"},
    {"bulk-insert", R"({"num": 5000, "batch": 64, "threads": 1, "shuffle_batches": true})", "3add539ac27a0771"},
    // commits per document leave the stream as it was (the pin above)
    {"bulk-insert", R"({"num": 5000, "batch": 100, "threads": 2, "docs_per_txn": 1})", "b4494cbb9d9050be"},
    // {_id: ObjectId} (issue 26): pinned when added; the ObjectIds' seconds are wall-clock, not hashed
    {"bulk-insert", R"({"num": 5000, "batch": 100, "threads": 2, "id_type": "objectid"})", "c6181abd78228879"},
    // linkbench's defaults before issue 26 (no uncorrelated blend, no list history) spelled out: their stream as it was
    {"linkbench",
     R"({"maxid1": 2001, "requests": 5000, "threads": 2, "graph": "lognormal", "read_uncorr_blend": 0,
         "write_uncorr_blend": 0, "getlinklist_history": 0})",
     "cf104c5c6fd30ddd"},
    // pinned in issue 26 when the defaults became FBWorkload's (blends 99.5 / 95, getlinklist_history 0.3)
    {"linkbench", R"({"maxid1": 2001, "requests": 5000, "threads": 2})", "021a6344677543a3"},
    // ycsb, pinned when the driver took one folder per workload (issue 16): A (reads, updates) and E (scans, inserts), one
    // thread (with inserts, several threads' streams depend on their interleaving)
    {"ycsb", R"({"letter": "a", "recordcount": 2000, "operationcount": 5000, "threads": 1})", "e0aff6fd13ec87aa"},
    {"ycsb", R"({"letter": "e", "recordcount": 2000, "operationcount": 5000, "threads": 1})", "998fdda4ede1014b"},
};

// cache-pollution hashes its cold pass, whose length is what the engine stores (0 on null).
const char* kColdScan =
    R"({"hot_docs": 100, "cold_docs": 2000, "doc_size": 50, "cold_delay_seconds": 0, "after_seconds": 0})";
const char* kColdIndex = R"({"hot_docs": 100, "cold_docs": 2000, "doc_size": 50, "cold_delay_seconds": 0,
                             "after_seconds": 0, "cold_action": "index"})";

std::string pinned_run(const std::string& workload, const std::string& engine, const char* params) {
  ebtest::TempDir d;
  eb::json raw = {{"workload", workload}, {"engine", engine}, {"knobs", ebtest::small_knobs_json(engine)},
                  {"params", eb::json::parse(params)}, {"seed", 7}, {"data_dir", d.path + "/data"},
                  {"output_dir", d.path + "/out"}};
  int rc = -1;
  eb::json s = ebtest::run_summary(raw, &rc);
  EXPECT_EQ(rc, 0) << s.dump();
  return s["op_stream_hash"];
}

class StreamPins : public ::testing::TestWithParam<std::string> {};

TEST_P(StreamPins, EveryWorkloadHashesAsBefore) {
  for (const Pin& p : kPins)
    EXPECT_EQ(pinned_run(p.workload, GetParam(), p.params), p.hash) << p.workload << " " << p.params;
}

TEST_P(StreamPins, CachePollutionColdPassHashesAsBefore) {
  const bool stores = GetParam() != "null";
  EXPECT_EQ(pinned_run("cache-pollution", GetParam(), kColdScan), stores ? "7153b547846b15fd" : "73530c713eb36439");
  EXPECT_EQ(pinned_run("cache-pollution", GetParam(), kColdIndex), stores ? "e20b3b83c3e61b38" : "7a888b9a7ced05bf");
}

INSTANTIATE_TEST_SUITE_P(NullAndStoring, StreamPins, ::testing::Values("null", "lmdb", "rocksdb"),
                         [](const auto& i) { return std::string(i.param); });

// OpHasher itself: words, byte strings of every tail length, doubles, in one pinned digest.
TEST(OpHasherPin, DigestOfAFixedInputIsPinned) {
  eb::OpHasher h;
  std::string s;
  for (int n = 0; n < 40; ++n) {
    h.u64(static_cast<uint64_t>(n) * 0x0123456789ABCDEFULL);
    h.str(s);
    h.f64(n / 3.0);
    s.push_back(static_cast<char>(n * 37));  // NUL, ASCII and high-bit bytes
  }
  EXPECT_EQ(eb::OpHasher::hex(h.digest()), "dd00663d5f616fef");
  EXPECT_EQ(eb::OpHasher::combine_hex({1, 2, 3}), "d418f6a4142113ef");
}

}  // namespace
