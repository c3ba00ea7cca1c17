// Exhaustive interleaving by replay: run a schedule to its end choosing the first enabled
// attempt past the given prefix, then backtrack to the deepest step with an untried choice.
#include "sim/explore.h"

#include <fmt/format.h>

#include "core/clock.h"
#include "core/interrupt.h"
#include "ledger/audit.h"
#include "ledger/ledger.h"
#include "server/step_values.h"
#include "server/trace.h"
#include "sim/judge.h"
#include "sim/scratch_ledger.h"
#include "sim/stepper.h"

namespace idemlab {

namespace {

struct Run {
  std::vector<int> schedule;              // chosen attempt per step
  std::vector<std::vector<int>> enabled;  // enabled attempts per step
  std::vector<std::string> broken;        // invariants this interleaving breaks
  std::vector<TimelineEvent> timeline;
  bool crashed = false;  // the crash point was reached
};

class Explorer {
 public:
  Explorer(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config)
      : strategy_(strategy), pitfall_(pitfall), config_(config) {}

  Status prepare();
  Status run(const std::vector<int>& prefix, CrashPoint crash, bool record, Run* out);

 private:
  Status open_run_ledger(ScratchLedger* ledger, std::vector<Connection>* connections);
  StrategyOptions options_for(int attempt) const;
  Status late_retry(Connection& connection, ManualClock& clock, Stepper& stepper, bool record,
                    Run* run) const;
  Status judge(Connection& connection, const Stepper& stepper, bool record, int64_t at_ms,
               Run* run) const;

  const Strategy& strategy_;
  const Pitfall pitfall_;
  const ExploreConfig& config_;
  ScratchLedger template_;  // every run starts from a copy of it
  Connection template_connection_;
  std::string token_;
};

const TransferRequest kRequest{"dup-1", "alice", "bob", 2500, ""};
constexpr int64_t kOverdrawMinor = 1'000'000;  // more than alice's 100000: insufficient funds
// The run's clock starts here (tokens are issued before it); timelines count from it.
constexpr int64_t kStartMs = 1'000'000;

std::string answer_label(const Answer& answer) {
  std::string label(outcome_name(answer.outcome));
  if (!answer.reason.empty()) label += " (" + answer.reason + ")";
  return label;
}

Status Explorer::prepare() {
  if (Status status =
          ScratchLedger::create({{"alice", 100000}, {"bob", 0}}, &template_, &template_connection_);
      !status.is_ok())
    return status;
  ManualClock clock(1'000'000);
  IssuedToken token;
  if (Status status = issue_token(template_connection_, clock, 0xd0b1e, 0xc11c, 3'600'000, &token);
      !status.is_ok())
    return status;
  token_ = token.token;
  return Status::ok();
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

StrategyOptions Explorer::options_for(int attempt) const {
  return StrategyOptions{pitfall_, token_, config_.lock_ttl_ms,
                         fmt::format("attempt-{}", attempt + 1)};
}

Status Explorer::run(const std::vector<int>& prefix, CrashPoint crash, bool record, Run* out) {
  ScratchLedger ledger;
  std::vector<Connection> connections;
  if (Status status = open_run_ledger(&ledger, &connections); !status.is_ok()) return status;
  const int k = config_.duplicates;
  ManualClock clock(kStartMs);
  Stepper stepper;
  TransferRequest request = kRequest;
  request.token = token_;
  if (config_.overdraw) request.amount_minor = kOverdrawMinor;
  for (int i = 0; i < k; ++i)
    stepper.start(connections[static_cast<size_t>(i)], clock, strategy_, options_for(i), request);
  Run run;
  int crash_count = 0;  // statements the crashing attempt has run
  auto execute = [&](int attempt) -> Status {
    const size_t index = static_cast<size_t>(attempt);
    clock.advance_ms(1);
    const Binds binds = record ? stepper.pending(index).binds : Binds{};
    const ExecutedStep step = stepper.advance(index);
    if (step.result.code == StepCode::kBusy)
      return Status::internal("a step found the lock taken at a choice point");
    if (record)
      run.timeline.push_back({clock.now_ms() - kStartMs, "server", 1, attempt + 1, 0,
                              std::string(step.step), "",
                              describe_values(step.stmt, binds, step.result, kStartMs),
                              std::string(statement_sql(step.stmt)), ""});
    if (attempt == crash.attempt && ++crash_count == crash.after && !stepper.finished(index)) {
      stepper.kill(index);  // rolls back what it had not committed
      run.crashed = true;
      if (record)
        run.timeline.push_back({clock.now_ms() - kStartMs, "server", 1, attempt + 1, 0, "crash", "",
                                "the attempt dies; no answer", "", "crash"});
    }
    return Status::ok();
  };
  for (size_t depth = 0;; ++depth) {
    std::vector<int> enabled;
    for (int i = 0; i < k; ++i)
      if (!stepper.finished(static_cast<size_t>(i))) enabled.push_back(i);
    if (enabled.empty()) break;
    int choice = depth < prefix.size() ? prefix[depth] : enabled.front();
    run.schedule.push_back(choice);
    run.enabled.push_back(std::move(enabled));
    if (Status status = execute(choice); !status.is_ok()) return status;
    while (!stepper.finished(static_cast<size_t>(choice)) &&
           stepper.in_transaction(static_cast<size_t>(choice)))
      if (Status status = execute(choice); !status.is_ok()) return status;
  }
  if (run.crashed)
    if (Status status = late_retry(connections.back(), clock, stepper, record, &run);
        !status.is_ok())
      return status;
  if (Status status = judge(connections[0], stepper, record, clock.now_ms() - kStartMs, &run);
      !status.is_ok())
    return status;
  *out = std::move(run);
  return Status::ok();
}

// After a crash the client retries once more, alone, once every lease has lapsed (the lock's
// TTL): what a patient client finally gets.
Status Explorer::late_retry(Connection& connection, ManualClock& clock, Stepper& stepper,
                            bool record, Run* run) const {
  clock.advance_ms(config_.lock_ttl_ms + 1);
  TransferRequest request = kRequest;
  request.token = token_;
  if (config_.overdraw) request.amount_minor = kOverdrawMinor;
  const int attempt = config_.duplicates;
  const size_t index = stepper.start(connection, clock, strategy_, options_for(attempt), request);
  while (!stepper.finished(index)) {
    clock.advance_ms(1);
    const Binds binds = record ? stepper.pending(index).binds : Binds{};
    const ExecutedStep step = stepper.advance(index, true);
    if (record)
      run->timeline.push_back({clock.now_ms() - kStartMs, "server", 1, attempt + 1, 0,
                               std::string(step.step), "",
                               describe_values(step.stmt, binds, step.result, kStartMs),
                               std::string(statement_sql(step.stmt)), "late retry"});
  }
  return Status::ok();
}

// Which invariants the finished interleaving broke, from the journal and the answers.
Status Explorer::judge(Connection& connection, const Stepper& stepper, bool record, int64_t at_ms,
                       Run* run) const {
  // How often the request moved money: from the audit's one pass over the journal.
  int64_t pairs = 0;
  AuditSettings settings;
  settings.now_ms = at_ms + kStartMs;
  settings.check_file = false;  // a scratch ledger
  settings.on_request = [&](const RequestEntries& entries) {
    if (entries.source == kRequest.source && entries.biz_seq == kRequest.biz_seq)
      pairs = entries.debits;
  };
  AuditReport audit;
  if (Status status = audit_ledger(connection, settings, &audit); !status.is_ok()) return status;
  bool told_success = false, disagree = false;
  std::optional<Answer> first;
  for (int i = 0; i < static_cast<int>(stepper.size()); ++i) {
    const Answer& answer = stepper.answer(static_cast<size_t>(i));
    if (record)
      run->timeline.push_back(
          {at_ms, "client", 1, i + 1, 0, "answer", "", answer_label(answer), "", ""});
    told_success |= claims_success(answer.outcome);
    if (!is_definitive(answer.outcome)) continue;
    if (first && !answers_agree(*first, answer)) disagree = true;
    if (!first) first = answer;
  }
  // The client's last word: after a crash, the late retry's answer; otherwise it retries.
  const Answer& last = stepper.answer(stepper.size() - 1);
  const RequestFacts facts{static_cast<uint32_t>(pairs), told_success, first.has_value(), disagree,
                           run->crashed && last.outcome == Outcome::kInProgress};
  for (std::string_view invariant : broken_invariants(idemlab::judge(facts)))
    run->broken.emplace_back(invariant);
  if (!audit.ok()) run->broken.push_back("audit");
  return Status::ok();
}

}  // namespace

namespace {

// The schedule after `run` in depth-first order: the deepest step with an enabled attempt
// after the one chosen. Empty when every schedule has been tried.
std::vector<int> next_prefix(const Run& run) {
  for (size_t depth = run.schedule.size(); depth-- > 0;) {
    const auto& enabled = run.enabled[depth];
    auto chosen = std::find(enabled.begin(), enabled.end(), run.schedule[depth]);
    if (chosen + 1 != enabled.end()) {
      std::vector<int> prefix(run.schedule.begin(),
                              run.schedule.begin() + static_cast<long>(depth));
      prefix.push_back(*(chosen + 1));
      return prefix;
    }
  }
  return {};
}

// How often the attempts take turns in a schedule.
int switches(const std::vector<int>& schedule) {
  int out = 0;
  for (size_t i = 1; i < schedule.size(); ++i) out += schedule[i] != schedule[i - 1];
  return out;
}

// Keeps `run` as the picked interleaving if it is the one ExploreConfig::pick asks for.
void consider_pick(const Run& run, CrashPoint crash, const ExploreConfig& config,
                   ExploreResult* result) {
  const bool wanted =
      config.pick == kTightestRace
          ? result->picked_index == 0 || switches(run.schedule) > switches(result->picked_schedule)
          : config.pick == result->interleavings;
  if (!wanted) return;
  result->picked_index = result->interleavings;
  result->picked_schedule = run.schedule;
  result->picked_crash = crash;
  result->picked_invariants = run.broken;
}

// Every interleaving with one crash point (or none). Sets `reached` when some run crashed.
Status explore_schedules(Explorer& explorer, CrashPoint crash, const ExploreConfig& config,
                         ExploreResult* result, bool* reached) {
  std::vector<int> prefix;
  do {
    if (Status status = check_interrupt(); !status.is_ok()) return status;
    if (result->interleavings >= config.max_interleavings) {
      result->truncated = true;
      return Status::ok();
    }
    Run run;
    if (Status status = explorer.run(prefix, crash, false, &run); !status.is_ok()) return status;
    ++result->interleavings;
    *reached |= run.crashed;
    if (config.pick != 0) consider_pick(run, crash, config, result);
    if (!run.broken.empty()) {
      ++result->breaking;
      for (const auto& invariant : run.broken) ++result->by_invariant[invariant];
      if (result->first_breaking_schedule.empty()) {
        result->first_breaking_schedule = run.schedule;
        result->first_breaking_crash = crash;
        result->first_breaking_invariants = run.broken;
      }
    }
    prefix = next_prefix(run);
  } while (!prefix.empty());
  return Status::ok();
}

}  // namespace

Status explore(const Strategy& strategy, Pitfall pitfall, const ExploreConfig& config,
               ExploreResult* out) {
  Explorer explorer(strategy, pitfall, config);
  if (Status status = explorer.prepare(); !status.is_ok()) return status;
  ExploreResult result;
  result.strategy = std::string(strategy.info().name);
  result.pitfall = pitfall;
  result.duplicates = config.duplicates;
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
  if (!result.first_breaking_schedule.empty()) {
    Run replay;
    if (Status status = explorer.run(result.first_breaking_schedule, result.first_breaking_crash,
                                     true, &replay);
        !status.is_ok())
      return status;
    result.first_breaking = std::move(replay.timeline);
  }
  if (result.picked_index > 0) {
    Run replay;
    if (Status status = explorer.run(result.picked_schedule, result.picked_crash, true, &replay);
        !status.is_ok())
      return status;
    result.picked = std::move(replay.timeline);
  }
  *out = std::move(result);
  return Status::ok();
}

}  // namespace idemlab
