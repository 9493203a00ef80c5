// The document layer, laid out the way MongoDB's storage engines lay out a collection:
//   record table  "<name>"            key = record id (8 bytes big-endian), value = BSON document
//   index tables  "<name>.<index>"    key = encode(indexed values..., record id), value = empty
// Identical for every engine; engines only see keys and values.
#pragma once
#include <bson/bson.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/keycodec.h"
#include "engine.h"

namespace eb {

struct IndexDef {
  std::string name;
  std::vector<std::string> fields;  // top-level field names, ascending
};

struct IndexRow {
  std::string key;          // the encoded index key
  uint64_t record_id = 0;
  std::string doc;          // BSON bytes (when fetched)
};

struct DiskUsage {
  uint64_t apparent_bytes = 0;   // sum of st_size
  uint64_t allocated_bytes = 0;  // sum of st_blocks * 512
  struct File {
    std::string path;  // relative to the data directory
    uint64_t apparent_bytes = 0, allocated_bytes = 0;
  };
  std::vector<File> files;  // every regular file, sorted by path (data vs index files, per table)
};
DiskUsage disk_usage(const std::string& dir);

// An owned BSON document (bytes); cheap to move.
struct Doc {
  std::string bytes;
  static Doc from(const bson_t* b) { return Doc{std::string(reinterpret_cast<const char*>(bson_get_data(b)), b->len)}; }
  // A read-only bson_t view of the bytes (valid while `this` lives).
  bool view(bson_t* out) const {
    return bson_init_static(out, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
};

// Values of `fields` in `doc` as key values (missing field → null; int32/int64 → Int, double →
// Double, utf8 → String, oid → ObjectId, date_time → Date; anything else throws).
std::vector<KeyValue> extract_key_values(const bson_t* doc, const std::vector<std::string>& fields);

// Transactions retried after the engine rolled them back (EngineConflict, e.g. WT_ROLLBACK), over
// every Collection of the process (the runner reports a run's share as summary conflict_retries).
uint64_t conflict_retries_total();
// Multi-document insert batches the engine rolled back and this layer then inserted one document
// per transaction (Collection::insert_batch), over every Collection (summary batches_split).
uint64_t batches_split_total();

class Collection {
 public:
  // Creates/opens the tables and recovers the record-id counter and the logical byte counts.
  Collection(Engine& engine, const std::string& name, std::vector<IndexDef> indexes);

  const std::vector<IndexDef>& indexes() const { return indexes_; }

  // One transaction for the whole batch; if the engine rolls it back, one transaction per document
  // (each retried), as mongod's insert path does. Returns BSON bytes written; ids (optional) get
  // the new ids, in order.
  uint64_t insert_batch(Session& s, const std::vector<Doc>& docs, std::vector<uint64_t>* ids = nullptr) {
    return insert_batch(s, docs.data(), docs.size(), ids);
  }
  // The same for n documents from `docs` (a part of a caller's batch, without copying it).
  uint64_t insert_batch(Session& s, const Doc* docs, size_t n, std::vector<uint64_t>* ids = nullptr);
  bool get(Session& s, uint64_t id, Doc* out);
  // Read-modify-write under a per-record lock, moving index entries whose values changed.
  // `modify` receives the current document and returns the new one. false: no such record.
  bool update(Session& s, uint64_t id, const std::function<Doc(const Doc&)>& modify,
              uint64_t* bytes_read = nullptr, uint64_t* bytes_written = nullptr);
  bool remove(Session& s, uint64_t id, uint64_t* bytes_read = nullptr);
  // Rows of index `index` with key >= (start..., any record id), in index order, at most `limit`
  // (0 = no limit). With fetch, each row's document is read from the record table.
  size_t index_scan(Session& s, int index, const std::vector<KeyValue>& start, size_t limit, bool fetch,
                    std::vector<IndexRow>* out, uint64_t* bytes_read = nullptr);
  // Rows of index `index` whose key starts with the encoded `prefix` (stops at the first other key),
  // in index order, at most `limit` (0 = no limit). Otherwise as index_scan.
  size_t index_scan_prefix(Session& s, int index, const std::vector<KeyValue>& prefix, size_t limit, bool fetch,
                           std::vector<IndexRow>* out, uint64_t* bytes_read = nullptr,
                           const ScanOptions& opts = {});
  // Building blocks for requests that change several documents (and collections) in ONE transaction:
  // the caller has called s.begin() and commits or rolls back; no per-record lock is taken (the
  // caller serializes writers of the same documents). Reads see committed data only on some
  // engines (RocksDB batches), so read each document before writing it and write it at most once.
  uint64_t insert_in_txn(Session& s, const Doc& doc);  // returns the new record id
  bool update_in_txn(Session& s, uint64_t id, const std::function<Doc(const Doc&)>& modify,
                     uint64_t* bytes_read = nullptr, uint64_t* bytes_written = nullptr);
  // Every record in record-id order (visitor gets id and BSON bytes; return false to stop).
  uint64_t scan_records(Session& s, const std::function<bool(uint64_t, std::string_view)>& fn,
                        const ScanOptions& opts = {});
  uint64_t count(Session& s);                 // rows of the record table (a scan)
  uint64_t count_index(Session& s, int index);  // rows of one index table (a scan)

  uint64_t live_bytes() const { return live_bytes_.load(std::memory_order_relaxed); }
  // Transactions the engine rolled back (EngineConflict) and this layer retried.
  uint64_t conflict_retries() const { return conflict_retries_.load(std::memory_order_relaxed); }
  // Insert batches rolled back whole and then inserted one document per transaction.
  uint64_t batches_split() const { return batches_split_.load(std::memory_order_relaxed); }
  uint64_t index_key_bytes() const { return index_key_bytes_.load(std::memory_order_relaxed); }
  uint64_t next_id() const { return next_id_.load(std::memory_order_relaxed); }

 private:
  // One update's effect, counted only where the transaction that holds it commits.
  struct Change {
    uint64_t old_bytes = 0, new_bytes = 0;
    int64_t key_bytes = 0;
  };
  // The read-modify-write itself, inside the caller's transaction; counts nothing.
  bool apply_update(Session& s, uint64_t id, const std::function<Doc(const Doc&)>& modify, Change* c);
  void account(const Change& c, uint64_t* bytes_read, uint64_t* bytes_written);
  // The document of an index row; a row whose record is missing is an error (never an empty doc).
  void fetch_row(Session& s, int index, IndexRow* row);
  std::mutex& lock_for(uint64_t id) { return stripes_[(id * 0x9E3779B97F4A7C15ULL) >> 58]; }
  // The index keys of `doc` (the first indexes_.size() entries) in this thread's scratch vector
  // `slot` (0 or 1), valid until the next call with that slot: every write encodes keys, and a
  // vector of strings allocated per document costs more than the encoding.
  const std::vector<std::string>& index_keys(std::string_view doc, uint64_t id, int slot = 0) const;
  // All index keys of one document (BSON bytes) in one pass over its top-level fields, into the
  // first indexes_.size() entries of *keys (grown when shorter, never shrunk).
  void encode_index_keys(std::string_view doc, uint64_t id, std::vector<std::string>* keys) const;

  Engine& engine_;
  std::string name_;
  int record_table_;
  std::vector<IndexDef> indexes_;
  std::vector<int> index_tables_;
  std::vector<std::string> fields_;              // distinct indexed field names
  std::vector<std::vector<int>> index_fields_;   // per index: positions in fields_
  std::atomic<uint64_t> next_id_{1};
  std::atomic<int64_t> live_bytes_{0}, index_key_bytes_{0};
  std::atomic<uint64_t> conflict_retries_{0}, batches_split_{0};
  // One transaction inserting docs[0..n) under ids first..first+n-1 (appended to *ids once it
  // commits); rolls back and rethrows on any error.
  uint64_t insert_txn(Session& s, const Doc* docs, size_t n, uint64_t first, std::vector<uint64_t>* ids);
  // Runs `body` (one whole transaction: begin … commit, rolling back on error) again when the
  // engine rolled it back on its own, with a short growing pause; other errors pass through.
  template <class F>
  auto retry_conflicts(F&& body) -> decltype(body());
  std::array<std::mutex, 64> stripes_;
};

}  // namespace eb
