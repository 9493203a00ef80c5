// op_stream_hash: a fast 64-bit hash over the stream of generated operations of one thread.
// Word-at-a-time multiply/xorshift mixing with explicit little-endian loads, so the value is the
// same on every build and platform. Not cryptographic; it only has to notice a different stream.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>
#pragma once

namespace eb {

class OpHasher {
 public:
  void u64(uint64_t v) {
    v *= 0xBF58476D1CE4E5B9ULL;
    v ^= v >> 31;
    h_ = (h_ ^ v) * 0x94D049BB133111EBULL;
    h_ ^= h_ >> 29;
  }
  void f64(double d) {
    uint64_t b;
    std::memcpy(&b, &d, 8);
    u64(b);
  }
  void bytes(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    u64(n);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) u64(load_le(p + i));
    if (i < n) {  // the last 1-7 bytes as a little-endian word, zero-padded above
      uint64_t w = 0;
      if (n >= 8) {
        // the word ending at the last byte, shifted down past the bytes hashed already (one load,
        // no variable-length copy: that was a call to memcpy per string)
        w = load_le(p + n - 8) >> (8 * (8 - (n - i)));
      } else {
        for (size_t k = 0; i + k < n; ++k) w |= static_cast<uint64_t>(p[i + k]) << (8 * k);
      }
      u64(w);
    }
  }
  void str(std::string_view s) { bytes(s.data(), s.size()); }
  uint64_t digest() const {
    uint64_t z = h_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Combine per-thread digests in thread order into one hex string.
  static std::string combine_hex(const std::vector<uint64_t>& digests) {
    OpHasher h;
    for (uint64_t d : digests) h.u64(d);
    return hex(h.digest());
  }
  static std::string hex(uint64_t v) {
    static const char* d = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) s[i] = d[v & 15];
    return s;
  }

 private:
  // The 8 bytes at p as a little-endian word: one load on a little-endian machine (the byte loop
  // it replaced compiled to ~35 instructions per word; the value is the same on every platform).
  static uint64_t load_le(const unsigned char* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
  }
  uint64_t h_ = 0x6A09E667F3BCC908ULL;
};

}  // namespace eb
