// The SQLite runner's cluster (ledger=galera): a ledger on every node, each with its own write
// lock; certification before a COMMIT; a causal read that waits for its node's applier.
#include "sim/simulate/lock_queue.h"

namespace idemlab::sim {

Status SqliteLockQueue::open_cluster() {
  const SimTopology& topology = run_.settings.config.topology;
  if (!topology.galera()) return Status::ok();
  GaleraSettings settings;
  settings.nodes = topology.nodes;
  settings.apply_ms = topology.apply_ms;
  settings.causal_reads = topology.causal_reads;
  settings.flow_unique = run_.settings.pitfall != Pitfall::kNoUniqueIndex;
  settings.retry_autocommit = topology.retry_autocommit;
  RETURN_IF_ERROR(run_.ledger.replicas.open_cluster(settings, ledger_, run_.ledger.client));
  locks_.resize(static_cast<size_t>(settings.nodes));
  return Status::ok();
}

// The nodes apply what is due (see apply_due()); a statement that waits for its node's applier
// (GaleraModel::waits_for_applier) waits until the node has applied every commit the cluster
// made, which its applier cannot while a transaction on the node holds the write lock.
bool SqliteLockQueue::waits_for_applier(const Delivery& delivery) {
  const int64_t before = cluster().applied(delivery.node);
  apply_due(delivery.node);
  if (const int64_t after = cluster().applied(delivery.node); after > before)
    run_.trace.note(delivery.request, delivery.attempt, delivery.copy, "server", "applier", "",
                    applied_text(delivery.node, before, after));
  const Stmt stmt = run_.endpoint.stepper().pending(delivery.slot).stmt;
  if (!cluster().waits_for_applier(*delivery.connection, stmt)) return false;
  return !cluster().apply_for_read(delivery.node);
}

// With a timeline, every node applies what is due at every step, so that its applier's work
// shows when it was due. Without one nothing shows it, and the backlog of a node other than the
// first waits for the next step on that node (GaleraModel::apply_due_on): no other step sees
// what such a node holds, so the run's every answer and count are the same, in fewer applier
// transactions. The first node applies at every step all the same: it is also reached between
// steps (the client's query before a retry, the busy writer taking its write lock).
void SqliteLockQueue::apply_due(int node) {
  const int64_t now_ms = run_.events.now_ms();
  if (run_.trace.any()) return cluster().apply_due(now_ms);
  cluster().apply_due_on(0, now_ms);
  if (node != 0) cluster().apply_due_on(node, now_ms);
}

// A COMMIT the cluster does not certify: the transaction is rolled back, and the attempt gets
// what MariaDB answers, 1213 at COMMIT; likewise an autocommit INSERT without Galera's retry.
std::optional<ExecutedStep> SqliteLockQueue::refused_commit(const Delivery& delivery, bool traced) {
  Stepper& stepper = run_.endpoint.stepper();
  const PendingStep& step = stepper.pending(delivery.slot);
  const bool refused = step.stmt == Stmt::kCommit
                           ? !cluster().certify(*delivery.connection)
                           : cluster().refuses_autocommit(*delivery.connection, step);
  if (!refused) return std::nullopt;
  delivery.connection->rollback_if_open();
  cluster_log().rolled_back(*delivery.connection);
  ++run_.stats.certification_failures;
  return stepper.deliver(delivery.slot, certification_failure(), traced);
}

}  // namespace idemlab::sim
