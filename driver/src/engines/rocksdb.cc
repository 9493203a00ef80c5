// RocksDB engine: one column family per table, a shared LRU block cache, statistics enabled.
// The first table of a new database takes the default column family (as db_bench writes it: RocksDB
// finds column family 0 without a lookup, a named one by a hash-map lookup per key of every write
// batch, ~2 % of a fillseq writer thread); the table that owns it is recorded in the file
// ENGBENCH-DEFAULT-CF of the database directory, so a reopen finds it whatever order tables are
// opened in. A database made before (every table a named column family, no such file) opens as it was.
// Transactions are a WriteBatch buffered in the Session and written at commit: reads (get, scan,
// last_key, and the existence check of del) see the database, never the open batch.
//
// Per-call overheads kept at what db_bench pays: the thread-local PerfContext is switched off
// (rocksdb::SetPerfLevel(kDisable), db_bench's --perf_level=1 default; RocksDB's own default,
// kEnableCount, bumps perf_context counters per key inside the memtable insert, ~7% of a fillseq
// writer thread; nothing here reads PerfContext), WriteOptions are built once at open, one
// WriteBatch per session is reused (Clear keeps its buffer), table handles are a vector index.
// Statistics (tickers and histograms, stats_level kExceptDetailedTimers) stay on: stats() reports them.
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/listener.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>
#include <rocksdb/write_batch.h>

#include <atomic>
#include <fstream>
#include <memory>
#include <sstream>

#include "engines/engine_util.h"

namespace eb {
namespace {

using namespace engine_util;

const std::vector<std::string> kCompressions = {"none", "snappy", "zlib", "zstd", "lz4"};

std::vector<ParamSpec> rocksdb_knobs() {
  return {
      {"compaction", ParamType::Enum, "leveled", "compaction style", {"leveled", "universal"}},
      {"compression", ParamType::Enum, "snappy", "block compression for every level",
       kCompressions},
      {"compression_per_level", ParamType::String, "",
       "comma-separated compression per level, e.g. none,none,snappy (empty = `compression`; "
       "levels past the list use its last entry)"},
      {"compression_opts", ParamType::String, "",
       "window_bits:level:strategy of the compressor (RocksDB's compression_opts; empty = RocksDB's defaults, "
       "-14:32767:0, level 32767 = the library's default level), e.g. -14:1:0 as MongoRocks was run in seed 000"},
      {"block_cache_size", ParamType::Bytes, int64_t(1) << 30, "shared LRU block cache size"},
      {"block_size", ParamType::Bytes, int64_t(4) << 10, "data block size (RocksDB's default 4KB; MongoRocks used 16KB)"},
      {"bloom_bits_per_key", ParamType::Int, int64_t(0),
       "bloom filter bits per key on every table (0 = none, RocksDB's default; MongoRocks and MyRocks use 10): a "
       "point read then skips the levels that cannot hold its key",
       at_least(0)},
      {"write_buffer_size", ParamType::Bytes, int64_t(64) << 20, "memtable size per column family"},
      {"max_bytes_for_level_base", ParamType::Bytes, int64_t(256) << 20,
       "leveled: target size of L1, each next level 10x (RocksDB's default 256MB = 4 default memtables); "
       "scale it with write_buffer_size to keep RocksDB's shape in a small database"},
      {"target_file_size_base", ParamType::Bytes, int64_t(64) << 20,
       "SST file size at L1 (RocksDB's default 64MB = one default memtable)"},
      {"direct_reads", ParamType::Bool, false, "O_DIRECT for user reads (use_direct_reads)"},
      {"direct_io_for_flush_and_compaction", ParamType::Bool, false,
       "O_DIRECT for flush and compaction I/O"},
      {"wal", ParamType::Bool, true, "write-ahead log (false = WriteOptions.disableWAL)"},
      {"sync", ParamType::Bool, false, "fsync the WAL at every write (WriteOptions.sync)"},
      {"max_background_jobs", ParamType::Int, 2, "flush + compaction threads", in_range(1, kMaxThreads)},
      {"compaction_readahead_size", ParamType::Bytes, int64_t(0),
       "read size of compaction inputs (0 = RocksDB 7.x's default: block by block, each a device read when "
       "uncached; later RocksDB defaults to 2MB)"},
  };
}

[[noreturn]] void fail(const char* call, const rocksdb::Status& st) {
  throw EngineError(std::string("rocksdb: ") + call + ": " + st.ToString());
}
void check(const rocksdb::Status& st, const char* call) {
  if (!st.ok()) fail(call, st);
}

rocksdb::CompressionType compression_of(const std::string& name) {
  if (name == "none") return rocksdb::kNoCompression;
  if (name == "snappy") return rocksdb::kSnappyCompression;
  if (name == "zlib") return rocksdb::kZlibCompression;
  if (name == "zstd") return rocksdb::kZSTD;
  if (name == "lz4") return rocksdb::kLZ4Compression;
  std::string all;
  for (const auto& c : kCompressions) all += (all.empty() ? "" : ", ") + c;
  throw EngineError("rocksdb: open: unknown compression '" + name + "' (choices: " + all + ")");
}

// "window_bits:level:strategy" (a prefix of it) into RocksDB's CompressionOptions.
void set_compression_opts(const std::string& text, rocksdb::CompressionOptions* o) {
  if (text.empty()) return;
  int* fields[3] = {&o->window_bits, &o->level, &o->strategy};
  std::stringstream ss(text);
  std::string item;
  for (int i = 0; std::getline(ss, item, ':'); ++i) {
    size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (i >= 3 || item.empty() || used != item.size())
      throw EngineError("rocksdb: open: compression_opts '" + text + "': expected window_bits:level:strategy (integers)");
    *fields[i] = v;
  }
}

rocksdb::Slice slice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }
std::string_view view(const rocksdb::Slice& s) { return std::string_view(s.data(), s.size()); }

// Each flush's and compaction's start and end (Engine::events), from RocksDB's own callbacks (they
// run on its background threads).
class EventTimes final : public rocksdb::EventListener {
 public:
  void OnFlushBegin(rocksdb::DB*, const rocksdb::FlushJobInfo& i) override {
    flushes.begin(key(i.cf_name, i.job_id), {{"table", i.cf_name}});
  }
  void OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo& i) override { flushes.end(key(i.cf_name, i.job_id)); }
  void OnCompactionBegin(rocksdb::DB*, const rocksdb::CompactionJobInfo& i) override {
    compactions.begin(key(i.cf_name, i.job_id), {{"table", i.cf_name}, {"output_level", i.output_level}});
  }
  void OnCompactionCompleted(rocksdb::DB*, const rocksdb::CompactionJobInfo& i) override {
    compactions.end(key(i.cf_name, i.job_id), i.status.ok());
  }
  EventLog flushes, compactions;

 private:
  static std::string key(const std::string& cf, int job) { return cf + "#" + std::to_string(job); }
};

struct RocksShared {
  rocksdb::DB* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> tables;  // by table handle
  rocksdb::WriteOptions wopts;
};

class RocksSession final : public Session {
 public:
  explicit RocksSession(std::shared_ptr<RocksShared> sh) : sh_(std::move(sh)) { quiet(); }

  void begin() override {
    batch_.Clear();
    in_txn_ = true;
  }
  void commit() override {
    in_txn_ = false;
    if (batch_.Count() == 0) return;
    quiet();
    rocksdb::Status st = sh_->db->Write(sh_->wopts, &batch_);
    batch_.Clear();
    check(st, "Write");
  }
  void rollback() override {
    in_txn_ = false;
    batch_.Clear();
  }

  void put(int table, std::string_view key, std::string_view value) override {
    auto* cf = handle(table);
    if (in_txn_) {
      check(batch_.Put(cf, slice(key), slice(value)), "WriteBatch::Put");
    } else {
      quiet();
      check(sh_->db->Put(sh_->wopts, cf, slice(key), slice(value)), "Put");
    }
  }

  bool get(int table, std::string_view key, std::string* value) override {
    quiet();
    rocksdb::PinnableSlice v;
    rocksdb::Status st = sh_->db->Get(rocksdb::ReadOptions(), handle(table), slice(key), &v);
    if (st.IsNotFound()) return false;
    check(st, "Get");
    if (value) value->assign(v.data(), v.size());
    return true;
  }

  // RocksDB deletes blindly; the existence check reads the database (not the open batch).
  bool del(int table, std::string_view key) override {
    quiet();
    auto* cf = handle(table);
    rocksdb::PinnableSlice v;
    rocksdb::Status st = sh_->db->Get(rocksdb::ReadOptions(), cf, slice(key), &v);
    if (st.IsNotFound()) return false;
    check(st, "Get (del)");
    if (in_txn_)
      check(batch_.Delete(cf, slice(key)), "WriteBatch::Delete");
    else
      check(sh_->db->Delete(sh_->wopts, cf, slice(key)), "Delete");
    return true;
  }

  size_t scan(int table, std::string_view start, size_t limit, const RowFn& fn,
              const ScanOptions& opts) override {
    quiet();
    rocksdb::ReadOptions ro;
    ro.fill_cache = !opts.read_once;
    std::unique_ptr<rocksdb::Iterator> it(sh_->db->NewIterator(ro, handle(table)));
    size_t n = 0;
    for (it->Seek(slice(start)); it->Valid(); it->Next()) {
      ++n;
      if (!fn(view(it->key()), view(it->value()))) break;
      if (limit && n >= limit) break;
    }
    check(it->status(), "Iterator");
    return n;
  }

  bool last_key(int table, std::string* key) override {
    std::unique_ptr<rocksdb::Iterator> it(sh_->db->NewIterator(rocksdb::ReadOptions(), handle(table)));
    it->SeekToLast();
    if (!it->Valid()) {
      check(it->status(), "Iterator SeekToLast");
      return false;
    }
    if (key) key->assign(it->key().data(), it->key().size());
    return true;
  }

 private:
  // PerfContext off for the calling thread (the level is thread-local; sessions are normally created
  // on their worker thread, but set it again where a call enters RocksDB: one TLS store).
  static void quiet() { rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable); }

  rocksdb::ColumnFamilyHandle* handle(int table) {
    if (table < 0 || size_t(table) >= sh_->tables.size())
      throw EngineError("rocksdb: bad table handle " + std::to_string(table));
    return sh_->tables[table];
  }

  std::shared_ptr<RocksShared> sh_;
  rocksdb::WriteBatch batch_;
  bool in_txn_ = false;
};

class RocksEngine final : public Engine {
 public:
  ~RocksEngine() override {
    try {
      close();
    } catch (...) {
    }
  }

  void open(const std::string& dir, const ParamValues& knobs) override {
    if (sh_) throw EngineError("rocksdb: open: already open");
    // Column family options (shared by every table).
    cf_opts_ = rocksdb::ColumnFamilyOptions();
    std::string compaction = knob_str(knobs, "compaction", "leveled");
    if (compaction == "universal")
      cf_opts_.compaction_style = rocksdb::kCompactionStyleUniversal;
    else if (compaction == "leveled")
      cf_opts_.compaction_style = rocksdb::kCompactionStyleLevel;
    else
      throw EngineError("rocksdb: open: unknown compaction '" + compaction + "' (choices: leveled, universal)");
    cf_opts_.compression = compression_of(knob_str(knobs, "compression", "snappy"));
    std::string per_level = knob_str(knobs, "compression_per_level", "");
    if (!per_level.empty()) {
      std::stringstream ss(per_level);
      std::string item;
      while (std::getline(ss, item, ',')) {
        auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
        item = b == std::string::npos ? "" : item.substr(b, e - b + 1);
        cf_opts_.compression_per_level.push_back(compression_of(item));
      }
    }
    set_compression_opts(knob_str(knobs, "compression_opts", ""), &cf_opts_.compression_opts);
    cf_opts_.write_buffer_size = static_cast<size_t>(knob_int(knobs, "write_buffer_size", 64 << 20));
    cf_opts_.max_bytes_for_level_base = static_cast<uint64_t>(knob_int(knobs, "max_bytes_for_level_base", int64_t(256) << 20));
    cf_opts_.target_file_size_base = static_cast<uint64_t>(knob_int(knobs, "target_file_size_base", int64_t(64) << 20));
    rocksdb::BlockBasedTableOptions bbt;
    bbt.block_cache = rocksdb::NewLRUCache(static_cast<size_t>(knob_int(knobs, "block_cache_size", int64_t(1) << 30)));
    bbt.block_size = static_cast<size_t>(knob_int(knobs, "block_size", int64_t(4) << 10));
    const int64_t bloom = knob_int(knobs, "bloom_bits_per_key", 0);
    if (bloom > 0) bbt.filter_policy.reset(rocksdb::NewBloomFilterPolicy(static_cast<double>(bloom)));
    block_cache_ = bbt.block_cache;
    cf_opts_.table_factory.reset(rocksdb::NewBlockBasedTableFactory(bbt));

    rocksdb::DBOptions db_opts;
    db_opts.create_if_missing = true;
    db_opts.create_missing_column_families = true;
    db_opts.use_direct_reads = knob_bool(knobs, "direct_reads", false);
    db_opts.use_direct_io_for_flush_and_compaction =
        knob_bool(knobs, "direct_io_for_flush_and_compaction", false);
    db_opts.max_background_jobs = static_cast<int>(knob_int(knobs, "max_background_jobs", 2));
    db_opts.compaction_readahead_size = static_cast<size_t>(knob_int(knobs, "compaction_readahead_size", 0));
    statistics_ = rocksdb::CreateDBStatistics();
    db_opts.statistics = statistics_;
    events_ = std::make_shared<EventTimes>();
    db_opts.listeners.push_back(events_);

    // Every existing column family must be opened.
    std::vector<std::string> names;
    rocksdb::Status st = rocksdb::DB::ListColumnFamilies(db_opts, dir, &names);
    if (!st.ok()) names = {rocksdb::kDefaultColumnFamilyName};  // new database
    std::vector<rocksdb::ColumnFamilyDescriptor> descs;
    for (const auto& n : names) descs.emplace_back(n, cf_opts_);
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    auto sh = std::make_shared<RocksShared>();
    check(rocksdb::DB::Open(db_opts, dir, descs, &handles, &sh->db), "DB::Open");
    sh->wopts.disableWAL = !knob_bool(knobs, "wal", true);
    sh->wopts.sync = knob_bool(knobs, "sync", false);
    if (sh->wopts.disableWAL && sh->wopts.sync) {
      for (auto* h : handles) sh->db->DestroyColumnFamilyHandle(h);
      delete sh->db;
      throw EngineError("rocksdb: open: sync=true needs wal=true");
    }
    for (size_t i = 0; i < names.size(); ++i) cf_by_name_.emplace_back(names[i], handles[i]);
    dir_ = dir;
    default_owner_.clear();
    std::ifstream owner(owner_path());
    if (owner) std::getline(owner, default_owner_);
    sh_ = std::move(sh);
  }

  int table(const std::string& name, TableKind) override {
    require_open("table");
    for (size_t i = 0; i < table_names_.size(); ++i)
      if (table_names_[i] == name) return static_cast<int>(i);
    if (name == rocksdb::kDefaultColumnFamilyName)
      throw EngineError("rocksdb: table: '" + name + "' is RocksDB's own column family name; choose another table name");
    rocksdb::ColumnFamilyHandle* h = nullptr;
    rocksdb::ColumnFamilyHandle* dflt = nullptr;
    for (auto& [n, handle] : cf_by_name_) {
      if (n == name) h = handle;
      if (n == rocksdb::kDefaultColumnFamilyName) dflt = handle;
    }
    if (!h && name == default_owner_) h = dflt;
    if (!h && default_owner_.empty() && cf_by_name_.size() == 1 && dflt) {
      // a new database (only the default column family, unowned): its first table takes it
      std::ofstream out(owner_path(), std::ios::trunc);
      out << name << "\n";
      out.close();
      if (!out) throw EngineError("rocksdb: table: cannot write " + owner_path());
      default_owner_ = name;
      h = dflt;
    }
    if (!h) {
      check(sh_->db->CreateColumnFamily(cf_opts_, name, &h), "CreateColumnFamily");
      cf_by_name_.emplace_back(name, h);
    }
    table_names_.push_back(name);
    sh_->tables.push_back(h);
    return static_cast<int>(sh_->tables.size() - 1);
  }

  std::unique_ptr<Session> session() override {
    require_open("session");
    return std::make_unique<RocksSession>(sh_);
  }

  json stats() override {
    require_open("stats");
    json out = json::object();
    out["engbench: flushes completed"] = events_->flushes.completed();
    out["engbench: compactions completed"] = events_->compactions.completed();
    for (const auto& [ticker, name] : rocksdb::TickersNameMap)
      out[name] = statistics_->getTickerCount(ticker);
    for (const char* prop :
         {"rocksdb.estimate-live-data-size", "rocksdb.total-sst-files-size",
          "rocksdb.live-sst-files-size", "rocksdb.cur-size-all-mem-tables",
          "rocksdb.estimate-pending-compaction-bytes", "rocksdb.num-running-compactions",
          "rocksdb.num-running-flushes", "rocksdb.estimate-num-keys", "rocksdb.block-cache-usage",
          "rocksdb.actual-delayed-write-rate", "rocksdb.is-write-stopped"}) {
      uint64_t v = 0;
      if (sh_->db->GetAggregatedIntProperty(prop, &v)) out[prop] = v;
    }
    // Files per level, summed over column families.
    for (int level = 0; level < 7; ++level) {
      uint64_t total = 0;
      for (auto& [n, h] : cf_by_name_) {
        std::string v;
        if (sh_->db->GetProperty(h, "rocksdb.num-files-at-level" + std::to_string(level), &v))
          total += std::stoull(v);
      }
      out["rocksdb.num-files-at-level" + std::to_string(level)] = total;
    }
    return out;
  }

  json events() override {
    if (!events_) return json::object();
    return {{"flushes", events_->flushes.list()}, {"compactions", events_->compactions.list()}};
  }

  void close() override {
    if (!sh_) return;
    auto sh = std::move(sh_);
    rocksdb::FlushOptions fo;
    fo.wait = true;
    std::vector<rocksdb::ColumnFamilyHandle*> all;
    for (auto& [n, h] : cf_by_name_) all.push_back(h);
    rocksdb::Status st = sh->db->Flush(fo, all);  // durable even with wal=false
    for (auto* h : all) sh->db->DestroyColumnFamilyHandle(h);
    cf_by_name_.clear();
    table_names_.clear();
    sh->tables.clear();
    rocksdb::Status cst = sh->db->Close();
    delete sh->db;
    sh->db = nullptr;
    check(st, "Flush");
    check(cst, "Close");
  }

 private:
  void require_open(const char* call) {
    if (!sh_) throw EngineError(std::string("rocksdb: ") + call + ": engine not open");
  }

  std::string owner_path() const { return dir_ + "/ENGBENCH-DEFAULT-CF"; }

  std::shared_ptr<RocksShared> sh_;
  std::string dir_;
  std::string default_owner_;  // the table stored in the default column family ("" = none yet)
  rocksdb::ColumnFamilyOptions cf_opts_;
  std::shared_ptr<rocksdb::Cache> block_cache_;
  std::shared_ptr<rocksdb::Statistics> statistics_;
  std::shared_ptr<EventTimes> events_;
  std::vector<std::pair<std::string, rocksdb::ColumnFamilyHandle*>> cf_by_name_;
  std::vector<std::string> table_names_;
};

}  // namespace

EngineInfo rocksdb_engine_info() {
  EngineInfo info;
  info.name = "rocksdb";
  info.description = "RocksDB LSM tree, one column family per table (the first one the default)";
  info.library = "RocksDB";
  info.library_version = std::to_string(ROCKSDB_MAJOR) + "." + std::to_string(ROCKSDB_MINOR) + "." +
                         std::to_string(ROCKSDB_PATCH);
  info.knobs = rocksdb_knobs();
  info.make = [] { return std::unique_ptr<Engine>(new RocksEngine()); };
  return info;
}

}  // namespace eb
