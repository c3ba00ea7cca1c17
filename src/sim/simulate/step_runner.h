// StepRunner: how an attempt's step runs on the engine the simulation uses, the one thing the
// engines do differently in a simulated run. Two implementations:
// - SqliteLockQueue (lock_queue.cpp): a scratch ledger in memory; a step runs at once, and one
//   that finds SQLite's write lock taken sleeps in a queue until the holder lets go;
// - ServerFlights (server_flights.cpp): a scratch schema or database on PostgreSQL or MariaDB;
//   a step is sent without blocking, and every statement in flight settles on the server's
//   word: answered, or waiting for a row lock.
// The server side of the run (server.h) calls them; they hand each answer back to it.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "core/status.h"
#include "db/connection.h"

namespace idemlab::sim {

struct RunSettings;
class EventQueue;
class RunTrace;
struct RunStats;
class RunLedger;
class Network;
class Endpoint;

// The parts a runner works with. Each owns its own state; the runner reads and moves them
// through their own calls.
struct RunParts {
  const RunSettings& settings;
  EventQueue& events;
  RunTrace& trace;
  RunStats& stats;
  RunLedger& ledger;
  Network& network;
  Endpoint& endpoint;
};

class StepRunner {
 public:
  virtual ~StepRunner() = default;

  // Makes the run's scratch ledger with the simulation's accounts, and connects the client's
  // and the busy writer's connections (RunLedger::client, ::busy) to it.
  virtual Status open() = 0;
  // A new connection for an attempt, to node `node` of a cluster (0 elsewhere); throws
  // StatusError when it cannot be made. placed(): where the pool keeps it.
  virtual Connection connect(int node) = 0;
  virtual void placed(const Connection&, int) {}
  // Once no event is left, before the verdicts: a cluster's nodes apply everything.
  virtual Status finish() { return Status::ok(); }
  // Runs the delivery's pending step; once it has its answer, Endpoint::after_step() goes on.
  virtual void step(uint32_t delivery) = 0;
  // The delivery's wait for a lock, begun at `wait_start_ms`, has lasted the wait limit.
  virtual void wait_limit(uint32_t delivery, int64_t wait_start_ms) = 0;

  // The busy fault's other writer (RunLedger::busy): takes what every attempt's write needs
  // (false: it could not), and what that is, for the timeline.
  virtual bool take_busy_lock() = 0;
  virtual std::string_view busy_statement() const = 0;
  virtual std::string_view busy_lock_name() const = 0;
  // The busy writer, whose connection is the server's `session` (0 on SQLite), let go (rolled
  // back): what waited for it goes on.
  virtual void busy_released(int64_t session) = 0;
  // The delivery's attempt ended (answered or crashed): whatever its transaction held on the
  // connection the server numbers `session` (0 on SQLite) is let go.
  virtual void attempt_ended(uint32_t delivery, int64_t session) = 0;

  // What the result says of where the run happened.
  virtual Engine engine() const = 0;
};

// The runner for the engine `parts.settings.options.server` names (nullptr: SQLite in memory).
std::unique_ptr<StepRunner> make_step_runner(const RunParts& parts);

}  // namespace idemlab::sim
