// The wall clock, for one-attempt commands only.
#include "core/clock.h"

#include <chrono>

namespace idemlab {

int64_t WallClock::now_ms() const {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace idemlab
