// Waiting on a server connection's socket for less than a millisecond: both servers' clients
// answer a statement that does not wait for a lock in about 0.1 ms, and poll()'s timeout is
// whole milliseconds.
#pragma once

#include <poll.h>

#include <ctime>

namespace idemlab {

// Waits up to `wait_us` microseconds for `ready`'s events (ppoll).
inline bool socket_ready(pollfd* ready, int wait_us) {
  const timespec timeout{wait_us / 1'000'000, static_cast<long>(wait_us % 1'000'000) * 1000};
  return ::ppoll(ready, 1, &timeout, nullptr) > 0;
}

}  // namespace idemlab
