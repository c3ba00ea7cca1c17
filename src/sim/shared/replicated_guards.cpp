// The simulator's replicated guard store: a log of writes, and a failover that keeps its prefix.
#include "sim/shared/replicated_guards.h"

#include <algorithm>

#include "core/check.h"

namespace idemlab {

Status ReplicatedGuards::create(ReplicatedGuards* out) {
  return out->start();
}

Status ReplicatedGuards::start() {
  connection_ = Connection();
  store_ = std::make_unique<ScratchLedger>();
  return ScratchLedger::create({}, store_.get(), &connection_);
}

StepResult ReplicatedGuards::run(Stmt id, const Binds& binds) {
  IDEMLAB_CHECK(statement_is_guard(id), "the guard store runs only guard statements");
  StepResult result = connection_.run(id, binds);
  if (result.ok() && result.changes > 0 && statement_writes_guard(id))
    log_.push_back({bind_int(binds, ":now"), id, binds});
  return result;
}

Result<int64_t> ReplicatedGuards::failover(int64_t now_ms, int64_t lag_ms) {
  const int64_t received_before = now_ms - lag_ms;
  const auto lost = std::find_if(
      log_.begin(), log_.end(), [&](const Write& write) { return write.at_ms >= received_before; });
  const int64_t lost_count = log_.end() - lost;
  log_.erase(lost, log_.end());
  RETURN_IF_ERROR(start());
  for (const Write& write : log_) {
    StepResult result = connection_.run(write.stmt, write.binds);
    IDEMLAB_CHECK(result.ok() && result.changes > 0,
                  "a write the primary made does the same on its replica");
  }
  return lost_count;
}

Status ReplicatedGuards::reset() {
  log_.clear();
  return start();
}

}  // namespace idemlab
