// Exhaustive interleaving by replay: run a schedule to its end choosing the first enabled
// attempt past the given prefix, then backtrack to the deepest step with an untried choice.
#include "sim/explore.h"

#include <fmt/format.h>

#include "attempt/step_values.h"
#include "attempt/trace.h"
#include "core/clock.h"
#include "core/interrupt.h"
#include "ledger/audit.h"
#include "ledger/ledger.h"
#include "sim/explore_run.h"
#include "sim/judge.h"
#include "sim/scratch_ledger.h"

namespace idemlab {

namespace {

class Explorer final : public Replayer {
 public:
  Explorer(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config)
      : strategy_(strategy), pitfall_(pitfall), config_(config) {}

  Status prepare();
  Status run(const std::vector<int>& prefix, CrashPoint crash, bool record,
             ExploreRun* out) override;

 private:
  Status open_run_ledger(ScratchLedger* ledger, std::vector<Connection>* connections);
  Status start_run(ScratchLedger* ledger, std::vector<Connection>* connections,
                   const ManualClock& clock, Stepper* stepper);
  std::vector<int> enabled_attempts(const Stepper& stepper, int k) const;

  const Strategy& strategy_;
  const Pitfall pitfall_;
  const ExploreConfig& config_;
  ScratchLedger template_;  // every run starts from a copy of it
  Connection template_connection_;
  ExploreGuards guards_;
  std::string token_;
};

Status Explorer::prepare() {
  if (Status status =
          ScratchLedger::create({{"alice", 100000}, {"bob", 0}}, &template_, &template_connection_);
      !status.is_ok())
    return status;
  if (Status status = guards_.open(strategy_, config_); !status.is_ok()) return status;
  return issue_explore_token(template_connection_, &token_);
}

// A fresh copy of the template ledger, one connection per attempt and one for a late retry.
Status Explorer::open_run_ledger(ScratchLedger* ledger, std::vector<Connection>* connections) {
  if (Status status = ScratchLedger::copy(template_connection_, ledger); !status.is_ok())
    return status;
  connections->resize(static_cast<size_t>(config_.duplicates) + 1);
  for (auto& connection : *connections)
    if (Status status = ledger->connect(&connection); !status.is_ok()) return status;
  return Status::ok();
}

// A fresh ledger (with --redis, the keys emptied and the token issued into them again), and
// the attempts started on it.
Status Explorer::start_run(ScratchLedger* ledger, std::vector<Connection>* connections,
                           const ManualClock& clock, Stepper* stepper) {
  if (Status status = open_run_ledger(ledger, connections); !status.is_ok()) return status;
  if (guards_.store()) {
    if (Status status = guards_.reset(); !status.is_ok()) return status;
    if (Status status = issue_explore_token(*guards_.store(), &token_); !status.is_ok())
      return status;
  }
  const TransferRequest request = explore_request(config_, token_);
  for (int i = 0; i < config_.duplicates; ++i)
    stepper->start((*connections)[static_cast<size_t>(i)], clock, strategy_,
                   explore_options(pitfall_, token_, config_, i), request, guards_.store());
  return Status::ok();
}

// The attempts that may take the next step. While one holds SQLite's write lock (tokens and
// locks in Redis: a transaction spans steps), the others' ledger statements wait for it, and
// only their Redis commands can go.
std::vector<int> Explorer::enabled_attempts(const Stepper& stepper, int k) const {
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

Status Explorer::run(const std::vector<int>& prefix, CrashPoint crash, bool record,
                     ExploreRun* out) {
  ScratchLedger ledger;
  std::vector<Connection> connections;
  ManualClock clock(kExploreStartMs);
  Stepper stepper;
  if (Status status = start_run(&ledger, &connections, clock, &stepper); !status.is_ok())
    return status;
  const int k = config_.duplicates;
  ExploreRun run;
  int crash_count = 0;  // statements the crashing attempt has run
  auto execute = [&](int attempt) -> Status {
    const size_t index = static_cast<size_t>(attempt);
    clock.advance_ms(1);
    const Binds binds = record ? stepper.pending(index).binds : Binds{};
    const ExecutedStep step = stepper.advance(index);
    if (step.result.code == StepCode::kBusy)
      return Status::internal("a step found the lock taken at a choice point");
    if (record)
      run.timeline.push_back(
          {clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0, std::string(step.step),
           "", describe_values(step.stmt, binds, step.result, kExploreStartMs),
           std::string(statement_text_on(connections[index], guards_.store(), step.stmt)), ""});
    if (attempt == crash.attempt && ++crash_count == crash.after && !stepper.finished(index)) {
      stepper.kill(index);  // rolls back what it had not committed
      run.crashed = true;
      if (record)
        run.timeline.push_back({clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0,
                                "crash", "", "the attempt dies; no answer", "", "crash"});
    }
    return Status::ok();
  };
  for (size_t depth = 0;; ++depth) {
    const std::vector<int> enabled = enabled_attempts(stepper, k);
    if (enabled.empty()) break;
    int choice = depth < prefix.size() ? prefix[depth] : enabled.front();
    run.schedule.push_back(choice);
    run.enabled.push_back(enabled);
    if (Status status = execute(choice); !status.is_ok()) return status;
    // A write transaction is one step: nothing another attempt does in the ledger meanwhile
    // changes what it sees. Tokens and locks in Redis are another matter: there, another
    // attempt's command can come between two of its statements, so each statement is a step.
    while (!guards_.store() && !stepper.finished(static_cast<size_t>(choice)) &&
           stepper.in_transaction(static_cast<size_t>(choice)))
      if (Status status = execute(choice); !status.is_ok()) return status;
  }
  if (run.crashed)
    if (Status status = late_explore_retry(connections.back(), guards_.store(), clock, stepper,
                                           strategy_, pitfall_, token_, config_, record, &run);
        !status.is_ok())
      return status;
  if (Status status = judge_explore_run(connections[0], stepper, record,
                                        clock.now_ms() - kExploreStartMs, &run);
      !status.is_ok())
    return status;
  *out = std::move(run);
  return Status::ok();
}

}  // namespace

Status explore(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config,
               ExploreResult* out) {
  std::unique_ptr<Replayer> replayer;
  if (config.server) {
    if (Status status = make_server_replayer(strategy, pitfall, config, &replayer); !status.is_ok())
      return status;
  } else {
    auto on_sqlite = std::make_unique<Explorer>(strategy, pitfall, config);
    if (Status status = on_sqlite->prepare(); !status.is_ok()) return status;
    replayer = std::move(on_sqlite);
  }
  Replayer& explorer = *replayer;
  ExploreResult result;
  result.strategy = std::string(strategy.info().name);
  result.pitfall = pitfall;
  result.duplicates = config.duplicates;
  result.engine = config.server ? std::string(engine_name(config.server->engine)) : "sqlite";
  result.isolation = explorer.isolation();
  if (config.redis && (strategy.info().needs_token || strategy.info().uses_lock_ttl))
    result.guard_store = config.redis->shown;
  bool reached = false;
  if (Status status = explore_schedules(explorer, {}, config, &result, &reached); !status.is_ok())
    return status;
  // --crash: each attempt, after each statement it can reach, until no schedule reaches further.
  for (int attempt = 0; config.crash && attempt < config.duplicates; ++attempt) {
    for (int after = 1; !result.truncated; ++after) {
      reached = false;
      if (Status status = explore_schedules(explorer, {attempt, after}, config, &result, &reached);
          !status.is_ok())
        return status;
      if (!reached) break;
    }
  }
  if (!result.first_breaking_schedule.empty())
    if (Status status =
            replay_timeline(explorer, result.first_breaking_schedule, result.first_breaking_crash,
                            &result, &result.first_breaking);
        !status.is_ok())
      return status;
  if (result.first_deadlock_index > 0)
    if (Status status = replay_timeline(explorer, result.first_deadlock_schedule, {}, &result,
                                        &result.first_deadlock);
        !status.is_ok())
      return status;
  if (result.picked_index > 0)
    if (Status status = replay_timeline(explorer, result.picked_schedule, result.picked_crash,
                                        &result, &result.picked);
        !status.is_ok())
      return status;
  *out = std::move(result);
  return Status::ok();
}

}  // namespace idemlab
