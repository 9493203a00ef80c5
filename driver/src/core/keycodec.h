// Order-preserving key encoding: memcmp order of encode(values..., record id) == tuple order.
//
// Each value starts with a type tag so that mixed types order roughly like BSON's canonical order:
//   null (missing field, 0x10) < numbers (int64 and double, compared numerically with each other) < strings < ObjectId < dates.
// Numbers:  0x20, 8-byte order-preserving double d (largest double <= the value), then 0x00 if the
//           value equals d, else 0x01 + 8-byte big-endian remainder (value - d, only for int64s
//           beyond 2^53). -0.0 encodes as +0.0 (they compare equal); NaN is refused.
// Strings:  0x30, bytes with 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x00 (a prefix sorts first).
// ObjectId: 0x38, 12 raw bytes.
// Dates:    0x40, int64 milliseconds, sign bit flipped, big-endian.
// The record id follows as 8 bytes big-endian.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace eb {

struct KeyValue {
  enum class Type : uint8_t { Null = 5, Int = 0, Double = 1, String = 2, ObjectId = 3, Date = 4 };
  Type type = Type::Int;
  int64_t i = 0;   // Int, Date (ms)
  double d = 0;    // Double
  std::string s;   // String, ObjectId (12 bytes)

  static KeyValue Null() { KeyValue k; k.type = Type::Null; return k; }
  static KeyValue Int(int64_t v) { KeyValue k; k.type = Type::Int; k.i = v; return k; }
  static KeyValue Double(double v) { KeyValue k; k.type = Type::Double; k.d = v; return k; }
  static KeyValue Str(std::string v) { KeyValue k; k.type = Type::String; k.s = std::move(v); return k; }
  static KeyValue Oid(std::string v) { KeyValue k; k.type = Type::ObjectId; k.s = std::move(v); return k; }
  static KeyValue Date(int64_t ms) { KeyValue k; k.type = Type::Date; k.i = ms; return k; }
};

struct KeyCodecError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

void encode_value(const KeyValue& v, std::string* out);  // throws KeyCodecError for NaN
// The same encodings without building a KeyValue (hot path of the document layer).
void encode_null(std::string* out);
void encode_int(int64_t v, std::string* out);
void encode_double(double v, std::string* out);  // throws KeyCodecError for NaN
void encode_string(const char* s, size_t n, std::string* out);
void encode_oid(const uint8_t* twelve_bytes, std::string* out);
void encode_date(int64_t ms, std::string* out);
std::string encode_key(const std::vector<KeyValue>& values, uint64_t record_id);
std::string encode_prefix(const std::vector<KeyValue>& values);  // no record id: a scan start
// 8-byte big-endian words (record ids, the key codec's numbers), inline: every key has one.
inline void store_be64(uint64_t v, char* p) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "store_be64 swaps a little-endian word");
  v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}
inline void append_be64(uint64_t v, std::string* out) {
  char b[8];
  store_be64(v, b);
  out->append(b, 8);
}
inline uint64_t read_be64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}
std::string record_key(uint64_t record_id);  // 8 bytes big-endian
// The record id at the end of an index key.
inline uint64_t index_key_record_id(std::string_view key) {
  return key.size() >= 8 ? read_be64(key.data() + key.size() - 8) : 0;
}

// Where the encoded value starting at `pos` of `key` ends (throws KeyCodecError on a bad key).
size_t encoded_value_end(std::string_view key, size_t pos);
// The string value encoded at `pos` (unescaped); throws KeyCodecError when it is not a string.
std::string decode_string_at(std::string_view key, size_t pos);

// The reference order the encoding must reproduce (type rank, then numeric/bytewise value).
int compare_values(const KeyValue& a, const KeyValue& b);

}  // namespace eb
