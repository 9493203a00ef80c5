// Random distributions shared by the LinkBench/sysbench-style workloads. All draw from eb::Rng, so a
// (seed, stream) pair gives the same values on every build.
//   Zipf           P(k) ∝ k^-shape over k = 1..n, any shape > 0 (also < 1, as LinkBench's 0.6–0.8),
//                  by rejection-inversion (Hörmann & Derflinger 1996, as in Apache Commons
//                  RejectionInversionZipfSampler): O(1) per draw, no table.
//   LogNormal      exp(ln(median) + sigma·N(0,1)), the normal by Box–Muller.
//   Geometric      number of failures before a success of probability p.
//   scramble       a fixed bijection of 1..n so that Zipf-hot ranks are spread over the id space (as
//                  LinkBench shuffles its access distributions) instead of being the lowest ids.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/rng.h"

namespace eb {

class Zipf {
 public:
  Zipf(uint64_t n, double shape) : n_(n), e_(shape) {
    h_x1_ = h_integral(1.5) - 1.0;
    h_n_ = h_integral(static_cast<double>(n_) + 0.5);
    s_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
  }
  uint64_t n() const { return n_; }
  double shape() const { return e_; }
  // A rank in [1, n]; rank 1 is the most frequent.
  uint64_t sample(Rng& r) const {
    for (;;) {
      double u = h_n_ + r.uniform01() * (h_x1_ - h_n_);
      double x = h_integral_inverse(u);
      double kd = std::floor(x + 0.5);
      uint64_t k = kd < 1 ? 1 : (kd > static_cast<double>(n_) ? n_ : static_cast<uint64_t>(kd));
      double kk = static_cast<double>(k);
      if (kk - x <= s_ || u >= h_integral(kk + 0.5) - h(kk)) return k;
    }
  }

 private:
  double h(double x) const { return std::exp(-e_ * std::log(x)); }
  double h_integral(double x) const {
    double lx = std::log(x);
    return helper2((1.0 - e_) * lx) * lx;
  }
  double h_integral_inverse(double x) const {
    double t = x * (1.0 - e_);
    if (t < -1.0) t = -1.0;
    return std::exp(helper1(t) * x);
  }
  static double helper1(double x) {  // log1p(x)/x
    return std::fabs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
  }
  static double helper2(double x) {  // expm1(x)/x
    return std::fabs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
  }
  uint64_t n_;
  double e_, h_x1_, h_n_, s_;
};

inline double standard_normal(Rng& r) {
  double u1 = 1.0 - r.uniform01();  // (0, 1]
  double u2 = r.uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

struct LogNormal {
  double median = 1, sigma = 1;
  double sample(Rng& r) const { return std::exp(std::log(median) + sigma * standard_normal(r)); }
};

inline uint64_t geometric(Rng& r, double p) {
  if (p >= 1) return 0;
  double u = 1.0 - r.uniform01();
  return static_cast<uint64_t>(std::floor(std::log(u) / std::log1p(-p)));
}

// Bijection of 1..n: rank k → 1 + ((k-1)·m + a) mod n with m coprime to n.
class Scramble {
 public:
  explicit Scramble(uint64_t n) : n_(n ? n : 1) {
    m_ = 0x9E3779B97F4A7C15ULL % n_;
    if (m_ == 0) m_ = 1;
    while (gcd(m_, n_) != 1) ++m_;
    a_ = 0x632BE59BD9B4E019ULL % n_;
    minv_ = inverse_mod(m_, n_);
  }
  uint64_t operator()(uint64_t k) const {
    return 1 + static_cast<uint64_t>((static_cast<unsigned __int128>(k - 1) * m_ + a_) % n_);
  }
  // The k in [1, n] with (*this)(k) == id.
  uint64_t inverse(uint64_t id) const {
    return 1 + static_cast<uint64_t>((static_cast<unsigned __int128>((id - 1 + n_ - a_) % n_) * minv_) % n_);
  }

 private:
  static uint64_t gcd(uint64_t a, uint64_t b) {
    while (b) {
      uint64_t t = a % b;
      a = b;
      b = t;
    }
    return a;
  }
  static uint64_t inverse_mod(uint64_t m, uint64_t n) {  // extended Euclid; gcd(m, n) = 1
    __int128 t = 0, nt = 1, r = n, nr = m % n;
    while (nr != 0) {
      __int128 q = r / nr, x = t - q * nt;
      t = nt, nt = x, x = r - q * nr, r = nr, nr = x;
    }
    return static_cast<uint64_t>(t < 0 ? t + n : t) % n;
  }
  uint64_t n_, m_, a_, minv_ = 0;
};

}  // namespace eb
