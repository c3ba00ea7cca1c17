// ServerFlights: the simulation's steps on PostgreSQL or MariaDB, in a scratch schema or
// database of the run's own. A step is one statement, sent without blocking. After each step
// every statement in flight settles, the one just sent first and then the others in delivery
// order: each has its answer, or the server says it waits for a lock (never a timer). A waiting
// statement is parked and virtual time goes on; it ends when the server lets it go (the holder
// committed or rolled back, or chose it as a deadlock's victim), or when it has waited 1000 ms
// of virtual time: then it is cancelled, and the attempt gets a lock timeout.
//
// The servers may move under a run (a failover, a Galera node gone: scripts/servers makes
// them): a connection that finds its link lost costs its attempt, which dies with no answer as
// in a crash, and the run connects again through the topology (relink) and goes on. The wait
// for the new primary is the servers' own time, not the run's: no virtual time passes.
// Internal to src/sim/simulate/.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/shared/scratch_server.h"
#include "sim/simulate/endpoint.h"
#include "sim/simulate/run_ledger.h"
#include "sim/simulate/step_runner.h"

namespace idemlab::sim {

class ServerFlights final : public StepRunner {
 public:
  explicit ServerFlights(const RunParts& parts);

  Status open() override;
  Connection connect(int node) override;
  Status finish() override;
  void step(uint32_t delivery) override;
  void wait_limit(uint32_t delivery, int64_t wait_start_ms) override;
  bool take_busy_lock() override;
  std::string_view busy_statement() const override { return kBusySql; }
  std::string_view busy_lock_name() const override { return "account rows"; }
  void busy_released(int64_t session) override {
    transaction_may_end(session);
    settle_flights(kNoCause);
  }
  void attempt_ended(uint32_t, int64_t session) override { transaction_may_end(session); }
  Engine engine() const override { return traits_.engine; }

 private:
  // The busy fault's other writer: every account row, if no attempt holds one (NOWAIT, as
  // SQLite's BEGIN IMMEDIATE fails at once when the write lock is taken).
  static constexpr const char* kBusySql = "SELECT 1 FROM account FOR UPDATE NOWAIT";
  static constexpr uint32_t kNoCause = UINT32_MAX;

  void send_step(uint32_t delivery);
  void lost(uint32_t delivery, std::string_view why);
  void relink(const std::string& node);
  void forget_flight(uint32_t delivery);
  // A question on the control connection; if its link was lost, the run connects again and
  // asks once more.
  void ask(const std::function<Status(NonBlocking&)>& question);
  void settle_flights(uint32_t cause);
  std::vector<bool> ask_parked(const std::vector<uint32_t>& deliveries);
  std::vector<bool> ask_lock_waits(const std::vector<int64_t>& sessions);
  bool settle_flight(uint32_t delivery, bool still_waiting);
  bool waits_in_cycle();
  std::vector<int64_t> waiting_sessions() const;
  bool holders_stale(const std::vector<int64_t>& waiting) const;
  void await_server();
  void take_answer(uint32_t delivery, StepResult result);
  void cancel_wait(uint32_t delivery);
  // The transaction of the connection the server numbers `session` may have ended, and its
  // locks with it: the next question about who waits for whom is asked again.
  void transaction_may_end(int64_t session) { ended_.push_back(session); }
  NonBlocking& control() { return *run_.ledger.client.nonblocking(); }

  RunParts run_;
  const EngineTraits& traits_;
  ScratchServer scratch_;
  std::vector<uint32_t> in_flight_;  // deliveries with a statement on the server, in order
  int64_t released_ = 0;             // waiting statements the step being settled let go
  // Sessions whose transaction may have ended since the server was last asked who waits for
  // whom (an answer outside a transaction or an error, a crash, an attempt's end, the busy
  // writer's release), and that answer: whom each waiting session waits for.
  std::vector<int64_t> ended_;
  std::map<int64_t, std::vector<int64_t>> holders_;
};

}  // namespace idemlab::sim
