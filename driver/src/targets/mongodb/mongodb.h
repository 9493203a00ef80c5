// The MongoDB target's client plumbing (libmongoc 1.23, Debian libmongoc-dev), shared by the target
// (targets/mongodb/target.cc) and the workloads' stores (workloads/<name>/store_mongodb.cc): a BSON
// guard, what every client of the target shares (pool, database, write concern), a pooled client
// per worker thread with its collections and write helpers, and a cursor guard. Every write carries
// the knobs' write concern (w, j).
// FerretDB v1.24.2 hangs on a write command with more than ~40 operations: keep batches <= 40.
#pragma once
#include <mongoc/mongoc.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/collection.h"
#include "target.h"

namespace eb {
namespace mongo {

struct BsonGuard {
  bson_t b;
  BsonGuard() { bson_init(&b); }
  ~BsonGuard() { bson_destroy(&b); }
  bson_t* operator&() { return &b; }
};

class Shared {  // what every client of the target shares
 public:
  mongoc_client_pool_t* pool = nullptr;
  std::string db;
  mongoc_write_concern_t* wc = nullptr;
  std::string uri_shown;
  void append_wc(bson_t* opts) const {
    if (wc && !mongoc_write_concern_append(wc, opts)) throw EngineError("mongodb: bad write concern");
  }
};

// A client popped from the pool for one thread, with its collections.
class Client {
 public:
  explicit Client(const Shared& s) : s_(s), c_(mongoc_client_pool_pop(s.pool)) {}
  ~Client() {
    for (auto* c : colls_)
      if (c) mongoc_collection_destroy(c);
    mongoc_client_pool_push(s_.pool, c_);
  }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  mongoc_collection_t* coll(size_t slot, const std::string& name) {
    if (slot >= colls_.size()) colls_.resize(slot + 1, nullptr);
    if (!colls_[slot]) colls_[slot] = mongoc_client_get_collection(c_, s_.db.c_str(), name.c_str());
    return colls_[slot];
  }
  mongoc_client_t* raw() { return c_; }
  const Shared& shared() const { return s_; }

  void insert_many(mongoc_collection_t* coll, const std::vector<const std::string*>& docs, const char* what) {
    std::vector<bson_t> views(docs.size());
    std::vector<const bson_t*> ptrs(docs.size());
    for (size_t i = 0; i < docs.size(); ++i) {
      if (!bson_init_static(&views[i], reinterpret_cast<const uint8_t*>(docs[i]->data()), docs[i]->size()))
        throw EngineError(std::string("mongodb: ") + what + ": invalid document");
      ptrs[i] = &views[i];
    }
    BsonGuard opts, reply;
    BSON_APPEND_BOOL(&opts, "ordered", false);
    s_.append_wc(&opts);
    bson_error_t err;
    if (!mongoc_collection_insert_many(coll, ptrs.data(), ptrs.size(), &opts, &reply, &err))
      throw EngineError(std::string("mongodb: insert_many into ") + what + ": " + err.message);
  }

  // update_one; returns matchedCount.
  int64_t update_one(mongoc_collection_t* coll, const bson_t* filter, const bson_t* update, const char* what) {
    BsonGuard opts, reply;
    s_.append_wc(&opts);
    bson_error_t err;
    if (!mongoc_collection_update_one(coll, filter, update, &opts, &reply, &err))
      throw EngineError(std::string("mongodb: update_one ") + what + ": " + err.message);
    return reply_count(&reply, "matchedCount", what);
  }

  // A count field of a write reply; a reply without it is an error (never "0 documents").
  static int64_t reply_count(const bson_t* reply, const char* field, const char* what) {
    bson_iter_t it;
    if (!bson_iter_init_find(&it, reply, field) || !BSON_ITER_HOLDS_NUMBER(&it))
      throw EngineError(std::string("mongodb: the reply to ") + what + " has no " + field);
    return bson_iter_as_int64(&it);
  }

  void command(const char* db, const bson_t* cmd, bson_t* reply, const std::string& what, bool ignore_ns_missing = false) {
    bson_error_t err;
    bool ok = mongoc_client_write_command_with_opts(c_, db, cmd, nullptr, reply, &err);
    if (!ok && !(ignore_ns_missing && (err.code == 26 || std::strstr(err.message, "ns not found"))))
      throw EngineError("mongodb: " + what + ": " + err.message);
  }

  void drop(const std::string& name) {
    BsonGuard cmd, reply;
    BSON_APPEND_UTF8(&cmd, "drop", name.c_str());
    command(s_.db.c_str(), &cmd, &reply, "drop " + name, true);
  }

  void create_indexes(const std::string& coll, const std::vector<IndexDef>& idx) {
    if (idx.empty()) {
      BsonGuard cmd, reply;  // create the collection anyway
      BSON_APPEND_UTF8(&cmd, "create", coll.c_str());
      command(s_.db.c_str(), &cmd, &reply, "create " + coll);
      return;
    }
    BsonGuard cmd, reply;
    BSON_APPEND_UTF8(&cmd, "createIndexes", coll.c_str());
    bson_t arr;
    BSON_APPEND_ARRAY_BEGIN(&cmd, "indexes", &arr);
    for (size_t i = 0; i < idx.size(); ++i) {
      bson_t one, key;
      std::string n = std::to_string(i);
      BSON_APPEND_DOCUMENT_BEGIN(&arr, n.c_str(), &one);
      BSON_APPEND_DOCUMENT_BEGIN(&one, "key", &key);
      for (const auto& f : idx[i].fields) BSON_APPEND_INT32(&key, f.c_str(), 1);
      bson_append_document_end(&one, &key);
      BSON_APPEND_UTF8(&one, "name", idx[i].name.c_str());
      bson_append_document_end(&arr, &one);
    }
    bson_append_array_end(&cmd, &arr);
    command(s_.db.c_str(), &cmd, &reply, "createIndexes on " + coll);
  }

 private:
  const Shared& s_;
  mongoc_client_t* c_;
  std::vector<mongoc_collection_t*> colls_;
};

// A cursor guard: runs fn(doc) for each document of a find cursor and destroys the cursor (also when
// fn throws); a cursor error is thrown as "mongodb: <what>: <message>". Returns the documents seen.
template <class F>
size_t drain(mongoc_cursor_t* cursor, const std::string& what, F fn) {
  std::unique_ptr<mongoc_cursor_t, void (*)(mongoc_cursor_t*)> cur(cursor, mongoc_cursor_destroy);
  const bson_t* doc;
  size_t n = 0;
  while (mongoc_cursor_next(cur.get(), &doc)) {
    fn(doc);
    ++n;
  }
  bson_error_t err;
  if (mongoc_cursor_error(cur.get(), &err)) throw EngineError("mongodb: " + what + ": " + err.message);
  return n;
}

// What a workload's store gets from the MongoDB target: its pool, database and write concern.
// Valid while the target is open.
const Shared& shared_of(Target& target);

}  // namespace mongo
}  // namespace eb
