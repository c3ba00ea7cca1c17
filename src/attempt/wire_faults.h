// The two faults of the wire between a client and whatever answers it, applied the same way
// everywhere a request is answered (an attempt, an HTTP resource, a limit change): lost before
// it arrives (nothing runs, the client hears nothing) or lost after it (the work stands, the
// answer never arrives). check_faults() allows at most one of them on one request.
#pragma once

#include <vector>

#include "attempt/fault.h"

namespace idemlab {

struct WireFaults {
  const FaultSpec* request_lost = nullptr;
  const FaultSpec* response_lost = nullptr;
};

inline WireFaults wire_faults(const std::vector<FaultSpec>& faults) {
  WireFaults out;
  for (const FaultSpec& fault : faults) {
    if (fault.kind == FaultKind::kRequestLost && !out.request_lost) out.request_lost = &fault;
    if (fault.kind == FaultKind::kResponseLost && !out.response_lost) out.response_lost = &fault;
  }
  return out;
}

}  // namespace idemlab
