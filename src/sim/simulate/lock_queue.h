// SqliteLockQueue: the simulation's steps on SQLite, in a scratch ledger in memory. A step runs
// at once on its attempt's connection (one of its node's few, lent a statement at a time and
// kept by an open transaction: db/sqlite/statement_pool.h). One that finds the write lock taken
// sleeps in a FIFO queue, with no step scheduled, and the longest sleeper is woken when the lock is
// free; past the wait limit its step runs once more and the strategy sees busy. On ledger=galera
// the ledger is a cluster (sim/shared/galera_model.h): each node has a write lock and a queue of
// its own, a COMMIT is certified first, and a causal read waits for its node's applier
// (lock_queue_cluster.cpp).
// Internal to src/sim/simulate/.
#pragma once

#include <deque>

#include "db/sqlite/statement_pool.h"
#include "sim/shared/scratch_ledger.h"
#include "sim/simulate/endpoint.h"
#include "sim/simulate/run_ledger.h"
#include "sim/simulate/step_runner.h"

namespace idemlab::sim {

class SqliteLockQueue final : public StepRunner {
 public:
  explicit SqliteLockQueue(const RunParts& parts) : run_(parts) {}

  Status open() override;
  Connection connect(int node) override;
  void placed(const Connection& connection, int node) override {
    if (GaleraModel* cluster = run_.ledger.replicas.cluster()) cluster->place(&connection, node);
  }
  Status finish() override {
    GaleraModel* cluster = run_.ledger.replicas.cluster();
    return cluster ? cluster->apply_all() : Status::ok();
  }
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

  // A node's write lock (one without a cluster).
  struct NodeLock {
    std::deque<uint32_t> sleepers;  // deliveries waiting for the write lock, longest first
    uint32_t holder = kNoHolder;    // the delivery whose open transaction holds the lock
    uint32_t woken = kNoHolder;     // the sleeper woken to try the lock next
  };

  Status open_standby();
  Status open_pools();
  void sleep(uint32_t delivery, bool was_woken, std::string_view step, const char* why);

  // lock_queue_cluster.cpp: the cluster, its certification and its causal reads.
  Status open_cluster();
  // Before a step: what the cluster's nodes apply; whether the step must wait for its node's
  // applier (a causal read); a COMMIT the cluster refuses, answered as the server would.
  bool waits_for_applier(const Delivery& delivery);
  std::optional<ExecutedStep> refused_commit(const Delivery& delivery, bool traced);
  // What the nodes apply before a step on `node`.
  void apply_due(int node);
  // On a cluster (settings.galera()): its model, and the write-set log its nodes follow.
  GaleraModel& cluster() { return *run_.ledger.replicas.cluster(); }
  WriteSetLog& cluster_log() { return *run_.ledger.replicas.log(); }

  // The write lock is held across steps only by an open write transaction: whose it is.
  void holds_transaction(uint32_t delivery, bool holds);
  // On each node, the longest sleeper tries the lock next, when no one holds it.
  void wake_waiters();
  NodeLock& lock_of(uint32_t delivery) { return locks_[run_.network.delivery(delivery).node]; }

  RunParts run_;
  ScratchLedger ledger_;  // node 1 on a cluster; its replicas are the RunLedger's
  // The attempts' connections, by node, lent a statement at a time (statement_pool.h).
  std::vector<std::unique_ptr<StatementPool>> attempts_;
  std::vector<NodeLock> locks_{1};
};

}  // namespace idemlab::sim
