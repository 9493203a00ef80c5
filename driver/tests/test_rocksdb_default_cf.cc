// RocksDB: the first table of a new database lives in the default column family (as db_bench
// writes), recorded in ENGBENCH-DEFAULT-CF; reopening finds every table whatever order they are
// opened in; a database whose tables are all named column families (made before) opens as it was.
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine_fixture.h"

namespace {
using namespace engtest;

std::unique_ptr<eb::Engine> open_rocks(const std::string& dir) {
  const auto& info = info_of("rocksdb");
  auto e = info.make();
  e->open(dir, test_knobs(info));
  return e;
}

std::vector<std::string> column_families(const std::string& dir) {
  std::vector<std::string> names;
  EXPECT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &names).ok());
  return names;
}

TEST(RocksDefaultColumnFamily, FirstTableTakesItAndReopenFindsEveryTableInAnyOrder) {
  TempDir d;
  {
    auto e = open_rocks(d.path);
    int a = e->table("first", eb::TableKind::Record), b = e->table("second", eb::TableKind::Record);
    auto s = e->session();
    s->put(a, "k", "in-first");
    s->put(b, "k", "in-second");
    e->close();
  }
  EXPECT_EQ(column_families(d.path), (std::vector<std::string>{"default", "second"}));
  std::ifstream owner(d.path + "/ENGBENCH-DEFAULT-CF");
  std::string line;
  std::getline(owner, line);
  EXPECT_EQ(line, "first");
  auto e = open_rocks(d.path);
  int b = e->table("second", eb::TableKind::Record), a = e->table("first", eb::TableKind::Record);
  auto s = e->session();
  std::string v;
  ASSERT_TRUE(s->get(a, "k", &v));
  EXPECT_EQ(v, "in-first");
  ASSERT_TRUE(s->get(b, "k", &v));
  EXPECT_EQ(v, "in-second");
  e->close();
  EXPECT_EQ(column_families(d.path), (std::vector<std::string>{"default", "second"}));
}

TEST(RocksDefaultColumnFamily, ADatabaseOfNamedColumnFamiliesOpensAsItWas) {
  TempDir d;
  {  // the layout before: every table a named column family, the default one empty, no owner file
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* db = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, d.path, &db).ok());
    rocksdb::ColumnFamilyHandle* cf = nullptr;
    ASSERT_TRUE(db->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), "records", &cf).ok());
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), cf, "k", "old").ok());
    db->DestroyColumnFamilyHandle(cf);
    delete db;
  }
  auto e = open_rocks(d.path);
  int t = e->table("records", eb::TableKind::Record);
  int n = e->table("new_table", eb::TableKind::Record);  // not the default: the database is not new
  auto s = e->session();
  std::string v;
  ASSERT_TRUE(s->get(t, "k", &v));
  EXPECT_EQ(v, "old");
  EXPECT_FALSE(s->get(n, "k", &v));
  e->close();
  EXPECT_FALSE(std::filesystem::exists(d.path + "/ENGBENCH-DEFAULT-CF"));
  EXPECT_EQ(column_families(d.path), (std::vector<std::string>{"default", "records", "new_table"}));
}

TEST(RocksDefaultColumnFamily, TheNameDefaultIsRefused) {
  TempDir d;
  auto e = open_rocks(d.path);
  try {
    e->table("default", eb::TableKind::Record);
    FAIL() << "a table named 'default' was accepted";
  } catch (const eb::EngineError& err) {
    EXPECT_NE(std::string(err.what()).find("RocksDB's own column family name"), std::string::npos) << err.what();
  }
  e->close();
}

}  // namespace
