// What one explore run on a server keeps while it goes (server_replayer.cpp): per attempt,
// the statement in flight and what the server said of it, and the run's own record.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/explore/replayer.h"

namespace idemlab {

struct StatementFlight {
  bool sent = false;                   // a statement is in flight
  bool waiting = false;                // the server said it waits for a lock
  StatementRunner* target = nullptr;   // the attempt's connection, or the guard store
  NonBlocking* server = nullptr;       // the connection's, when the statement went to the server
  std::optional<StepResult> answered;  // the guard store's answer, given at once
  Binds binds;                         // as sent, for the timeline

  // The statement's answer, if it has come: the guard store's at once, the server's within
  // `wait_us` microseconds.
  std::optional<StepResult> receive(int wait_us) {
    if (!server) return std::exchange(answered, std::nullopt);
    return server->receive(wait_us);
  }
};

struct ServerRunState {
  explicit ServerRunState(bool record_steps, FaultPoint crash_point)
      : record(record_steps), crash(crash_point) {}
  ManualClock clock{kExploreStartMs};
  Stepper stepper;
  std::vector<StatementFlight> flights;
  // Per attempt: the step it sent last, and whether the server has ended its transaction (a
  // deadlock's victim, a serialization failure): it holds no lock until its next statement.
  std::vector<std::string_view> sent_step;
  std::vector<bool> ended_by_server;
  // Per attempt: whether it sleeps (sleep sets, asleep_after()).
  std::vector<bool> asleep;
  ExploreRun run;
  bool record;
  FaultPoint crash;
  int crash_count = 0;  // statements the crashing attempt has had answered
};

}  // namespace idemlab
