// Waiting for a server while a connection opens: in slices of 50 ms, so that SIGINT or SIGTERM
// stops the wait within one (core/interrupt.h), and never past the deadline connect_timeout
// set. The clients' own blocking connects wait out the whole timeout whatever signal comes.
#pragma once

#include <poll.h>

#include <algorithm>
#include <chrono>

#include "core/interrupt.h"

namespace idemlab {

enum class SocketWait { kReady, kTimedOut, kInterrupted };

inline SocketWait wait_for_socket(int fd, short events,
                                  std::chrono::steady_clock::time_point deadline) {
  constexpr std::chrono::milliseconds kSlice{50};
  for (;;) {
    if (waits_are_cut()) return SocketWait::kInterrupted;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return SocketWait::kTimedOut;
    pollfd ready{fd, events, 0};
    if (::poll(&ready, 1, static_cast<int>(std::min(left, kSlice).count())) > 0)
      return SocketWait::kReady;
  }
}

inline std::chrono::steady_clock::time_point deadline_after(int seconds) {
  return std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
}

}  // namespace idemlab
