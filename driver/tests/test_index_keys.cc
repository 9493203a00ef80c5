// The document layer's own BSON walk (core/bson_fields.h) against libbson, the reference: the same
// fields, types and values for every BSON type; malformed documents refused; and the index keys a
// Collection writes equal encode_key(extract_key_values(...)) for every indexable type, missing
// fields and duplicate names included, on a storing engine.
#include <bson/bson.h>
#include <gtest/gtest.h>

#include <limits>
#include <set>

#include "core/bson_fields.h"
#include "core/collection.h"
#include "core/keycodec.h"
#include "core/rng.h"
#include "test_support.h"

namespace {

std::string bytes_of(const bson_t* b) { return std::string(reinterpret_cast<const char*>(bson_get_data(b)), b->len); }

// One document holding every BSON type (a nested document and array included).
std::string every_type() {
  bson_t b, sub;
  bson_init(&b);
  BSON_APPEND_DOUBLE(&b, "dbl", -2.5);
  BSON_APPEND_UTF8(&b, "str", "h\xc3\xa9llo");
  bson_append_document_begin(&b, "doc", -1, &sub);
  BSON_APPEND_INT32(&sub, "x", 1);
  bson_append_document_end(&b, &sub);
  bson_append_array_begin(&b, "arr", -1, &sub);
  BSON_APPEND_INT32(&sub, "0", 2);
  bson_append_array_end(&b, &sub);
  const uint8_t bin[3] = {0, 1, 2};
  BSON_APPEND_BINARY(&b, "bin", BSON_SUBTYPE_BINARY, bin, 3);
  BSON_APPEND_UNDEFINED(&b, "und");
  bson_oid_t oid;
  bson_oid_init_from_string(&oid, "0123456789abcdef01234567");
  BSON_APPEND_OID(&b, "oid", &oid);
  BSON_APPEND_BOOL(&b, "bool", true);
  BSON_APPEND_DATE_TIME(&b, "date", -12345);
  BSON_APPEND_NULL(&b, "null");
  BSON_APPEND_REGEX(&b, "re", "a.*b", "i");
  bson_append_dbpointer(&b, "dbp", -1, "coll", &oid);
  BSON_APPEND_CODE(&b, "code", "f()");
  BSON_APPEND_SYMBOL(&b, "sym", "s");
  bson_t scope;
  bson_init(&scope);
  BSON_APPEND_INT32(&scope, "y", 3);
  BSON_APPEND_CODE_WITH_SCOPE(&b, "cws", "g()", &scope);
  bson_destroy(&scope);
  BSON_APPEND_INT32(&b, "i32", -7);
  BSON_APPEND_TIMESTAMP(&b, "ts", 1, 2);
  BSON_APPEND_INT64(&b, "i64", std::numeric_limits<int64_t>::min());
  bson_decimal128_t dec;
  bson_decimal128_from_string("1.5", &dec);
  BSON_APPEND_DECIMAL128(&b, "dec", &dec);
  BSON_APPEND_MAXKEY(&b, "max");
  BSON_APPEND_MINKEY(&b, "min");
  std::string out = bytes_of(&b);
  bson_destroy(&b);
  return out;
}

TEST(BsonFields, WalksEveryTypeAsLibbsonDoes) {
  std::string doc = every_type();
  bson_t b;
  ASSERT_TRUE(bson_init_static(&b, reinterpret_cast<const uint8_t*>(doc.data()), doc.size()));
  bson_iter_t it;
  ASSERT_TRUE(bson_iter_init(&it, &b));
  eb::BsonFields walk(doc);
  eb::BsonField f;
  int n = 0;
  while (bson_iter_next(&it)) {
    ASSERT_TRUE(walk.next(&f)) << "field " << n;
    EXPECT_EQ(std::string(f.name, f.name_size), bson_iter_key(&it));
    EXPECT_EQ(f.type, static_cast<uint8_t>(bson_iter_type(&it))) << bson_iter_key(&it);
    EXPECT_EQ(f.name - doc.data(), static_cast<ptrdiff_t>(it.key)) << bson_iter_key(&it);  // where it starts
    EXPECT_EQ(f.value + f.size - doc.data(), static_cast<ptrdiff_t>(it.next_off)) << bson_iter_key(&it);  // ends
    ++n;
  }
  EXPECT_EQ(n, 21);
  EXPECT_FALSE(walk.next(&f));
}

// (start of name, end of value) of every field, or "refused": by libbson and by BsonFields.
using Walk = std::vector<std::pair<ptrdiff_t, ptrdiff_t>>;
const Walk kRefused = {{-1, -1}};

Walk by_libbson(const std::string& d) {
  bson_t b;
  bson_iter_t it;
  Walk w;
  if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(d.data()), d.size()) || !bson_iter_init(&it, &b))
    return kRefused;
  while (bson_iter_next(&it)) w.emplace_back(it.key, it.next_off);
  return it.err_off ? kRefused : w;
}

Walk by_walk(const std::string& d) {
  Walk w;
  try {
    eb::BsonFields walk(d);
    eb::BsonField f;
    while (walk.next(&f)) w.emplace_back(f.name - d.data(), f.value + f.size - d.data());
  } catch (const std::invalid_argument&) {
    return kRefused;
  }
  return w;
}

TEST(BsonFields, RefusesMalformedDocumentsAsLibbsonDoes) {
  const std::string doc = every_type();
  EXPECT_EQ(by_walk(doc), by_libbson(doc));
  // Every truncation with its length prefix made to match: an element cut short is refused by
  // both (never read past), a cut between elements leaves the same shorter document for both.
  int refused = 0;
  for (size_t n = 5; n < doc.size(); ++n) {
    std::string t = doc.substr(0, n - 1) + '\0';
    int32_t len = static_cast<int32_t>(t.size());
    std::memcpy(&t[0], &len, 4);
    EXPECT_EQ(by_walk(t), by_libbson(t)) << "truncated to " << n;
    refused += by_walk(t) == kRefused;
  }
  EXPECT_GT(refused, 100);
  EXPECT_EQ(by_walk(doc.substr(0, 4)), kRefused);                           // shorter than a header
  EXPECT_EQ(by_walk(doc.substr(0, doc.size() - 1) + 'x'), kRefused);       // no terminator
  EXPECT_EQ(by_walk(doc + '\0'), kRefused);                                 // length prefix mismatch
  std::string bad_type = doc;
  bad_type[4] = 0x42;  // the first element's type byte
  EXPECT_EQ(by_walk(bad_type), kRefused);
  EXPECT_EQ(by_libbson(bad_type), kRefused);
}

// Documents with every indexable type under the indexed names, in varying order, some missing.
std::vector<eb::Doc> varied_docs(int n) {
  eb::Rng r(11);
  std::vector<eb::Doc> docs;
  const std::string strs[] = {"", "a", std::string("a\0b", 3), "zz", "\xff"};
  for (int k = 0; k < n; ++k) {
    bson_t b;
    bson_init(&b);
    BSON_APPEND_INT32(&b, "pad", k);
    const int order = static_cast<int>(r.uniform(2));
    for (int pass = 0; pass < 2; ++pass) {
      if ((pass == 0) == (order == 0)) {
        switch (r.uniform(5)) {
          case 0: BSON_APPEND_INT32(&b, "a", static_cast<int32_t>(r.next())); break;
          case 1: BSON_APPEND_INT64(&b, "a", static_cast<int64_t>(r.next())); break;  // beyond 2^53 too
          case 2: BSON_APPEND_DOUBLE(&b, "a", (r.uniform01() - 0.5) * 1e300); break;
          case 3: BSON_APPEND_NULL(&b, "a"); break;
          default: break;  // missing
        }
      } else {
        const std::string& s = strs[r.uniform(5)];
        switch (r.uniform(4)) {
          case 0: bson_append_utf8(&b, "b", 1, s.data(), static_cast<int>(s.size())); break;
          case 1: {
            bson_oid_t o;
            for (auto& byte : o.bytes) byte = static_cast<uint8_t>(r.next());
            BSON_APPEND_OID(&b, "b", &o);
            break;
          }
          case 2: BSON_APPEND_DATE_TIME(&b, "b", static_cast<int64_t>(r.next())); break;
          default: BSON_APPEND_INT64(&b, "b", 5); BSON_APPEND_UTF8(&b, "b", "second of a duplicate name"); break;
        }
      }
    }
    docs.push_back(eb::Doc::from(&b));
    bson_destroy(&b);
  }
  return docs;
}

class IndexKeys : public ::testing::TestWithParam<std::string> {};

TEST_P(IndexKeys, EqualTheReferenceEncodingForEveryIndexableType) {
  ebtest::TempDir d;
  auto engine = ebtest::engine_info(GetParam()).make();
  engine->open(d.path, ebtest::small_knobs(GetParam()));
  const std::vector<eb::IndexDef> ix = {{"a_1", {"a"}}, {"b_a", {"b", "a"}}, {"_id_", {"_id"}}};
  eb::Collection c(*engine, "k", ix);
  auto s = engine->session();
  std::vector<eb::Doc> docs = varied_docs(400);
  std::vector<uint64_t> ids;
  c.insert_batch(*s, docs, &ids);
  for (size_t x = 0; x < ix.size(); ++x) {
    std::set<std::string> want, got;
    for (size_t k = 0; k < docs.size(); ++k) {
      bson_t b;
      ASSERT_TRUE(docs[k].view(&b));
      want.insert(eb::encode_key(eb::extract_key_values(&b, ix[x].fields), ids[k]));
    }
    std::vector<eb::IndexRow> rows;
    c.index_scan(*s, static_cast<int>(x), {}, 0, false, &rows);
    for (const auto& row : rows) got.insert(row.key);
    EXPECT_EQ(got, want) << ix[x].name;
  }
  s.reset();
  engine->close();
}

INSTANTIATE_TEST_SUITE_P(Storing, IndexKeys, ::testing::Values("lmdb", "rocksdb", "wiredtiger", "sqlite"),
                         [](const auto& i) { return std::string(i.param); });

TEST(IndexKeys, IdKeyBytesArePinnedAndBadDocumentsRefused) {
  ebtest::TempDir d;
  auto engine = ebtest::engine_info("lmdb").make();
  engine->open(d.path, ebtest::small_knobs("lmdb"));
  eb::Collection c(*engine, "ids", {{"_id_", {"_id"}}});
  auto s = engine->session();
  bson_t b;
  bson_init(&b);
  BSON_APPEND_INT64(&b, "_id", 3);
  c.insert_batch(*s, {eb::Doc::from(&b)});
  bson_destroy(&b);
  std::vector<eb::IndexRow> rows;
  c.index_scan(*s, 0, {}, 0, false, &rows);
  ASSERT_EQ(rows.size(), 1u);
  // number tag, 3.0 as an order-preserving double, exact, then record id 1
  EXPECT_EQ(rows[0].key, std::string("\x20\xC0\x08\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01", 18));
  bson_init(&b);
  bson_t arr;
  bson_append_array_begin(&b, "_id", -1, &arr);
  bson_append_array_end(&b, &arr);
  EXPECT_THROW(c.insert_batch(*s, {eb::Doc::from(&b)}), std::invalid_argument);  // not indexable
  bson_destroy(&b);
  EXPECT_THROW(c.insert_batch(*s, {eb::Doc{std::string("\x05\0\0\0", 4)}}), std::invalid_argument);
  s.reset();
  engine->close();
}

}  // namespace
