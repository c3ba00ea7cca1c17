// Per-request faults, drawn from the seed.
#include "attempt/request_faults.h"

#include <fmt/format.h>

#include "attempt/direct.h"
#include "core/random.h"

namespace idemlab {

Status RequestFaults::check(const Strategy& strategy, Pitfall pitfall) const {
  AttemptSetup setup;
  setup.strategy = &strategy;
  setup.options.pitfall = pitfall;
  for (const FaultSpec& fault : faults_) {
    if (fault.kind != FaultKind::kRequestLost && fault.kind != FaultKind::kResponseLost &&
        fault.kind != FaultKind::kSlow && fault.kind != FaultKind::kCrash)
      return Status::usage(fmt::format(
          "fault {}: a server takes request-lost, response-lost, slow and crash", fault.text));
    FaultSpec once = fault;
    once.probability = 1.0;
    once.nth = 0;
    setup.faults = {once};
    RETURN_IF_ERROR(check_attempt_faults(setup));
  }
  return Status::ok();
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
