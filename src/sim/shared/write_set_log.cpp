// The simulator's replication log: write sets captured from the statements that ran.
#include "sim/shared/write_set_log.h"

#include <utility>

#include "db/statement_tables.h"

namespace idemlab {

namespace {

// Room for a transaction's writes a follower needs (a flow, a dedup record, a finish).
constexpr size_t kWritesAtOnce = 4;

// The id a flow write's RETURNING gave: the flow row an insert made.
int64_t returned_id(Stmt stmt, const StepResult& result) {
  if (written_table(stmt) != "transfer_flow" || !result.row || result.row->empty()) return 0;
  return as_int(result.row->at(0));
}

}  // namespace

void WriteSetLog::follow(WriteSetFollower* follower) {
  followers_.push_back(follower);
  followed_.resize(static_cast<size_t>(Stmt::kCount));
  for (size_t stmt = 0; stmt < followed_.size(); ++stmt)
    if (follower->follows(static_cast<Stmt>(stmt))) followed_[stmt] = true;
}

void WriteSetLog::ran(const Connection& connection, const PendingStep& step, int64_t now_ms) {
  const Stmt stmt = step.stmt;
  if (stmt == Stmt::kBeginImmediate) {
    Open& transaction = open_of(connection);
    transaction = Open{{}, false, true};
    transaction.writes.reserve(kWritesAtOnce);
    if (step.result.ok())
      for (WriteSetFollower* follower : followers_) follower->began(connection);
    return;
  }
  if (stmt == Stmt::kRollback || stmt == Stmt::kCommit) {
    Open& open = open_of(connection);
    if (!open.open) return;
    Open transaction = std::exchange(open, Open{});
    if (stmt == Stmt::kCommit && step.result.ok())
      ship(connection, std::move(transaction), now_ms);
    else
      for (WriteSetFollower* follower : followers_) follower->ended(connection);
    return;
  }
  // A write that changed nothing has nothing to replay.
  if (!step.result.ok() || step.result.changes == 0 || !statement_takes_write_lock(stmt)) return;
  Open alone;
  Open& transaction = connection.in_transaction() ? open_of(connection) : alone;
  transaction.open |= &transaction != &alone;
  transaction.changed = true;
  if (followed_[static_cast<size_t>(stmt)]) {
    LoggedWrite write{stmt, step.binds, returned_id(stmt, step.result)};
    for (WriteSetFollower* follower : followers_) follower->wrote(connection, write);
    transaction.writes.push_back(std::move(write));
  }
  if (&transaction == &alone) ship(connection, std::move(alone), now_ms);
}

void WriteSetLog::rolled_back(const Connection& connection) {
  open_of(connection) = Open{};
  for (WriteSetFollower* follower : followers_) follower->ended(connection);
}

// A connection's entry, made on its first use: a run has a few connections, kept until a
// failover drops them all, and a scan of their addresses beats hashing one.
WriteSetLog::Open& WriteSetLog::open_of(const Connection& connection) {
  for (auto& [whose, open] : open_)
    if (whose == &connection) return open;
  return open_.emplace_back(&connection, Open{}).second;
}

void WriteSetLog::ship(const Connection& connection, Open transaction, int64_t now_ms) {
  WriteSet set{&connection, now_ms, std::move(transaction.writes), transaction.changed};
  for (size_t i = 0; i + 1 < followers_.size(); ++i) followers_[i]->committed(WriteSet(set));
  if (!followers_.empty()) followers_.back()->committed(std::move(set));
}

}  // namespace idemlab
