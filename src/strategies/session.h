// Session: what a strategy sees of the server. Every exec() is a step: the point where a driver
// may run the statement at once (one attempt per process), or suspend the strategy, switch to
// another in-flight attempt, inject a fault and advance the virtual clock (the simulator).
#pragma once

#include <coroutine>
#include <iterator>
#include <string>
#include <string_view>

#include "core/check.h"
#include "core/clock.h"
#include "db/connection.h"
#include "db/guard_store.h"
#include "ledger/answer.h"
#include "strategies/pitfall.h"

namespace idemlab {

struct StrategyOptions {
  Pitfall pitfall = Pitfall::kNone;  // the guard left out, if any
  std::string token;                 // token strategy: the token the request carries
  int64_t lock_ttl_ms = 30000;       // lock-table strategy: how long a lock lasts
  std::string owner;                 // lock-table strategy: who takes the lock
  bool unique_index = false;         // --unique-index (StrategyInfo::offers_unique_index)
  // lock-table --fence: the ledger checks the lock grant's fence in the money's transaction.
  bool fence = false;
  // The ledger is a node of the simulator's Galera model (a real node says so itself, by its
  // name): a 1213 outside a transaction is a certification failure.
  bool galera_node = false;
};

// The step a strategy is waiting on.
struct PendingStep {
  std::string_view step;  // the step's name, as `explain` lists it
  Stmt stmt = Stmt::kCount;
  Binds binds;
  StepResult result;
};

class Session;

// Decides when a step runs. The one-attempt driver runs it at once; the simulator parks the
// attempt and runs the step when its schedule says.
class Driver {
 public:
  virtual ~Driver() = default;
  // Either runs session.pending() now (filling in its result) and returns false, or keeps
  // `resume` to continue the attempt once the result is filled in and returns true.
  virtual bool park(Session& session, std::coroutine_handle<> resume) = 0;
  // Just before the COMMIT that stores `answer` with the money (work_and_commit), inside that
  // transaction: the one-attempt driver writes the attempt's history row there, so that an
  // applied attempt commits once. A failed write fails the attempt as a failed step does: the
  // server may have rolled the whole transaction back (a Galera node's 1213), and a COMMIT
  // after it would then succeed on nothing.
  virtual StepResult committing(Session& /*session*/, const Answer& /*answer*/) { return {}; }
};

class Session {
 public:
  // `driver_tag`: the driver's own number for this session (the simulator's attempt slot).
  Session(Connection& connection, const Clock& clock, Driver& driver, StrategyOptions options,
          size_t driver_tag = 0)
      : connection_(&connection),
        clock_(&clock),
        driver_(&driver),
        driver_tag_(driver_tag),
        options_(std::move(options)) {
    pending_.binds.reserve(kBindsRoom);  // every step's values and its ":now", with no regrowth
  }

  struct StepAwaiter {
    Session& session;
    bool await_ready() { return false; }
    // false: the step ran already, and the attempt goes on without suspending.
    bool await_suspend(std::coroutine_handle<> handle) {
      return session.driver_->park(session, handle);
    }
    StepResult await_resume() {
      session.count_money();
      session.track_transaction();
      return std::move(session.pending_.result);
    }
  };

  // co_await session.exec("insert_flow", Stmt::kInsertFlow, binds) -> StepResult.
  // ":now" is bound when the step runs, from the session's clock.
  StepAwaiter exec(std::string_view step, Stmt stmt, Binds binds) {
    IDEMLAB_CHECK(stmt != Stmt::kCommit || debited_minor_ == credited_minor_,
                  "money not conserved before a commit: the transaction's debits and credits "
                  "differ");
    pending_.step = step;
    pending_.stmt = stmt;
    // Into the same storage every step: it keeps room for the ":now" run_pending() adds.
    pending_.binds.assign(std::make_move_iterator(binds.begin()),
                          std::make_move_iterator(binds.end()));
    pending_.result = {};
    return StepAwaiter{*this};
  }

  const StrategyOptions& options() const { return options_; }
  // Whether the attempt's own BEGIN opened a transaction that no COMMIT or ROLLBACK has ended
  // yet: a statement outside one commits by itself (autocommit).
  bool in_own_transaction() const { return began_; }
  bool has(Pitfall pitfall) const { return options_.pitfall == pitfall; }
  int64_t now_ms() const { return clock_->now_ms(); }

  // Tells the driver that the open transaction is about to commit `answer` (Driver::committing).
  StepResult committing(const Answer& answer) { return driver_->committing(*this, answer); }

  // For drivers.
  PendingStep& pending() { return pending_; }
  size_t driver_tag() const { return driver_tag_; }
  Connection& connection() { return *connection_; }
  // Tokens and locks go to `store` (Redis) instead of the ledger; the ledger keeps the rest.
  void use_guard_store(GuardStore* store) { guards_ = store; }
  GuardStore* guard_store() const { return guards_; }
  // Reads made outside a write transaction go to `reads` (read/write splitting, --read-db);
  // `routes` says which statements are such reads.
  void use_reads(StatementRunner* reads, bool (*routes)(Stmt)) {
    reads_ = reads;
    routes_ = routes;
  }
  // Whether the pending step goes to the guard store rather than to the ledger.
  bool pending_goes_to_guards() const { return goes_to_guards(guards_, pending_.stmt); }
  // Where the pending step runs: the guard store, the reads' server, or the ledger.
  StatementRunner& pending_runner() {
    if (pending_goes_to_guards()) return *guards_;
    if (reads_ && routes_(pending_.stmt) && !connection_->in_transaction()) return *reads_;
    return *connection_;
  }
  // Where the pending step runs, as errors show it.
  const std::string& pending_location() { return pending_runner().location(); }
  // A step lost its connection: where, and what the client library said. The answer names it.
  void note_lost_connection(std::string what) { lost_connection_ = std::move(what); }
  const std::string& lost_connection() const { return lost_connection_; }
  // A guard write fewer replicas acknowledged than asked: where, and the WAIT's count.
  void note_unreplicated(std::string what) { unreplicated_ = std::move(what); }
  const std::string& unreplicated() const { return unreplicated_; }
  // Runs the pending step with ":now" bound to the clock. A step that waited for a lock runs
  // again later: its ":now" is updated, not added twice.
  void run_pending() {
    bind_now();
    pending_.result = pending_runner().run(pending_.stmt, pending_.binds);
  }
  // Binds the pending step's ":now" and returns where it runs, for a driver that sends it
  // itself (the simulator and explore on a server).
  StatementRunner& prepare_pending() {
    bind_now();
    return pending_runner();
  }

 private:
  // What the open transaction's debits took and credits gave, from their results: before a
  // COMMIT the two are equal, or a strategy moved money out of nothing.
  void count_money() {
    const StepResult& result = pending_.result;
    const Stmt stmt = pending_.stmt;
    if (stmt == Stmt::kCommit || stmt == Stmt::kRollback || !result.ok() ||
        stmt == Stmt::kBeginImmediate || stmt == Stmt::kBeginDeferred) {
      debited_minor_ = credited_minor_ = 0;  // a transaction ends or begins
      return;
    }
    if ((stmt != Stmt::kDebit && stmt != Stmt::kCredit) || result.changes != 1) return;
    for (const Bind& bind : pending_.binds)
      if (std::string_view(bind.name) == ":amount")
        (stmt == Stmt::kDebit ? debited_minor_ : credited_minor_) += as_int(bind.value);
  }

  void track_transaction() {
    const Stmt stmt = pending_.stmt;
    if (stmt == Stmt::kBeginImmediate || stmt == Stmt::kBeginDeferred)
      began_ = pending_.result.ok();
    else if (stmt == Stmt::kCommit || stmt == Stmt::kRollback)
      began_ = false;
  }

  void bind_now() {
    if (pending_.binds.empty() || std::string_view(pending_.binds.back().name) != ":now")
      pending_.binds.push_back({":now", int64_t{0}});
    pending_.binds.back().value = clock_->now_ms();
  }

  static constexpr size_t kBindsRoom = 12;  // more than any step binds

  Connection* connection_;
  GuardStore* guards_ = nullptr;
  StatementRunner* reads_ = nullptr;
  bool (*routes_)(Stmt) = nullptr;
  std::string lost_connection_;
  std::string unreplicated_;
  const Clock* clock_;
  Driver* driver_;
  size_t driver_tag_;
  StrategyOptions options_;
  PendingStep pending_;
  int64_t debited_minor_ = 0;
  int64_t credited_minor_ = 0;
  bool began_ = false;
};

}  // namespace idemlab
