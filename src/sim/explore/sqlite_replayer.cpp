// Explore on SQLite: every schedule replayed from the start on a copy of a template ledger in
// memory (the same copy, reset between runs, when no replica follows it: reused_ledger.h), one
// connection per attempt; a step is one statement outside a transaction, or a whole write
// transaction (explore.h says why that loses nothing).
#include "sim/explore/sqlite_replayer.h"

#include <fmt/format.h>

#include "attempt/step_values.h"
#include "ledger/read_split.h"
#include "sim/explore/cluster_run.h"
#include "sim/explore/replayer.h"
#include "sim/explore/reused_ledger.h"
#include "sim/shared/lagging_replica.h"
#include "sim/shared/replicas.h"
#include "sim/shared/scratch_ledger.h"
#include "sim/shared/write_set_log.h"

namespace idemlab {

namespace {

// One run: its ledger and connections, the replicas that follow them (Replicas), and the
// attempts. Members go in the reverse of this order: the attempts first, then the read splits
// and the cluster's view, then the replicas, and the connections after every part that
// watches them.
struct SqliteRun {
  SqliteRun() = default;
  SqliteRun(const SqliteRun&) = delete;
  SqliteRun& operator=(const SqliteRun&) = delete;
  // The reused ledger's connections go back (where they stay, as the parts below point at them).
  ~SqliteRun() {
    if (reused) reused->give_back(std::move(connections));
  }

  ReusedLedger* reused = nullptr;  // the connections' ledger when the run does not replicate it
  ScratchLedger ledger;            // its own ledger otherwise
  std::vector<Connection> connections;  // one per attempt, and one for a late retry
  ManualClock clock{kExploreStartMs};
  Replicas replicas;
  GuardStore* guards = nullptr;  // where tokens and locks go: Redis or the replicas' store
  RunCluster cluster;            // ledger=galera: the nodes the attempts run on
  std::vector<std::unique_ptr<ReadSplit>> reads;  // reads=standby: by attempt
  Stepper stepper;
  ExploreRun run;
  int crash_count = 0;   // statements the crashing attempt has run
  int guard_writes = 0;  // writes the attempts made to the guard store
};

class SqliteReplayer final : public Replayer {
 public:
  SqliteReplayer(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config)
      : strategy_(strategy), pitfall_(pitfall), config_(config) {}

  Status prepare();
  Status run(const std::vector<int>& prefix, FaultPoint faults, bool record,
             ExploreRun* out) override;
  int64_t relinks() const override { return relinks_; }

 private:
  Status run_once(const std::vector<int>& prefix, FaultPoint faults, bool record, ExploreRun* out);
  Status open_run_ledger(FaultPoint faults, SqliteRun& run);
  Status start_run(FaultPoint faults, SqliteRun& run);
  Status open_replicas(FaultPoint faults, SqliteRun& run);
  Status open_guards(SqliteRun& run);
  Status execute(int attempt, FaultPoint faults, bool record, SqliteRun& run);
  ExecutedStep advance(int attempt, SqliteRun& run);
  Status end_run(bool record, SqliteRun& run);
  std::vector<int> enabled_attempts(const Stepper& stepper, int k) const;
  void record_step(int attempt, const ExecutedStep& step, const Binds& binds,
                   std::string_view place, SqliteRun& run);
  Status fail_over_guards(const ExecutedStep& step, int attempt, FaultPoint faults, bool record,
                          SqliteRun& run);
  static Status fail_over_ledger(int attempt, FaultPoint faults, bool record, SqliteRun& run);

  const Strategy& strategy_;
  const Pitfall pitfall_;
  const ExploreConfig& config_;
  ScratchLedger template_;  // every run starts from a copy of it
  Connection template_connection_;
  ReusedLedger reused_;  // that copy, for each run that does not replicate the ledger
  ExploreRedis redis_;
  std::string token_;
  int64_t relinks_ = 0;
};

Status SqliteReplayer::prepare() {
  RETURN_IF_ERROR(
      ScratchLedger::create({{"alice", 100000}, {"bob", 0}}, &template_, &template_connection_));
  RETURN_IF_ERROR(redis_.open(strategy_, config_));
  return issue_explore_token(template_connection_, &token_);
}

// The template ledger's copy, one connection per attempt and one for a late retry: the reused
// one, or a fresh one when a standby or a cluster follows the ledger (open_replicas).
Status SqliteReplayer::open_run_ledger(FaultPoint faults, SqliteRun& run) {
  const size_t count = static_cast<size_t>(config_.duplicates) + 1;
  const bool replicated =
      config_.galera_nodes > 0 || faults.ledger_failover_after > 0 || faults.replica_applies >= 0;
  if (!replicated) {
    ASSIGN_OR_RETURN(run.connections, reused_.take(template_connection_, count));
    run.reused = &reused_;
    return Status::ok();
  }
  RETURN_IF_ERROR(ScratchLedger::copy(template_connection_, &run.ledger));
  run.connections.resize(count);
  for (auto& connection : run.connections) {
    ASSIGN_OR_RETURN(connection, run.ledger.connect());
  }
  return Status::ok();
}

// A fresh ledger, its replicas and its guard store, and the attempts started on it.
Status SqliteReplayer::start_run(FaultPoint faults, SqliteRun& run) {
  RETURN_IF_ERROR(open_run_ledger(faults, run));
  RETURN_IF_ERROR(open_guards(run));
  RETURN_IF_ERROR(open_replicas(faults, run));
  const TransferRequest request = explore_request(config_, token_);
  for (int i = 0; i < config_.duplicates; ++i) {
    const size_t index = static_cast<size_t>(i);
    run.stepper.start(run.connections[index], run.clock, strategy_,
                      explore_options(pitfall_, token_, config_, i), request, run.guards,
                      run.reads.empty() ? nullptr : run.reads[index].get());
  }
  return Status::ok();
}

// A strategy's tokens and locks, kept apart from the ledger: with --failover or guards=replica in
// a replicated store of the run's own (one of its Replicas), with --redis in explore's keys,
// emptied; the token is issued into the store again.
Status SqliteReplayer::open_guards(SqliteRun& run) {
  if (strategy_.info().keeps_guards() && (config_.failover || config_.guards_apart)) {
    RETURN_IF_ERROR(run.replicas.open_guards(0));
    run.guards = run.replicas.guards();
  } else if (redis_.store()) {
    RETURN_IF_ERROR(redis_.reset());
    run.guards = redis_.store();
  }
  return run.guards ? issue_explore_token(*run.guards, &token_) : Status::ok();
}

// What the fault point replicates: ledger=galera puts each connection on the next node; a
// failover of the ledger watches every connection for what its standby would lack; reads on
// the standby get a standby whose link is cut after the point's commits. Whatever follows the
// ledger hears every statement the attempts run in it, through the replicas' log.
Status SqliteReplayer::open_replicas(FaultPoint faults, SqliteRun& run) {
  Replicas& replicas = run.replicas;
  if (config_.galera_nodes > 0)
    RETURN_IF_ERROR(run.cluster.open(replicas, run.ledger, config_, pitfall_, faults.apply_lag_ms,
                                     &run.connections));
  const bool fails_over = faults.ledger_failover_after > 0;
  const bool read = faults.replica_applies >= 0;
  if (fails_over || read) {
    RETURN_IF_ERROR(replicas.open_standby(run.clock, 0, fails_over, read, run.connections[0]));
    for (size_t i = 1; i < run.connections.size(); ++i)
      RETURN_IF_ERROR(replicas.watch(run.connections[i]));
  }
  if (LaggingReplica* standby = replicas.read_standby()) {
    standby->cut_after(faults.replica_applies);
    for (int i = 0; i < config_.duplicates; ++i)
      run.reads.push_back(
          replica_reads(*standby, run.connections[static_cast<size_t>(i)], run.clock, false));
  }
  if (WriteSetLog* log = replicas.log())
    run.stepper.on_run = [log, &run](const Connection& connection, const PendingStep& step) {
      if (!goes_to_guards(run.guards, step.stmt)) log->ran(connection, step, run.clock.now_ms());
    };
  return Status::ok();
}

// Runs the attempt's pending step; on a cluster, a COMMIT it refuses is answered as the node
// answers it instead, and the first attempt refused is the run's victim.
ExecutedStep SqliteReplayer::advance(int attempt, SqliteRun& run) {
  const size_t index = static_cast<size_t>(attempt);
  std::optional<StepResult> refused;
  if (run.cluster.on())
    refused = run.cluster.before(run.connections[index], run.stepper.pending(index));
  if (!refused) return run.stepper.advance(index);
  if (!run.run.deadlocked) run.run.victim = attempt;
  run.run.deadlocked = true;
  return run.stepper.deliver(index, std::move(*refused));
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
void SqliteReplayer::record_step(int attempt, const ExecutedStep& step, const Binds& binds,
                                 std::string_view place, SqliteRun& run) {
  const Connection& connection = run.connections[static_cast<size_t>(attempt)];
  run.run.timeline.push_back(
      {run.clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0, std::string(step.step),
       "", describe_values(step.stmt, binds, step.result, kExploreStartMs) + std::string(place),
       std::string(statement_text_on(connection, run.guards, step.stmt)), ""});
}

// --failover: counts the run's guard writes; right after the one the fault point names, the
// guard store fails over and its replica, which never received that write, takes over.
Status SqliteReplayer::fail_over_guards(const ExecutedStep& step, int attempt, FaultPoint faults,
                                        bool record, SqliteRun& run) {
  const bool wrote = run.replicas.guards() && statement_writes_guard(step.stmt) &&
                     step.result.ok() && step.result.changes > 0;
  if (!wrote || ++run.guard_writes != faults.failover_after) return Status::ok();
  const int64_t lost = run.replicas.fail_over_guards(run.clock.now_ms(), 0);
  run.run.failed_over = true;
  if (record)
    run.run.timeline.push_back(
        {run.clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0, "failover", "",
         fmt::format("the guard store's primary dies; its replica takes over without {}",
                     lost == 1 ? std::string("that write") : fmt::format("{} writes", lost)),
         "", "failover"});
  return Status::ok();
}

// --failover=ledger: right after the run's commit the fault point names (its N-th that changed
// a row), the ledger's primary dies and its standby, which never received that commit, takes
// over: the commit is undone in place, so every attempt's connection finds the promoted data.
// No transaction is open then: on SQLite the commit ended the only write transaction.
Status SqliteReplayer::fail_over_ledger(int attempt, FaultPoint faults, bool record,
                                        SqliteRun& run) {
  if (faults.ledger_failover_after == 0 || run.run.failed_over ||
      run.replicas.ledger_commits() != faults.ledger_failover_after)
    return Status::ok();
  const int64_t now_ms = run.clock.now_ms();
  if (run.replicas.fail_over_ledger(run.connections[0], now_ms, 0) != 1)
    return Status::internal("a ledger failover lost other than its one commit");
  run.run.failed_over = true;
  if (record)
    run.run.timeline.push_back(
        {now_ms - kExploreStartMs, "server", 1, attempt + 1, 0, "failover", "",
         "the ledger's primary dies; its standby takes over without that commit", "", "failover"});
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

// One step of `attempt`, and the faults that land right after it.
Status SqliteReplayer::execute(int attempt, FaultPoint faults, bool record, SqliteRun& run) {
  const size_t index = static_cast<size_t>(attempt);
  Stepper& stepper = run.stepper;
  run.clock.advance_ms(1);
  const Binds binds = record ? stepper.pending(index).binds : Binds{};
  const bool on_replica = run.replicas.read_standby() && !stepper.in_transaction(index) &&
                          ReadSplit::routes(stepper.pending(index).stmt);
  const ExecutedStep step = advance(attempt, run);
  if (step.result.code == StepCode::kBusy)
    return Status::internal("a step found the lock taken at a choice point");
  if (record)
    record_step(attempt, step, binds, place(run.cluster, run.connections[index], on_replica), run);
  if (run.cluster.on()) follow_appliers(run.clock, attempt, record, run.cluster, &run.run);
  RETURN_IF_ERROR(fail_over_guards(step, attempt, faults, record, run));
  RETURN_IF_ERROR(fail_over_ledger(attempt, faults, record, run));
  if (attempt == faults.attempt && ++run.crash_count == faults.after && !stepper.finished(index))
    crash_attempt(stepper, attempt, run.clock, record, &run.run);
  return Status::ok();
}

// With --redis, a failover behind the Sentinels under an interleaving cuts it; it runs again
// from its start (run_through_failovers), Redis connected again through the Sentinels.
Status SqliteReplayer::run(const std::vector<int>& prefix, FaultPoint faults, bool record,
                           ExploreRun* out) {
  return run_through_failovers([&] { return run_once(prefix, faults, record, out); },
                               [] { return false; }, [] { return Status::ok(); }, redis_,
                               &relinks_);
}

Status SqliteReplayer::run_once(const std::vector<int>& prefix, FaultPoint faults, bool record,
                                ExploreRun* out) {
  SqliteRun run;
  RETURN_IF_ERROR(start_run(faults, run));
  const int k = config_.duplicates;
  for (size_t depth = 0;; ++depth) {
    const std::vector<int> enabled = enabled_attempts(run.stepper, k);
    if (enabled.empty()) break;
    int choice = depth < prefix.size() ? prefix[depth] : enabled.front();
    run.run.schedule.push_back(choice);
    run.run.enabled.push_back(enabled);
    RETURN_IF_ERROR(execute(choice, faults, record, run));
    // A write transaction is one step: nothing another attempt does in the ledger meanwhile
    // changes what it sees. Tokens and locks in Redis are another matter: there, another
    // attempt's command can come between two of its statements, so each statement is a step.
    const size_t index = static_cast<size_t>(choice);
    while (!run.guards && !run.stepper.finished(index) && run.stepper.in_transaction(index))
      RETURN_IF_ERROR(execute(choice, faults, record, run));
  }
  const LaggingReplica* standby = run.replicas.read_standby();
  run.run.replica_missed = standby && standby->missed();
  run.run.lag_landed = run.cluster.lag_landed();
  RETURN_IF_ERROR(end_run(record, run));
  *out = std::move(run.run);
  return Status::ok();
}

// The attempts are done: after a crash, the late retry; then the run is judged (on a cluster,
// every node caught up first: the late retry finds it so, and the journal is judged whole).
Status SqliteReplayer::end_run(bool record, SqliteRun& run) {
  RunCluster& cluster = run.cluster;
  if (cluster.on()) RETURN_IF_ERROR(cluster.finish());
  if (run.run.crashed)
    RETURN_IF_ERROR(late_explore_retry(run.connections.back(), run.guards, run.clock, run.stepper,
                                       strategy_, pitfall_, token_, config_, record, &run.run));
  if (cluster.on()) RETURN_IF_ERROR(cluster.finish());
  return judge_explore_run(run.connections[0], run.stepper, record,
                           run.clock.now_ms() - kExploreStartMs, &run.run);
}

}  // namespace

Result<std::unique_ptr<Replayer>> make_sqlite_replayer(const Strategy& strategy, Pitfall pitfall,
                                                       const ExploreConfig& config) {
  auto replayer = std::make_unique<SqliteReplayer>(strategy, pitfall, config);
  RETURN_IF_ERROR(replayer->prepare());
  return std::unique_ptr<Replayer>(std::move(replayer));
}

}  // namespace idemlab
