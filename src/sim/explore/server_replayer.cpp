// Explore on PostgreSQL and MariaDB. A step is one statement, sent without blocking. After
// each step the run settles: every statement in flight either has its answer or waits for a
// lock, on the server's own word (pg_blocking_pids, INNODB_LOCK_WAITS), never a timer's. A
// waiting attempt is not enabled; the others go on, and its statement ends when the server
// lets it: the holder committed or rolled back, or the server chose it as a deadlock's victim
// (server_settle.h). Here: the walk over the attempts' orders, with sleep sets.
#include "sim/explore/server_replayer.h"

#include <algorithm>

#include "db/mariadb/cluster_settle.h"
#include "ledger/ledger.h"
#include "sim/explore/commuting_steps.h"
#include "sim/explore/server_run_state.h"
#include "sim/explore/server_settle.h"
#include "sim/shared/scratch_server.h"

namespace idemlab {

namespace {

class ServerReplayer final : public Replayer {
 public:
  ServerReplayer(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config)
      : strategy_(strategy), pitfall_(pitfall), config_(config) {}

  Status prepare();
  Status run(const std::vector<int>& prefix, FaultPoint crash, bool record,
             ExploreRun* out) override;
  std::string isolation() const override { return connections_.front().isolation(); }
  int64_t relinks() const override { return relinks_; }

 private:
  Status run_once(const std::vector<int>& prefix, FaultPoint crash, bool record, ExploreRun* out);
  bool link_lost() const;
  Status relink();
  Status start_run(ServerRunState& s);
  std::vector<int> awake(const ServerRunState& s, const std::vector<int>& enabled) const;
  std::vector<bool> asleep_after(const ServerRunState& s, const std::vector<int>& choices,
                                 int choice, bool in_flight) const;
  StepFacts step_facts(const ServerRunState& s, int attempt) const;
  Status send(ServerRunState& s, int attempt);

  const Strategy& strategy_;
  const Pitfall pitfall_;
  const ExploreConfig& config_;
  ScratchServer scratch_;
  ClusterSettle cluster_;
  ExploreRedis redis_;
  std::vector<Connection> connections_;  // one per attempt, then the late retry's
  std::vector<int64_t> sessions_;        // the server's number for each
  ServerSettle settle_{config_, scratch_.control(), cluster_, connections_, sessions_};
  std::string token_;
  int64_t relinks_ = 0;
};

// A link lost under an interleaving (a failover, a node gone) cuts it: what it did is not
// judged. The run connects again through the topology, which waits while it settles, and runs
// that interleaving again from its start on a ledger reset as before every run: the walk sees
// the same answers it would have seen without the failover.
Status ServerReplayer::run(const std::vector<int>& prefix, FaultPoint crash, bool record,
                           ExploreRun* out) {
  return run_through_failovers([&] { return run_once(prefix, crash, record, out); },
                               [&] { return link_lost(); }, [&] { return relink(); }, redis_,
                               &relinks_);
}

// Whether a statement run outside the flights (a late retry's, the judge's) found its link lost.
bool ServerReplayer::link_lost() const {
  return std::any_of(connections_.begin(), connections_.end(),
                     [](const Connection& connection) { return connection.link_lost(); });
}

// Every connection of the run is made again, the control connection first: on a single primary
// a failover ended them all.
Status ServerReplayer::relink() {
  RETURN_IF_ERROR(scratch_.relink_control());
  RETURN_IF_ERROR(cluster_.open(scratch_.locator()));
  ConnectionOptions options = scratch_server_options(config_.isolation);
  options.nonblocking = true;
  for (size_t i = 0; i < connections_.size(); ++i) {
    ASSIGN_OR_RETURN(connections_[i], scratch_.reconnect(options));
    sessions_[i] = connections_[i].nonblocking()->session_id();
  }
  return Status::ok();
}

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

Status ServerReplayer::run_once(const std::vector<int>& prefix, FaultPoint crash, bool record,
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
      RETURN_IF_ERROR(settle_.await_server(s));
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
    RETURN_IF_ERROR(settle_.settle_all(s, choice));
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

}  // namespace

Result<std::unique_ptr<Replayer>> make_server_replayer(const Strategy& strategy, Pitfall pitfall,
                                                       const ExploreConfig& config) {
  auto replayer = std::make_unique<ServerReplayer>(strategy, pitfall, config);
  RETURN_IF_ERROR(replayer->prepare());
  return std::unique_ptr<Replayer>(std::move(replayer));
}

}  // namespace idemlab
