// The server side: a delivery arrives, its attempt steps through a strategy on a connection of
// its own (pausing or crashing where a fault says), and its answer goes back.
#include "sim/simulate/server.h"

#include "attempt/step_values.h"
#include "attempt/trace.h"

namespace idemlab::sim {

void Server::arrive(uint32_t index) {
  Delivery& delivery = run_.deliveries[index];
  ++run_.deliveries_total;
  run_.note(delivery.request, delivery.attempt, delivery.copy, "network",
            delivery.copy == 0 ? "delivered" : "delivered again");
  if (delivery.busy_ms > 0 && !busy_held_) take_busy_lock(delivery);
  StrategyOptions options;
  options.pitfall = run_.pitfall;
  options.lock_ttl_ms = run_.short_ttl_ms ? run_.short_ttl_ms : run_.config.lock_ttl_ms;
  options.owner = fmt::format("worker-{}", index);
  TransferRequest request = clients_.make_request(delivery.request, delivery.key);
  options.token = request.token;
  delivery.connection = take_connection();
  if (NonBlocking* server = delivery.connection->nonblocking())
    delivery.session = server->session_id();
  delivery.slot = run_.stepper.start(*delivery.connection, run_.clock, run_.strategy, options,
                                     request, run_.guard_store);
  if (run_.stepper.finished(delivery.slot)) {
    done(index, run_.stepper.answer(delivery.slot));
    return;
  }
  schedule_step(index);
}

// The busy fault's other writer holds what every attempt's write needs for a while.
void Server::take_busy_lock(const Delivery& delivery) {
  if (!runner_->take_busy_lock()) return;
  if (run_.options.record) run_.record(run_.busy, Stmt::kBeginImmediate, {});
  busy_held_ = true;
  run_.note(delivery.request, delivery.attempt, delivery.copy, "server", "another writer",
            std::string(runner_->busy_statement()),
            fmt::format("holds the {} for {} ms", runner_->busy_lock_name(), delivery.busy_ms),
            "busy");
  run_.events.schedule_in(delivery.busy_ms, EventKind::kBusyRelease, 0);
}

// The busy writer only held the lock; its rollback has nothing to fail on.
void Server::release_busy_lock() {
  if (NonBlocking* server = run_.busy.nonblocking())
    runner_->transaction_may_end(server->session_id());
  (void)run_.busy.run(Stmt::kRollback, {});
  if (run_.options.record) run_.record(run_.busy, Stmt::kRollback, {});
  busy_held_ = false;
  runner_->busy_released();
}

Connection* Server::take_connection() {
  if (run_.free_connections.empty()) {
    run_.pool.push_back(std::make_unique<Connection>(runner_->connect()));
    return run_.pool.back().get();
  }
  Connection* connection = run_.free_connections.back();
  run_.free_connections.pop_back();
  return connection;
}

void Server::schedule_step(uint32_t index) {
  Delivery& delivery = run_.deliveries[index];
  int64_t delay = kStepMs + std::exchange(delivery.after_commit_pause_ms, 0);
  if (const int64_t pause = delivery.sites.pause_before(run_.stepper.pending(delivery.slot))) {
    delay += pause;
    run_.note(delivery.request, delivery.attempt, delivery.copy, "server", "pause", "",
              fmt::format("{} ms before {}", pause, delivery.sites.pause_site()), "slow");
  }
  run_.events.schedule_in(delay, EventKind::kStep, index);
}

bool Server::crashes_before_step(uint32_t index) {
  Delivery& delivery = run_.deliveries[index];
  if (!delivery.sites.crash_before(run_.stepper.pending(delivery.slot))) return false;
  crash(index, fmt::format("at {}, before {}: uncommitted work lost, no answer",
                           phase_name(delivery.sites.crash_phase()),
                           run_.stepper.pending(delivery.slot).step));
  return true;
}

void Server::after_step(uint32_t index, const ExecutedStep& done_step, const Binds& traced_binds) {
  Delivery& delivery = run_.deliveries[index];
  delivery.wait_start_ms = -1;
  runner_->holds_transaction(
      index, !run_.stepper.finished(delivery.slot) && delivery.connection->in_transaction());
  RequestRecord& state = run_.requests[delivery.request];
  ++state.statements;
  note_step(delivery, done_step, traced_binds);
  delivery.sites.ran(done_step.stmt, done_step.result, delivery.connection->in_transaction(),
                     run_.stepper.finished(delivery.slot));
  if (delivery.sites.crash_after(done_step.step)) {
    crash(index, fmt::format("after {}: uncommitted work lost, no answer", done_step.step));
    return;
  }
  if (const int64_t pause = delivery.sites.pause_after_commit()) {
    run_.note(delivery.request, delivery.attempt, delivery.copy, "server", "pause", "",
              fmt::format("{} ms after the commit, before answering", pause), "slow");
    delivery.after_commit_pause_ms = pause;
  }
  if (run_.stepper.finished(delivery.slot)) {
    done(index, run_.stepper.answer(delivery.slot));
    runner_->wake_waiters();
    return;
  }
  schedule_step(index);
  runner_->wake_waiters();
}

void Server::note_step(const Delivery& delivery, const ExecutedStep& step, const Binds& binds) {
  if (!run_.traced(delivery.request)) return;
  run_.timeline.push_back(
      {run_.clock.now_ms(), "server", delivery.request + 1, delivery.attempt, delivery.copy,
       std::string(step.step), "",
       describe_values_on(runner_->engine(), step.stmt, binds, step.result),
       std::string(run_.runner_for(delivery, step.stmt).statement_text(step.stmt)), ""});
}

void Server::crash(uint32_t index, std::string what) {
  Delivery& delivery = run_.deliveries[index];
  runner_->transaction_may_end(delivery.session);
  run_.note(delivery.request, delivery.attempt, delivery.copy, "server", "crash", "",
            std::move(what), "crash");
  run_.stepper.kill(delivery.slot);
  runner_->holds_transaction(index, false);
  done(index, std::nullopt);
  runner_->wake_waiters();
}

// The attempt ended, with an answer or (crashed) none: its connection goes back to the pool.
void Server::done(uint32_t index, std::optional<Answer> answer) {
  Delivery& delivery = run_.deliveries[index];
  runner_->transaction_may_end(delivery.session);
  run_.stepper.release(delivery.slot);
  run_.free_connections.push_back(delivery.connection);
  delivery.connection = nullptr;
  const uint32_t request = delivery.request;
  if (!answer) {  // crashed: nothing to send
    run_.deliveries.free(index);
    return;
  }
  clients_.record_answer(request, *answer);
  run_.note(request, delivery.attempt, delivery.copy, "server", "answer", "",
            std::string(outcome_name(answer->outcome)) +
                (answer->reason.empty() ? "" : " (" + answer->reason + ")"));
  delivery.answer = *answer;
  network_.send_answer(index);
}

}  // namespace idemlab::sim
