// The transfer endpoint: a delivery arrives, its attempt steps through a strategy on a
// connection of its own (pausing or crashing where a fault says), and its answer goes back.
#include "sim/simulate/endpoint.h"

#include "attempt/step_values.h"
#include "attempt/trace.h"

namespace idemlab::sim {

namespace {

constexpr std::string_view kTransactionCut =
    "its transaction died with the ledger's old primary: no answer";

}  // namespace

void Endpoint::arrive(uint32_t index) {
  Delivery& delivery = network_.delivery(index);
  ++stats_.deliveries;
  trace_.note(delivery.request, delivery.attempt, delivery.copy, "network",
              delivery.copy == 0 ? "delivered" : "delivered again");
  if (delivery.busy_ms > 0 && !busy_held_) take_busy_lock(delivery);
  if (delivery.replay_pause_ms > 0) pause_replay(delivery);
  StrategyOptions options;
  options.pitfall = settings_.pitfall;
  options.lock_ttl_ms = settings_.lock_ttl_ms();
  options.owner = fmt::format("worker-{}", index);
  options.galera_node = settings_.galera();
  options.fence = settings_.config.fence;
  TransferRequest request = clients_.make_request(delivery.request, delivery.key);
  options.token = request.token;
  const int node = delivery.node;
  delivery.connection = ledger_.take(node, [this, node] { return runner_->connect(node); });
  runner_->placed(*delivery.connection, node);
  if (NonBlocking* server = delivery.connection->nonblocking())
    delivery.session = server->session_id();
  StatementRunner* reads =
      ledger_.reads_for(delivery.connection, events_.clock(), settings_.config.read_your_writes);
  delivery.slot = stepper_.start(*delivery.connection, events_.clock(), settings_.strategy, options,
                                 request, ledger_.guard_store, reads);
  if (stepper_.finished(delivery.slot)) {
    done(index, stepper_.answer(delivery.slot));
    return;
  }
  schedule_step(index);
}

// The busy fault's other writer holds what every attempt's write needs for a while.
void Endpoint::take_busy_lock(const Delivery& delivery) {
  if (!runner_->take_busy_lock()) return;
  ledger_.record(ledger_.busy, Stmt::kBeginImmediate, {});
  busy_held_ = true;
  trace_.note(delivery.request, delivery.attempt, delivery.copy, "server", "another writer",
              std::string(runner_->busy_statement()),
              fmt::format("holds the {} for {} ms", runner_->busy_lock_name(), delivery.busy_ms),
              "busy");
  events_.schedule_in(delivery.busy_ms, EventKind::kBusyRelease, 0);
}

// The busy writer only held the lock; its rollback has nothing to fail on.
void Endpoint::release_busy_lock() {
  if (!busy_held_) return;  // a failover of the ledger let it go
  NonBlocking* server = ledger_.busy.nonblocking();
  const int64_t session = server ? server->session_id() : 0;
  (void)ledger_.busy.run(Stmt::kRollback, {});
  ledger_.record(ledger_.busy, Stmt::kRollback, {});
  busy_held_ = false;
  runner_->busy_released(session);
}

void Endpoint::schedule_step(uint32_t index) {
  Delivery& delivery = network_.delivery(index);
  int64_t delay = kStepMs + std::exchange(delivery.after_commit_pause_ms, 0);
  if (const int64_t pause = delivery.sites.pause_before(stepper_.pending(delivery.slot))) {
    delay += pause;
    trace_.note(delivery.request, delivery.attempt, delivery.copy, "server", "pause", "",
                fmt::format("{} ms before {}", pause, delivery.sites.pause_site()), "slow");
  }
  events_.schedule_in(delay, EventKind::kStep, index);
}

bool Endpoint::crashes_before_step(uint32_t index) {
  Delivery& delivery = network_.delivery(index);
  if (delivery.sites.failover_before(stepper_.pending(delivery.slot))) fail_over(delivery);
  if (delivery.doomed) {
    crash(index, std::string(kTransactionCut), "failover");
    return true;
  }
  if (!delivery.sites.crash_before(stepper_.pending(delivery.slot))) return false;
  crash(index, fmt::format("at {}, before {}: uncommitted work lost, no answer",
                           phase_name(delivery.sites.crash_phase()),
                           stepper_.pending(delivery.slot).step));
  return true;
}

void Endpoint::after_step(uint32_t index, const ExecutedStep& done_step,
                          const Binds& traced_binds) {
  Delivery& delivery = network_.delivery(index);
  delivery.wait_start_ms = -1;
  clients_.count_statement(delivery.request);
  note_step(delivery, done_step, traced_binds);
  delivery.sites.ran(done_step.stmt, done_step.result, delivery.connection->in_transaction(),
                     stepper_.finished(delivery.slot));
  const bool wrote_guard = ledger_.guard_store && statement_writes_guard(done_step.stmt) &&
                           done_step.result.ok() && done_step.result.changes > 0;
  if (delivery.sites.failover_after(done_step.step, wrote_guard)) fail_over(delivery);
  if (delivery.doomed) {
    crash(index, std::string(kTransactionCut), "failover");
    return;
  }
  if (delivery.sites.crash_after(done_step.step)) {
    crash(index, fmt::format("after {}: uncommitted work lost, no answer", done_step.step));
    return;
  }
  if (const int64_t pause = delivery.sites.pause_after_commit()) {
    trace_.note(delivery.request, delivery.attempt, delivery.copy, "server", "pause", "",
                fmt::format("{} ms after the commit, before answering", pause), "slow");
    delivery.after_commit_pause_ms = pause;
  }
  if (stepper_.finished(delivery.slot)) {
    done(index, stepper_.answer(delivery.slot));
    return;
  }
  schedule_step(index);
}

void Endpoint::note_step(const Delivery& delivery, const ExecutedStep& step, const Binds& binds) {
  if (!trace_.traced(delivery.request)) return;
  trace_.add(
      {events_.now_ms(), "server", delivery.request + 1, delivery.attempt, delivery.copy,
       std::string(step.step), "",
       describe_values_on(runner_->engine(), step.stmt, binds, step.result) +
           std::string(ledger_.read_place(*delivery.connection, step.stmt)) +
           (settings_.galera() ? fmt::format(" [node {}]", delivery.node + 1) : std::string()),
       std::string(ledger_.runner_for(*delivery.connection, step.stmt).statement_text(step.stmt)),
       ""});
}

// The runner that ran the step wakes what waited for the crashed attempt's locks, once this
// returns (done() let them go).
void Endpoint::crash(uint32_t index, std::string what, std::string_view fault) {
  Delivery& delivery = network_.delivery(index);
  trace_.note(delivery.request, delivery.attempt, delivery.copy, "server", "crash", "",
              std::move(what), std::string(fault));
  stepper_.kill(delivery.slot);
  done(index, std::nullopt);
}

void Endpoint::lose_link(uint32_t index, std::string_view why) {
  Delivery& delivery = network_.delivery(index);
  ++stats_.links_lost;
  *delivery.connection = Connection();  // closed: RunLedger::give_back keeps it out of the pool
  crash(index, fmt::format("its connection to the ledger was lost ({}): no answer", why),
        "link lost");
}

// The attempt ended, with an answer or (crashed) none: its connection goes back to the pool.
void Endpoint::done(uint32_t index, std::optional<Answer> answer) {
  Delivery& delivery = network_.delivery(index);
  runner_->attempt_ended(index, delivery.session);
  stepper_.release(delivery.slot);
  ledger_.give_back(delivery.connection);
  delivery.connection = nullptr;
  const uint32_t request = delivery.request;
  if (!answer) {  // crashed: nothing to send
    network_.free(index);
    return;
  }
  clients_.record_answer(request, *answer);
  if (trace_.traced(request))
    trace_.note(request, delivery.attempt, delivery.copy, "server", "answer", "",
                std::string(outcome_name(answer->outcome)) +
                    (answer->reason.empty() ? "" : " (" + answer->reason + ")"));
  delivery.answer = *answer;
  network_.send_answer(index);
}

}  // namespace idemlab::sim
