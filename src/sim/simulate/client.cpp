// Retrying clients: send an attempt, wait for its answer or a timeout, back off, ask first
// (query=yes), give up; and the tokens a token-strategy client fetches.
#include "sim/simulate/client.h"

#include <algorithm>

#include "ledger/ledger.h"
#include "strategies/common.h"

namespace idemlab::sim {

void Clients::start(uint32_t workers) {
  worker_request_.assign(workers, UINT32_MAX);
  for (uint32_t worker = 0; worker < workers; ++worker)
    events_.schedule_in(worker, EventKind::kStart, worker);
}

void Clients::start_request(uint32_t worker) {
  if (next_request_ >= requests_.size()) return;
  uint32_t request = next_request_++;
  worker_request_[worker] = request;
  RequestRecord& state = requests_[request];
  state.created_ms = events_.now_ms();
  send_attempt(request);
}

void Clients::send_attempt(uint32_t request) {
  RequestRecord& state = requests_[request];
  const bool new_key = state.attempts_sent > 0 && settings_.config.retry.fresh_key;
  const uint8_t key = static_cast<uint8_t>(state.keys - (new_key ? 0 : 1));
  // The token strategy's client fetches a token for each key it uses; the token is a write,
  // so it may have to wait for the lock like any other (or, in Redis, for a failover's end).
  if (settings_.strategy.info().needs_token && state.token_key != key) {
    if (const TokenIssue issue = issue_token_for(request, key); issue != TokenIssue::kIssued) {
      if (issue == TokenIssue::kLockTaken && !state.token_waiting) ++stats_.lock_waits;
      state.token_waiting = issue == TokenIssue::kLockTaken;
      events_.schedule_in(kLockPollMs, EventKind::kSend, request);
      return;
    }
    state.token_waiting = false;
    state.token_key = key;
  }
  if (new_key) ++state.keys;
  const int attempt = ++state.attempts_sent;
  ++stats_.attempts;
  state.phase = ClientPhase::kWaiting;
  state.current_resolved = false;
  Random faults(
      mix(settings_.config.seed, request, static_cast<uint64_t>(attempt), Purpose::kFaults));
  Random network(
      mix(settings_.config.seed, request, static_cast<uint64_t>(attempt), Purpose::kNetwork));
  const Network::Copies copies = network_.draw_copies(request, attempt, faults);
  if (trace_.traced(request))  // the note's text is made only for a timeline that shows it
    trace_.note(request, attempt, 0, "client", "send", "",
                fmt::format("biz_seq {}{}", settings_.keys.biz_seq_of(request, key),
                            copies.submitted > 1
                                ? fmt::format(", {} identical submissions", copies.submitted)
                                : ""),
                copies.submitted > 1 ? "double-submit" : "");
  events_.schedule_in(settings_.config.retry.timeout_ms, EventKind::kTimeout, request,
                      static_cast<uint32_t>(attempt));
  network_.dispatch(request, attempt, key, copies, faults, network);
}

void Clients::answer(uint32_t index) {
  const Delivery delivery = std::move(network_.delivery(index));  // the slot is free for reuse
  network_.free(index);
  RequestRecord& state = requests_[delivery.request];
  const bool current = delivery.attempt == state.attempts_sent && !state.current_resolved &&
                       state.phase == ClientPhase::kWaiting;
  if (trace_.traced(delivery.request))
    trace_.note(delivery.request, delivery.attempt, delivery.copy, "client",
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
  RequestRecord& state = requests_[request];
  if (state.phase != ClientPhase::kWaiting || attempt != state.attempts_sent ||
      state.current_resolved)
    return;
  state.current_resolved = true;
  state.saw_in_progress_last = false;
  trace_.note(request, static_cast<int>(attempt), 0, "client", "timeout", "",
              fmt::format("no answer in {} ms", settings_.config.retry.timeout_ms));
  back_off(request);
}

void Clients::back_off(uint32_t request) {
  RequestRecord& state = requests_[request];
  if (state.attempts_sent >= settings_.config.retry.attempts) {
    trace_.note(request, state.attempts_sent, 0, "client", "give up", "",
                fmt::format("after {} attempt{}", state.attempts_sent,
                            state.attempts_sent == 1 ? "" : "s"));
    finish(request, ClientPhase::kGaveUp);
    return;
  }
  state.phase = ClientPhase::kBackoff;
  Random random(mix(settings_.config.seed, request, state.attempts_sent, Purpose::kBackoff));
  int64_t delay = settings_.config.retry.delay_ms(state.attempts_sent, random);
  events_.schedule_in(delay, EventKind::kRetry, request);
}

void Clients::retry(uint32_t request) {
  RequestRecord& state = requests_[request];
  if (settings_.config.retry.query_first) {
    const Binds binds{
        {":source", settings_.keys.source_of(request)},
        {":biz_seq", settings_.keys.biz_seq_of(request, static_cast<uint8_t>(state.keys - 1))}};
    // The query reads where the attempts read: on the standby, with reads=standby.
    StatementRunner* reads =
        ledger_.reads_for(&ledger_.client, events_.clock(), settings_.config.read_your_writes);
    StepResult flow = (reads ? *reads : ledger_.client).run(Stmt::kSelectFlow, binds);
    ledger_.record(ledger_.client, Stmt::kSelectFlow, binds);
    ++state.statements;
    std::string found =
        fmt::format("no flow row{}", ledger_.read_place(ledger_.client, Stmt::kSelectFlow));
    if (flow.ok() && flow.row) {
      const int64_t status = flow_of(flow)->status;
      found = fmt::format("status {}", status);
      if (status == kSucceeded || status == kFailed) {
        trace_.note(request, state.attempts_sent, 0, "client", "query", "", found);
        state.definitive = true;
        state.told_success = status == kSucceeded;
        finish(request, ClientPhase::kDone);
        return;
      }
    }
    trace_.note(request, state.attempts_sent, 0, "client", "query", "", found);
  }
  send_attempt(request);
}

void Clients::finish(uint32_t request, ClientPhase phase) {
  RequestRecord& state = requests_[request];
  state.phase = phase;
  state.finished_ms = events_.now_ms();
  ++finished_;
  // A hundredth of the run at a time, between one request and a thousand.
  const int64_t step = std::clamp<int64_t>(settings_.config.requests / 100, 1, 1000);
  if (settings_.options.progress &&
      (finished_ % step == 0 || finished_ == settings_.config.requests))
    settings_.options.progress(finished_, settings_.config.requests);
  for (uint32_t worker = 0; worker < worker_request_.size(); ++worker)
    if (worker_request_[worker] == request) events_.schedule_in(1, EventKind::kStart, worker);
}

void Clients::record_answer(uint32_t request, const Answer& answer) {
  if (!is_definitive(answer.outcome)) return;
  RequestRecord& state = requests_[request];
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
  Random random(mix(settings_.config.seed, request, 0, Purpose::kRequest));
  int64_t from = static_cast<int64_t>(random.below(kAccounts));
  int64_t to = (from + 1 + static_cast<int64_t>(random.below(kAccounts - 1))) % kAccounts;
  int64_t amount = random.between(1, 100'000);
  TransferRequest result{settings_.keys.biz_seq_of(request, key), account_name(from),
                         account_name(to), amount, ""};
  result.source = settings_.keys.source_of(request);
  // Faults that shape the request itself, drawn after its payload so they never change it.
  for (const FaultSpec& fault : settings_.config.faults) {
    if (fault.kind != FaultKind::kOverdraw && fault.kind != FaultKind::kNoKey) continue;
    if (!settings_.fault_hits(fault, request, 1, random)) continue;
    if (fault.kind == FaultKind::kOverdraw) result.amount_minor = limits::kMaxMoneyMinor;
    if (fault.kind == FaultKind::kNoKey) result.key_missing = true;
  }
  if (settings_.strategy.info().needs_token) result.token = token_for(request, key);
  return result;
}

std::string Clients::token_for(uint32_t request, uint8_t key) const {
  Random random(mix(settings_.config.seed, request, key, Purpose::kToken));
  uint64_t high = random.next();
  return fmt::format("{:016x}{:016x}", high, random.next());
}

// Whether the token is stored, or not yet: the write lock is taken, or the guard store lost its
// link (a failover in Redis: the next try connects again through the Sentinels).
Clients::TokenIssue Clients::issue_token_for(uint32_t request, uint8_t key) {
  Random random(mix(settings_.config.seed, request, key, Purpose::kToken));
  uint64_t high = random.next();
  IssuedToken token;
  const uint64_t low = random.next();
  const int64_t ttl_ms = settings_.token_ttl_ms();
  // In the ledger, the token is a write its replicas follow (and bench-sim's recorder records).
  FollowedRunner followed(ledger_, ledger_.client, events_.clock());
  StatementRunner& store = ledger_.guard_store ? static_cast<StatementRunner&>(*ledger_.guard_store)
                           : ledger_.followed() ? static_cast<StatementRunner&>(followed)
                                                : ledger_.client;
  Status status = issue_token(store, events_.clock(), high, low, ttl_ms, &token);
  if (status.code() == StatusCode::kBusy) return TokenIssue::kLockTaken;
  if (ledger_.guard_store && is_link_loss(status)) return TokenIssue::kLinkLost;
  throw_if_error(status);
  trace_.note(request, 0, 0, "client", "token issued", "",
              fmt::format("{}, expires at {} ms", token.token.substr(0, 8), token.expires_at_ms));
  return TokenIssue::kIssued;
}

}  // namespace idemlab::sim
