// SqliteLockQueue: the simulation's steps on SQLite, in a scratch ledger in memory. A step runs
// at once on its attempt's connection. One that finds the write lock taken sleeps in a FIFO
// queue, with no step scheduled, and the longest sleeper is woken when the lock is free; past
// the wait limit its step runs once more and the strategy sees busy.
// Internal to src/sim/simulate/.
#pragma once

#include <deque>

#include "sim/shared/scratch_ledger.h"
#include "sim/simulate/endpoint.h"
#include "sim/simulate/run_ledger.h"
#include "sim/simulate/step_runner.h"

namespace idemlab::sim {

class SqliteLockQueue final : public StepRunner {
 public:
  explicit SqliteLockQueue(const RunParts& parts) : run_(parts) {}

  Status open() override;
  Connection connect() override { return value_or_throw(ledger_.connect()); }
  void step(uint32_t delivery) override;
  void wait_limit(uint32_t delivery, int64_t wait_start_ms) override;
  bool take_busy_lock() override;
  std::string_view busy_statement() const override { return "BEGIN IMMEDIATE"; }
  std::string_view busy_lock_name() const override { return "lock"; }
  void busy_released(int64_t session) override;
  void attempt_ended(uint32_t delivery, int64_t session) override;
  Engine engine() const override { return kEmbeddedEngine; }

 private:
  static constexpr uint32_t kNoHolder = UINT32_MAX;
  static constexpr uint32_t kBusyHolder = UINT32_MAX - 1;
  // A replica kept only to be promoted applies what it received once this many commits wait.
  static constexpr size_t kReplicaBatch = 32;

  Status open_replica();
  void follow(const Connection& connection, const PendingStep& step);

  // The write lock is held across steps only by an open write transaction: whose it is.
  void holds_transaction(uint32_t delivery, bool holds);
  // The longest sleeper tries the lock next, when no one holds it.
  void wake_waiters();

  RunParts run_;
  ScratchLedger ledger_;
  LaggingReplica replica_;            // replica-lag, or a failover of the ledger: its replica
  std::deque<uint32_t> sleepers_;     // deliveries waiting for the write lock, longest first
  uint32_t lock_holder_ = kNoHolder;  // the delivery whose open transaction holds the lock
  uint32_t woken_ = kNoHolder;        // the sleeper woken to try the lock next
};

}  // namespace idemlab::sim
