// A multi-document insert batch that WiredTiger rolls back whole (its cache cannot hold the
// transaction's pinned pages) is inserted one document per transaction, as mongod's insert path
// does (Collection::insert_batch): every document lands under the id it was given, in order, and
// the split is counted. Retrying the whole batch could never succeed here: the transaction is
// larger than the cache.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/collection.h"
#include "core/rng.h"
#include "test_support.h"

namespace {

eb::Doc doc_of(int64_t a, int64_t b, const std::string& s) {
  bson_t d;
  bson_init(&d);
  BSON_APPEND_INT64(&d, "a", a);
  BSON_APPEND_INT64(&d, "b", b);
  BSON_APPEND_UTF8(&d, "s", s.c_str());
  eb::Doc out = eb::Doc::from(&d);
  bson_destroy(&d);
  return out;
}

TEST(BatchSplit, ABatchLargerThanWiredTigersCacheIsInsertedOneDocumentPerTransaction) {
  ebtest::TempDir dir;
  auto engine = ebtest::engine_info("wiredtiger").make();
  auto knobs = ebtest::small_knobs("wiredtiger");
  knobs["cache_size"] = int64_t{1} << 20;  // WiredTiger's smallest cache: 1 MB
  engine->open(dir.path, knobs);
  {
    eb::Collection c(*engine, "c", {{"by_a", {"a"}}, {"by_b", {"b"}}, {"by_s", {"s", "a"}}});
    auto s = engine->session();
    eb::Rng r(7);
    std::vector<eb::Doc> docs;
    const int n = 6000;  // ~2.5 MB of uncommitted records and index entries against a 1 MB cache
    for (int i = 0; i < n; ++i)
      docs.push_back(doc_of(static_cast<int64_t>(r.next()), static_cast<int64_t>(r.next()),
                            std::string(200, static_cast<char>('a' + r.uniform(26)))));
    const uint64_t before = eb::batches_split_total();
    std::vector<uint64_t> ids;
    c.insert_batch(*s, docs, &ids);
    EXPECT_EQ(c.batches_split(), 1u);
    EXPECT_EQ(eb::batches_split_total() - before, 1u);
    ASSERT_EQ(ids.size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) ASSERT_EQ(ids[i], static_cast<uint64_t>(i + 1));
    EXPECT_EQ(c.count(*s), static_cast<uint64_t>(n));
    for (int x = 0; x < 3; ++x) EXPECT_EQ(c.count_index(*s, x), static_cast<uint64_t>(n));
    eb::Doc got;
    ASSERT_TRUE(c.get(*s, n, &got));
    EXPECT_EQ(got.bytes, docs.back().bytes);
  }
  engine->close();
}

}  // namespace
