// The simulator's replicated guard store: one primary, and a failover that undoes what its
// replica had not received.
#include "sim/shared/replicated_guards.h"

#include <algorithm>

#include "core/check.h"

namespace idemlab {

Status ReplicatedGuards::create(int64_t lag_ms, ReplicatedGuards* out) {
  out->lag_ms_ = lag_ms;
  return out->reset();
}

Status ReplicatedGuards::reset() {
  unreplicated_.reset();
  clock_.set_ms(0);
  connection_ = Connection();
  primary_ = std::make_unique<ScratchLedger>();
  RETURN_IF_ERROR(ScratchLedger::create({}, primary_.get(), &connection_));
  unreplicated_ = std::make_unique<UndoLog>(clock_, lag_ms_);
  return unreplicated_->watch(connection_);
}

StepResult ReplicatedGuards::run(Stmt id, const Binds& binds) {
  IDEMLAB_CHECK(statement_is_guard(id), "the guard store runs only guard statements");
  // A statement without ":now" (a lock's release) is stamped with the write before it.
  clock_.set_ms(std::max(clock_.now_ms(), bind_int(binds, ":now")));
  return connection_.run(id, binds);
}

Result<int64_t> ReplicatedGuards::failover(int64_t now_ms, int64_t lag_ms) {
  IDEMLAB_CHECK(lag_ms <= lag_ms_, "a failover's lag is at most the store's own");
  return unreplicated_->undo_since(connection_, now_ms - lag_ms);
}

}  // namespace idemlab
