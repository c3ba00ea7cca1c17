// Percentiles by nearest rank: the smallest value such that at least q of the values are at or
// below it. p99 of {12, 362, 19} is 362, not an interpolated or floored neighbour.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace idemlab {

// Reorders `values`; 0 when there are none. 0 < q <= 1.
inline int64_t nearest_rank(std::vector<int64_t>& values, double q) {
  if (values.empty()) return 0;
  const double rank = std::ceil(q * static_cast<double>(values.size()));
  const size_t index = static_cast<size_t>(std::clamp(rank, 1.0, double(values.size()))) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<long>(index), values.end());
  return values[index];
}

}  // namespace idemlab
