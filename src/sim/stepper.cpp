// Stepping concurrent attempts.
#include "sim/stepper.h"

#include "server/serve.h"

namespace idemlab {

size_t Stepper::start(Connection& connection, const Clock& clock, const Strategy& strategy,
                      StrategyOptions options, const TransferRequest& request) {
  attempts_.emplace_back();
  Attempt& attempt = attempts_.back();
  attempt.connection = &connection;
  attempt.request = std::make_unique<TransferRequest>(request);
  attempt.session = std::make_unique<Session>(connection, clock, *this, std::move(options));
  attempt.task.emplace(serve(*attempt.session, strategy, *attempt.request));
  attempt.task->start();
  settle(attempt);
  return attempts_.size() - 1;
}

void Stepper::park(Session& session, std::coroutine_handle<> handle) {
  for (Attempt& attempt : attempts_)
    if (attempt.session.get() == &session) attempt.parked = handle;
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

bool Stepper::blocked(size_t index) const {
  const Attempt& attempt = attempts_[index];
  if (attempt.answer || attempt.connection->in_transaction()) return false;
  if (!statement_takes_write_lock(attempt.session->pending().stmt)) return false;
  for (size_t other = 0; other < attempts_.size(); ++other)
    if (other != index && !attempts_[other].answer && in_transaction(other)) return true;
  return false;
}

const PendingStep& Stepper::pending(size_t index) const {
  return attempts_[index].session->pending();
}

StepResult Stepper::advance(size_t index) {
  Attempt& attempt = attempts_[index];
  attempt.session->run_pending();
  StepResult result = attempt.session->pending().result;
  if (result.code == StepCode::kBusy) return result;  // still waiting for the lock
  auto handle = std::exchange(attempt.parked, {});
  handle.resume();
  settle(attempt);
  return result;
}

void Stepper::kill(size_t index) {
  Attempt& attempt = attempts_[index];
  attempt.connection->rollback_if_open();
  attempt.task.reset();
  attempt.parked = {};
  attempt.answer = Answer::of(Outcome::kTimeout, "crash");
}

}  // namespace idemlab
