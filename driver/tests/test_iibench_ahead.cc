// iibench's loaders with generate_ahead (issue 30): the next batch is made on a helper thread while
// the current one is in flight. The same operation stream either way (the stream pin, both
// variants, one and two loaders, on null and on a storing engine); the statement the MariaDB store
// sends is byte for byte the one it built before (snprintf, strftime, mysql_real_escape_string); and
// the helper itself (wl::Ahead) hands out every batch once, in order, passes a failure on after the
// batches made before it, and stops cleanly when the loop ends early.
#include <gtest/gtest.h>
#include <mysql.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <thread>

#include "core/rng.h"
#include "test_support.h"
#include "workloads/ahead.h"
#include "workloads/doc_writer.h"
#include "workloads/iibench/store.h"

namespace {

// --- the helper thread ---

TEST(Ahead, HandsOutEveryBatchOnceInOrderFromAnotherThread) {
  const std::thread::id me = std::this_thread::get_id();
  int next = 0;
  std::atomic<bool> other_thread{true};
  std::vector<int> got;
  {
    eb::wl::Ahead<int> a([&](int& b) {
      if (std::this_thread::get_id() == me) other_thread = false;
      if (next == 1000) return false;
      b = next++;
      return true;
    });
    while (int* b = a.next()) {
      got.push_back(*b);
      a.done();
    }
    EXPECT_EQ(a.next(), nullptr);  // stays at the end
  }
  ASSERT_EQ(got.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(got[i], i);
  EXPECT_TRUE(other_thread.load());
}

TEST(Ahead, AFailureComesAfterTheBatchesMadeBeforeIt) {
  int next = 0;
  eb::wl::Ahead<int> a([&](int& b) {
    if (next == 5) throw std::runtime_error("made no 5");
    b = next++;
    return true;
  });
  for (int i = 0; i < 5; ++i) {
    int* b = a.next();
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(*b, i);
    a.done();
  }
  EXPECT_THROW(a.next(), std::runtime_error);
}

TEST(Ahead, LeavingEarlyStopsTheHelperAtMostOneBatchAhead) {
  std::atomic<int> made{0};
  {
    eb::wl::Ahead<int> a([&](int& b) {
      b = made++;
      return true;  // endless
    });
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(*a.next(), i);
      a.done();
    }
    ASSERT_EQ(*a.next(), 3);  // in hand, never marked done
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_LE(made.load(), 5);  // 3 used, 1 in hand, at most 1 more made ahead
  }                             // destroyed while the helper waits for a free slot: joins
  EXPECT_LE(made.load(), 5);
}

// --- the workload: the same stream with and without the helper ---

std::string hash_of(const std::string& engine, eb::json params) {
  ebtest::TempDir d;
  eb::json raw = {{"workload", "iibench"}, {"engine", engine}, {"knobs", ebtest::small_knobs_json(engine)},
                  {"params", params}, {"seed", 7}, {"data_dir", d.path + "/data"}, {"output_dir", d.path + "/out"}};
  int rc = -1;
  eb::json s = ebtest::run_summary(raw, &rc);
  EXPECT_EQ(rc, 0) << s.dump();
  EXPECT_EQ(s["documents_inserted"], params["max_rows"]) << s.dump();
  return s["op_stream_hash"];
}

TEST(IibenchAhead, GeneratingAheadKeepsTheOperationStream) {
  for (const char* engine : {"null", "lmdb"}) {
    // the stream pin's own params (test_stream_pins.cc): its value, with the helper or without
    eb::json pin = eb::json::parse(R"({"max_rows": 3000, "batch": 100, "loader_threads": 2, "length_char_fields": 50})");
    for (const char* mode : {"always", "never"}) {
      pin["generate_ahead"] = mode;
      EXPECT_EQ(hash_of(engine, pin), "fec28d9b8b60be15") << engine << " " << mode;
    }
    eb::json py = {{"variant", "iibench-py"}, {"max_rows", 2500}, {"batch", 300}, {"loader_threads", 1}};
    py["generate_ahead"] = "never";
    const std::string seq = hash_of(engine, py);
    py["generate_ahead"] = "always";
    EXPECT_EQ(hash_of(engine, py), seq) << engine;
  }
}

// --- the statement the MariaDB store sends ---

// The INSERT as store_mariadb.cc built it before generate_ahead (commit 26a7bf1): snprintf, strftime
// per row and mysql_real_escape_string on the connection (here an unconnected handle: utf8mb4, the
// character set a connection gets by default).
std::string reference_sql(const eb::IibenchShape& shape, const std::vector<eb::Doc>& docs) {
  const bool py = shape.variant == "iibench-py";
  std::vector<std::string> cols = {"dateandtime", "cashregisterid", "customerid", "productid", "price"};
  if (py) cols.push_back("data");
  for (int i = 1; !py && i <= shape.num_char_fields; ++i) cols.push_back("cf" + std::to_string(i));
  std::string sql = "INSERT INTO " + shape.name + " (";
  for (size_t i = 0; i < cols.size(); ++i) sql += (i ? "," : "") + cols[i];
  sql += ") VALUES ";
  MYSQL* m = mysql_init(nullptr);
  for (size_t d = 0; d < docs.size(); ++d) {
    bson_t b;
    EXPECT_TRUE(docs[d].view(&b));
    sql += d ? ",(" : "(";
    bool first = true;
    bson_iter_t it;
    bson_iter_init(&it, &b);
    while (bson_iter_next(&it)) {
      if (std::strcmp(bson_iter_key(&it), "_id") == 0) continue;
      if (!first) sql += ',';
      char num[64];
      if (py && first) {
        time_t t = static_cast<time_t>(bson_iter_int64(&it) / 1000);
        struct tm tm;
        gmtime_r(&t, &tm);
        std::strftime(num, sizeof num, "'%Y-%m-%d %H:%M:%S'", &tm);
        sql += num;
      } else {
        switch (bson_iter_type(&it)) {
          case BSON_TYPE_INT32: std::snprintf(num, sizeof num, "%d", bson_iter_int32(&it)); sql += num; break;
          case BSON_TYPE_INT64:
            std::snprintf(num, sizeof num, "%lld", static_cast<long long>(bson_iter_int64(&it)));
            sql += num;
            break;
          case BSON_TYPE_DOUBLE: std::snprintf(num, sizeof num, "%.17g", bson_iter_double(&it)); sql += num; break;
          case BSON_TYPE_UTF8: {
            uint32_t n;
            const char* s = bson_iter_utf8(&it, &n);
            size_t at = sql.size();
            sql.resize(at + 2 * n + 3);
            sql[at] = '\'';
            unsigned long w = mysql_real_escape_string(m, &sql[at + 1], s, n);
            sql.resize(at + 1 + w);
            sql += '\'';
            break;
          }
          default: sql += "NULL";
        }
      }
      first = false;
    }
    sql += ')';
  }
  mysql_close(m);
  return sql;
}

TEST(IibenchSql, TheStatementIsTheOneBuiltBefore) {
  eb::Rng r(11, 3);
  const double odd[] = {0.0, -0.0, 1.0 / 3, 1e-300, 4.9e-324, 1.7976931348623157e308, -123456789.123456789,
                        1e17, 1e16, 123.45, 0.1, 5e-5, 100000000000000000000.0};
  using namespace std::string_literals;
  const std::string strings[] = {"aaaaaaaaaa"s, "aaaaaaa+/9"s, ""s, "it's \"quoted\"\\"s, "nul\0byte\n\r\032end"s,
                                 "caf\xc3\xa9 \xe2\x82\xac"s, "\xc3'lead byte then a quote"s, "\xff\xfe"s};
  for (const char* variant : {"mongodb", "iibench-py"}) {
    eb::IibenchShape shape;
    shape.name = "purchases_index";
    shape.variant = variant;
    shape.num_char_fields = 2;
    std::vector<eb::Doc> docs(300);
    for (size_t i = 0; i < docs.size(); ++i) {
      eb::wl::DocWriter w(&docs[i].bytes);
      const uint8_t oid[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
      if (i % 2) w.oid("_id", oid);  // skipped: transactionid is the key
      // one timestamp a second apart every 100 rows, from before 1970 to after 2038
      w.i64("dateandtime", (static_cast<int64_t>(i / 100) * 1500000000 - 100000000) * 1000 + static_cast<int64_t>(i));
      w.i32("cashregisterid", static_cast<int32_t>(r.uniform(1000)) - (i % 7 == 0 ? 2000000000 : 0));
      w.i32("customerid", static_cast<int32_t>(r.uniform(100000)));
      w.i64("productid", static_cast<int64_t>(r.next()));
      if (std::string(variant) == "iibench-py") w.i32("price", static_cast<int32_t>(r.uniform(500)));
      else w.dbl("price", i < sizeof odd / sizeof odd[0] ? odd[i] : (r.uniform01() * 500.0 + r.uniform(100000)) / 100.0);
      const size_t k = i % (sizeof strings / sizeof strings[0]);
      w.utf8(std::string(variant) == "iibench-py" ? "data" : "cf1", strings[k].data(), strings[k].size());
      if (std::string(variant) == "mongodb") w.utf8("cf2", strings[(k + 3) % 8].data(), strings[(k + 3) % 8].size());
      if (i % 50 == 0) w.binary("other", "xy", 2);  // a type the store has no literal for: NULL
      w.finish();
    }
    const std::string got = eb::iibench_insert_sql(shape, docs);
    const std::string want = reference_sql(shape, docs);
    ASSERT_EQ(got.size(), want.size()) << variant;
    EXPECT_TRUE(got == want) << variant << "\n" << got.substr(0, 600) << "\n" << want.substr(0, 600);
  }
}

}  // namespace
