// Settling the statements explore sent to a server (server_settle.h).
#include "sim/explore/server_settle.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "attempt/step_values.h"
#include "core/interrupt.h"
#include "db/engine.h"

namespace idemlab {

namespace {

// How long one look at a statement's socket lasts before the server is asked whether the
// statement waits for a lock. It decides nothing: a statement is taken as waiting only when
// the server says so. A statement that does not wait answers in about 0.1 ms; one that waits
// costs the whole look before the server is asked.
constexpr int kLookUs = 200;

}  // namespace

// Settles every statement in flight: the one just sent (`cause`) first, then the others in
// attempt order, again until a pass changes nothing (an answer can end a transaction, whose
// locks let another statement go). The cause first, so that what it set off is seen in the
// same order every run, whichever answer reached the socket first.
Status ServerSettle::settle_all(ServerRunState& s, int cause) {
  std::vector<int> order;
  if (cause >= 0) order.push_back(cause);
  for (int i = 0; i < config_.duplicates; ++i)
    if (i != cause) order.push_back(i);
  for (bool changed = true; changed;) {
    changed = false;
    for (int i : order) {
      if (!s.flights[static_cast<size_t>(i)].sent) continue;
      bool answered = false;
      RETURN_IF_ERROR(settle(s, i, cause, &answered));
      changed |= answered;
    }
  }
  return Status::ok();
}

// Waits until the attempt's statement has its answer, or the server says it waits for a lock
// another attempt's open transaction holds. A statement already known to wait is only glanced
// at before the server is asked again: most stay waiting, and a look would cost each of them
// kLookUs every pass of settle_all().
Status ServerSettle::settle(ServerRunState& s, int attempt, int cause, bool* answered) {
  StatementFlight& flight = s.flights[static_cast<size_t>(attempt)];
  for (int look_us = flight.waiting ? 0 : kLookUs;; look_us = kLookUs) {
    if (std::optional<StepResult> result = flight.receive(look_us)) {
      if (result->link_lost()) return step_error(*flight.target, *result);  // ServerReplayer
      *answered = true;
      deliver(s, attempt, std::move(*result), cause);
      return Status::ok();
    }
    std::vector<int> waits_for;
    RETURN_IF_ERROR(holders(s, attempt, &waits_for));
    if (!waits_for.empty() && !(attempt == cause && closes_ring_answered_at_once(s, waits_for))) {
      if (!flight.waiting && s.record) {
        std::vector<std::string> names;
        for (int holder : waits_for) names.push_back(fmt::format("attempt {}", holder + 1));
        record_step(s, attempt, StepResult{},
                    fmt::format("waits for {}'s lock", fmt::join(names, " and ")));
      }
      flight.waiting = true;
      s.run.waited = true;
      *answered = false;
      return Status::ok();
    }
    RETURN_IF_ERROR(check_interrupt());
  }
}

// Whether the statement just sent, found waiting for `holders` that each wait themselves,
// closes a ring that the server answers the moment it is closed (InnoDB): it then waits only
// while the server checks for that ring, and the status report can catch it there on a loaded
// machine. It is looked at again until its answer comes (the victim's error, or its lock once
// the victim has rolled back), as when the check is over before anyone asks. Only the
// statement just sent: every waiter the last settle_all() left was confirmed waiting then, and
// nothing but this statement has reached the server since, so the ring is real.
bool ServerSettle::closes_ring_answered_at_once(const ServerRunState& s,
                                                const std::vector<int>& holders) const {
  if (!engine_traits(config_.server->engine).finds_deadlocks_at_once) return false;
  return std::all_of(holders.begin(), holders.end(),
                     [&](int holder) { return s.flights[static_cast<size_t>(holder)].waiting; });
}

// The attempts whose open transactions hold the lock the attempt's statement waits for, if it
// waits. Where the server does not name the holders (MariaDB), every other attempt with a
// transaction open is one; an attempt with none holds no lock.
Status ServerSettle::holders(const ServerRunState& s, int attempt, std::vector<int>* out) {
  out->clear();
  bool waiting = false;
  std::vector<int64_t> named;
  if (Status status = control_.nonblocking()->lock_wait(sessions_[static_cast<size_t>(attempt)],
                                                        &waiting, &named);
      !status.is_ok() || !waiting)
    return status;
  for (int i = 0; i < config_.duplicates; ++i) {
    const size_t index = static_cast<size_t>(i);
    const bool open = !s.stepper.finished(index) && connections_[index].in_transaction() &&
                      !s.ended_by_server[index];
    const bool among =
        named.empty() || std::find(named.begin(), named.end(), sessions_[index]) != named.end();
    if (i != attempt && open && among) out->push_back(i);
  }
  return Status::ok();
}

// Every attempt left waits: a deadlock the server will find (PostgreSQL after its
// deadlock_timeout, MariaDB at once), or a wait it ends at its lock wait limit. Answers are
// gathered until the server's own (an error: the victim's) is among them, or every statement
// has answered; the errors are delivered first, then what they let go, each in attempt order,
// whichever reached its socket first.
Status ServerSettle::await_server(ServerRunState& s) {
  std::vector<std::optional<StepResult>> got(static_cast<size_t>(config_.duplicates));
  for (bool have_error = false, all = false; !have_error && !all;) {
    all = true;
    for (int i = 0; i < config_.duplicates; ++i) {
      const size_t index = static_cast<size_t>(i);
      if (!s.flights[index].sent || got[index]) continue;
      got[index] = s.flights[index].receive(kLookUs);
      if (got[index] && got[index]->link_lost())
        return step_error(*s.flights[index].target, *got[index]);
      if (!got[index]) all = false;
      have_error |= got[index] && !got[index]->ok();
    }
    RETURN_IF_ERROR(check_interrupt());
  }
  int cause = -1;
  for (const bool errors : {true, false})
    for (int i = 0; i < config_.duplicates; ++i) {
      std::optional<StepResult>& result = got[static_cast<size_t>(i)];
      if (!result || result->ok() == errors) continue;
      deliver(s, i, std::move(*result), cause);
      result.reset();
      if (cause < 0) cause = i;
    }
  return settle_all(s, cause);
}

void ServerSettle::deliver(ServerRunState& s, int attempt, StepResult result, int cause) {
  StatementFlight& flight = s.flights[static_cast<size_t>(attempt)];
  const bool waited = flight.waiting;
  flight.sent = flight.waiting = false;
  s.run.deadlocked |= result.code == StepCode::kDeadlock;
  if (result.code == StepCode::kDeadlock && s.run.victim < 0) s.run.victim = attempt;
  s.run.serialized |= result.code == StepCode::kSerialization;
  s.run.unique_violation |= result.code == StepCode::kConstraint;
  s.ended_by_server[static_cast<size_t>(attempt)] = result.code == StepCode::kDeadlock ||
                                                    result.code == StepCode::kSerialization ||
                                                    result.code == StepCode::kConnectionLost;
  if (s.record) {
    std::string detail;
    if (waited)
      detail = cause < 0 || result.code == StepCode::kDeadlock
                   ? std::string("the server ended its wait")
                   : fmt::format("attempt {}'s {} let it go", cause + 1,
                                 s.sent_step[static_cast<size_t>(cause)]);
    record_step(s, attempt, result, detail);
  }
  const size_t index = static_cast<size_t>(attempt);
  const Stmt stmt = s.stepper.pending(index).stmt;
  const bool ok = result.ok();
  (void)s.stepper.deliver(index, std::move(result), false);
  if (ok && (stmt == Stmt::kCommit ||
             (statement_takes_write_lock(stmt) && !connections_[index].in_transaction())))
    throw_if_error(cluster_.settle());  // on a cluster: what the commit sets off, at once
  if (attempt == s.crash.attempt && ++s.crash_count == s.crash.after &&
      !s.stepper.finished(index)) {
    s.stepper.kill(index);  // rolls back what it had not committed
    s.run.crashed = true;
    if (s.record)
      s.run.timeline.push_back({s.clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0,
                                "crash", "", "the attempt dies; no answer", "", "crash"});
  }
}

void ServerSettle::record_step(ServerRunState& s, int attempt, const StepResult& result,
                               std::string detail) {
  const StatementFlight& flight = s.flights[static_cast<size_t>(attempt)];
  const PendingStep& pending = s.stepper.pending(static_cast<size_t>(attempt));
  const bool waits = flight.sent;  // still in flight: the server has not answered yet
  s.run.timeline.push_back(
      {s.clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0, std::string(pending.step),
       std::move(detail),
       waits ? std::string()
             : describe_values_on(config_.server->engine, pending.stmt, flight.binds, result,
                                  kExploreStartMs),
       std::string(flight.target ? flight.target->statement_text(pending.stmt) : ""), ""});
}

}  // namespace idemlab
