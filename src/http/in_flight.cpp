// The attempts a server has under way.
#include "http/in_flight.h"

#include <algorithm>
#include <cmath>

namespace idemlab {

InFlight::Entry InFlight::enter(const std::string& key, int64_t now_ms, int64_t slowed_ms) {
  std::lock_guard lock(mutex_);
  const auto typical = static_cast<int64_t>(std::ceil(typical_ms_));
  return Entry(*this, finishes_.emplace(key, now_ms + slowed_ms + typical), now_ms + slowed_ms);
}

void InFlight::Entry::finished(int64_t now_ms) {
  if (done_) return;
  done_ = true;
  std::lock_guard lock(owner_->mutex_);
  // An exponential moving average over the last dozen or so attempts: a slow fault is not
  // counted (start_ms_ is after it), so one slowed twin does not make every answer wait.
  const double took = static_cast<double>(std::max<int64_t>(0, now_ms - start_ms_));
  owner_->typical_ms_ += (took - owner_->typical_ms_) / 8.0;
  owner_->finishes_.erase(at_);
}

InFlight::Entry::~Entry() {
  if (done_) return;
  std::lock_guard lock(owner_->mutex_);
  owner_->finishes_.erase(at_);
}

std::optional<int64_t> InFlight::expected_finish(const std::string& key) const {
  std::lock_guard lock(mutex_);
  std::optional<int64_t> latest;
  for (auto [at, end] = finishes_.equal_range(key); at != end; ++at)
    latest = std::max(latest.value_or(at->second), at->second);
  return latest;
}

int64_t InFlight::typical_ms() const {
  std::lock_guard lock(mutex_);
  return static_cast<int64_t>(std::ceil(typical_ms_));
}

}  // namespace idemlab
