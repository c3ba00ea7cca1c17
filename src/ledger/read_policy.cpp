// The read-routing rule.
#include "ledger/read_policy.h"

namespace idemlab {

ReadRoute route_read(bool read_your_writes, bool standby_caught_up) {
  return !read_your_writes || standby_caught_up ? ReadRoute::kStandby : ReadRoute::kPrimary;
}

}  // namespace idemlab
