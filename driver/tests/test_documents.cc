// The document layer on every engine: the same collection behaviour over each key/value engine.
// `null` stores nothing, so it only gets the calls that must not fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <thread>

#include "core/collection.h"
#include "core/keycodec.h"
#include "core/rng.h"
#include "test_support.h"

namespace fs = std::filesystem;
using eb::Doc;
using eb::KeyValue;

namespace {

Doc make_doc(int64_t i, double d, const std::string& s, int64_t date_ms, int64_t tag) {
  bson_t b;
  bson_init(&b);
  BSON_APPEND_INT64(&b, "i", i);
  BSON_APPEND_DOUBLE(&b, "d", d);
  BSON_APPEND_UTF8(&b, "s", s.c_str());
  BSON_APPEND_DATE_TIME(&b, "t", date_ms);
  BSON_APPEND_INT64(&b, "tag", tag);
  Doc doc = Doc::from(&b);
  bson_destroy(&b);
  return doc;
}

int64_t field_int(const Doc& d, const char* f) {
  bson_t b;
  EXPECT_TRUE(d.view(&b));
  bson_iter_t it;
  EXPECT_TRUE(bson_iter_init_find(&it, &b, f));
  return bson_iter_as_int64(&it);
}

std::vector<KeyValue> values_of(const Doc& d, const std::vector<std::string>& fields) {
  bson_t b;
  EXPECT_TRUE(d.view(&b));
  return eb::extract_key_values(&b, fields);
}

const std::vector<eb::IndexDef> kIndexes = {
    {"by_i", {"i"}}, {"by_d", {"d"}}, {"by_s_i", {"s", "i"}}, {"by_t", {"t"}}};

class Documents : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    info_ = &ebtest::engine_info(GetParam());
    open();
  }
  void open() {
    engine_ = info_->make();
    engine_->open(dir_.path, ebtest::small_knobs(GetParam()));
    coll_ = std::make_unique<eb::Collection>(*engine_, "c", kIndexes);
    s_ = engine_->session();
  }
  void reopen() {
    s_.reset();
    coll_.reset();
    engine_->close();
    engine_.reset();
    open();
  }
  void TearDown() override {
    s_.reset();
    coll_.reset();
    if (engine_) engine_->close();
  }
  bool stores() const { return GetParam() != "null"; }

  // Random docs with negative/positive ints and doubles, strings with prefixes, dates before 1970.
  std::vector<Doc> random_docs(int n, uint64_t seed) {
    eb::Rng r(seed);
    std::vector<Doc> docs;
    const char* strs[] = {"", "a", "ab", "abc", "b", "B", "zz", "a\xff"};
    for (int k = 0; k < n; ++k)
      docs.push_back(make_doc(static_cast<int64_t>(r.uniform(2001)) - 1000, (r.uniform01() - 0.5) * 1e6,
                              strs[r.uniform(8)], static_cast<int64_t>(r.uniform(4000)) - 2000, k));
    return docs;
  }

  void expect_index_sorted(int index) {
    std::vector<eb::IndexRow> rows;
    coll_->index_scan(*s_, index, {}, 0, true, &rows);
    ASSERT_EQ(rows.size(), coll_->count(*s_));
    for (size_t k = 1; k < rows.size(); ++k) {
      auto a = values_of(Doc{rows[k - 1].doc}, kIndexes[index].fields);
      auto b = values_of(Doc{rows[k].doc}, kIndexes[index].fields);
      int c = 0;
      for (size_t f = 0; f < a.size() && !c; ++f) c = eb::compare_values(a[f], b[f]);
      ASSERT_LE(c, 0) << "index " << kIndexes[index].name << " row " << k;
      if (c == 0) ASSERT_LT(rows[k - 1].record_id, rows[k].record_id);
      ASSERT_LT(rows[k - 1].key, rows[k].key);
    }
  }

  ebtest::TempDir dir_;
  const eb::EngineInfo* info_ = nullptr;
  std::unique_ptr<eb::Engine> engine_;
  std::unique_ptr<eb::Collection> coll_;
  std::unique_ptr<eb::Session> s_;
};

TEST_P(Documents, BatchInsertThenGet) {
  auto docs = random_docs(50, 1);
  std::vector<uint64_t> ids;
  uint64_t bytes = coll_->insert_batch(*s_, docs, &ids);
  ASSERT_EQ(ids.size(), docs.size());
  uint64_t expect_bytes = 0;
  for (auto& d : docs) expect_bytes += d.bytes.size();
  EXPECT_EQ(bytes, expect_bytes);
  EXPECT_EQ(coll_->live_bytes(), expect_bytes);
  for (size_t k = 1; k < ids.size(); ++k) EXPECT_EQ(ids[k], ids[k - 1] + 1);
  if (!stores()) return;
  for (size_t k = 0; k < ids.size(); ++k) {
    Doc got;
    ASSERT_TRUE(coll_->get(*s_, ids[k], &got));
    EXPECT_EQ(got.bytes, docs[k].bytes);
  }
  Doc none;
  EXPECT_FALSE(coll_->get(*s_, ids.back() + 100, &none));
  EXPECT_EQ(coll_->count(*s_), docs.size());
  for (int x = 0; x < static_cast<int>(kIndexes.size()); ++x) EXPECT_EQ(coll_->count_index(*s_, x), docs.size());
}

TEST_P(Documents, IndexScansComeBackInIndexOrder) {
  if (!stores()) GTEST_SKIP() << "null stores nothing";
  for (int b = 0; b < 4; ++b) coll_->insert_batch(*s_, random_docs(60, 10 + b));
  for (int x = 0; x < static_cast<int>(kIndexes.size()); ++x) expect_index_sorted(x);
  // A range scan from a start tuple with a limit: rows >= start, in order, at most limit.
  std::vector<eb::IndexRow> all, some;
  coll_->index_scan(*s_, 0, {}, 0, true, &all);
  coll_->index_scan(*s_, 0, {KeyValue::Int(-3)}, 7, true, &some);
  ASSERT_EQ(some.size(), 7u);
  auto first = std::find_if(all.begin(), all.end(), [](const eb::IndexRow& r) {
    return field_int(Doc{r.doc}, "i") >= -3;
  });
  for (size_t k = 0; k < some.size(); ++k) EXPECT_EQ(some[k].record_id, (first + k)->record_id);
  // Start between two doubles, and at a negative date.
  some.clear();
  coll_->index_scan(*s_, 1, {KeyValue::Double(-0.0)}, 3, true, &some);
  for (auto& r : some) EXPECT_GE(values_of(Doc{r.doc}, {"d"})[0].d, 0.0);
  some.clear();
  coll_->index_scan(*s_, 3, {KeyValue::Date(-5)}, 3, false, &some);
  ASSERT_FALSE(some.empty());
  EXPECT_TRUE(some[0].doc.empty());
  Doc d;
  ASSERT_TRUE(coll_->get(*s_, some[0].record_id, &d));
  EXPECT_GE(values_of(d, {"t"})[0].i, -5);
  // String prefixes sort first on the compound index: "a" < "a\xff" < "ab".
  some.clear();
  coll_->index_scan(*s_, 2, {KeyValue::Str("a")}, 0, true, &some);
  std::string prev;
  for (auto& r : some) {
    std::string s = values_of(Doc{r.doc}, {"s"})[0].s;
    EXPECT_GE(s, prev);
    prev = s;
  }
}

TEST_P(Documents, UpdatesMoveIndexEntries) {
  if (!stores()) GTEST_SKIP() << "null stores nothing";
  std::vector<uint64_t> ids;
  coll_->insert_batch(*s_, {make_doc(5, 1.5, "old", 100, 0), make_doc(6, 2.5, "keep", 200, 1)}, &ids);
  ASSERT_TRUE(coll_->update(*s_, ids[0], [](const Doc&) { return make_doc(-7, 1.5, "new", 100, 0); }));
  Doc got;
  ASSERT_TRUE(coll_->get(*s_, ids[0], &got));
  EXPECT_EQ(field_int(got, "i"), -7);
  std::vector<eb::IndexRow> rows;
  coll_->index_scan(*s_, 0, {}, 0, false, &rows);  // by i: -7 then 6, no 5
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].key, eb::encode_key({KeyValue::Int(-7)}, ids[0]));
  EXPECT_EQ(rows[1].key, eb::encode_key({KeyValue::Int(6)}, ids[1]));
  rows.clear();
  coll_->index_scan(*s_, 2, {KeyValue::Str("old")}, 1, false, &rows);
  ASSERT_EQ(rows.size(), 0u);  // "old" gone; nothing sorts after it
  rows.clear();
  coll_->index_scan(*s_, 2, {KeyValue::Str("n")}, 1, false, &rows);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].key, eb::encode_key({KeyValue::Str("new"), KeyValue::Int(-7)}, ids[0]));
  EXPECT_FALSE(coll_->update(*s_, 999999, [](const Doc& d) { return d; }));
  for (int x = 0; x < 4; ++x) EXPECT_EQ(coll_->count_index(*s_, x), 2u);
}

TEST_P(Documents, ConcurrentUpdatesOfOneRecordAreSerialized) {
  if (!stores()) GTEST_SKIP() << "null stores nothing";
  std::vector<uint64_t> ids;
  coll_->insert_batch(*s_, {make_doc(0, 0, "x", 0, 0)}, &ids);
  std::vector<std::thread> th;
  for (int t = 0; t < 4; ++t)
    th.emplace_back([&] {
      auto s = engine_->session();
      for (int k = 0; k < 50; ++k)
        coll_->update(*s, ids[0], [](const Doc& d) { return make_doc(field_int(d, "i") + 1, 0, "x", 0, 0); });
    });
  for (auto& t : th) t.join();
  Doc got;
  ASSERT_TRUE(coll_->get(*s_, ids[0], &got));
  EXPECT_EQ(field_int(got, "i"), 200);
  EXPECT_EQ(coll_->count_index(*s_, 0), 1u);
}

TEST_P(Documents, DeletesRemoveRecordAndIndexEntries) {
  if (!stores()) GTEST_SKIP() << "null stores nothing";
  std::vector<uint64_t> ids;
  auto docs = random_docs(20, 3);
  coll_->insert_batch(*s_, docs, &ids);
  uint64_t live = coll_->live_bytes();
  ASSERT_TRUE(coll_->remove(*s_, ids[3]));
  EXPECT_FALSE(coll_->remove(*s_, ids[3]));
  Doc got;
  EXPECT_FALSE(coll_->get(*s_, ids[3], &got));
  EXPECT_EQ(coll_->count(*s_), 19u);
  for (int x = 0; x < 4; ++x) EXPECT_EQ(coll_->count_index(*s_, x), 19u);
  EXPECT_EQ(coll_->live_bytes(), live - docs[3].bytes.size());
  std::vector<eb::IndexRow> rows;
  coll_->index_scan(*s_, 0, {}, 0, false, &rows);
  for (auto& r : rows) EXPECT_NE(r.record_id, ids[3]);
}

TEST_P(Documents, AnIndexRowWhoseRecordIsMissingFailsTheFetch) {
  if (!stores()) GTEST_SKIP() << "null stores nothing";
  std::vector<uint64_t> ids;
  coll_->insert_batch(*s_, random_docs(5, 4), &ids);
  const int records = engine_->table("c", eb::TableKind::Record);
  s_->begin();
  ASSERT_TRUE(s_->del(records, eb::record_key(ids[2])));  // behind the document layer's back
  s_->commit();
  std::vector<eb::IndexRow> rows;
  try {
    coll_->index_scan(*s_, 0, {}, 0, true, &rows);
    ADD_FAILURE() << "a fetch of a missing record returned";
  } catch (const eb::EngineError& e) {
    EXPECT_NE(std::string(e.what()).find("record " + std::to_string(ids[2]) + ", which is missing"), std::string::npos)
        << e.what();
  }
  rows.clear();
  EXPECT_THROW(coll_->index_scan_prefix(*s_, 0, {}, 0, true, &rows), eb::EngineError);
  rows.clear();
  EXPECT_EQ(coll_->index_scan(*s_, 0, {}, 0, false, &rows), 5u);  // without fetch: the index as it is
}

TEST_P(Documents, PersistsAcrossCloseAndReopen) {
  if (!stores()) GTEST_SKIP() << "null stores nothing";
  std::vector<uint64_t> ids;
  auto docs = random_docs(30, 4);
  coll_->insert_batch(*s_, docs, &ids);
  uint64_t live = coll_->live_bytes(), keys = coll_->index_key_bytes();
  reopen();
  EXPECT_EQ(coll_->count(*s_), 30u);
  EXPECT_EQ(coll_->live_bytes(), live);
  EXPECT_EQ(coll_->index_key_bytes(), keys);
  Doc got;
  ASSERT_TRUE(coll_->get(*s_, ids[7], &got));
  EXPECT_EQ(got.bytes, docs[7].bytes);
  // The record-id counter continues after the largest id.
  std::vector<uint64_t> more;
  coll_->insert_batch(*s_, random_docs(1, 5), &more);
  EXPECT_EQ(more[0], ids.back() + 1);
  expect_index_sorted(1);
  auto du = eb::disk_usage(dir_.path);
  EXPECT_GT(du.apparent_bytes, 0u);
}

INSTANTIATE_TEST_SUITE_P(AllEngines, Documents, ::testing::ValuesIn(ebtest::engine_names()),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
