// The simulation on PostgreSQL or MariaDB: statements sent without blocking and settled on the
// server's word (server_flights.h).
#include "sim/simulate/server_flights.h"

#include "core/interrupt.h"

namespace idemlab::sim {

namespace {

// How long one look at a statement's socket lasts before the server is asked whether it waits
// for a lock. It decides nothing: a statement is taken as waiting only on the server's word.
// A statement that does not wait answers in about 0.1 ms (explore_server.cpp).
constexpr int kLookUs = 200;

}  // namespace

ServerFlights::ServerFlights(const RunParts& parts)
    : run_(parts), traits_(engine_traits(parts.settings.options.server->engine)) {}

Status ServerFlights::open() {
  const SimOptions& options = run_.settings.options;
  IDEMLAB_CHECK(run_.settings.config.topology.ledger == LedgerShape::kServer,
                "a ledger topology on a server is refused before a run (check_topology)");
  RETURN_IF_ERROR(ScratchServer::create(*options.server, sim_opening_balances(), &scratch_));
  const ConnectionOptions connect = scratch_server_options(options.isolation);
  ASSIGN_OR_RETURN(run_.ledger.client, scratch_.reconnect(connect));
  ASSIGN_OR_RETURN(run_.ledger.busy, scratch_.reconnect(connect));
  return Status::ok();
}

Connection ServerFlights::connect(int) {
  ConnectionOptions options = scratch_server_options(run_.settings.options.isolation);
  options.nonblocking = true;
  return value_or_throw(scratch_.reconnect(options));
}

// The verdicts read the journal on the client's connection: one the servers cut since it was
// last used is opened again first.
Status ServerFlights::finish() {
  if (run_.ledger.client.query("SELECT 1", {}).link_lost()) relink(run_.ledger.client.node());
  return Status::ok();
}

void ServerFlights::step(uint32_t index) {
  if (run_.endpoint.crashes_before_step(index)) return;
  send_step(index);
}

// Past the wait limit in virtual time: cancel the waiting statement, as the server's own wait
// limit would. `wait_start_ms` tells this wait from a later one of the same delivery.
void ServerFlights::wait_limit(uint32_t index, int64_t wait_start_ms) {
  const Delivery& delivery = run_.network.delivery(index);
  if (!delivery.live || delivery.wait_start_ms != wait_start_ms) return;
  if (delivery.lock_waiting) cancel_wait(index);
}

bool ServerFlights::take_busy_lock() {
  Connection& busy = run_.ledger.busy;
  if (!busy.run(Stmt::kBeginImmediate, {}).ok()) return false;
  if (busy.query(kBusySql, {}).ok()) return true;
  (void)busy.run(Stmt::kRollback, {});
  return false;
}

void ServerFlights::send_step(uint32_t index) {
  Delivery& delivery = run_.network.delivery(index);
  Stepper& stepper = run_.endpoint.stepper();
  StatementRunner* target = nullptr;
  const PendingStep& pending = stepper.prepare_send(delivery.slot, &target);
  const bool traced = run_.trace.traced(delivery.request);
  delivery.sent_binds = traced ? pending.binds : Binds{};
  if (target != delivery.connection) {  // Redis answers at once, and holds no lock to wait for
    const ExecutedStep done =
        stepper.deliver(delivery.slot, target->run(pending.stmt, pending.binds), traced);
    run_.endpoint.after_step(index, done, delivery.sent_binds);
    return;
  }
  run_.ledger.record(*delivery.connection, pending.stmt, pending.binds);
  if (Status sent = delivery.connection->nonblocking()->send(pending.stmt, pending.binds);
      !sent.is_ok()) {
    if (!is_link_loss(sent)) throw StatusError{std::move(sent)};
    lost(index, sent.message());
    return;
  }
  delivery.in_flight = true;
  in_flight_.insert(std::lower_bound(in_flight_.begin(), in_flight_.end(), index), index);
  settle_flights(index);
}

// The cause first, so that what its statement set off is seen in the same order every run,
// whichever answer reached its socket first; then the others, again until a pass changes
// nothing (an answer can end a transaction, whose locks let another statement go). A deadlock
// PostgreSQL has not yet found (it looks after deadlock_timeout) is waited for here, so that it
// ends at the same point of the run every time.
//
// A step that lets two or more waiting statements go at once is counted: which of them goes
// first is the server's choice (PostgreSQL wakes them all, and they race for the row), so a
// rerun can differ. Runs with none replay byte for byte.
//
// The statements already known to wait are asked about in one question per pass (lock_waits):
// a parked statement the server still holds is not asked about again on its own. One that
// an answer earlier in the same pass let go is seen in the next pass, which that answer
// brings about.
void ServerFlights::settle_flights(uint32_t cause) {
  released_ = 0;
  for (bool changed = true; changed;) {
    changed = false;
    if (cause != kNoCause && run_.network.delivery(cause).in_flight)
      changed |= settle_flight(cause, false);
    const std::vector<uint32_t> order = in_flight_;
    const std::vector<bool> still_waiting = ask_parked(order);
    for (size_t i = 0; i < order.size(); ++i)
      if (order[i] != cause && run_.network.delivery(order[i]).in_flight)
        changed |= settle_flight(order[i], still_waiting[i]);
    if (!changed && waits_in_cycle()) {
      await_server();
      changed = true;
    }
    cause = kNoCause;
  }
  if (released_ >= 2) ++run_.stats.released_together;
}

// Of `deliveries`, those already known to wait that the server, asked once for all of them,
// says still wait. A lock is let go only when the transaction holding it, or one queued ahead
// for it, ends; and PostgreSQL names those (pg_blocking_pids). So while no transaction that a
// known waiter waits for can have ended since the server was last asked (see
// transaction_may_end()), each was found waiting after the last such end, and still waits.
// MariaDB names none: there any end since the last question asks again.
// What the server does on its own (a deadlock's victim, a wait limit) ends in an answer,
// which the glance in settle_flight() sees.
std::vector<bool> ServerFlights::ask_parked(const std::vector<uint32_t>& deliveries) {
  const std::vector<int64_t> sessions = waiting_sessions();
  std::vector<bool> waiting(deliveries.size(), false);
  if (sessions.empty()) {
    ended_.clear();  // a statement that waits from now on is asked about when it does
    return waiting;
  }
  const std::vector<bool> asked =
      holders_stale(sessions) ? ask_lock_waits(sessions) : std::vector<bool>(sessions.size(), true);
  // By session: a lost link the question met dropped the deliveries on it (relink()).
  for (size_t i = 0; i < deliveries.size(); ++i) {
    const Delivery& delivery = run_.network.delivery(deliveries[i]);
    const auto at = std::find(sessions.begin(), sessions.end(), delivery.session);
    if (delivery.in_flight && delivery.lock_waiting && at != sessions.end())
      waiting[i] = asked[static_cast<size_t>(at - sessions.begin())];
  }
  return waiting;
}

// Asks the server, once, which of `sessions` wait for a lock, and keeps whom each waits for.
std::vector<bool> ServerFlights::ask_lock_waits(const std::vector<int64_t>& sessions) {
  std::vector<bool> waiting;
  std::vector<std::vector<int64_t>> holders;
  ask([&](NonBlocking& server) { return server.lock_waits(sessions, &waiting, &holders); });
  holders_.clear();
  for (size_t i = 0; i < sessions.size(); ++i) holders_[sessions[i]] = std::move(holders[i]);
  ended_.clear();
  return waiting;
}

// Whether what the server last said of the `waiting` sessions may no longer hold: one of them
// was never asked about, or a transaction one of them waits for may have ended since.
bool ServerFlights::holders_stale(const std::vector<int64_t>& waiting) const {
  const bool names_holders = traits_.names_lock_holders;
  for (int64_t session : waiting) {
    const auto known = holders_.find(session);
    if (known == holders_.end()) return true;
    if (!names_holders) continue;
    for (int64_t holder : known->second)
      if (std::find(ended_.begin(), ended_.end(), holder) != ended_.end()) return true;
  }
  return !names_holders && !ended_.empty();
}

// Waits until the delivery's statement has its answer (true), or the server says it waits for
// a lock (false). A statement already known to wait is only glanced at: most stay waiting, and
// a look would cost each of them kLookUs every step. If the server said a moment ago that it
// still waits (`still_waiting`, from ask_parked), it is not asked again.
bool ServerFlights::settle_flight(uint32_t index, bool still_waiting) {
  Delivery& delivery = run_.network.delivery(index);
  for (int look_us = delivery.lock_waiting ? 0 : kLookUs;; look_us = kLookUs) {
    if (std::optional<StepResult> result = delivery.connection->nonblocking()->receive(look_us)) {
      take_answer(index, std::move(*result));
      return true;
    }
    if (std::exchange(still_waiting, false)) return false;
    bool waiting = false;
    std::vector<int64_t> holders;
    ask([&](NonBlocking& server) {
      return server.lock_wait(delivery.session, &waiting, &holders);
    });
    if (!delivery.in_flight) return true;  // the run connected again: its attempt is gone
    if (waiting) {
      holders_[delivery.session] = std::move(holders);  // let go, then waits for another
      if (!delivery.lock_waiting) {
        delivery.lock_waiting = true;
        delivery.wait_start_ms = run_.events.now_ms();
        ++run_.stats.lock_waits;
        run_.trace.note(delivery.request, delivery.attempt, delivery.copy, "server",
                        std::string(run_.endpoint.stepper().pending(delivery.slot).step), "",
                        "waits for a row lock");
        run_.events.schedule_in(kLockWaitLimitMs, EventKind::kWaitLimit, index,
                                static_cast<uint32_t>(delivery.wait_start_ms));
      }
      return false;
    }
    throw_if_error(check_interrupt());
  }
}

// Whether the waiting statements wait for each other in a ring, on PostgreSQL's word
// (pg_blocking_pids names the holders). MariaDB names none, and needs none: InnoDB finds a
// deadlock the moment a wait would close the ring, and answers the victim at once.
// Whom a waiter waits for changes only when one of them ends (it may then wait for another,
// and settle_flight() hears so) or when it starts waiting, when it is asked about: a newcomer
// queues behind the others, or ahead only of those whose lock it already holds, so their
// answers stand. The server is asked again only when holders_stale().
bool ServerFlights::waits_in_cycle() {
  if (traits_.finds_deadlocks_at_once) return false;
  const std::vector<int64_t> waiting = waiting_sessions();
  if (waiting.empty()) return false;
  if (holders_stale(waiting)) (void)ask_lock_waits(waiting);
  // A ring exists if some waiter reaches itself through waiters.
  for (int64_t start : waiting) {
    std::vector<int64_t> seen;
    std::vector<int64_t> next = holders_[start];
    while (!next.empty()) {
      const int64_t at = next.back();
      next.pop_back();
      if (at == start) return true;
      if (std::find(seen.begin(), seen.end(), at) != seen.end() ||
          std::find(waiting.begin(), waiting.end(), at) == waiting.end())
        continue;
      seen.push_back(at);
      next.insert(next.end(), holders_[at].begin(), holders_[at].end());
    }
  }
  return false;
}

// The sessions of the statements parked on a lock, in delivery order.
std::vector<int64_t> ServerFlights::waiting_sessions() const {
  std::vector<int64_t> sessions;
  for (uint32_t index : in_flight_)
    if (run_.network.delivery(index).lock_waiting)
      sessions.push_back(run_.network.delivery(index).session);
  return sessions;
}

// A ring of waits only the server can break: answers are gathered until an error (the
// victim's) is among them; the errors are taken first, in delivery order.
void ServerFlights::await_server() {
  std::vector<std::pair<uint32_t, StepResult>> got;
  for (bool have_error = false; !have_error;) {
    for (uint32_t index : in_flight_) {
      const bool taken = std::any_of(got.begin(), got.end(),
                                     [&](const auto& answer) { return answer.first == index; });
      if (taken) continue;
      if (std::optional<StepResult> result =
              run_.network.delivery(index).connection->nonblocking()->receive(kLookUs)) {
        have_error |= !result->ok();
        got.emplace_back(index, std::move(*result));
      }
    }
    throw_if_error(check_interrupt());
  }
  std::sort(got.begin(), got.end(), [](const auto& a, const auto& b) {
    return std::pair(a.second.ok(), a.first) < std::pair(b.second.ok(), b.first);
  });
  for (auto& [index, result] : got) take_answer(index, std::move(result));
}

// An answer can end a wait only if its transaction ended with it: a COMMIT or ROLLBACK, a
// statement outside a transaction, or an error (MariaDB rolls back a deadlock's victim whole,
// and its error packet carries no transaction state to tell).
void ServerFlights::take_answer(uint32_t index, StepResult result) {
  Delivery& delivery = run_.network.delivery(index);
  if (!delivery.in_flight) return;  // the run connected again meanwhile: its attempt is gone
  if (result.code == StepCode::kConnectionLost) {
    lost(index, result.error);
    return;
  }
  if (!result.ok() || !delivery.connection->in_transaction()) transaction_may_end(delivery.session);
  if (delivery.lock_waiting) ++released_;
  forget_flight(index);
  const ExecutedStep done = run_.endpoint.stepper().deliver(delivery.slot, std::move(result),
                                                            run_.trace.traced(delivery.request));
  run_.endpoint.after_step(index, done, delivery.sent_binds);
}

// Past the wait limit in virtual time: the statement is cancelled, as the server's own
// lock_timeout or innodb_lock_wait_timeout would end it, and the attempt gets a lock timeout
// (common.cpp's fail(): its transaction rolled back whole, MariaDB included).
void ServerFlights::cancel_wait(uint32_t index) {
  Delivery& delivery = run_.network.delivery(index);
  ask([&](NonBlocking& server) { return server.cancel_statement(delivery.session); });
  if (!delivery.in_flight) return;  // the run connected again: its attempt is gone
  std::optional<StepResult> result;
  while (!(result = delivery.connection->nonblocking()->receive(kLookUs)))
    throw_if_error(check_interrupt());
  if (!result->ok() && result->code != StepCode::kConnectionLost)
    result = StepResult{StepCode::kLockTimeout, 0, std::nullopt,
                        fmt::format("waited {} ms for a lock: cancelled", kLockWaitLimitMs)};
  run_.trace.note(delivery.request, delivery.attempt, delivery.copy, "server",
                  std::string(run_.endpoint.stepper().pending(delivery.slot).step), "",
                  fmt::format("waited {} ms: cancelled", kLockWaitLimitMs));
  delivery.lock_waiting = false;  // its wait was ended, not let go
  take_answer(index, std::move(*result));
  settle_flights(kNoCause);
}

void ServerFlights::forget_flight(uint32_t index) {
  Delivery& delivery = run_.network.delivery(index);
  if (!delivery.in_flight) return;
  delivery.in_flight = false;
  delivery.lock_waiting = false;
  in_flight_.erase(std::find(in_flight_.begin(), in_flight_.end(), index));
}

}  // namespace idemlab::sim
