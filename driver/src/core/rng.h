// Reproducible pseudo-random numbers: splitmix64 for seeding, xoshiro256** for streams. Both are
// fully specified integer algorithms, so a (seed, thread) pair gives the same stream on every build.
#pragma once
#include <cstdint>

namespace eb {

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  // `stream` separates independent streams of one seed (thread index, purpose).
  explicit Rng(uint64_t seed = 1, uint64_t stream = 0) {
    uint64_t sm = seed ^ (stream * 0xD1B54A32D192ED03ULL + 0x5851F42D4C957F2DULL);
    for (auto& w : s_) w = splitmix64(sm);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform integer in [0, n) (Lemire's multiply-high; n > 0).
  uint64_t uniform(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  // Uniform double in [0, 1).
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace eb
