// Simulation: one run of the simulator. Its parts act on one RunState: Clients (client.h) send
// and retry, the Network (network.h) carries each copy and answer and drops what a fault says,
// the Server (server.h) steps attempts through the strategy, and a StepRunner (step_runner.h)
// runs each step on the engine in use. The loop pops events in (virtual time, sequence) order
// and hands each to its part; at the end the verdicts are counted from the journal.
// Internal to src/sim/simulate/.
#pragma once

#include <memory>

#include "sim/shared/scratch_redis.h"
#include "sim/simulate/client.h"
#include "sim/simulate/network.h"
#include "sim/simulate/run_state.h"
#include "sim/simulate/server.h"
#include "sim/simulate/step_runner.h"

namespace idemlab::sim {

class Simulation {
 public:
  Simulation(const SimConfig& config, const Strategy& strategy, Pitfall pitfall,
             const SimOptions& options);

  Status run(SimResult* out);

 private:
  Status open_guard_store();
  void handle(const Event& event);
  Status verdicts(SimResult* out);

  // Declared first, so destroyed last: the scratch ledger and Redis keys outlive every
  // connection into them (RunState closes those).
  std::unique_ptr<StepRunner> runner_;
  ScratchRedis redis_;  // --redis: where tokens and locks go, for strategies with them
  RunState run_;
  Network network_{run_};
  Clients clients_{run_, network_};
  Server server_{run_, clients_, network_};
};

}  // namespace idemlab::sim
