// One scratch ledger for every run of an exploration, reset between runs by undoing them.
#include "sim/explore/reused_ledger.h"

#include <cstdint>
#include <limits>

namespace idemlab {

Status ReusedLedger::open(Connection& from, size_t count) {
  RETURN_IF_ERROR(ScratchLedger::copy(from, &ledger_));
  auto log = std::make_unique<UndoLog>(clock_, std::numeric_limits<int64_t>::max() / 2);
  connections_.resize(count);
  for (Connection& connection : connections_) {
    ASSIGN_OR_RETURN(connection, ledger_.connect());
    RETURN_IF_ERROR(log->watch(connection));
  }
  ASSIGN_OR_RETURN(undoer_, ledger_.connect());
  RETURN_IF_ERROR(undoer_.exec_script("PRAGMA foreign_keys = OFF"));
  RETURN_IF_ERROR(log->watch(undoer_));
  log_ = std::move(log);  // set last: it marks the ledger open
  return Status::ok();
}

// What the last run left: a transaction a crashed attempt kept open, rolled back; every
// commit, undone in one transaction.
Status ReusedLedger::reset() {
  for (Connection& connection : connections_) connection.rollback_if_open();
  return log_->undo_since(undoer_, 0).status();
}

Result<std::vector<Connection>> ReusedLedger::take(Connection& from, size_t count) {
  if (!log_) {
    RETURN_IF_ERROR(open(from, count));
  } else {
    if (connections_.size() != count)
      return Status::internal("a reused ledger is taken back, with as many connections");
    RETURN_IF_ERROR(reset());
  }
  return std::move(connections_);
}

void ReusedLedger::give_back(std::vector<Connection>&& connections) {
  connections_ = std::move(connections);
}

}  // namespace idemlab
