// The transfer endpoint of a simulated run, the side the clients call: a copy of an attempt
// arrives, its attempt steps through the strategy on a connection of its own (pausing or
// crashing where a fault says; each step run by the StepRunner of the engine in use), and its
// answer goes back over the network. It owns the Stepper that holds every attempt in flight.
// (The timeline calls it "server", as a class does.) Internal to src/sim/simulate/.
#pragma once

#include "sim/shared/stepper.h"
#include "sim/simulate/client.h"
#include "sim/simulate/step_runner.h"

namespace idemlab::sim {

class Endpoint {
 public:
  Endpoint(const RunSettings& settings, EventQueue& events, RunTrace& trace, RunStats& stats,
           RunLedger& ledger, Clients& clients, Network& network)
      : settings_(settings),
        events_(events),
        trace_(trace),
        stats_(stats),
        ledger_(ledger),
        clients_(clients),
        network_(network) {}
  void use(StepRunner& runner) { runner_ = &runner; }

  void arrive(uint32_t delivery);
  void step(uint32_t delivery) { runner_->step(delivery); }
  // Before a step runs: the faults placed there. A failover happens; returns whether the
  // attempt crashes there (it then dies: crash()), or its transaction died in a failover.
  bool crashes_before_step(uint32_t delivery);
  // What follows a step that ran, on any engine: notes, faults, the next step or the answer.
  // `traced_binds`: the step's values, for the timeline.
  void after_step(uint32_t delivery, const ExecutedStep& done, const Binds& traced_binds);
  // The busy fault's other writer lets go of its lock.
  void release_busy_lock();
  // A failover:at-ms= fault's moment: what it names fails over, whoever is under way.
  void fail_over_at_time(const FaultSpec& fault);
  // On a server: the delivery's connection found its link lost (the real servers failed over,
  // or its node went away). The attempt dies with no answer, as in a crash, and its connection
  // is closed, never lent again.
  void lose_link(uint32_t delivery, std::string_view why);
  // The busy fault's other writer connected again: its lock went with its old connection.
  void busy_lost() { busy_held_ = false; }

  Stepper& stepper() { return stepper_; }

 private:
  void take_busy_lock(const Delivery& delivery);
  // replay-pause: the ledger's standby stops replaying (endpoint_failover.cpp).
  void pause_replay(const Delivery& delivery);
  void schedule_step(uint32_t delivery);
  void note_step(const Delivery& delivery, const ExecutedStep& done, const Binds& binds);
  // The attempt dies with no answer; `fault` is the fault the timeline names.
  void crash(uint32_t delivery, std::string what, std::string_view fault = "crash");
  void fail_over(const Delivery& delivery);
  // Fails over what `of` names, `site` saying where; what happened, for the timeline
  // (endpoint_failover.cpp).
  std::string fail_over_now(std::string_view site, int64_t lag_ms, FailoverOf of);
  // Each names the replica that takes over as `replica` / `standby` says.
  std::string fail_over_guards(int64_t lag_ms, std::string_view replica);
  std::string fail_over_ledger(int64_t lag_ms, std::string_view standby);
  int64_t cut_transactions();
  void done(uint32_t delivery, std::optional<Answer> answer);

  const RunSettings& settings_;
  EventQueue& events_;
  RunTrace& trace_;
  RunStats& stats_;
  RunLedger& ledger_;
  Clients& clients_;
  Network& network_;
  StepRunner* runner_ = nullptr;
  Stepper stepper_;
  bool busy_held_ = false;
};

}  // namespace idemlab::sim
