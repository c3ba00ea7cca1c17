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

// Whether the server has said something, or closed, on a connection nobody is waiting on: an
// idle client connection gets nothing unless the server is going away (PostgreSQL's FATAL
// before a shutdown, a closed socket, Sentinel's CLIENT KILL of a demoted Redis primary's
// clients). Such a connection is done for.
inline bool hung_up(int socket) {
  if (socket < 0) return false;
  pollfd ready{socket, POLLIN | POLLRDHUP, 0};
  return ::poll(&ready, 1, 0) > 0;
}

}  // namespace idemlab
