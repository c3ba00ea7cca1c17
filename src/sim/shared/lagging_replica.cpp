// The simulator's read replica: commits shipped at their COMMIT, applied a lag later.
#include "sim/shared/lagging_replica.h"

#include <algorithm>
#include <array>

#include "core/check.h"
#include "db/sqlite/sqlite_backend.h"
#include "db/statement_tables.h"

namespace idemlab {

namespace {

// Whether the replica needs `stmt`'s write: it writes a table that a read sent to the replica
// (ReadSplit::routes) reads. The others (accounts, the journal) are never read there.
bool replicated(Stmt stmt) {
  static const std::array<bool, static_cast<size_t>(Stmt::kCount)> kReplicated = [] {
    std::array<bool, static_cast<size_t>(Stmt::kCount)> out{};
    for (size_t write = 0; write < out.size(); ++write)
      for (size_t read = 0; read < out.size(); ++read)
        if (ReadSplit::routes(static_cast<Stmt>(read)) &&
            !written_table(static_cast<Stmt>(write)).empty() &&
            table_after(statement_sql(static_cast<Stmt>(read)), "FROM ") ==
                written_table(static_cast<Stmt>(write)))
          out[write] = true;
    return out;
  }();
  return kReplicated[static_cast<size_t>(stmt)];
}

// BEGIN's or COMMIT's result on the replica's own connection, which no other connection shares.
Status replica_status(const StepResult& result) {
  return result.ok() ? Status::ok() : Status::internal("the replica: " + result.error);
}

}  // namespace

Status LaggingReplica::create(Connection& primary, int64_t lag_ms, LaggingReplica* out) {
  out->lag_ms_ = lag_ms;
  out->ledger_ = std::make_unique<ScratchLedger>();
  RETURN_IF_ERROR(ScratchLedger::copy(primary, out->ledger_.get()));
  ASSIGN_OR_RETURN(out->connection_, out->ledger_->connect());
  // One connection applies and reads, and an apply never rolls back: no log to write, and no
  // lock to take and give back around each read. A dedup record is read by its key: its index
  // by request is no reader's. (The flow's unique index stays: upserts name it.)
  return out->connection_.exec_script(
      "PRAGMA journal_mode = OFF; PRAGMA locking_mode = EXCLUSIVE; DROP INDEX dedup_request");
}

bool LaggingReplica::follows(Stmt stmt) const {
  return replicated(stmt);
}

void LaggingReplica::committed(WriteSet&& set) {
  if (!set.changed) return;
  if (received_ == cut_at_) {
    missed_ = true;
    return;
  }
  ++received_;
  if (!set.writes.empty()) shipped_.push_back({set.at_ms, std::move(set.writes)});
}

Status LaggingReplica::catch_up(int64_t now_ms) {
  const int64_t replayed_to = now_ms < resumes_at_ ? paused_at_ : now_ms;
  return apply_before(replayed_to - lag_ms_ + 1);
}

void LaggingReplica::pause(int64_t now_ms, int64_t ms) {
  if (now_ms >= resumes_at_) paused_at_ = now_ms;
  resumes_at_ = std::max(resumes_at_, now_ms + ms);
}

// Every commit due is applied in one transaction of the replica's: what a reader can see
// changes only between reads, so the commits' boundaries within it do not show. A write the
// backlog keeps waits there for its read.
Status LaggingReplica::apply_before(int64_t before_ms) {
  bool open = false;
  while (!shipped_.empty() && shipped_.front().at_ms < before_ms) {
    for (LoggedWrite& write : shipped_.front().writes) {
      if (backlog_.keep(write)) continue;
      if (!open) RETURN_IF_ERROR(replica_status(connection_.run(Stmt::kBeginImmediate, {})));
      open = true;
      apply(write);
    }
    shipped_.pop_front();
  }
  return open ? replica_status(connection_.run(Stmt::kCommit, {})) : Status::ok();
}

void LaggingReplica::apply(LoggedWrite& write) {
  const StepResult result = ReadBacklog::apply(connection_, write);
  IDEMLAB_CHECK(result.ok(), "a write the primary committed applies on its replica");
}

Status LaggingReplica::prepare_read(Stmt stmt, const Binds& binds) {
  std::vector<LoggedWrite>* writes = backlog_.kept_for(stmt, binds);
  if (!writes) return Status::ok();
  RETURN_IF_ERROR(replica_status(connection_.run(Stmt::kBeginImmediate, {})));
  for (LoggedWrite& write : *writes) apply(write);
  writes->clear();
  return replica_status(connection_.run(Stmt::kCommit, {}));
}

void LaggingReplica::drop_unreceived(int64_t now_ms, int64_t lag_ms) {
  throw_if_error(apply_before(now_ms - lag_ms));
  shipped_.clear();
  resumes_at_ = -1;
}

namespace {

// The replica, as a read split sees it: it applies what is due before each read, and is caught
// up when it has applied every commit shipped.
class ReplicaState final : public StandbyState {
 public:
  ReplicaState(LaggingReplica& replica, const Clock& clock) : replica_(&replica), clock_(&clock) {}
  StepResult before_read(Stmt stmt, const Binds& binds, bool ask, bool* caught_up) override {
    Status status = replica_->catch_up(clock_->now_ms());
    if (status.is_ok()) status = replica_->prepare_read(stmt, binds);
    IDEMLAB_CHECK(status.is_ok(), "the replica applies what the primary committed");
    if (ask) *caught_up = replica_->caught_up();
    return {};
  }
  const std::string& replayed() const override { return replayed_; }

 private:
  LaggingReplica* replica_;
  const Clock* clock_;
  std::string replayed_;
};

}  // namespace

std::unique_ptr<ReadSplit> replica_reads(LaggingReplica& replica, Connection& primary,
                                         const Clock& clock, bool read_your_writes) {
  return std::make_unique<ReadSplit>(replica.connection(), primary, read_your_writes,
                                     std::make_unique<ReplicaState>(replica, clock),
                                     "the ledger's replica (in the simulator)");
}

}  // namespace idemlab
