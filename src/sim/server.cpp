// The server side: a delivery arrives, its attempt steps through the strategy on a connection of
// its own (pausing or crashing where a fault says), and its answer goes back.
#include "attempt/trace.h"
#include "sim/simulation.h"

namespace idemlab::sim {

void Simulation::arrive(uint32_t index) {
  Delivery& delivery = deliveries_[index];
  ++deliveries_total_;
  note(delivery.request, delivery.attempt, delivery.copy, "network",
       delivery.copy == 0 ? "delivered" : "delivered again");
  if (delivery.busy_ms > 0 && !busy_held_ && take_busy_lock()) {
    if (options_.record) record(busy_, Stmt::kBeginImmediate, {});
    busy_held_ = true;
    lock_holder_ = kBusyHolder;
    note(delivery.request, delivery.attempt, delivery.copy, "server", "another writer",
         on_server() ? kBusyServerSql : "BEGIN IMMEDIATE",
         fmt::format("holds the {} for {} ms", on_server() ? "account rows" : "lock",
                     delivery.busy_ms),
         "busy");
    schedule_in(delivery.busy_ms, Kind::kBusyRelease, 0);
  }
  StrategyOptions options;
  options.pitfall = pitfall_;
  options.lock_ttl_ms = short_ttl_ms_ ? short_ttl_ms_ : config_.lock_ttl_ms;
  options.owner = fmt::format("worker-{}", index);
  TransferRequest request = make_request(delivery.request, delivery.key);
  options.token = request.token;
  delivery.connection = take_connection();
  if (on_server()) delivery.session = delivery.connection->session_id();
  delivery.slot =
      stepper_.start(*delivery.connection, clock_, strategy_, options, request, guard_store_);
  if (stepper_.finished(delivery.slot)) {
    server_done(index, stepper_.answer(delivery.slot));
    return;
  }
  schedule_step(index);
}

void Simulation::schedule_step(uint32_t index) {
  Delivery& delivery = deliveries_[index];
  int64_t delay = kStepMs + std::exchange(delivery.after_commit_pause_ms, 0);
  if (const int64_t pause = delivery.sites.pause_before(stepper_.pending(delivery.slot))) {
    delay += pause;
    note(delivery.request, delivery.attempt, delivery.copy, "server", "pause", "",
         fmt::format("{} ms before {}", pause, delivery.sites.pause_site()), "slow");
  }
  schedule_in(delay, Kind::kStep, index);
}

void Simulation::step(uint32_t index) {
  Delivery& delivery = deliveries_[index];
  const bool was_woken = woken_ == index;
  if (was_woken) woken_ = kNoHolder;
  if (delivery.sites.crash_before(stepper_.pending(delivery.slot))) {
    crash(index, fmt::format("at {}, before {}: uncommitted work lost, no answer",
                             phase_name(delivery.sites.crash_phase()),
                             stepper_.pending(delivery.slot).step));
    return;
  }
  if (on_server()) {
    send_step(index);
    return;
  }
  const bool give_up_waiting =
      delivery.wait_start_ms >= 0 && clock_.now_ms() - delivery.wait_start_ms >= kLockWaitLimitMs;
  Binds traced_binds;  // the values of the step about to run, for the timeline
  if (traced(delivery.request)) traced_binds = stepper_.pending(delivery.slot).binds;
  const ExecutedStep done =
      stepper_.advance(delivery.slot, give_up_waiting, traced(delivery.request));
  if (done.result.code == StepCode::kBusy && !give_up_waiting) {
    if (delivery.wait_start_ms < 0) {
      ++lock_waits_;
      delivery.wait_start_ms = clock_.now_ms();
      note(delivery.request, delivery.attempt, delivery.copy, "server", std::string(done.step), "",
           "waits for the write lock");
      schedule_in(kLockWaitLimitMs, Kind::kWaitLimit, index,
                  static_cast<uint32_t>(delivery.wait_start_ms));
    }
    delivery.asleep = true;
    if (was_woken)
      sleepers_.push_front(index);  // keeps its place in the queue
    else
      sleepers_.push_back(index);
    wake_next();
    return;
  }
  after_step(index, done, traced_binds);
}

void Simulation::after_step(uint32_t index, const ExecutedStep& done, const Binds& traced_binds) {
  Delivery& delivery = deliveries_[index];
  delivery.wait_start_ms = -1;
  update_lock_holder(index,
                     !stepper_.finished(delivery.slot) && delivery.connection->in_transaction());
  RequestRecord& state = requests_[delivery.request];
  ++state.statements;
  note_step(delivery, done, traced_binds);
  delivery.sites.ran(done.stmt, done.result, delivery.connection->in_transaction(),
                     stepper_.finished(delivery.slot));
  if (delivery.sites.crash_after(done.step)) {
    crash(index, fmt::format("after {}: uncommitted work lost, no answer", done.step));
    return;
  }
  if (const int64_t pause = delivery.sites.pause_after_commit()) {
    note(delivery.request, delivery.attempt, delivery.copy, "server", "pause", "",
         fmt::format("{} ms after the commit, before answering", pause), "slow");
    delivery.after_commit_pause_ms = pause;
  }
  if (stepper_.finished(delivery.slot)) {
    server_done(index, stepper_.answer(delivery.slot));
    wake_next();
    return;
  }
  schedule_step(index);
  wake_next();
}

void Simulation::crash(uint32_t index, std::string what) {
  Delivery& delivery = deliveries_[index];
  transaction_may_end(delivery.session);
  note(delivery.request, delivery.attempt, delivery.copy, "server", "crash", "", std::move(what),
       "crash");
  stepper_.kill(delivery.slot);
  update_lock_holder(index, false);
  server_done(index, std::nullopt);
  wake_next();
}

void Simulation::server_done(uint32_t index, std::optional<Answer> answer) {
  Delivery& delivery = deliveries_[index];
  transaction_may_end(delivery.session);
  stepper_.release(delivery.slot);
  free_connections_.push_back(delivery.connection);
  delivery.connection = nullptr;
  const uint32_t request = delivery.request;
  if (!answer) {  // crashed: nothing to send
    delivery.live = false;
    free_deliveries_.push_back(index);
    return;
  }
  record_answer(request, *answer);
  note(request, delivery.attempt, delivery.copy, "server", "answer", "",
       std::string(outcome_name(answer->outcome)) +
           (answer->reason.empty() ? "" : " (" + answer->reason + ")"));
  if (delivery.response_lost) {
    note(request, delivery.attempt, delivery.copy, "network", "response lost", "", "",
         "response-lost");
    delivery.live = false;
    free_deliveries_.push_back(index);
    return;
  }
  delivery.answer = *answer;
  Random network(mix(config_.seed, request, delivery.attempt, Purpose::kNetwork));
  network.next();
  schedule_in(network.between(1, 4) + std::exchange(delivery.after_commit_pause_ms, 0),
              Kind::kAnswer, index);
}

}  // namespace idemlab::sim
