// Simulation: one run of the simulator. Its parts each own their state and meet through their
// own calls: the EventQueue (events.h) owns the virtual clock, the Clients (client.h) every
// request's record, the Network (network.h) every copy of an attempt in flight, the Endpoint
// (endpoint.h) the attempts stepping through the strategy, the RunLedger (run_ledger.h) the
// connections, and a StepRunner (step_runner.h) runs each step on the engine in use. The loop
// pops events in (virtual time, sequence) order and hands each to its part; at the end the
// verdicts are counted from the journal.
// Internal to src/sim/simulate/.
#pragma once

#include <memory>

#include "sim/shared/scratch_redis.h"
#include "sim/simulate/client.h"
#include "sim/simulate/endpoint.h"
#include "sim/simulate/network.h"
#include "sim/simulate/step_runner.h"

namespace idemlab::sim {

class Simulation {
 public:
  Simulation(const SimConfig& config, const Strategy& strategy, Pitfall pitfall,
             const SimOptions& options);

  Status run(SimResult* out);

 private:
  Status open_guard_store();
  void forget_settled_reads();
  bool settled(int64_t request) const;
  void handle(const Event& event);
  Status verdicts(SimResult* out);

  // Declared first, so destroyed last: the scratch ledger and Redis keys outlive every
  // connection into them (the RunLedger closes those).
  std::unique_ptr<StepRunner> runner_;
  ScratchRedis redis_;  // --redis: where tokens and locks go, for strategies with them
  RunSettings settings_;
  EventQueue events_;
  RunTrace trace_{settings_.options, events_.clock()};
  RunStats stats_;
  RunLedger ledger_{settings_.options};
  Network network_{settings_, events_, trace_};
  Clients clients_{settings_, events_, trace_, stats_, ledger_, network_};
  Endpoint endpoint_{settings_, events_, trace_, stats_, ledger_, clients_, network_};
};

}  // namespace idemlab::sim
