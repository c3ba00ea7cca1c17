// Per-request faults, drawn from the seed.
#include "attempt/request_faults.h"

#include <fmt/format.h>

#include "core/random.h"

namespace idemlab {

Status RequestFaults::check(Surface surface, const Strategy& strategy, Pitfall pitfall) const {
  return check_faults(surface, faults_, &strategy, pitfall);
}

std::vector<FaultSpec> RequestFaults::draw(uint64_t number) const {
  std::vector<FaultSpec> fired;
  Random random(seed_ * 0x9e3779b97f4a7c15ULL ^ number * 0xbf58476d1ce4e5b9ULL);
  for (const FaultSpec& fault : faults_) {
    const bool hits = fault.nth != 0 ? number == static_cast<uint64_t>(fault.nth)
                                     : random.chance(fault.probability);
    if (!hits) continue;
    FaultSpec once = fault;
    once.probability = 1.0;
    once.nth = 0;
    fired.push_back(once);
  }
  return fired;
}

}  // namespace idemlab
