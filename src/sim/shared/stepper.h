// Stepper: concurrent attempts on one ledger file, each on its own SQLite connection, advanced
// one step at a time by whoever holds the Stepper (the simulator's scheduler, explore, tests).
// Locking is SQLite's own: a step that needs the write lock another attempt holds is blocked.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/task.h"
#include "strategies/strategy.h"

namespace idemlab {

// A step that ran: its name, statement and result, captured before the attempt moved on.
struct ExecutedStep {
  std::string_view step;
  Stmt stmt = Stmt::kCount;
  StepResult result;
};

class Stepper final : public Driver {
 public:
  struct Attempt {
    Connection* connection = nullptr;
    // Owned here: coroutine parameters are references, and the attempt outlives start().
    std::unique_ptr<TransferRequest> request;
    std::unique_ptr<Session> session;
    std::optional<Task<Answer>> task;
    std::coroutine_handle<> parked;
    std::optional<Answer> answer;  // set when the attempt finished
    bool live = false;             // false: a free slot
  };

  // Starts an attempt of `strategy` on `connection` (one the caller keeps open and does not
  // share with another running attempt). It runs up to its first step. Returns its index.
  // `guard_store`: where its tokens and locks go instead (Redis), or nullptr. `reads`: where
  // its reads outside a write transaction go (a replica, ReadSplit::routes), or nullptr.
  size_t start(Connection& connection, const Clock& clock, const Strategy& strategy,
               StrategyOptions options, const TransferRequest& request,
               GuardStore* guard_store = nullptr, StatementRunner* reads = nullptr);

  bool finished(size_t index) const { return attempts_[index].answer.has_value(); }
  const PendingStep& pending(size_t index) const;
  // Runs the attempt's pending step and resumes it up to its next step (or its end).
  // Returns the step's result. A kBusy result leaves the attempt parked on the same step,
  // unless `deliver_busy` (the wait limit has passed): then the strategy gets it.
  // The step's result row is copied into the ExecutedStep only `with_row` (a timeline shows it):
  // the attempt itself gets the result, and a copy at every step was a cost of its own.
  ExecutedStep advance(size_t index, bool deliver_busy = false, bool with_row = true);
  // For a driver that sends the pending step itself (the simulator and explore on a server):
  // binds its ":now" and returns it, with where it goes in `target` (the attempt's ledger
  // connection, or its guard store). deliver() then hands the attempt the step's result and
  // resumes it up to its next step (or its end).
  const PendingStep& prepare_send(size_t index, StatementRunner** target);
  // The attempt's ledger connection.
  Connection& connection(size_t index) const { return *attempts_[index].connection; }
  ExecutedStep deliver(size_t index, StepResult result, bool with_row = true);
  // Frees a finished or killed attempt's slot for reuse by start().
  void release(size_t index);
  // Abandons an attempt (a crash): rolls back its open transaction, destroys its coroutine.
  void kill(size_t index);
  const Answer& answer(size_t index) const { return *attempts_[index].answer; }
  size_t size() const { return attempts_.size(); }
  bool in_transaction(size_t index) const;

  // Called after each statement runs, before the attempt resumes (bench-sim's recorder).
  std::function<void(const Connection&, const PendingStep&)> on_run;
  // Whether a guard store's lost link costs its attempt alone, which answers it as unknown
  // (simulate: the store connects again, ScratchRedis), rather than ending the run as a lost
  // ledger does (explore: the interleaving it cut runs again).
  bool guard_loss_costs_attempt = false;

  // Driver: every step waits for advance().
  bool park(Session& session, std::coroutine_handle<> resume) override;

 private:
  void settle(Attempt& attempt);
  ExecutedStep resume_with_result(Attempt& attempt, bool deliver_busy, bool with_row);
  std::vector<Attempt> attempts_;
  std::vector<size_t> free_;
};

}  // namespace idemlab
