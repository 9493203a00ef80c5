#include "core/keycodec.h"

#include <cmath>
#include <cstring>

namespace eb {
namespace {

constexpr unsigned char kTagNull = 0x10, kTagNumber = 0x20, kTagString = 0x30, kTagOid = 0x38, kTagDate = 0x40;

uint64_t double_bits_ordered(double d) {
  if (d == 0) d = 0.0;  // -0.0 == +0.0
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return (b & 0x8000000000000000ULL) ? ~b : (b ^ 0x8000000000000000ULL);
}

// Largest double <= v and the exact non-negative remainder v - that double.
void split_int(int64_t v, double* d, uint64_t* rem) {
  double x = static_cast<double>(v);
  // 2^63 does not fit an int64; any x >= 2^63 is above v.
  if (x >= 9223372036854775808.0 || static_cast<int64_t>(x) > v) x = std::nextafter(x, -INFINITY);
  *d = x;
  *rem = static_cast<uint64_t>(v) - static_cast<uint64_t>(static_cast<int64_t>(x));
}

int type_rank(KeyValue::Type t) {
  switch (t) {
    case KeyValue::Type::Null: return -1;
    case KeyValue::Type::Int:
    case KeyValue::Type::Double: return 0;
    case KeyValue::Type::String: return 1;
    case KeyValue::Type::ObjectId: return 2;
    case KeyValue::Type::Date: return 3;
  }
  return 4;
}

}  // namespace

std::string record_key(uint64_t record_id) {
  std::string s;
  append_be64(record_id, &s);
  return s;
}

void encode_null(std::string* out) { out->push_back(static_cast<char>(kTagNull)); }

// Numbers are built in a small buffer and appended once (a string append per byte costs more
// than the encoding).
void encode_int(int64_t v, std::string* out) {
  double d;
  uint64_t rem;
  split_int(v, &d, &rem);
  char b[18];
  b[0] = static_cast<char>(kTagNumber);
  store_be64(double_bits_ordered(d), b + 1);
  b[9] = rem == 0 ? '\0' : '\x01';
  if (rem != 0) store_be64(rem, b + 10);
  out->append(b, rem == 0 ? 10 : 18);
}

void encode_double(double v, std::string* out) {
  if (std::isnan(v)) throw KeyCodecError("key codec: NaN cannot be an index key");
  char b[10];
  b[0] = static_cast<char>(kTagNumber);
  store_be64(double_bits_ordered(v), b + 1);
  b[9] = '\0';
  out->append(b, 10);
}

void encode_string(const char* s, size_t n, std::string* out) {
  out->push_back(static_cast<char>(kTagString));
  const char* end = s + n;
  while (s < end) {
    const char* z = static_cast<const char*>(std::memchr(s, 0, static_cast<size_t>(end - s)));
    if (!z) {
      out->append(s, static_cast<size_t>(end - s));
      break;
    }
    out->append(s, static_cast<size_t>(z - s));
    out->push_back('\0');
    out->push_back('\xFF');
    s = z + 1;
  }
  out->push_back('\0');
  out->push_back('\0');
}

void encode_oid(const uint8_t* b, std::string* out) {
  out->push_back(static_cast<char>(kTagOid));
  out->append(reinterpret_cast<const char*>(b), 12);
}

void encode_date(int64_t ms, std::string* out) {
  char b[9];
  b[0] = static_cast<char>(kTagDate);
  store_be64(static_cast<uint64_t>(ms) ^ 0x8000000000000000ULL, b + 1);
  out->append(b, 9);
}

void encode_value(const KeyValue& v, std::string* out) {
  switch (v.type) {
    case KeyValue::Type::Null: encode_null(out); break;
    case KeyValue::Type::Int: encode_int(v.i, out); break;
    case KeyValue::Type::Double: encode_double(v.d, out); break;
    case KeyValue::Type::String: encode_string(v.s.data(), v.s.size(), out); break;
    case KeyValue::Type::ObjectId: {
      std::string b = v.s;
      b.resize(12, '\0');
      encode_oid(reinterpret_cast<const uint8_t*>(b.data()), out);
      break;
    }
    case KeyValue::Type::Date: encode_date(v.i, out); break;
  }
}

std::string encode_prefix(const std::vector<KeyValue>& values) {
  std::string out;
  out.reserve(values.size() * 10 + 8);
  for (const auto& v : values) encode_value(v, &out);
  return out;
}

std::string encode_key(const std::vector<KeyValue>& values, uint64_t record_id) {
  std::string out = encode_prefix(values);
  append_be64(record_id, &out);
  return out;
}

size_t encoded_value_end(std::string_view key, size_t pos) {
  auto need = [&](size_t n) {
    if (pos + n > key.size()) throw KeyCodecError("key codec: truncated key");
    return pos + n;
  };
  switch (static_cast<unsigned char>(key.at(pos))) {
    case kTagNull: return need(1);
    case kTagNumber: need(10); return key[pos + 9] == '\0' ? pos + 10 : need(18);
    case kTagOid: return need(13);
    case kTagDate: return need(9);
    case kTagString:
      for (size_t i = pos + 1; i + 1 < key.size(); ++i)
        if (key[i] == '\0') {
          if (key[i + 1] == '\0') return i + 2;
          ++i;  // an escaped 0x00 0xFF
        }
      throw KeyCodecError("key codec: unterminated string");
    default: throw KeyCodecError("key codec: unknown type tag");
  }
}

std::string decode_string_at(std::string_view key, size_t pos) {
  if (static_cast<unsigned char>(key.at(pos)) != kTagString) throw KeyCodecError("key codec: not a string");
  const size_t end = encoded_value_end(key, pos) - 2;
  std::string out;
  for (size_t i = pos + 1; i < end; ++i) {
    out.push_back(key[i]);
    if (key[i] == '\0') ++i;  // skip the escape byte
  }
  return out;
}

int compare_values(const KeyValue& a, const KeyValue& b) {
  int ra = type_rank(a.type), rb = type_rank(b.type);
  if (ra != rb) return ra < rb ? -1 : 1;
  if (ra == -1) return 0;
  if (ra == 0) {
    // long double has a 64-bit mantissa on x86-64: int64 and double are both exact in it.
    long double x = a.type == KeyValue::Type::Int ? static_cast<long double>(a.i) : a.d;
    long double y = b.type == KeyValue::Type::Int ? static_cast<long double>(b.i) : b.d;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.type == KeyValue::Type::Date) return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
  int c = std::memcmp(a.s.data(), b.s.data(), std::min(a.s.size(), b.s.size()));
  if (c != 0) return c < 0 ? -1 : 1;
  return a.s.size() < b.s.size() ? -1 : (a.s.size() > b.s.size() ? 1 : 0);
}

}  // namespace eb
