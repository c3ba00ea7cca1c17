// Verdicts, counted per request from the journal, never from what a strategy said; and the
// audit of the simulated ledger.
#include <algorithm>

#include "ledger/audit.h"
#include "sim/shared/judge.h"
#include "sim/shared/percentile.h"
#include "sim/simulate/simulation.h"

namespace idemlab::sim {

namespace {

// One request's fate, for the caption of its diagram.
std::string request_verdict(uint32_t pairs, const RequestRecord& state) {
  std::string money = pairs == 0   ? "money never moved"
                      : pairs == 1 ? "money moved once"
                                   : fmt::format("money moved {} times", pairs);
  std::string told = state.told_success ? "the client was told it succeeded"
                     : state.definitive ? "the client was told it failed"
                                        : "the client never got a final answer";
  return money + "; " + told + (state.inconsistent ? "; its answers disagree" : "");
}

}  // namespace

Status Simulation::verdicts(SimResult* out) {
  SimResult result;
  result.strategy = std::string(settings_.strategy.info().name);
  result.pitfall = settings_.pitfall;
  result.sources = settings_.config.sources;
  result.requests = settings_.config.requests;
  result.seed = settings_.config.seed;
  result.virtual_ms = events_.now_ms();
  // How often each request moved money: from the audit's one pass over the journal.
  std::vector<uint32_t> pairs(clients_.requests().size(), 0);
  AuditSettings audit_settings;
  audit_settings.now_ms = events_.now_ms();
  audit_settings.check_file = false;
  audit_settings.on_request = [&](const RequestEntries& entries) {
    const int64_t request = settings_.keys.request_of(entries.source, entries.biz_seq);
    if (request >= 0 && request < static_cast<int64_t>(pairs.size()))
      pairs[static_cast<size_t>(request)] += static_cast<uint32_t>(entries.debits);
  };
  AuditReport audit;
  RETURN_IF_ERROR(audit_ledger(ledger_.client, audit_settings, &audit));
  std::vector<int64_t> latencies;
  latencies.reserve(clients_.requests().size());
  int64_t statements = 0;
  for (size_t i = 0; i < clients_.requests().size(); ++i) {
    const RequestRecord& state = clients_.requests()[i];
    statements += state.statements;
    if (state.finished_ms >= 0) latencies.push_back(state.finished_ms - state.created_ms);
    result.moved_once += pairs[i] == 1;
    result.not_moved += pairs[i] == 0;
    const RequestVerdicts verdict =
        judge(RequestFacts{pairs[i], state.told_success, state.definitive, state.inconsistent,
                           state.saw_in_progress_last});
    result.moved_twice_or_more += verdict.moved_twice_or_more;
    result.never_moved += verdict.never_moved;
    result.stuck += verdict.stuck;
    result.unknown_to_client += verdict.unknown_to_client;
    result.refused += verdict.refused;
    result.gave_up += verdict.gave_up;
    result.inconsistent_answers += verdict.inconsistent_answers;
    if (result.first_found == 0 && !settings_.options.find_first.empty() &&
        has_verdict(verdict, settings_.options.find_first))
      result.first_found = static_cast<int64_t>(i) + 1;
    if (settings_.options.timeline_request == static_cast<int64_t>(i) + 1)
      result.traced_verdict = request_verdict(pairs[i], state);
  }
  const double count = static_cast<double>(std::max<int64_t>(1, settings_.config.requests));
  result.attempts_per_request = static_cast<double>(stats_.attempts) / count;
  result.deliveries_per_request = static_cast<double>(stats_.deliveries) / count;
  result.statements_per_request = static_cast<double>(statements) / count;
  result.lock_waits = stats_.lock_waits;
  result.released_together = stats_.released_together;
  result.latency_ms_p50 = nearest_rank(latencies, 0.50);
  result.latency_ms_p99 = nearest_rank(latencies, 0.99);
  result.audit_ok = audit.ok();
  for (const auto& violation : audit.violations) result.audit_violations.push_back(violation.kind);
  result.timeline = trace_.take();
  *out = std::move(result);
  return Status::ok();
}

}  // namespace idemlab::sim
