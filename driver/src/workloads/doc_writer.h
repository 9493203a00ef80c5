// Small helpers the document workloads share: a BSON writer into a reused string (no bson_t growth
// or copies on the hot path), in-place patches of fixed-size fields, a reusable step barrier, and
// typed parameter accessors.
#pragma once
#include <bson/bson.h>

#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>

#include "core/collection.h"
#include "params.h"

namespace eb {
namespace wl {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "DocWriter writes native little-endian ints");

class DocWriter {
 public:
  explicit DocWriter(std::string* out) : b_(out) { b_->assign(4, '\0'); }
  void i32(const char* name, int32_t v) { head(0x10, name); raw(&v, 4); }
  void i64(const char* name, int64_t v) { head(0x12, name); raw(&v, 8); }
  void dbl(const char* name, double v) { head(0x01, name); raw(&v, 8); }
  void oid(const char* name, const uint8_t* twelve) { head(0x07, name); raw(twelve, 12); }
  // A UTF-8 string made of `a` (n_a bytes) followed by n_fill copies of `fill`; returns where it starts.
  const char* utf8_two_parts(const std::string& name, const char* a, size_t n_a, char fill, size_t n_fill) {
    head(0x02, name.c_str());
    int32_t len = static_cast<int32_t>(n_a + n_fill + 1);
    raw(&len, 4);
    size_t at = b_->size();
    b_->append(a, n_a);
    b_->append(n_fill, fill);
    b_->push_back('\0');
    return b_->data() + at;
  }
  void utf8(const char* name, const char* s, size_t n) {
    head(0x02, name);
    int32_t len = static_cast<int32_t>(n + 1);
    raw(&len, 4);
    b_->append(s, n);
    b_->push_back('\0');
  }
  void binary(const char* name, const char* s, size_t n) {  // generic binary subtype 0
    head(0x05, name);
    int32_t len = static_cast<int32_t>(n);
    raw(&len, 4);
    b_->push_back('\0');
    b_->append(s, n);
  }
  void finish() {
    b_->push_back('\0');
    int32_t len = static_cast<int32_t>(b_->size());
    std::memcpy(&(*b_)[0], &len, 4);
  }

 private:
  void head(char type, const char* name) {
    b_->push_back(type);
    b_->append(name, std::strlen(name) + 1);
  }
  void raw(const void* p, size_t n) { b_->append(static_cast<const char*>(p), n); }
  std::string* b_;
};

// The size of the BSON document DocWriter writes for the same fields, without writing it: the
// canonical encoding in which the workloads count logical bytes (docs/driver.md "Logical bytes").
class BsonSize {
 public:
  BsonSize& i32(const char* name) { return field(name, 4); }
  BsonSize& i64(const char* name) { return field(name, 8); }
  BsonSize& dbl(const char* name) { return field(name, 8); }
  BsonSize& oid(const char* name) { return field(name, 12); }
  BsonSize& utf8(const char* name, size_t n) { return field(name, 4 + n + 1); }
  BsonSize& binary(const char* name, size_t n) { return field(name, 4 + 1 + n); }
  uint64_t bytes() const { return n_ + 1; }

 private:
  BsonSize& field(const char* name, size_t value_bytes) {
    n_ += 1 + std::strlen(name) + 1 + value_bytes;
    return *this;
  }
  uint64_t n_ = 4;
};

// Integer field (int32 or int64) of a document; throws when missing.
inline int64_t get_int(const std::string& bytes, const char* field) {
  bson_t b;
  bson_iter_t it;
  if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) ||
      !bson_iter_init_find(&it, &b, field))
    throw std::runtime_error(std::string("document has no field ") + field);
  if (bson_iter_type(&it) == BSON_TYPE_INT32) return bson_iter_int32(&it);
  if (bson_iter_type(&it) == BSON_TYPE_INT64) return bson_iter_int64(&it);
  throw std::runtime_error(std::string("field ") + field + " is not an integer");
}

// String or binary field as bytes; throws when missing.
inline std::string get_bytes(const std::string& bytes, const char* field) {
  bson_t b;
  bson_iter_t it;
  if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) ||
      !bson_iter_init_find(&it, &b, field))
    throw std::runtime_error(std::string("document has no field ") + field);
  if (bson_iter_type(&it) == BSON_TYPE_UTF8) {
    uint32_t n;
    const char* s = bson_iter_utf8(&it, &n);
    return std::string(s, n);
  }
  if (bson_iter_type(&it) == BSON_TYPE_BINARY) {
    bson_subtype_t st;
    uint32_t n;
    const uint8_t* p;
    bson_iter_binary(&it, &st, &n, &p);
    return std::string(reinterpret_cast<const char*>(p), n);
  }
  throw std::runtime_error(std::string("field ") + field + " is not a string");
}

// Overwrite an int64 field in place (same size, so the document stays valid).
inline void set_int64(std::string* bytes, const char* field, int64_t v) {
  bson_t b;
  bson_iter_t it;
  if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()) ||
      !bson_iter_init_find(&it, &b, field) || bson_iter_type(&it) != BSON_TYPE_INT64)
    throw std::runtime_error(std::string("document has no int64 field ") + field);
  bson_iter_overwrite_int64(&it, v);
}

// Overwrite a UTF-8 field of exactly n bytes in place.
inline void set_utf8_same_size(std::string* bytes, const char* field, const char* s, size_t n) {
  bson_t b;
  bson_iter_t it;
  if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()) ||
      !bson_iter_init_find(&it, &b, field) || bson_iter_type(&it) != BSON_TYPE_UTF8)
    throw std::runtime_error(std::string("document has no string field ") + field);
  uint32_t len;
  const char* at = bson_iter_utf8(&it, &len);
  if (len != n) throw std::runtime_error(std::string("field ") + field + " has another length");
  std::memcpy(&(*bytes)[static_cast<size_t>(at - bytes->data())], s, n);
}

inline int64_t p_int(const ParamValues& p, const char* n) { return p.at(n).get<int64_t>(); }
inline double p_dbl(const ParamValues& p, const char* n) { return p.at(n).get<double>(); }
inline bool p_bool(const ParamValues& p, const char* n) { return p.at(n).get<bool>(); }
inline std::string p_str(const ParamValues& p, const char* n) { return p.at(n).get<std::string>(); }

// A reusable barrier for `n` threads; the last arriver runs `on_complete` before releasing the
// others. break_all() releases every waiter for good (a worker failed): wait() then returns false.
class StepBarrier {
 public:
  explicit StepBarrier(int n = 1) : n_(n) {}
  void reset(int n) { n_ = n; }
  bool wait(const std::function<void()>& on_complete = {}) {
    std::unique_lock<std::mutex> g(mu_);
    if (broken_) return false;
    uint64_t gen = gen_;
    if (++arrived_ == n_) {
      if (on_complete) on_complete();
      arrived_ = 0;
      ++gen_;
      cv_.notify_all();
      return true;
    }
    cv_.wait(g, [&] { return gen_ != gen || broken_; });
    return !broken_ || gen_ != gen;
  }
  void break_all() {
    std::lock_guard<std::mutex> g(mu_);
    broken_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_;
  int arrived_ = 0;
  uint64_t gen_ = 0;
  bool broken_ = false;
};

}  // namespace wl
}  // namespace eb
