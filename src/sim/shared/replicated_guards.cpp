// The simulator's replicated guard store: writes queued for the replica, a failover that
// promotes it.
#include "sim/shared/replicated_guards.h"

#include "core/check.h"

namespace idemlab {

Status ReplicatedGuards::start_empty(Database* database) {
  database->connection = Connection();
  database->ledger = std::make_unique<ScratchLedger>();
  return ScratchLedger::create({}, database->ledger.get(), &database->connection);
}

Status ReplicatedGuards::create(int64_t lag_ms, ReplicatedGuards* out) {
  out->lag_ms_ = lag_ms;
  return out->reset();
}

Status ReplicatedGuards::reset() {
  queued_.clear();
  RETURN_IF_ERROR(start_empty(&primary_));
  return start_empty(&replica_);
}

StepResult ReplicatedGuards::run(Stmt id, const Binds& binds) {
  IDEMLAB_CHECK(statement_is_guard(id), "the guard store runs only guard statements");
  StepResult result = primary_.connection.run(id, binds);
  const int64_t now = bind_int(binds, ":now");
  if (result.ok() && result.changes > 0 && statement_writes_guard(id))
    queued_.push_back({now, id, binds});
  const Status replicated = replicate(now - lag_ms_);
  IDEMLAB_CHECK(replicated.is_ok(), "the replica applies what its primary wrote");
  return result;
}

Status ReplicatedGuards::replicate(int64_t before_ms) {
  while (!queued_.empty() && queued_.front().at_ms < before_ms) {
    const Write& write = queued_.front();
    const StepResult result = replica_.connection.run(write.stmt, write.binds);
    if (!result.ok() || result.changes == 0)
      return Status::internal("a write its primary made does not apply on the replica");
    queued_.pop_front();
  }
  return Status::ok();
}

Result<int64_t> ReplicatedGuards::failover(int64_t now_ms, int64_t lag_ms) {
  IDEMLAB_CHECK(lag_ms <= lag_ms_, "a failover's lag is at most the store's own");
  RETURN_IF_ERROR(replicate(now_ms - lag_ms));
  const auto lost = static_cast<int64_t>(queued_.size());
  queued_.clear();
  primary_.connection = Connection();  // the old primary is gone
  primary_ = std::move(replica_);
  replica_.ledger = std::make_unique<ScratchLedger>();
  RETURN_IF_ERROR(ScratchLedger::copy(primary_.connection, replica_.ledger.get()));
  ASSIGN_OR_RETURN(replica_.connection, replica_.ledger->connect());
  return lost;
}

}  // namespace idemlab
