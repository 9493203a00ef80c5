#include "core/collection.h"

#include "core/bson_fields.h"

#include <chrono>
#include <thread>

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace eb {

DiskUsage disk_usage(const std::string& dir) {
  DiskUsage u;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return u;
  for (auto it = std::filesystem::recursive_directory_iterator(
           dir, std::filesystem::directory_options::skip_permission_denied, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    struct stat st;
    if (::lstat(it->path().c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      const auto size = static_cast<uint64_t>(st.st_size), blocks = static_cast<uint64_t>(st.st_blocks) * 512;
      u.apparent_bytes += size;
      u.allocated_bytes += blocks;
      u.files.push_back({std::filesystem::relative(it->path(), dir, ec).string(), size, blocks});
    }
  }
  std::sort(u.files.begin(), u.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return u;
}

std::vector<KeyValue> extract_key_values(const bson_t* doc, const std::vector<std::string>& fields) {
  std::vector<KeyValue> out;
  out.reserve(fields.size());
  for (const auto& f : fields) {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, doc, f.c_str())) {
      out.push_back(KeyValue::Null());
      continue;
    }
    switch (bson_iter_type(&it)) {
      case BSON_TYPE_INT32: out.push_back(KeyValue::Int(bson_iter_int32(&it))); break;
      case BSON_TYPE_INT64: out.push_back(KeyValue::Int(bson_iter_int64(&it))); break;
      case BSON_TYPE_DOUBLE: out.push_back(KeyValue::Double(bson_iter_double(&it))); break;
      case BSON_TYPE_UTF8: {
        uint32_t len;
        const char* s = bson_iter_utf8(&it, &len);
        out.push_back(KeyValue::Str(std::string(s, len)));
        break;
      }
      case BSON_TYPE_OID:
        out.push_back(KeyValue::Oid(std::string(reinterpret_cast<const char*>(bson_iter_oid(&it)->bytes), 12)));
        break;
      case BSON_TYPE_DATE_TIME: out.push_back(KeyValue::Date(bson_iter_date_time(&it))); break;
      case BSON_TYPE_NULL: out.push_back(KeyValue::Null()); break;
      default: throw std::invalid_argument("document layer: field '" + f + "' has a type that cannot be indexed");
    }
  }
  return out;
}

namespace {
constexpr size_t kMaxIndexedFields = 32;

// The key encoding of one field found by BsonFields (nullptr: the field is missing → null).
void encode_field(const BsonField* f, const std::string& field, std::string* out) {
  if (!f) {
    encode_null(out);
    return;
  }
  switch (f->type) {
    case BSON_TYPE_INT32: encode_int(BsonFields::load_i32(f->value), out); break;
    case BSON_TYPE_INT64: encode_int(BsonFields::load_i64(f->value), out); break;
    case BSON_TYPE_DOUBLE: {
      double d;
      std::memcpy(&d, f->value, 8);
      encode_double(d, out);
      break;
    }
    case BSON_TYPE_UTF8: encode_string(f->value + 4, f->size - 5, out); break;  // length, bytes, NUL
    case BSON_TYPE_OID: encode_oid(reinterpret_cast<const uint8_t*>(f->value), out); break;
    case BSON_TYPE_DATE_TIME: encode_date(BsonFields::load_i64(f->value), out); break;
    case BSON_TYPE_NULL: encode_null(out); break;
    default: throw std::invalid_argument("document layer: field '" + field + "' has a type that cannot be indexed");
  }
}

// `values` encoded as the start of an index scan, in this thread's scratch string (valid until its
// next call): point lookups by prefix run at every request and would allocate it each time.
const std::string& scan_start(const std::vector<KeyValue>& values) {
  thread_local std::string out;
  out.clear();
  for (const auto& v : values) encode_value(v, &out);
  return out;
}

}  // namespace

Collection::Collection(Engine& engine, const std::string& name, std::vector<IndexDef> indexes)
    : engine_(engine), name_(name), indexes_(std::move(indexes)) {
  record_table_ = engine_.table(name, TableKind::Record);
  for (const auto& ix : indexes_) {
    index_tables_.push_back(engine_.table(name + "." + ix.name, TableKind::Index));
    std::vector<int> pos;
    for (const auto& f : ix.fields) {
      auto it = std::find(fields_.begin(), fields_.end(), f);
      if (it == fields_.end()) {
        fields_.push_back(f);
        it = fields_.end() - 1;
      }
      pos.push_back(static_cast<int>(it - fields_.begin()));
    }
    index_fields_.push_back(pos);
  }
  if (fields_.size() > kMaxIndexedFields) throw std::invalid_argument("document layer: too many indexed fields");
  auto s = engine_.session();
  std::string last;
  if (s->last_key(record_table_, &last) && last.size() == 8) {
    next_id_ = read_be64(last.data()) + 1;
    int64_t live = 0, keys = 0;
    s->scan(record_table_, "", 0, [&](std::string_view, std::string_view v) {
      live += static_cast<int64_t>(v.size());
      return true;
    });
    for (int t : index_tables_)
      s->scan(t, "", 0, [&](std::string_view k, std::string_view) {
        keys += static_cast<int64_t>(k.size());
        return true;
      });
    live_bytes_ = live;
    index_key_bytes_ = keys;
  }
}

void Collection::encode_index_keys(std::string_view doc, uint64_t id, std::vector<std::string>* keys) const {
  BsonField found[kMaxIndexedFields];
  bool has[kMaxIndexedFields] = {};
  size_t remaining = fields_.size();
  BsonFields walk(doc);
  BsonField f;
  while (remaining && walk.next(&f))
    for (size_t i = 0; i < fields_.size(); ++i)
      if (!has[i] && f.named(fields_[i])) {  // the first of duplicate names, as libbson finds it
        found[i] = f;
        has[i] = true;
        --remaining;
        break;
      }
  if (keys->size() < indexes_.size()) keys->resize(indexes_.size());  // never shrunk: capacities stay
  for (size_t x = 0; x < indexes_.size(); ++x) {
    std::string& key = (*keys)[x];
    key.clear();
    for (int i : index_fields_[x]) encode_field(has[i] ? &found[i] : nullptr, fields_[i], &key);
    append_be64(id, &key);
  }
}

const std::vector<std::string>& Collection::index_keys(std::string_view doc, uint64_t id, int slot) const {
  thread_local std::vector<std::string> scratch[2];
  encode_index_keys(doc, id, &scratch[slot]);
  return scratch[slot];
}

namespace {
std::atomic<uint64_t> g_conflict_retries{0}, g_batches_split{0};
}  // namespace

uint64_t conflict_retries_total() { return g_conflict_retries.load(std::memory_order_relaxed); }
uint64_t batches_split_total() { return g_batches_split.load(std::memory_order_relaxed); }

template <class F>
auto Collection::retry_conflicts(F&& body) -> decltype(body()) {
  constexpr int kMaxAttempts = 100;
  for (int attempt = 1;; ++attempt) {
    try {
      return body();
    } catch (const EngineConflict&) {
      if (attempt >= kMaxAttempts) throw;
      conflict_retries_.fetch_add(1, std::memory_order_relaxed);
      g_conflict_retries.fetch_add(1, std::memory_order_relaxed);
      std::this_thread::sleep_for(std::chrono::microseconds(std::min(50000, 100 * attempt * attempt)));
    }
  }
}

uint64_t Collection::insert_batch(Session& s, const Doc* docs, size_t n, std::vector<uint64_t>* ids) {
  if (n == 0) return 0;
  // Ids are taken once: a retried or split batch writes the same documents under the same ids.
  const uint64_t first = next_id_.fetch_add(n, std::memory_order_relaxed);
  if (n > 1) {
    try {
      return insert_txn(s, docs, n, first, ids);
    } catch (const EngineConflict&) {
      // As mongod's insert path does (write_ops_exec.cpp, insertBatchAndHandleErrors: "Try to insert
      // the batch one-at-a-time because the batch failed all-at-once inserting"): one attempt for the
      // whole batch, then one transaction per document, each retried. A batch transaction with
      // secondary indexes pins a leaf page per document and index; WiredTiger rolls back the oldest
      // transaction when such pinned pages leave eviction no room (its statistic "oldest pinned
      // transaction ID rolled back for eviction"), and retrying the same batch can meet the same
      // wall every time, however long the pauses (a 1,000-document batch of the main job did, 100
      // times in a row, on a loaded machine).
      batches_split_.fetch_add(1, std::memory_order_relaxed);
      g_batches_split.fetch_add(1, std::memory_order_relaxed);
    }
  }
  uint64_t bytes = 0;
  for (size_t i = 0; i < n; ++i) bytes += retry_conflicts([&] { return insert_txn(s, docs + i, 1, first + i, ids); });
  return bytes;
}

uint64_t Collection::insert_txn(Session& s, const Doc* docs, size_t n, uint64_t first, std::vector<uint64_t>* ids) {
  uint64_t bytes = 0, key_bytes = 0;
  s.begin();
  try {
    char rk[8];
    for (size_t i = 0; i < n; ++i) {
      uint64_t id = first + i;
      store_be64(id, rk);
      s.put(record_table_, std::string_view(rk, 8), docs[i].bytes);
      bytes += docs[i].bytes.size();
      if (!indexes_.empty()) {
        const auto& keys = index_keys(docs[i].bytes, id);
        for (size_t x = 0; x < indexes_.size(); ++x) {
          s.put(index_tables_[x], keys[x], "");
          key_bytes += keys[x].size();
        }
      }
    }
    s.commit();
  } catch (...) {
    try { s.rollback(); } catch (...) {}
    throw;
  }
  if (ids)
    for (size_t i = 0; i < n; ++i) ids->push_back(first + i);
  live_bytes_.fetch_add(static_cast<int64_t>(bytes), std::memory_order_relaxed);
  index_key_bytes_.fetch_add(static_cast<int64_t>(key_bytes), std::memory_order_relaxed);
  return bytes;
}

bool Collection::get(Session& s, uint64_t id, Doc* out) {
  char rk[8];
  store_be64(id, rk);
  return s.get(record_table_, std::string_view(rk, 8), &out->bytes);
}

bool Collection::update(Session& s, uint64_t id, const std::function<Doc(const Doc&)>& modify,
                        uint64_t* bytes_read, uint64_t* bytes_written) {
  std::lock_guard<std::mutex> g(lock_for(id));
  return retry_conflicts([&] {
    s.begin();
    try {
      Change c;
      if (!apply_update(s, id, modify, &c)) {
        s.rollback();
        return false;
      }
      s.commit();
      account(c, bytes_read, bytes_written);  // only once committed: a retried attempt counts once
      return true;
    } catch (...) {
      try { s.rollback(); } catch (...) {}
      throw;
    }
  });
}

bool Collection::apply_update(Session& s, uint64_t id, const std::function<Doc(const Doc&)>& modify,
                              Change* c) {
  std::string rk = record_key(id);
  Doc old;
  if (!s.get(record_table_, rk, &old.bytes)) return false;
  Doc now = modify(old);
  BsonFields::check(old.bytes);
  BsonFields::check(now.bytes);
  s.put(record_table_, rk, now.bytes);
  if (!indexes_.empty()) {
    const auto& ok = index_keys(old.bytes, id, 0);
    const auto& nk = index_keys(now.bytes, id, 1);
    for (size_t x = 0; x < indexes_.size(); ++x) {
      if (ok[x] == nk[x]) continue;
      s.del(index_tables_[x], ok[x]);
      s.put(index_tables_[x], nk[x], "");
      c->key_bytes += static_cast<int64_t>(nk[x].size()) - static_cast<int64_t>(ok[x].size());
    }
  }
  c->old_bytes = old.bytes.size();
  c->new_bytes = now.bytes.size();
  return true;
}

void Collection::account(const Change& c, uint64_t* bytes_read, uint64_t* bytes_written) {
  live_bytes_.fetch_add(static_cast<int64_t>(c.new_bytes) - static_cast<int64_t>(c.old_bytes));
  index_key_bytes_.fetch_add(c.key_bytes);
  if (bytes_read) *bytes_read += c.old_bytes;
  if (bytes_written) *bytes_written += c.new_bytes;
}

bool Collection::remove(Session& s, uint64_t id, uint64_t* bytes_read) {
  std::lock_guard<std::mutex> g(lock_for(id));
  std::string rk = record_key(id);
  return retry_conflicts([&] {
  s.begin();
  try {
    Doc old;
    if (!s.get(record_table_, rk, &old.bytes)) {
      s.rollback();
      return false;
    }
    s.del(record_table_, rk);
    int64_t dkey = 0;
    const auto& ok = index_keys(old.bytes, id);
    for (size_t x = 0; x < indexes_.size(); ++x) {
      s.del(index_tables_[x], ok[x]);
      dkey += static_cast<int64_t>(ok[x].size());
    }
    s.commit();
    live_bytes_.fetch_sub(static_cast<int64_t>(old.bytes.size()));
    index_key_bytes_.fetch_sub(dkey);
    if (bytes_read) *bytes_read += old.bytes.size();
    return true;
  } catch (...) {
    try { s.rollback(); } catch (...) {}
    throw;
  }
  });
}

size_t Collection::index_scan(Session& s, int index, const std::vector<KeyValue>& start, size_t limit,
                              bool fetch, std::vector<IndexRow>* out, uint64_t* bytes_read) {
  if (index < 0 || index >= static_cast<int>(index_tables_.size()))
    throw std::out_of_range("document layer: no index " + std::to_string(index));
  const std::string& from = scan_start(start);
  size_t first = out->size();
  s.scan(index_tables_[index], from, limit, [&](std::string_view k, std::string_view) {
    IndexRow r;
    r.key.assign(k.data(), k.size());
    r.record_id = index_key_record_id(k);
    out->push_back(std::move(r));
    return true;
  });
  uint64_t br = 0;
  for (size_t i = first; i < out->size(); ++i) {
    br += (*out)[i].key.size();
    if (fetch) {
      fetch_row(s, index, &(*out)[i]);
      br += (*out)[i].doc.size();
    }
  }
  if (bytes_read) *bytes_read += br;
  return out->size() - first;
}

size_t Collection::index_scan_prefix(Session& s, int index, const std::vector<KeyValue>& prefix, size_t limit,
                                     bool fetch, std::vector<IndexRow>* out, uint64_t* bytes_read,
                                     const ScanOptions& opts) {
  if (index < 0 || index >= static_cast<int>(index_tables_.size()))
    throw std::out_of_range("document layer: no index " + std::to_string(index));
  const std::string& from = scan_start(prefix);
  size_t first = out->size(), n = 0;
  uint64_t br = 0;
  s.scan(index_tables_[index], from, 0, [&](std::string_view k, std::string_view) {
    if (k.size() < from.size() || k.compare(0, from.size(), from) != 0) return false;
    IndexRow r;
    r.key.assign(k.data(), k.size());
    r.record_id = index_key_record_id(k);
    br += k.size();
    out->push_back(std::move(r));
    return limit == 0 || ++n < limit;
  }, opts);
  if (fetch)
    for (size_t i = first; i < out->size(); ++i) {
      fetch_row(s, index, &(*out)[i]);
      br += (*out)[i].doc.size();
    }
  if (bytes_read) *bytes_read += br;
  return out->size() - first;
}

void Collection::fetch_row(Session& s, int index, IndexRow* row) {
  if (!s.get(record_table_, record_key(row->record_id), &row->doc))
    throw EngineError("document layer: index " + name_ + "." + indexes_[index].name + " names record " +
                      std::to_string(row->record_id) + ", which is missing");
}

uint64_t Collection::insert_in_txn(Session& s, const Doc& doc) {
  uint64_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
  s.put(record_table_, record_key(id), doc.bytes);
  uint64_t key_bytes = 0;
  if (!indexes_.empty()) {
    const auto& keys = index_keys(doc.bytes, id);
    for (size_t x = 0; x < indexes_.size(); ++x) {
      s.put(index_tables_[x], keys[x], "");
      key_bytes += keys[x].size();
    }
  }
  live_bytes_.fetch_add(static_cast<int64_t>(doc.bytes.size()), std::memory_order_relaxed);
  index_key_bytes_.fetch_add(static_cast<int64_t>(key_bytes), std::memory_order_relaxed);
  return id;
}

bool Collection::update_in_txn(Session& s, uint64_t id, const std::function<Doc(const Doc&)>& modify,
                               uint64_t* bytes_read, uint64_t* bytes_written) {
  Change c;
  if (!apply_update(s, id, modify, &c)) return false;
  account(c, bytes_read, bytes_written);
  return true;
}

uint64_t Collection::scan_records(Session& s, const std::function<bool(uint64_t, std::string_view)>& fn,
                                  const ScanOptions& opts) {
  return s.scan(record_table_, "", 0, [&](std::string_view k, std::string_view v) {
    return fn(k.size() == 8 ? read_be64(k.data()) : 0, v);
  }, opts);
}

uint64_t Collection::count(Session& s) {
  return s.scan(record_table_, "", 0, [](std::string_view, std::string_view) { return true; });
}

uint64_t Collection::count_index(Session& s, int index) {
  return s.scan(index_tables_.at(index), "", 0, [](std::string_view, std::string_view) { return true; });
}

}  // namespace eb
