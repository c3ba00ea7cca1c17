// Explore on PostgreSQL and MariaDB. A step is one statement, sent without blocking. After
// each step the run settles: every statement in flight either has its answer or waits for a
// lock, on the server's own word (pg_blocking_pids, INNODB_LOCK_WAITS), never a timer's. A
// waiting attempt is not enabled; the others go on, and its statement ends when the server
// lets it: the holder committed or rolled back, or the server chose it as a deadlock's victim.
#include "sim/explore/server_replayer.h"

#include <fmt/format.h>

#include <algorithm>

#include "attempt/step_values.h"
#include "core/interrupt.h"
#include "db/engine.h"
#include "db/mariadb/cluster_settle.h"
#include "ledger/ledger.h"
#include "sim/explore/commuting_steps.h"
#include "sim/explore/server_run_state.h"
#include "sim/shared/scratch_server.h"

namespace idemlab {

namespace {

// How long one look at a statement's socket lasts before the server is asked whether the
// statement waits for a lock. It decides nothing: a statement is taken as waiting only when
// the server says so. A statement that does not wait answers in about 0.1 ms; one that waits
// costs the whole look before the server is asked.
constexpr int kLookUs = 200;

class ServerReplayer final : public Replayer {
 public:
  ServerReplayer(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config)
      : strategy_(strategy), pitfall_(pitfall), config_(config) {}

  Status prepare();
  Status run(const std::vector<int>& prefix, FaultPoint crash, bool record,
             ExploreRun* out) override;
  std::string isolation() const override { return connections_.front().isolation(); }

 private:
  Status start_run(ServerRunState& s);
  std::vector<int> awake(const ServerRunState& s, const std::vector<int>& enabled) const;
  std::vector<bool> asleep_after(const ServerRunState& s, const std::vector<int>& choices,
                                 int choice, bool in_flight) const;
  StepFacts step_facts(const ServerRunState& s, int attempt) const;
  Status send(ServerRunState& s, int attempt);
  Status settle_all(ServerRunState& s, int cause);
  Status settle(ServerRunState& s, int attempt, int cause, bool* answered);
  Status await_server(ServerRunState& s);
  bool closes_ring_answered_at_once(const ServerRunState& s, const std::vector<int>& holders) const;
  void deliver(ServerRunState& s, int attempt, StepResult result, int cause);
  Status holders(const ServerRunState& s, int attempt, std::vector<int>* out);
  void record_step(ServerRunState& s, int attempt, const StepResult& result, std::string detail);

  const Strategy& strategy_;
  const Pitfall pitfall_;
  const ExploreConfig& config_;
  ScratchServer scratch_;
  ClusterSettle cluster_;
  ExploreRedis redis_;
  std::vector<Connection> connections_;  // one per attempt, then the late retry's
  std::vector<int64_t> sessions_;        // the server's number for each
  std::string token_;
};

Status ServerReplayer::prepare() {
  RETURN_IF_ERROR(
      ScratchServer::create(*config_.server, {{"alice", 100000}, {"bob", 0}}, &scratch_));
  RETURN_IF_ERROR(redis_.open(strategy_, config_));
  RETURN_IF_ERROR(cluster_.open(scratch_.locator()));
  connections_.resize(static_cast<size_t>(config_.duplicates) + 1);
  ConnectionOptions options = scratch_server_options(config_.isolation);
  options.nonblocking = true;
  for (Connection& connection : connections_) {
    ASSIGN_OR_RETURN(connection, scratch_.connect(options));
    sessions_.push_back(connection.nonblocking()->session_id());
  }
  return Status::ok();
}

Status ServerReplayer::start_run(ServerRunState& s) {
  RETURN_IF_ERROR(scratch_.reset());
  RETURN_IF_ERROR(cluster_.settle());
  RETURN_IF_ERROR(redis_.reset());
  StatementRunner& tokens =
      redis_.store() ? static_cast<StatementRunner&>(*redis_.store()) : scratch_.control();
  RETURN_IF_ERROR(issue_explore_token(tokens, &token_));
  const TransferRequest request = explore_request(config_, token_);
  for (int i = 0; i < config_.duplicates; ++i)
    s.stepper.start(connections_[static_cast<size_t>(i)], s.clock, strategy_,
                    explore_options(pitfall_, token_, config_, i), request, redis_.store());
  s.flights.assign(static_cast<size_t>(config_.duplicates), StatementFlight{});
  s.sent_step.assign(static_cast<size_t>(config_.duplicates), {});
  s.ended_by_server.assign(static_cast<size_t>(config_.duplicates), false);
  s.asleep.assign(static_cast<size_t>(config_.duplicates), false);
  return Status::ok();
}

Status ServerReplayer::run(const std::vector<int>& prefix, FaultPoint crash, bool record,
                           ExploreRun* out) {
  ServerRunState s(record, crash);
  RETURN_IF_ERROR(start_run(s));
  const int k = config_.duplicates;
  for (size_t depth = 0;;) {
    std::vector<int> enabled;
    bool in_flight = false;
    for (int i = 0; i < k; ++i) {
      in_flight |= s.flights[static_cast<size_t>(i)].sent;
      if (!s.stepper.finished(static_cast<size_t>(i)) && !s.flights[static_cast<size_t>(i)].sent)
        enabled.push_back(i);
    }
    if (enabled.empty() && !in_flight) break;
    if (enabled.empty()) {  // every attempt left waits for another: only the server can end it
      RETURN_IF_ERROR(await_server(s));
      continue;
    }
    std::vector<int> choices = awake(s, enabled);
    if (choices.empty()) {
      // Every enabled attempt sleeps: each of its orders from here was tried on another
      // branch. The run goes on, one way, only to leave the connections clean; it is not counted.
      s.run.redundant = true;
      choices = {enabled.front()};
    }
    int choice = choices.front();
    if (depth < prefix.size() && s.run.diverged_step == 0) {
      choice = prefix[depth];
      if (std::find(choices.begin(), choices.end(), choice) == choices.end()) {
        // The server let waiting statements go in another order than in the run this prefix
        // came from (PostgreSQL wakes all waiters on a row, and they race for it).
        s.run.diverged_step = static_cast<int>(depth) + 1;
        s.run.redundant = true;
        choice = choices.front();
      }
    }
    ++depth;
    s.asleep = asleep_after(s, choices, choice, in_flight);
    s.run.schedule.push_back(choice);
    s.run.enabled.push_back(std::move(choices));
    s.clock.advance_ms(1);
    RETURN_IF_ERROR(send(s, choice));
    RETURN_IF_ERROR(settle_all(s, choice));
  }
  if (s.run.redundant) {
    *out = std::move(s.run);
    return Status::ok();
  }
  if (s.run.crashed)
    RETURN_IF_ERROR(late_explore_retry(connections_.back(), redis_.store(), s.clock, s.stepper,
                                       strategy_, pitfall_, token_, config_, record, &s.run));
  RETURN_IF_ERROR(judge_explore_run(connections_[0], s.stepper, record,
                                    s.clock.now_ms() - kExploreStartMs, &s.run));
  *out = std::move(s.run);
  return Status::ok();
}

// The enabled attempts not asleep: those whose next step, taken here, could lead somewhere
// no branch tried before did. With --all-orders, every enabled attempt.
std::vector<int> ServerReplayer::awake(const ServerRunState& s,
                                       const std::vector<int>& enabled) const {
  std::vector<int> out;
  for (int attempt : enabled)
    if (config_.all_orders || !s.asleep[static_cast<size_t>(attempt)]) out.push_back(attempt);
  return out;
}

// Sleep sets. Before `choice` runs, the choices tried before it here (those ahead of it in
// `choices`) fall asleep, and so stay the ones already asleep, as long as their next step
// commutes with `choice`'s: every order that starts with theirs was, or will be, tried on their
// own branches. A step that does not commute with `choice` wakes its attempt.
std::vector<bool> ServerReplayer::asleep_after(const ServerRunState& s,
                                               const std::vector<int>& choices, int choice,
                                               bool in_flight) const {
  std::vector<bool> asleep = s.asleep;
  for (int attempt : choices) {
    if (attempt == choice) break;
    asleep[static_cast<size_t>(attempt)] = true;
  }
  asleep[static_cast<size_t>(choice)] = false;
  const bool serializable = isolation() == "serializable";
  const StepFacts chosen = step_facts(s, choice);
  for (int i = 0; i < config_.duplicates; ++i)
    if (asleep[static_cast<size_t>(i)])
      asleep[static_cast<size_t>(i)] =
          steps_commute(step_facts(s, i), chosen, serializable, in_flight);
  return asleep;
}

StepFacts ServerReplayer::step_facts(const ServerRunState& s, int attempt) const {
  const size_t index = static_cast<size_t>(attempt);
  const Stmt stmt = s.stepper.pending(index).stmt;
  // The crashing attempt's statement whose answer is its last: the attempt dies then, and its
  // transaction rolls back, which can let another's statement go.
  const bool dies_after = attempt == s.crash.attempt && s.crash_count + 1 == s.crash.after;
  return {stmt, connections_[index].in_transaction(), goes_to_guards(redis_.store(), stmt),
          dies_after || s.ended_by_server[index]};
}

Status ServerReplayer::send(ServerRunState& s, int attempt) {
  StatementRunner* target = nullptr;
  const PendingStep& pending = s.stepper.prepare_send(static_cast<size_t>(attempt), &target);
  StatementFlight& flight = s.flights[static_cast<size_t>(attempt)];
  flight = StatementFlight{};
  flight.sent = true;
  flight.target = target;
  if (s.record) flight.binds = pending.binds;
  s.sent_step[static_cast<size_t>(attempt)] = pending.step;
  s.ended_by_server[static_cast<size_t>(attempt)] = false;
  Connection& connection = connections_[static_cast<size_t>(attempt)];
  if (target != &connection) {  // Redis answers at once, and holds no lock to wait for
    flight.answered = target->run(pending.stmt, pending.binds);
    return Status::ok();
  }
  flight.server = connection.nonblocking();
  return flight.server->send(pending.stmt, pending.binds);
}

// Settles every statement in flight: the one just sent (`cause`) first, then the others in
// attempt order, again until a pass changes nothing (an answer can end a transaction, whose
// locks let another statement go). The cause first, so that what it set off is seen in the
// same order every run, whichever answer reached the socket first.
Status ServerReplayer::settle_all(ServerRunState& s, int cause) {
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
Status ServerReplayer::settle(ServerRunState& s, int attempt, int cause, bool* answered) {
  StatementFlight& flight = s.flights[static_cast<size_t>(attempt)];
  for (int look_us = flight.waiting ? 0 : kLookUs;; look_us = kLookUs) {
    if (std::optional<StepResult> result = flight.receive(look_us)) {
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
bool ServerReplayer::closes_ring_answered_at_once(const ServerRunState& s,
                                                  const std::vector<int>& holders) const {
  if (!engine_traits(config_.server->engine).finds_deadlocks_at_once) return false;
  return std::all_of(holders.begin(), holders.end(),
                     [&](int holder) { return s.flights[static_cast<size_t>(holder)].waiting; });
}

// The attempts whose open transactions hold the lock the attempt's statement waits for, if it
// waits. Where the server does not name the holders (MariaDB), every other attempt with a
// transaction open is one; an attempt with none holds no lock.
Status ServerReplayer::holders(const ServerRunState& s, int attempt, std::vector<int>* out) {
  out->clear();
  bool waiting = false;
  std::vector<int64_t> named;
  if (Status status = scratch_.control().nonblocking()->lock_wait(
          sessions_[static_cast<size_t>(attempt)], &waiting, &named);
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
Status ServerReplayer::await_server(ServerRunState& s) {
  std::vector<std::optional<StepResult>> got(static_cast<size_t>(config_.duplicates));
  for (bool have_error = false, all = false; !have_error && !all;) {
    all = true;
    for (int i = 0; i < config_.duplicates; ++i) {
      const size_t index = static_cast<size_t>(i);
      if (!s.flights[index].sent || got[index]) continue;
      got[index] = s.flights[index].receive(kLookUs);
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

void ServerReplayer::deliver(ServerRunState& s, int attempt, StepResult result, int cause) {
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

void ServerReplayer::record_step(ServerRunState& s, int attempt, const StepResult& result,
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

}  // namespace

Result<std::unique_ptr<Replayer>> make_server_replayer(const Strategy& strategy, Pitfall pitfall,
                                                       const ExploreConfig& config) {
  auto replayer = std::make_unique<ServerReplayer>(strategy, pitfall, config);
  RETURN_IF_ERROR(replayer->prepare());
  return std::unique_ptr<Replayer>(std::move(replayer));
}

}  // namespace idemlab
