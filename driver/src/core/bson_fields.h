// The top-level fields of a BSON document, walked in place without libbson: the document layer
// reads the indexed fields of every document it writes, and libbson's out-of-line iterator, its
// key strcmp and its per-call type checks cost as much as a memory-speed engine's own insert.
// Every length is checked against the document, so malformed bytes throw instead of being read
// past (libbson's iterator would stop early and the missing fields would index as null).
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace eb {

// Trivial (no initializers, no string_view member): arrays of them are uninitialized scratch space.
struct BsonField {
  uint8_t type;        // BSON type byte (0x12 int64, 0x02 string, ...)
  const char* name;    // name_size bytes (NUL-terminated)
  size_t name_size;
  const char* value;   // the value's bytes, `size` of them
  size_t size;
  bool named(const std::string& n) const { return n.size() == name_size && std::memcmp(n.data(), name, name_size) == 0; }
};

class BsonFields {
 public:
  // Throws std::invalid_argument when the length prefix or the terminator is wrong.
  explicit BsonFields(std::string_view doc) {
    if (doc.size() < 5 || load_i32(doc.data()) != static_cast<int32_t>(doc.size()) || doc.back() != '\0')
      bad();
    p_ = doc.data() + 4;
    end_ = doc.data() + doc.size() - 1;  // the terminating NUL
  }
  static void check(std::string_view doc) { BsonFields{doc}; }  // the same checks, nothing walked
  // The next field; false after the last one. Throws on a truncated or unknown element.
  bool next(BsonField* f) {
    if (p_ == end_) return false;
    f->type = static_cast<uint8_t>(*p_++);
    const char* nul = static_cast<const char*>(std::memchr(p_, 0, static_cast<size_t>(end_ - p_)));
    if (!nul) bad();
    f->name = p_;
    f->name_size = static_cast<size_t>(nul - p_);
    f->value = nul + 1;
    f->size = value_size(f->type, f->value);
    p_ = f->value + f->size;
    return true;
  }

  static int32_t load_i32(const char* p) {
    int32_t v;
    std::memcpy(&v, p, 4);  // BSON is little-endian, as is every platform the driver builds on
    return v;
  }
  static int64_t load_i64(const char* p) {
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }

 private:
  [[noreturn]] static void bad() { throw std::invalid_argument("document layer: invalid BSON"); }
  size_t room(const char* v) const { return static_cast<size_t>(end_ - v); }
  // A length-prefixed value: 4 + n bytes (+ extra), n >= min_n.
  size_t prefixed(const char* v, int32_t min_n, size_t extra) const {
    if (room(v) < 4) bad();
    int32_t n = load_i32(v);
    if (n < min_n || static_cast<size_t>(n) + extra > room(v)) bad();
    return static_cast<size_t>(n) + extra;
  }
  size_t fixed(const char* v, size_t n) const {
    if (room(v) < n) bad();
    return n;
  }
  size_t cstring(const char* v) const {
    const char* nul = static_cast<const char*>(std::memchr(v, 0, room(v)));
    if (!nul) bad();
    return static_cast<size_t>(nul - v) + 1;
  }
  size_t value_size(uint8_t type, const char* v) const {
    switch (type) {
      case 0x01: case 0x09: case 0x11: case 0x12: return fixed(v, 8);  // double, date, timestamp, int64
      case 0x10: return fixed(v, 4);                                    // int32
      case 0x07: return fixed(v, 12);                                   // ObjectId
      case 0x08: return fixed(v, 1);                                    // bool
      case 0x13: return fixed(v, 16);                                   // decimal128
      case 0x06: case 0x0A: case 0x7F: case 0xFF: return 0;             // undefined, null, max/min key
      case 0x02: case 0x0D: case 0x0E: {                                // string, code, symbol
        size_t n = prefixed(v, 1, 4);
        if (v[n - 1] != '\0') bad();
        return n;
      }
      case 0x03: case 0x04: case 0x0F: return prefixed(v, 5, 0);        // document, array, code w/ scope
      case 0x05: return prefixed(v, 0, 5);                              // binary: length, subtype, bytes
      case 0x0C: return prefixed(v, 1, 4 + 12);                         // DBPointer: string, ObjectId
      case 0x0B: {                                                      // regex: two C strings
        size_t a = cstring(v);
        return a + cstring(v + a);
      }
      default: bad();
    }
  }

  const char* p_;
  const char* end_;
};

}  // namespace eb
