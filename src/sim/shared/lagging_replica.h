// LaggingReplica: a read replica of a simulated run's ledger, in memory and deterministic. It
// starts as a copy of the primary and follows the run's write-set log (write_set_log.h) as a
// streaming replica does: every write transaction the primary commits is shipped at the
// virtual moment of its COMMIT and applied, statement by statement with the same values,
// `lag_ms` later. Statement replay gives the same
// rows because the replica applies the same commits in the primary's order from the same start
// (every value a statement takes, ":now" included, is bound). It applies only the writes to the
// tables a read sent to it reads (flows, dedup records, tokens): the accounts and the journal
// are never read there, and leaving them out halves its cost. A due write to a flow row or a
// dedup record waits (read_backlog.h) until a read asks for those rows: a read sees what it
// would had every due write been applied, and a settled request's writes are never applied. (A
// failover of the ledger does not promote it: the primary undoes what the standby lacked,
// db/sqlite/undo_log.h.) Its link to the primary can be cut after a given commit, as
// `scripts/servers cut` cuts a real one: explore's standby lag is where that cut falls.
// replica_reads() sends an attempt's reads outside its write transaction there by the live
// read split's rule.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/clock.h"
#include "db/connection.h"
#include "ledger/read_split.h"
#include "sim/shared/read_backlog.h"
#include "sim/shared/scratch_ledger.h"
#include "sim/shared/write_set_log.h"

namespace idemlab {

class LaggingReplica final : public WriteSetFollower {
 public:
  LaggingReplica() = default;
  LaggingReplica(const LaggingReplica&) = delete;
  LaggingReplica& operator=(const LaggingReplica&) = delete;

  // A copy of what `primary` (a connection to a scratch ledger) holds now.
  static Status create(Connection& primary, int64_t lag_ms, LaggingReplica* out);

  // The writes it follows: those to the tables read here (flows, dedup records, tokens).
  bool follows(Stmt stmt) const override;
  // A write set the primary committed: it waits `lag_ms`.
  void committed(WriteSet&& set) override;
  // Applies every commit shipped at or before now_ms - lag_ms.
  Status catch_up(int64_t now_ms);
  // Before the read `stmt` with `binds`: applies the due writes it would see.
  Status prepare_read(Stmt stmt, const Binds& binds);
  // From now on, due writes kept for a read are dropped once `unread` says none will ask.
  void forget_when(ReadBacklog::Unread unread) { backlog_.forget_when(std::move(unread)); }
  // Whether it has applied every commit shipped so far (the primary's position now).
  bool caught_up() const { return shipped_.empty(); }
  // Commits shipped and not applied yet.
  size_t behind() const { return shipped_.size(); }
  // Its link is cut once it has received `commits` more commits that changed a row: it never
  // receives another. missed(): whether the primary has committed a change since the cut.
  void cut_after(int64_t commits) { cut_at_ = received_ + commits; }
  bool missed() const { return missed_; }
  // Its replay stops at `now_ms` and resumes `ms` later (a pause meanwhile stretches it): until
  // then it applies nothing it had not applied at the stop. It still receives every commit.
  void pause(int64_t now_ms, int64_t ms);
  // The primary dies at `now_ms` and the standby takes over: it applies every commit shipped
  // before now_ms - lag_ms (a pause ends) and never receives the rest (the primary undoes them).
  void drop_unreceived(int64_t now_ms, int64_t lag_ms);
  Connection& connection() { return connection_; }

 private:
  struct Commit {
    int64_t at_ms;
    std::vector<LoggedWrite> writes;
  };

  // Applies, in one transaction, every commit shipped before `before_ms` (or keeps it).
  Status apply_before(int64_t before_ms);
  void apply(LoggedWrite& write);

  std::unique_ptr<ScratchLedger> ledger_;
  Connection connection_;
  int64_t lag_ms_ = 0;
  std::deque<Commit> shipped_;  // not due yet
  ReadBacklog backlog_;         // due writes, by the rows a read asks for, until it does
  int64_t received_ = 0;        // commits that changed a row
  int64_t cut_at_ = -1;         // received_ when its link is cut (-1: never)
  bool missed_ = false;
  int64_t paused_at_ = 0;    // when its replay stopped
  int64_t resumes_at_ = -1;  // when it goes on again; before paused_at_: not paused
};

// Where an attempt's reads outside its write transaction go (Session::use_reads): a read split
// by the live client's own rule (ledger/read_policy.h), the replica standing as the standby.
// `replica`, `primary` (the attempt's connection) and `clock` outlive it.
std::unique_ptr<ReadSplit> replica_reads(LaggingReplica& replica, Connection& primary,
                                         const Clock& clock, bool read_your_writes);

}  // namespace idemlab
