// Simulated request keys, written and read back.
#include "sim/shared/request_key.h"

#include <fmt/format.h>

#include <algorithm>

namespace idemlab {

std::string RequestKeys::biz_seq_of(uint32_t request, uint8_t key) const {
  const uint64_t number = request / sources_.size() + 1;
  return key == 0 ? fmt::format("r{}", number) : fmt::format("r{}.{}", number, key);
}

int64_t RequestKeys::request_of(std::string_view source, std::string_view biz_seq) const {
  const auto found = std::find(sources_.begin(), sources_.end(), source);
  if (found == sources_.end() || biz_seq.size() < 2 || biz_seq[0] != 'r') return -1;
  int64_t number = 0;
  size_t i = 1;
  for (; i < biz_seq.size() && biz_seq[i] >= '0' && biz_seq[i] <= '9' && i < 12; ++i)
    number = number * 10 + (biz_seq[i] - '0');
  if (i == 1 || number == 0 || (i < biz_seq.size() && biz_seq[i] != '.')) return -1;
  return (number - 1) * static_cast<int64_t>(sources_.size()) + (found - sources_.begin());
}

}  // namespace idemlab
