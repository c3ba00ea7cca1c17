// The run's replicas: opened by the topology, promoted by a failover.
#include "sim/simulate/replicas.h"

#include "core/check.h"

namespace idemlab::sim {

Status Replicas::open_guards(int64_t lag_ms) {
  RETURN_IF_ERROR(ReplicatedGuards::create(lag_ms, &guards_));
  guards_open_ = true;
  return Status::ok();
}

Status Replicas::open_standby(const Clock& clock, int64_t lag_ms, bool fails_over, bool read,
                              Connection& client, Connection& busy) {
  if (fails_over) {
    undo_ = std::make_unique<UndoLog>(clock, lag_ms);
    RETURN_IF_ERROR(undo_->watch(client));
    RETURN_IF_ERROR(undo_->watch(busy));
  }
  if (!read) return Status::ok();
  RETURN_IF_ERROR(LaggingReplica::create(client, lag_ms, &standby_));
  log_.follow(&standby_);
  standby_open_ = true;
  return Status::ok();
}

Status Replicas::open_cluster(const GaleraSettings& settings, const ScratchLedger& ledger,
                              Connection& client) {
  RETURN_IF_ERROR(cluster_.open(ledger, client, settings, &log_));
  cluster_open_ = true;
  return Status::ok();
}

int64_t Replicas::fail_over_guards(int64_t now_ms, int64_t lag_ms) {
  IDEMLAB_CHECK(guards_open_, "a failover of the guard store has its replica (RunSettings)");
  return value_or_throw(guards_.failover(now_ms, lag_ms));
}

int64_t Replicas::fail_over_ledger(Connection& client, int64_t now_ms, int64_t lag_ms) {
  IDEMLAB_CHECK(undo_, "a failover of the ledger has an undo log (RunSettings)");
  const int64_t lost = value_or_throw(undo_->undo_since(client, now_ms - lag_ms));
  if (standby_open_) standby_.drop_unreceived(now_ms, lag_ms);
  log_.drop_open();  // the transactions cut
  return lost;
}

}  // namespace idemlab::sim
