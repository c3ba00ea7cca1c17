// The write-lock waiters: a step that finds SQLite's write lock taken sleeps in a FIFO queue and
// is woken when the lock is free.
#include "sim/simulate/lock_queue.h"

namespace idemlab::sim {

// The ledger is a scratch ledger in memory; the client's connection creates it.
Status SqliteLockQueue::open() {
  RETURN_IF_ERROR(ScratchLedger::create(sim_opening_balances(), &ledger_, &run_.ledger.client));
  ASSIGN_OR_RETURN(run_.ledger.busy, ledger_.connect());
  RETURN_IF_ERROR(open_standby());
  RETURN_IF_ERROR(open_cluster());
  RETURN_IF_ERROR(open_pools());
  if (run_.ledger.followed()) {
    run_.endpoint.stepper().on_run = [this](const Connection& connection, const PendingStep& step) {
      run_.ledger.ran(connection, step, run_.events.now_ms());
    };
  }
  return Status::ok();
}

// The ledger's standby (ledger=standby). reads=standby reads from a lagging copy of the tables
// it reads. A failover of the ledger undoes on the primary the commits the standby had not
// received (db/sqlite/undo_log.h): what a promoted standby holds, with no copy kept or made.
Status SqliteLockQueue::open_standby() {
  const RunSettings& settings = run_.settings;
  const SimTopology& topology = settings.config.topology;
  if (!topology.standby()) return Status::ok();
  Replicas& replicas = run_.ledger.replicas;
  RETURN_IF_ERROR(replicas.open_standby(run_.events.clock(), topology.ledger_lag_ms,
                                        settings.ledger_fails_over, settings.replica_lag_ms >= 0,
                                        run_.ledger.client));
  return replicas.watch(run_.ledger.busy);
}

// The attempts' connections to each node, watched where a failover may undo what they wrote.
Status SqliteLockQueue::open_pools() {
  GaleraModel* cluster = run_.ledger.replicas.cluster();
  const int nodes = cluster ? cluster->nodes() : 1;
  for (int node = 0; node < nodes; ++node) {
    ASSIGN_OR_RETURN(std::unique_ptr<StatementPool> pool,
                     StatementPool::create([this, cluster, node]() -> Result<Connection> {
                       if (cluster) return cluster->connect(node);
                       ASSIGN_OR_RETURN(Connection connection, ledger_.connect());
                       RETURN_IF_ERROR(run_.ledger.replicas.watch(connection));
                       return connection;
                     }));
    attempts_.push_back(std::move(pool));
  }
  return Status::ok();
}

Connection SqliteLockQueue::connect(int node) {
  return attempts_.at(static_cast<size_t>(node))->connect();
}

void SqliteLockQueue::step(uint32_t index) {
  Delivery& delivery = run_.network.delivery(index);
  Stepper& stepper = run_.endpoint.stepper();
  NodeLock& lock = lock_of(index);
  const bool was_woken = lock.woken == index;
  if (was_woken) lock.woken = kNoHolder;
  if (run_.endpoint.crashes_before_step(index)) {
    wake_waiters();
    return;
  }
  const bool give_up_waiting = delivery.wait_start_ms >= 0 &&
                               run_.events.now_ms() - delivery.wait_start_ms >= kLockWaitLimitMs;
  if (run_.settings.galera() && !give_up_waiting && waits_for_applier(delivery)) {
    sleep(index, was_woken, stepper.pending(delivery.slot).step, "waits for its node's applier");
    return;
  }
  const bool traced = run_.trace.traced(delivery.request);
  Binds traced_binds;  // the values of the step about to run, for the timeline
  if (traced) traced_binds = stepper.pending(delivery.slot).binds;
  std::optional<ExecutedStep> refused;
  if (run_.settings.galera()) refused = refused_commit(delivery, traced);
  const ExecutedStep done =
      refused ? std::move(*refused) : stepper.advance(delivery.slot, give_up_waiting, traced);
  if (done.result.code == StepCode::kBusy && !give_up_waiting) {
    sleep(index, was_woken, done.step, "waits for the write lock");
    return;
  }
  holds_transaction(index,
                    !stepper.finished(delivery.slot) && delivery.connection->in_transaction());
  run_.endpoint.after_step(index, done, traced_binds);
  wake_waiters();  // the step, its end or its crash may have let the write lock go
}

// The step waits with none scheduled, in its node's queue, until woken or the wait limit.
void SqliteLockQueue::sleep(uint32_t index, bool was_woken, std::string_view step,
                            const char* why) {
  Delivery& delivery = run_.network.delivery(index);
  if (delivery.wait_start_ms < 0) {
    ++run_.stats.lock_waits;
    delivery.wait_start_ms = run_.events.now_ms();
    run_.trace.note(delivery.request, delivery.attempt, delivery.copy, "server", std::string(step),
                    "", why);
    run_.events.schedule_in(kLockWaitLimitMs, EventKind::kWaitLimit, index,
                            static_cast<uint32_t>(delivery.wait_start_ms));
  }
  delivery.asleep = true;
  NodeLock& lock = lock_of(index);
  if (was_woken)
    lock.sleepers.push_front(index);  // keeps its place in the queue
  else
    lock.sleepers.push_back(index);
  wake_waiters();
}

// Past the server's busy timeout: run the step once more and let the strategy see busy.
// `wait_start_ms` tells this wait from a later one of the same delivery.
void SqliteLockQueue::wait_limit(uint32_t index, int64_t wait_start_ms) {
  Delivery& delivery = run_.network.delivery(index);
  if (!delivery.live || delivery.wait_start_ms != wait_start_ms || !delivery.asleep) return;
  delivery.asleep = false;
  step(index);
}

bool SqliteLockQueue::take_busy_lock() {
  if (!run_.ledger.busy.run(Stmt::kBeginImmediate, {}).ok()) return false;
  locks_[0].holder = kBusyHolder;  // the busy writer's connection is on the first node
  return true;
}

void SqliteLockQueue::busy_released(int64_t) {
  locks_[0].holder = kNoHolder;
  wake_waiters();
}

// An attempt that ended holds no transaction: a crash rolled its transaction back.
void SqliteLockQueue::attempt_ended(uint32_t index, int64_t) {
  holds_transaction(index, false);
}

// The write lock is held across steps only by an open write transaction, so a step that finds
// it taken sleeps in a queue instead of polling, and the longest sleeper is woken when the lock
// is free. (SQLite's own busy handler retries on a timer and is not fair; a FIFO queue is the
// simpler model and avoids every waiter retrying at once.) The wait limit is its own event.
void SqliteLockQueue::wake_waiters() {
  for (NodeLock& lock : locks_) {
    if (lock.holder != kNoHolder || lock.woken != kNoHolder) continue;
    while (!lock.sleepers.empty()) {
      uint32_t index = lock.sleepers.front();
      lock.sleepers.pop_front();
      Delivery& delivery = run_.network.delivery(index);
      if (!delivery.live || !delivery.asleep) continue;
      delivery.asleep = false;
      lock.woken = index;
      run_.events.schedule_in(kLockPollMs, EventKind::kStep, index);
      break;
    }
  }
}

void SqliteLockQueue::holds_transaction(uint32_t index, bool holds) {
  NodeLock& lock = lock_of(index);
  if (holds)
    lock.holder = index;
  else if (lock.holder == index)
    lock.holder = kNoHolder;
}

}  // namespace idemlab::sim
