// Stepping concurrent attempts.
#include "sim/shared/stepper.h"

#include <fmt/format.h>

#include "attempt/checked_transfer.h"
#include "ledger/read_split.h"

namespace idemlab {

size_t Stepper::start(Connection& connection, const Clock& clock, const Strategy& strategy,
                      StrategyOptions options, const TransferRequest& request,
                      GuardStore* guard_store, StatementRunner* reads) {
  size_t index;
  if (free_.empty()) {
    index = attempts_.size();
    attempts_.emplace_back();
  } else {
    index = free_.back();
    free_.pop_back();
  }
  Attempt& attempt = attempts_[index];
  attempt.live = true;
  attempt.connection = &connection;
  attempt.request = std::make_unique<TransferRequest>(request);
  attempt.session = std::make_unique<Session>(connection, clock, *this, std::move(options), index);
  attempt.session->use_guard_store(guard_store);
  if (reads) attempt.session->use_reads(reads, ReadSplit::routes);
  attempt.task.emplace(checked_transfer(*attempt.session, strategy, *attempt.request));
  attempt.task->start();
  settle(attempt);
  return index;
}

void Stepper::release(size_t index) {
  Attempt& attempt = attempts_[index];
  if (attempt.task) kill(index);
  attempt = Attempt{};
  free_.push_back(index);
}

bool Stepper::park(Session& session, std::coroutine_handle<> resume) {
  attempts_[session.driver_tag()].parked = resume;
  return true;
}

void Stepper::settle(Attempt& attempt) {
  if (attempt.task && attempt.task->done()) {
    attempt.answer = attempt.task->take();
    attempt.task.reset();
    attempt.parked = {};
    attempt.connection->rollback_if_open();
  }
}

bool Stepper::in_transaction(size_t index) const {
  return attempts_[index].connection->in_transaction();
}

const PendingStep& Stepper::pending(size_t index) const {
  return attempts_[index].session->pending();
}

ExecutedStep Stepper::advance(size_t index, bool deliver_busy, bool with_row) {
  Attempt& attempt = attempts_[index];
  attempt.session->run_pending();
  return resume_with_result(attempt, deliver_busy, with_row);
}

const PendingStep& Stepper::prepare_send(size_t index, StatementRunner** target) {
  *target = &attempts_[index].session->prepare_pending();
  return attempts_[index].session->pending();
}

ExecutedStep Stepper::deliver(size_t index, StepResult result, bool with_row) {
  Attempt& attempt = attempts_[index];
  attempt.session->pending().result = std::move(result);
  return resume_with_result(attempt, true, with_row);
}

ExecutedStep Stepper::resume_with_result(Attempt& attempt, bool deliver_busy, bool with_row) {
  const PendingStep& pending = attempt.session->pending();
  if (on_run) on_run(*attempt.connection, pending);
  const StepResult& result = pending.result;
  // A simulated run cannot go on without its ledger: it stops, and its scratch ledger and keys
  // go as on an interrupt; a guard store's lost link too, unless it costs the attempt alone.
  const bool attempt_alone = guard_loss_costs_attempt && attempt.session->pending_goes_to_guards();
  if (result.code == StepCode::kConnectionLost && !attempt_alone)
    throw StatusError{Status::unavailable(
        "connection_lost", fmt::format("lost the connection to {}: {}; the run stopped",
                                       attempt.session->pending_location(), result.error))};
  ExecutedStep executed{
      pending.step, pending.stmt,
      with_row ? result : StepResult{result.code, result.changes, std::nullopt, result.error}};
  if (executed.result.code == StepCode::kBusy && !deliver_busy) return executed;  // waits
  auto handle = std::exchange(attempt.parked, {});
  handle.resume();
  settle(attempt);
  return executed;
}

void Stepper::kill(size_t index) {
  Attempt& attempt = attempts_[index];
  attempt.connection->rollback_if_open();
  attempt.task.reset();
  attempt.parked = {};
  attempt.answer = Answer::of(Outcome::kTimeout, "crash");
}

}  // namespace idemlab
