// The simulator's replicated guard store: one primary, and a failover that undoes what its
// replica had not received.
#include "sim/shared/replicated_guards.h"

#include <algorithm>

#include "core/check.h"

namespace idemlab {

Status ReplicatedGuards::create(int64_t lag_ms, ReplicatedGuards* out) {
  out->lag_ms_ = lag_ms;
  out->primary_ = std::make_unique<ScratchLedger>();
  RETURN_IF_ERROR(ScratchLedger::create({}, out->primary_.get(), &out->connection_));
  out->unreplicated_ = std::make_unique<UndoLog>(out->clock_, lag_ms);
  return out->unreplicated_->watch(out->connection_);
}

StepResult ReplicatedGuards::run(Stmt id, const Binds& binds) {
  IDEMLAB_CHECK(statement_is_guard(id), "the guard store runs only guard statements");
  // A statement without ":now" (a lock's release) is stamped with the write before it.
  clock_.set_ms(std::max(clock_.now_ms(), bind_int(binds, ":now")));
  StepResult result = connection_.run(id, binds);
  // Each grant carries a number that grows with every grant: the fence lock-table --fence
  // carries into the ledger (etcd's create_revision, a Redis INCR).
  if (id == Stmt::kAcquireLock && result.ok() && result.changes > 0) result.row = Row{++grants_};
  return result;
}

Result<int64_t> ReplicatedGuards::failover(int64_t now_ms, int64_t lag_ms) {
  IDEMLAB_CHECK(lag_ms <= lag_ms_, "a failover's lag is at most the store's own");
  return unreplicated_->undo_since(connection_, now_ms - lag_ms);
}

}  // namespace idemlab
