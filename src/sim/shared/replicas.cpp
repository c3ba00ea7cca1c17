// The run's replicas: opened by the topology, promoted by a failover.
#include "sim/shared/replicas.h"

#include "core/check.h"

namespace idemlab {

Status Replicas::open_guards(int64_t lag_ms) {
  auto guards = std::make_unique<ReplicatedGuards>();
  RETURN_IF_ERROR(ReplicatedGuards::create(lag_ms, guards.get()));
  guards_ = std::move(guards);
  return Status::ok();
}

Status Replicas::open_standby(const Clock& clock, int64_t lag_ms, bool fails_over, bool read,
                              Connection& primary) {
  if (fails_over) {
    undo_ = std::make_unique<UndoLog>(clock, lag_ms);
    RETURN_IF_ERROR(undo_->watch(primary));
  }
  if (!read) return Status::ok();
  auto standby = std::make_unique<LaggingReplica>();
  RETURN_IF_ERROR(LaggingReplica::create(primary, lag_ms, standby.get()));
  standby_ = std::move(standby);
  log_.follow(standby_.get());
  return Status::ok();
}

Status Replicas::open_cluster(const GaleraSettings& settings, const ScratchLedger& ledger,
                              Connection& client) {
  cluster_ = std::make_unique<GaleraModel>();  // the log follows it from the start of open()
  return cluster_->open(ledger, client, settings, &log_);
}

int64_t Replicas::fail_over_guards(int64_t now_ms, int64_t lag_ms) {
  IDEMLAB_CHECK(guards_, "a failover of the guard store has its replica (RunSettings)");
  return value_or_throw(guards_->failover(now_ms, lag_ms));
}

int64_t Replicas::fail_over_ledger(Connection& client, int64_t now_ms, int64_t lag_ms) {
  IDEMLAB_CHECK(undo_, "a failover of the ledger has an undo log (RunSettings)");
  const int64_t lost = value_or_throw(undo_->undo_since(client, now_ms - lag_ms));
  if (standby_) standby_->drop_unreceived(now_ms, lag_ms);
  log_.drop_open();  // the transactions cut
  return lost;
}

}  // namespace idemlab
