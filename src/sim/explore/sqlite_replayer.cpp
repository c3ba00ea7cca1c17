// Explore on SQLite: every schedule replayed from scratch on a fresh copy of a template ledger
// in memory, one connection per attempt; a step is one statement outside a transaction, or a
// whole write transaction (explore.h says why that loses nothing).
#include "sim/explore/sqlite_replayer.h"

#include <fmt/format.h>

#include "attempt/step_values.h"
#include "db/sqlite/undo_log.h"
#include "ledger/read_split.h"
#include "sim/explore/cluster_run.h"
#include "sim/explore/replayer.h"
#include "sim/shared/lagging_replica.h"
#include "sim/shared/scratch_ledger.h"
#include "sim/shared/write_set_log.h"

namespace idemlab {

namespace {

// ledger=standby:reads=standby: one run's read replica, which applies the run's first `applies`
// commits and none after, and each attempt's reads outside its write transaction, sent there.
struct RunReplica {
  WriteSetLog writes;  // what the replica follows
  LaggingReplica replica;
  std::vector<std::unique_ptr<ReadSplit>> reads;  // by attempt
  int applies = -1;
  int commits = 0;  // commits the run made so far
  bool missed = false;

  // Follows a statement a connection to the ledger ran (Stepper::on_run).
  void follow(const Connection& connection, const PendingStep& step, int64_t now_ms) {
    const bool commits_now =
        step.result.ok() && (step.stmt == Stmt::kCommit ||
                             (statement_takes_write_lock(step.stmt) &&
                              step.stmt != Stmt::kBeginImmediate && !connection.in_transaction()));
    if (commits < applies)
      writes.ran(connection, step, now_ms);
    else
      missed |= commits_now;
    commits += commits_now;
  }
};

class SqliteReplayer final : public Replayer {
 public:
  SqliteReplayer(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config)
      : strategy_(strategy), pitfall_(pitfall), config_(config) {}

  Status prepare();
  Status run(const std::vector<int>& prefix, FaultPoint faults, bool record,
             ExploreRun* out) override;

 private:
  Status open_run_ledger(ScratchLedger* ledger, std::vector<Connection>* connections);
  Status start_run(ScratchLedger* ledger, std::vector<Connection>* connections,
                   const ManualClock& clock, Stepper* stepper, RunReplica* replica,
                   RunCluster* cluster, int apply_lag_ms);
  Status open_cluster(const ScratchLedger& ledger, std::vector<Connection>* connections,
                      const ManualClock& clock, Stepper* stepper, RunCluster* cluster,
                      int apply_lag_ms);
  ExecutedStep advance(Stepper& stepper, int attempt, Connection& connection, RunCluster& cluster,
                       ExploreRun* run);
  Status end_run(std::vector<Connection>& connections, ManualClock& clock, Stepper& stepper,
                 RunCluster& cluster, bool record, ExploreRun* run);
  std::vector<int> enabled_attempts(const Stepper& stepper, int k) const;
  void record_step(const ManualClock& clock, int attempt, const ExecutedStep& step,
                   const Binds& binds, std::string_view place, Connection& connection,
                   ExploreRun* run);
  Status fail_over_after(const ExecutedStep& step, int attempt, FaultPoint faults,
                         const ManualClock& clock, bool record, int* guard_writes, ExploreRun* run);
  static Status fail_over_ledger(UndoLog* undo, Connection& connection, int attempt,
                                 FaultPoint faults, const ManualClock& clock, bool record,
                                 ExploreRun* run);

  const Strategy& strategy_;
  const Pitfall pitfall_;
  const ExploreConfig& config_;
  ScratchLedger template_;  // every run starts from a copy of it
  Connection template_connection_;
  ExploreGuards guards_;
  std::string token_;
};

Status SqliteReplayer::prepare() {
  RETURN_IF_ERROR(
      ScratchLedger::create({{"alice", 100000}, {"bob", 0}}, &template_, &template_connection_));
  RETURN_IF_ERROR(guards_.open(strategy_, config_));
  return issue_explore_token(template_connection_, &token_);
}

// A fresh copy of the template ledger, one connection per attempt and one for a late retry.
Status SqliteReplayer::open_run_ledger(ScratchLedger* ledger,
                                       std::vector<Connection>* connections) {
  RETURN_IF_ERROR(ScratchLedger::copy(template_connection_, ledger));
  connections->resize(static_cast<size_t>(config_.duplicates) + 1);
  for (auto& connection : *connections) {
    ASSIGN_OR_RETURN(connection, ledger->connect());
  }
  return Status::ok();
}

// A fresh ledger (with --redis, the keys emptied and the token issued into them again), and
// the attempts started on it.
Status SqliteReplayer::start_run(ScratchLedger* ledger, std::vector<Connection>* connections,
                                 const ManualClock& clock, Stepper* stepper, RunReplica* replica,
                                 RunCluster* cluster, int apply_lag_ms) {
  RETURN_IF_ERROR(open_run_ledger(ledger, connections));
  if (config_.galera_nodes > 0)
    RETURN_IF_ERROR(open_cluster(*ledger, connections, clock, stepper, cluster, apply_lag_ms));
  if (replica->applies >= 0) {
    RETURN_IF_ERROR(LaggingReplica::create((*connections)[0], 0, &replica->replica));
    replica->writes.follow(&replica->replica);
    for (int i = 0; i < config_.duplicates; ++i)
      replica->reads.push_back(
          replica_reads(replica->replica, (*connections)[static_cast<size_t>(i)], clock, false));
    stepper->on_run = [this, replica, &clock](const Connection& connection,
                                              const PendingStep& step) {
      if (!guards_.in_store(step.stmt)) replica->follow(connection, step, clock.now_ms());
    };
  }
  if (guards_.store()) {
    RETURN_IF_ERROR(guards_.reset());
    RETURN_IF_ERROR(issue_explore_token(*guards_.store(), &token_));
  }
  const TransferRequest request = explore_request(config_, token_);
  for (int i = 0; i < config_.duplicates; ++i)
    stepper->start((*connections)[static_cast<size_t>(i)], clock, strategy_,
                   explore_options(pitfall_, token_, config_, i), request, guards_.store(),
                   replica->applies >= 0 ? replica->reads[static_cast<size_t>(i)].get() : nullptr);
  return Status::ok();
}

// ledger=galera: the run's ledger as a cluster, each connection on the next node, the nodes
// following every statement the attempts run in it.
Status SqliteReplayer::open_cluster(const ScratchLedger& ledger,
                                    std::vector<Connection>* connections, const ManualClock& clock,
                                    Stepper* stepper, RunCluster* cluster, int apply_lag_ms) {
  RETURN_IF_ERROR(cluster->open(ledger, config_, pitfall_, apply_lag_ms, connections));
  stepper->on_run = [this, cluster, &clock](const Connection& connection, const PendingStep& step) {
    if (!guards_.in_store(step.stmt)) cluster->writes().ran(connection, step, clock.now_ms());
  };
  return Status::ok();
}

// Runs the attempt's pending step; on a cluster, a COMMIT it refuses is answered as the node
// answers it instead, and the first attempt refused is the run's victim.
ExecutedStep SqliteReplayer::advance(Stepper& stepper, int attempt, Connection& connection,
                                     RunCluster& cluster, ExploreRun* run) {
  const size_t index = static_cast<size_t>(attempt);
  std::optional<StepResult> refused;
  if (cluster.on()) refused = cluster.before(connection, stepper.pending(index));
  if (!refused) return stepper.advance(index);
  if (!run->deadlocked) run->victim = attempt;
  run->deadlocked = true;
  return stepper.deliver(index, std::move(*refused));
}

// The attempts that may take the next step. While one holds SQLite's write lock (tokens and
// locks in Redis: a transaction spans steps), the others' ledger statements wait for it, and
// only their Redis commands can go.
std::vector<int> SqliteReplayer::enabled_attempts(const Stepper& stepper, int k) const {
  int holder = -1;
  for (int i = 0; i < k; ++i)
    if (!stepper.finished(static_cast<size_t>(i)) && stepper.in_transaction(static_cast<size_t>(i)))
      holder = i;
  std::vector<int> enabled;
  for (int i = 0; i < k; ++i) {
    const size_t index = static_cast<size_t>(i);
    if (stepper.finished(index)) continue;
    if (holder < 0 || i == holder || statement_is_guard(stepper.pending(index).stmt))
      enabled.push_back(i);
  }
  return enabled;
}

// The timeline's line for a step that ran, with where its lookup went under
// ledger=standby:reads=standby.
void SqliteReplayer::record_step(const ManualClock& clock, int attempt, const ExecutedStep& step,
                                 const Binds& binds, std::string_view place, Connection& connection,
                                 ExploreRun* run) {
  run->timeline.push_back(
      {clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0, std::string(step.step), "",
       describe_values(step.stmt, binds, step.result, kExploreStartMs) + std::string(place),
       std::string(statement_text_on(connection, guards_.store(), step.stmt)), ""});
}

// --failover: counts the run's guard writes; right after the one the fault point names, the
// guard store fails over and its replica, which never received that write, takes over.
Status SqliteReplayer::fail_over_after(const ExecutedStep& step, int attempt, FaultPoint faults,
                                       const ManualClock& clock, bool record, int* guard_writes,
                                       ExploreRun* run) {
  ReplicatedGuards* store = guards_.replicated();
  const bool wrote =
      store && statement_writes_guard(step.stmt) && step.result.ok() && step.result.changes > 0;
  if (!wrote || ++*guard_writes != faults.failover_after) return Status::ok();
  ASSIGN_OR_RETURN(const int64_t lost, store->failover(clock.now_ms(), 0));
  run->failed_over = true;
  if (record)
    run->timeline.push_back(
        {clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0, "failover", "",
         fmt::format("the guard store's primary dies; its replica takes over without {}",
                     lost == 1 ? std::string("that write") : fmt::format("{} writes", lost)),
         "", "failover"});
  return Status::ok();
}

// --failover=ledger: right after the run's commit the fault point names (its N-th that changed
// a row), the ledger's primary dies and its standby, which never received that commit, takes
// over: the commit is undone in place, so every attempt's connection finds the promoted data.
// No transaction is open then: on SQLite the commit ended the only write transaction.
Status SqliteReplayer::fail_over_ledger(UndoLog* undo, Connection& connection, int attempt,
                                        FaultPoint faults, const ManualClock& clock, bool record,
                                        ExploreRun* run) {
  if (!undo || run->failed_over || undo->recorded() != faults.ledger_failover_after)
    return Status::ok();
  ASSIGN_OR_RETURN(const int64_t lost, undo->undo_since(connection, clock.now_ms()));
  if (lost != 1) return Status::internal("a ledger failover lost other than its one commit");
  run->failed_over = true;
  if (record)
    run->timeline.push_back(
        {clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0, "failover", "",
         "the ledger's primary dies; its standby takes over without that commit", "", "failover"});
  return Status::ok();
}

// An undo log watching every connection of a run, for a failover of its ledger.
Status watch_ledger(const ManualClock& clock, std::vector<Connection>& connections,
                    std::unique_ptr<UndoLog>* out) {
  auto undo = std::make_unique<UndoLog>(clock, 0);
  for (auto& connection : connections) RETURN_IF_ERROR(undo->watch(connection));
  *out = std::move(undo);
  return Status::ok();
}

// Where a step ran, for the timeline: " (on node 2)" on a cluster, " (on the standby)" for a
// lookup sent there; "" on the one ledger.
std::string place(const RunCluster& cluster, const Connection& connection, bool on_replica) {
  if (cluster.on()) return fmt::format(" (on node {})", cluster.node_of(connection) + 1);
  return on_replica ? " (on the standby)" : "";
}

// After a step on a cluster: the appliers apply what they may, and the timeline says so.
void follow_appliers(const ManualClock& clock, int attempt, bool record, RunCluster& cluster,
                     ExploreRun* run) {
  std::vector<std::string> notes;
  cluster.after(clock.now_ms(), record ? &notes : nullptr);
  for (std::string& note : notes)
    run->timeline.push_back({clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0,
                             "applier", std::move(note), "", "", ""});
}

// --crash: the attempt dies where the fault point says, rolling back what it had not committed.
void crash_attempt(Stepper& stepper, int attempt, const ManualClock& clock, bool record,
                   ExploreRun* run) {
  stepper.kill(static_cast<size_t>(attempt));
  run->crashed = true;
  if (record)
    run->timeline.push_back({clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0, "crash",
                             "", "the attempt dies; no answer", "", "crash"});
}

Status SqliteReplayer::run(const std::vector<int>& prefix, FaultPoint faults, bool record,
                           ExploreRun* out) {
  const FaultPoint crash = faults;
  ScratchLedger ledger;
  std::vector<Connection> connections;
  ManualClock clock(kExploreStartMs);
  RunReplica replica;  // before the stepper, whose attempts read through it
  RunCluster cluster;  // ledger=galera: the nodes the attempts run on
  replica.applies = faults.replica_applies;
  Stepper stepper;
  RETURN_IF_ERROR(
      start_run(&ledger, &connections, clock, &stepper, &replica, &cluster, faults.apply_lag_ms));
  std::unique_ptr<UndoLog> undo;  // --failover=ledger: on every connection of the run
  if (faults.ledger_failover_after > 0) RETURN_IF_ERROR(watch_ledger(clock, connections, &undo));
  const int k = config_.duplicates;
  ExploreRun run;
  int crash_count = 0;   // statements the crashing attempt has run
  int guard_writes = 0;  // writes the attempts made to the guard store
  auto execute = [&](int attempt) -> Status {
    const size_t index = static_cast<size_t>(attempt);
    clock.advance_ms(1);
    const Binds binds = record ? stepper.pending(index).binds : Binds{};
    const bool on_replica = replica.applies >= 0 && !stepper.in_transaction(index) &&
                            ReadSplit::routes(stepper.pending(index).stmt);
    const ExecutedStep step = advance(stepper, attempt, connections[index], cluster, &run);
    if (step.result.code == StepCode::kBusy)
      return Status::internal("a step found the lock taken at a choice point");
    if (record)
      record_step(clock, attempt, step, binds, place(cluster, connections[index], on_replica),
                  connections[index], &run);
    if (cluster.on()) follow_appliers(clock, attempt, record, cluster, &run);
    RETURN_IF_ERROR(fail_over_after(step, attempt, faults, clock, record, &guard_writes, &run));
    RETURN_IF_ERROR(
        fail_over_ledger(undo.get(), connections[0], attempt, faults, clock, record, &run));
    if (attempt == crash.attempt && ++crash_count == crash.after && !stepper.finished(index))
      crash_attempt(stepper, attempt, clock, record, &run);
    return Status::ok();
  };
  for (size_t depth = 0;; ++depth) {
    const std::vector<int> enabled = enabled_attempts(stepper, k);
    if (enabled.empty()) break;
    int choice = depth < prefix.size() ? prefix[depth] : enabled.front();
    run.schedule.push_back(choice);
    run.enabled.push_back(enabled);
    RETURN_IF_ERROR(execute(choice));
    // A write transaction is one step: nothing another attempt does in the ledger meanwhile
    // changes what it sees. Tokens and locks in Redis are another matter: there, another
    // attempt's command can come between two of its statements, so each statement is a step.
    while (!guards_.store() && !stepper.finished(static_cast<size_t>(choice)) &&
           stepper.in_transaction(static_cast<size_t>(choice)))
      RETURN_IF_ERROR(execute(choice));
  }
  run.replica_missed = replica.missed;
  run.lag_landed = cluster.lag_landed();
  RETURN_IF_ERROR(end_run(connections, clock, stepper, cluster, record, &run));
  *out = std::move(run);
  return Status::ok();
}

// The attempts are done: after a crash, the late retry; then the run is judged (on a cluster,
// every node caught up first: the late retry finds it so, and the journal is judged whole).
Status SqliteReplayer::end_run(std::vector<Connection>& connections, ManualClock& clock,
                               Stepper& stepper, RunCluster& cluster, bool record,
                               ExploreRun* run) {
  if (cluster.on()) RETURN_IF_ERROR(cluster.finish());
  if (run->crashed)
    RETURN_IF_ERROR(late_explore_retry(connections.back(), guards_.store(), clock, stepper,
                                       strategy_, pitfall_, token_, config_, record, run));
  if (cluster.on()) RETURN_IF_ERROR(cluster.finish());
  return judge_explore_run(connections[0], stepper, record, clock.now_ms() - kExploreStartMs, run);
}

}  // namespace

Result<std::unique_ptr<Replayer>> make_sqlite_replayer(const Strategy& strategy, Pitfall pitfall,
                                                       const ExploreConfig& config) {
  auto replayer = std::make_unique<SqliteReplayer>(strategy, pitfall, config);
  RETURN_IF_ERROR(replayer->prepare());
  return std::unique_ptr<Replayer>(std::move(replayer));
}

}  // namespace idemlab
