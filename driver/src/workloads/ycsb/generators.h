// YCSB's core generators, written from YCSB's documented algorithms (brianfrankcooper/YCSB
// core/src/main/java/site/ycsb/generator, CoreWorkload, Utils; go-ycsb follows the same), so that
// the same parameters give the same key order and the same access skew as YCSB:
//   fnv64          Utils.fnvhash64: FNV-1 over the 8 little-endian bytes of the key number, then |h|
//                  (Java's Math.abs, which leaves Long.MIN_VALUE negative)
//   key_name       CoreWorkload.buildKeyName: "user" + the key number (hashed unless insertorder
//                  is ordered), left-padded with zeros to zeropadding digits
//   YcsbZipfian    ZipfianGenerator (Gray et al., "Quickly generating billion-record synthetic
//                  databases"): rank 0 with probability 1/zeta(n), rank 1 with 0.5^theta/zeta(n), the
//                  rest by the closed-form approximation; zeta grows incrementally with n (latest)
//   ScrambledZipf  ScrambledZipfianGenerator: a Zipfian over 10^10 items (zeta precomputed for
//                  theta 0.99), mapped into [min, max] by min + fnv64(rank) % (max - min + 1)
//   OpChooser      DiscreteGenerator: u·Σw walked over the ops in the order read, update, insert,
//                  scan, read-modify-write
// Randomness comes from eb::Rng (YCSB uses ThreadLocalRandom), so sequences differ from YCSB's while
// their distributions are the same.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "core/rng.h"

namespace eb {
namespace ycsb {

inline int64_t fnv64(int64_t val) {
  uint64_t v = static_cast<uint64_t>(val);
  uint64_t h = 0xCBF29CE484222325ULL;
  for (int i = 0; i < 8; ++i) {
    h ^= v & 0xff;
    v >>= 8;
    h *= 1099511628211ULL;
  }
  int64_t s = static_cast<int64_t>(h);
  return s == INT64_MIN ? s : (s < 0 ? -s : s);
}

// "user" + digits, zero-padded to `zeropadding` digits (YCSB default 1: no padding). Written
// without temporaries: it runs once per operation.
inline void key_name(int64_t keynum, bool hashed, int zeropadding, std::string* out) {
  const int64_t v = hashed ? fnv64(keynum) : keynum;
  char buf[24];
  char* e = buf + sizeof buf;
  char* p = e;
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  const size_t digits = static_cast<size_t>(e - p) + (v < 0 ? 1 : 0);
  out->assign("user");
  if (digits < static_cast<size_t>(zeropadding)) out->append(static_cast<size_t>(zeropadding) - digits, '0');
  if (v < 0) out->push_back('-');
  out->append(p, e);
}

// zeta(n, theta) = Σ_{i=1..n} i^-theta, continued from zeta(from) (YCSB's incremental zeta).
inline double zeta_from(uint64_t from, uint64_t n, double theta, double zeta_at_from) {
  double s = zeta_at_from;
  for (uint64_t i = from; i < n; ++i) s += 1.0 / std::pow(static_cast<double>(i + 1), theta);
  return s;
}

// zeta over very many items (10^10 for the scrambled Zipfian): the first 10^6 terms summed, the
// rest by Euler–Maclaurin (YCSB sums all 10^10 for a non-default constant, which takes minutes).
inline double zeta_large(uint64_t n, double theta) {
  const uint64_t k = n < 1000000 ? n : 1000000;
  double s = zeta_from(0, k, theta, 0.0);
  if (n == k) return s;
  auto F = [theta](double x) { return std::pow(x, 1.0 - theta) / (1.0 - theta); };
  const double a = static_cast<double>(k), b = static_cast<double>(n);
  return s + F(b) - F(a) + 0.5 * (std::pow(b, -theta) - std::pow(a, -theta));
}

constexpr double kZipfianConstant = 0.99;
constexpr int64_t kScrambledItems = 10000000000LL;      // ScrambledZipfianGenerator.ITEM_COUNT
constexpr double kScrambledZetan = 26.46902820178302;   // its ZETAN for theta 0.99

class YcsbZipfian {
 public:
  // Ranks 0..items-1; zetan may be given (precomputed) or 0 to compute it.
  YcsbZipfian(int64_t items, double theta, double zetan = 0)
      : items_(items), theta_(theta), alpha_(1.0 / (1.0 - theta)),
        half_pow_theta_(std::pow(0.5, theta)), zeta2_(1.0 + half_pow_theta_), count_for_zeta_(items) {
    zetan_ = zetan > 0 ? zetan : zeta_from(0, static_cast<uint64_t>(items), theta, 0.0);
    set_eta();
  }
  double zetan() const { return zetan_; }
  double theta() const { return theta_; }
  // A rank in [0, items) (nextLong(itemcount) of YCSB; items may grow, as for "latest").
  int64_t next(Rng& r, int64_t items) {
    if (items > count_for_zeta_) {
      zetan_ = zeta_from(static_cast<uint64_t>(count_for_zeta_), static_cast<uint64_t>(items), theta_, zetan_);
      count_for_zeta_ = items_ = items;
      set_eta();
    }
    const double u = r.uniform01(), uz = u * zetan_;
    if (uz < 1.0) return 0;
    if (uz < 1.0 + half_pow_theta_) return 1;
    int64_t k = static_cast<int64_t>(static_cast<double>(items_) * std::pow(eta_ * u - eta_ + 1, alpha_));
    return k < items_ ? k : items_ - 1;
  }
  int64_t next(Rng& r) { return next(r, items_); }

 private:
  void set_eta() {
    eta_ = (1 - std::pow(2.0 / static_cast<double>(items_), 1 - theta_)) / (1 - zeta2_ / zetan_);
  }
  int64_t items_;
  double theta_, alpha_, half_pow_theta_, zeta2_, zetan_ = 0, eta_ = 0;
  int64_t count_for_zeta_;
};

class ScrambledZipf {
 public:
  ScrambledZipf(int64_t min, int64_t max, double theta)
      : min_(min), count_(max - min + 1),
        gen_(kScrambledItems + 1, theta,
             theta == kZipfianConstant ? kScrambledZetan : zeta_large(kScrambledItems + 1, theta)) {}
  int64_t next(Rng& r) { return min_ + fnv64(gen_.next(r)) % count_; }
  int64_t count() const { return count_; }
  const YcsbZipfian& zipfian() const { return gen_; }

 private:
  int64_t min_, count_;
  YcsbZipfian gen_;
};

enum class Op { Read = 0, Update, Insert, Scan, ReadModifyWrite };
constexpr int kOps = 5;
inline const char* op_name(Op o) {
  static const char* names[kOps] = {"read", "update", "insert", "scan", "read_modify_write"};
  return names[static_cast<int>(o)];
}

struct Mix {
  double p[kOps] = {0, 0, 0, 0, 0};  // proportions in Op order
  double sum() const { return p[0] + p[1] + p[2] + p[3] + p[4]; }
};

class OpChooser {
 public:
  explicit OpChooser(const Mix& m) : m_(m), sum_(m.sum()) {}
  Op next(Rng& r) const {
    double c = r.uniform01() * sum_;
    int last = 0;
    for (int i = 0; i < kOps; ++i) {
      if (m_.p[i] <= 0) continue;
      last = i;
      if (c < m_.p[i]) return static_cast<Op>(i);
      c -= m_.p[i];
    }
    return static_cast<Op>(last);
  }

 private:
  Mix m_;
  double sum_;
};

}  // namespace ycsb
}  // namespace eb
