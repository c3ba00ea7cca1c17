// Retrying clients: send an attempt, wait for its answer or a timeout, back off, ask first
// (query=yes), give up; and the tokens a token-strategy client fetches.
#include "sim/simulate/client.h"

#include "ledger/ledger.h"
#include "strategies/common.h"

namespace idemlab::sim {

void Clients::start(uint32_t workers) {
  worker_request_.assign(workers, UINT32_MAX);
  for (uint32_t worker = 0; worker < workers; ++worker)
    run_.events.schedule_in(worker, EventKind::kStart, worker);
}

void Clients::start_request(uint32_t worker) {
  if (next_request_ >= run_.requests.size()) return;
  uint32_t request = next_request_++;
  worker_request_[worker] = request;
  RequestRecord& state = run_.requests[request];
  state.created_ms = run_.clock.now_ms();
  send_attempt(request);
}

void Clients::send_attempt(uint32_t request) {
  RequestRecord& state = run_.requests[request];
  const bool new_key = state.attempts_sent > 0 && run_.config.retry.fresh_key;
  const uint8_t key = static_cast<uint8_t>(state.keys - (new_key ? 0 : 1));
  // The token strategy's client fetches a token for each key it uses; the token is a write,
  // so it may have to wait for the lock like any other.
  if (run_.strategy.info().needs_token && state.token_key != key) {
    if (!issue_token_for(request, key)) {
      if (!state.token_waiting) ++run_.lock_waits;
      state.token_waiting = true;
      run_.events.schedule_in(kLockPollMs, EventKind::kSend, request);
      return;
    }
    state.token_waiting = false;
    state.token_key = key;
  }
  if (new_key) ++state.keys;
  const int attempt = ++state.attempts_sent;
  ++run_.attempts_total;
  state.phase = ClientPhase::kWaiting;
  state.current_resolved = false;
  Random faults(mix(run_.config.seed, request, static_cast<uint64_t>(attempt), Purpose::kFaults));
  Random network(mix(run_.config.seed, request, static_cast<uint64_t>(attempt), Purpose::kNetwork));
  const Network::Copies copies = network_.draw_copies(request, attempt, faults);
  run_.note(
      request, attempt, 0, "client", "send", "",
      fmt::format(
          "biz_seq {}{}", run_.keys.biz_seq_of(request, key),
          copies.submitted > 1 ? fmt::format(", {} identical submissions", copies.submitted) : ""),
      copies.submitted > 1 ? "double-submit" : "");
  run_.events.schedule_in(run_.config.retry.timeout_ms, EventKind::kTimeout, request,
                          static_cast<uint32_t>(attempt));
  network_.dispatch(request, attempt, key, copies, faults, network);
}

void Clients::answer(uint32_t index) {
  Delivery delivery = run_.deliveries[index];
  run_.deliveries.free(index);
  RequestRecord& state = run_.requests[delivery.request];
  const bool current = delivery.attempt == state.attempts_sent && !state.current_resolved &&
                       state.phase == ClientPhase::kWaiting;
  run_.note(delivery.request, delivery.attempt, delivery.copy, "client",
            current ? "answer" : "answer ignored (late or a duplicate)", "",
            std::string(outcome_name(delivery.answer.outcome)));
  if (!current) return;
  state.current_resolved = true;
  if (is_definitive(delivery.answer.outcome)) {
    state.definitive = true;
    state.told_success = claims_success(delivery.answer.outcome);
    finish(delivery.request, ClientPhase::kDone);
    return;
  }
  state.saw_in_progress_last = delivery.answer.outcome == Outcome::kInProgress;
  back_off(delivery.request);
}

void Clients::timeout(uint32_t request, uint32_t attempt) {
  RequestRecord& state = run_.requests[request];
  if (state.phase != ClientPhase::kWaiting || attempt != state.attempts_sent ||
      state.current_resolved)
    return;
  state.current_resolved = true;
  state.saw_in_progress_last = false;
  run_.note(request, static_cast<int>(attempt), 0, "client", "timeout", "",
            fmt::format("no answer in {} ms", run_.config.retry.timeout_ms));
  back_off(request);
}

void Clients::back_off(uint32_t request) {
  RequestRecord& state = run_.requests[request];
  if (state.attempts_sent >= run_.config.retry.attempts) {
    run_.note(request, state.attempts_sent, 0, "client", "give up", "",
              fmt::format("after {} attempts", state.attempts_sent));
    finish(request, ClientPhase::kGaveUp);
    return;
  }
  state.phase = ClientPhase::kBackoff;
  Random random(mix(run_.config.seed, request, state.attempts_sent, Purpose::kBackoff));
  int64_t delay = run_.config.retry.delay_ms(state.attempts_sent, random);
  run_.events.schedule_in(delay, EventKind::kRetry, request);
}

void Clients::retry(uint32_t request) {
  RequestRecord& state = run_.requests[request];
  if (run_.config.retry.query_first) {
    const Binds binds{
        {":source", run_.keys.source_of(request)},
        {":biz_seq", run_.keys.biz_seq_of(request, static_cast<uint8_t>(state.keys - 1))}};
    StepResult flow = run_.client.run(Stmt::kSelectFlow, binds);
    if (run_.options.record) run_.record(run_.client, Stmt::kSelectFlow, binds);
    ++state.statements;
    std::string found = "no flow row";
    if (flow.ok() && flow.row) {
      const int64_t status = flow_of(flow)->status;
      found = fmt::format("status {}", status);
      if (status == kSucceeded || status == kFailed) {
        run_.note(request, state.attempts_sent, 0, "client", "query", "", found);
        state.definitive = true;
        state.told_success = status == kSucceeded;
        finish(request, ClientPhase::kDone);
        return;
      }
    }
    run_.note(request, state.attempts_sent, 0, "client", "query", "", found);
  }
  send_attempt(request);
}

void Clients::finish(uint32_t request, ClientPhase phase) {
  RequestRecord& state = run_.requests[request];
  state.phase = phase;
  state.finished_ms = run_.clock.now_ms();
  ++finished_;
  if (run_.options.progress && finished_ % 1000 == 0)
    run_.options.progress(finished_, run_.config.requests);
  for (uint32_t worker = 0; worker < worker_request_.size(); ++worker)
    if (worker_request_[worker] == request) run_.events.schedule_in(1, EventKind::kStart, worker);
}

void Clients::record_answer(uint32_t request, const Answer& answer) {
  if (!is_definitive(answer.outcome)) return;
  RequestRecord& state = run_.requests[request];
  if (state.first_outcome < 0) {
    state.first_outcome = static_cast<int8_t>(answer.outcome);
    state.first_reason = reason_id(answer.reason);
    return;
  }
  Answer first{static_cast<Outcome>(state.first_outcome), reasons_[state.first_reason], false};
  if (!answers_agree(first, answer)) state.inconsistent = true;
}

uint16_t Clients::reason_id(const std::string& reason) {
  for (size_t i = 0; i < reasons_.size(); ++i)
    if (reasons_[i] == reason) return static_cast<uint16_t>(i);
  reasons_.push_back(reason);
  return static_cast<uint16_t>(reasons_.size() - 1);
}

TransferRequest Clients::make_request(uint32_t request, uint8_t key) const {
  Random random(mix(run_.config.seed, request, 0, Purpose::kRequest));
  int64_t from = static_cast<int64_t>(random.below(kAccounts));
  int64_t to = (from + 1 + static_cast<int64_t>(random.below(kAccounts - 1))) % kAccounts;
  int64_t amount = random.between(1, 100'000);
  TransferRequest result{run_.keys.biz_seq_of(request, key), fmt::format("a{:02}", from),
                         fmt::format("a{:02}", to), amount, ""};
  result.source = run_.keys.source_of(request);
  // Faults that shape the request itself, drawn after its payload so they never change it.
  for (const FaultSpec& fault : run_.config.faults) {
    if (fault.kind != FaultKind::kOverdraw && fault.kind != FaultKind::kNoKey) continue;
    if (!run_.fault_hits(fault, request, 1, random)) continue;
    if (fault.kind == FaultKind::kOverdraw) result.amount_minor = limits::kMaxMoneyMinor;
    if (fault.kind == FaultKind::kNoKey) result.key_missing = true;
  }
  if (run_.strategy.info().needs_token) result.token = token_for(request, key);
  return result;
}

std::string Clients::token_for(uint32_t request, uint8_t key) const {
  Random random(mix(run_.config.seed, request, key, Purpose::kToken));
  uint64_t high = random.next();
  return fmt::format("{:016x}{:016x}", high, random.next());
}

// Returns false when the token could not be stored yet: the write lock is taken.
bool Clients::issue_token_for(uint32_t request, uint8_t key) {
  Random random(mix(run_.config.seed, request, key, Purpose::kToken));
  uint64_t high = random.next();
  IssuedToken token;
  const uint64_t low = random.next();
  const int64_t ttl_ms = run_.short_ttl_ms ? run_.short_ttl_ms : run_.config.token_ttl_ms;
  StatementRunner& store =
      run_.guard_store ? static_cast<StatementRunner&>(*run_.guard_store) : run_.client;
  Status status = issue_token(store, run_.clock, high, low, ttl_ms, &token);
  if (run_.options.record && !run_.guard_store)
    run_.record(run_.client, Stmt::kInsertToken,
                {{":token", fmt::format("{:016x}{:016x}", high, low)},
                 {":now", run_.clock.now_ms()},
                 {":expires", run_.clock.now_ms() + ttl_ms}});
  if (status.code() == StatusCode::kBusy) return false;
  throw_if_error(status);
  run_.note(request, 0, 0, "client", "token issued", "",
            fmt::format("{}, expires at {} ms", token.token.substr(0, 8), token.expires_at_ms));
  return true;
}

}  // namespace idemlab::sim
