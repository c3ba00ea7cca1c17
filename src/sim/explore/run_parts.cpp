// What both explore replayers share: the request, the token, the late retry and the judging.
#include <fmt/format.h>

#include "attempt/step_values.h"
#include "ledger/audit.h"
#include "ledger/ledger.h"
#include "sim/explore/replayer.h"
#include "sim/shared/judge.h"

namespace idemlab {

namespace {

const TransferRequest kRequest{"dup-1", "alice", "bob", 2500, ""};
constexpr int64_t kOverdrawMinor = 1'000'000;  // more than alice's 100000: insufficient funds

std::string answer_label(const Answer& answer) {
  std::string label(outcome_name(answer.outcome));
  if (!answer.reason.empty()) label += " (" + answer.reason + ")";
  return label;
}

}  // namespace

TransferRequest explore_request(const ExploreConfig& config, const std::string& token) {
  TransferRequest request = kRequest;
  request.token = token;
  if (config.overdraw) request.amount_minor = kOverdrawMinor;
  return request;
}

StrategyOptions explore_options(Pitfall pitfall, const std::string& token,
                                const ExploreConfig& config, int attempt) {
  return StrategyOptions{pitfall, token, config.lock_ttl_ms, fmt::format("attempt-{}", attempt + 1),
                         config.unique_index};
}

Status issue_explore_token(StatementRunner& store, std::string* token) {
  ManualClock clock(kExploreStartMs);
  IssuedToken issued;
  RETURN_IF_ERROR(issue_token(store, clock, 0xd0b1e, 0xc11c, 3'600'000, &issued));
  *token = issued.token;
  return Status::ok();
}

Status ExploreRedis::open(const Strategy& strategy, const ExploreConfig& config) {
  if (!strategy.info().keeps_guards() || !config.redis) return Status::ok();
  RETURN_IF_ERROR(ScratchRedis::create(*config.redis, &redis_));
  store_ = &redis_.store();
  return Status::ok();
}

namespace {

// How many times in a row one interleaving may lose a link before the run gives up: a failover
// costs one, and a topology that keeps failing is not one to explore on.
constexpr int kRelinksPerInterleaving = 3;

}  // namespace

Status run_through_failovers(const std::function<Status()>& once, const std::function<bool()>& lost,
                             const std::function<Status()>& relink, const ExploreRedis& redis,
                             int64_t* relinks) {
  for (int relinked = 0;; ++relinked) {
    const int64_t redis_losses = redis.losses();
    Status status = Status::ok();
    try {
      status = once();
    } catch (const StatusError& error) {
      status = error.status;
    }
    const bool cut = lost() || redis.losses() != redis_losses;
    if (status.is_ok() && !cut) return status;
    if (!status.is_ok() && !is_link_loss(status)) return status;
    if (relinked == kRelinksPerInterleaving)
      return status.is_ok()
                 ? Status::unavailable("connection_lost", "the links to the server kept being lost")
                 : status;
    ++*relinks;
    RETURN_IF_ERROR(relink());
  }
}

Status late_explore_retry(Connection& connection, GuardStore* guards, ManualClock& clock,
                          Stepper& stepper, const Strategy& strategy, Pitfall pitfall,
                          const std::string& token, const ExploreConfig& config, bool record,
                          ExploreRun* run) {
  clock.advance_ms(config.lock_ttl_ms + 1);
  const int attempt = config.duplicates;
  const size_t index =
      stepper.start(connection, clock, strategy, explore_options(pitfall, token, config, attempt),
                    explore_request(config, token), guards);
  while (!stepper.finished(index)) {
    clock.advance_ms(1);
    const Binds binds = record ? stepper.pending(index).binds : Binds{};
    const ExecutedStep step = stepper.advance(index, true);
    if (record)
      run->timeline.push_back(
          {clock.now_ms() - kExploreStartMs, "server", 1, attempt + 1, 0, std::string(step.step),
           "", describe_values(step.stmt, binds, step.result, kExploreStartMs),
           std::string(statement_text_on(connection, guards, step.stmt)), "late retry"});
  }
  return Status::ok();
}

Status judge_explore_run(Connection& connection, const Stepper& stepper, bool record, int64_t at_ms,
                         ExploreRun* run) {
  // How often the request moved money: from the audit's one pass over the journal.
  int64_t pairs = 0;
  AuditSettings settings;
  settings.now_ms = at_ms + kExploreStartMs;
  settings.check_file = false;  // a scratch ledger
  settings.on_request = [&](const RequestEntries& entries) {
    if (entries.source == kRequest.source && entries.biz_seq == kRequest.biz_seq)
      pairs = entries.debits;
  };
  AuditReport audit;
  RETURN_IF_ERROR(audit_ledger(connection, settings, &audit));
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
  for (std::string_view invariant : broken_invariants(judge(facts)))
    run->broken.emplace_back(invariant);
  if (!audit.ok()) run->broken.push_back("audit");
  return Status::ok();
}

}  // namespace idemlab
