// Random: the one seeded random source of a simulation (xoshiro256**, seeded by splitmix64).
// Same seed, same sequence, on every platform: no std:: distributions, whose output varies.
#pragma once

#include <cstdint>

namespace idemlab {

class Random {
 public:
  explicit Random(uint64_t seed) {
    for (auto& word : state_) word = splitmix(seed);
  }

  uint64_t next() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, bound); bound > 0. Rejection sampling, so there is no modulo bias.
  uint64_t below(uint64_t bound) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do x = next();
    while (x >= limit);
    return x % bound;
  }
  // Uniform in [low, high]; low <= high.
  int64_t between(int64_t low, int64_t high) {
    return low + static_cast<int64_t>(below(static_cast<uint64_t>(high - low) + 1));
  }
  // True with probability p; p outside (0, 1) is never / always.
  bool chance(double p) {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return static_cast<double>(next() >> 11) * 0x1.0p-53 < p;
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t state_[4];
};

}  // namespace idemlab
