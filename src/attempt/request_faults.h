// The faults a server applies to the requests it receives (serve --fault, consume --fault):
// each is drawn for each request from the seed and the request's number, with p= (a chance per
// request) and nth= (the Nth request only) as in simulate, and those that fire run as one
// attempt's faults do: request-lost and response-lost act on the connection or the message,
// slow pauses at a step or phase, crash kills the process by SIGKILL.
#pragma once

#include <cstdint>
#include <vector>

#include "attempt/fault_check.h"
#include "strategies/strategy.h"

namespace idemlab {

class RequestFaults {
 public:
  RequestFaults() = default;
  RequestFaults(std::vector<FaultSpec> faults, uint64_t seed)
      : faults_(std::move(faults)), seed_(seed) {}

  // Checks each fault is one `surface` (serve, consume) takes and names steps `strategy`
  // reaches (fault_check.h).
  Status check(Surface surface, const Strategy& strategy, Pitfall pitfall) const;
  // Those that fire for request `number` (1-based), as one attempt takes them (no p=, no nth=).
  std::vector<FaultSpec> draw(uint64_t number) const;
  bool empty() const { return faults_.empty(); }
  // Whether some request may be slowed (the payment page says so).
  bool draws_slow() const {
    for (const FaultSpec& fault : faults_)
      if (fault.kind == FaultKind::kSlow) return true;
    return false;
  }

 private:
  std::vector<FaultSpec> faults_;
  uint64_t seed_ = 1;
};

}  // namespace idemlab
