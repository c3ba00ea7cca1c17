// explain's text and JSON.
#include "report/explain_view.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "attempt/fault.h"
#include "queue/consumer_pitfalls.h"
#include "report/json.h"
#include "strategies/replication_pitfalls.h"
#include "term/text.h"

namespace idemlab {

namespace {

std::string trace_text(const std::vector<TracedAttempt>& attempts) {
  std::string out;
  for (const auto& attempt : attempts) {
    out += fmt::format("  {} -> {}{}{}\n", attempt.label, outcome_name(attempt.answer.outcome),
                       attempt.answer.replayed ? " (replayed)" : "",
                       attempt.answer.reason.empty() ? "" : " (" + attempt.answer.reason + ")");
    // Each step with the values that decided it, its SQL wrapped beneath.
    for (const auto& step : attempt.steps) {
      out += wrap(fmt::format("{}: {}", step.step, step.values), 4);
      out += wrap(step.sql, 8);
    }
  }
  return out;
}

nlohmann::ordered_json trace_json(const std::vector<TracedAttempt>& attempts) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& attempt : attempts) {
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const auto& step : attempt.steps)
      steps.push_back({{"step", step.step},
                       {"statement", step.statement},
                       {"sql", step.sql},
                       {"result", step.result}});
    out.push_back({{"attempt", attempt.label},
                   {"outcome", outcome_name(attempt.answer.outcome)},
                   {"replayed", attempt.answer.replayed},
                   {"steps", steps}});
  }
  return out;
}

// What a change of strategy between releases does to a request already served.
constexpr std::string_view kStrategySwitch =
    "Each strategy keeps its guard in its own place (a unique index, a dedup row, a token, a "
    "lock row), so a biz_seq served by one strategy is unknown to another's guard: a retry "
    "after a server changed strategy moves the money again, and both answers say applied. "
    "idemlab therefore answers mismatch (exit 4) to a request whose biz_seq another strategy "
    "served first. --allow-strategy-switch serves it anyway, to show this: e.g. token then "
    "direct-insert on one biz_seq moves money twice, and only idemlab audit notices.";

nlohmann::ordered_json consumer_pitfalls_json() {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const ConsumerPitfall& p : consumer_pitfalls())
    out.push_back({{"name", p.name},
                   {"option", p.option},
                   {"reference", p.reference},
                   {"goes_wrong", p.goes_wrong},
                   {"shown_by", fmt::format("idemlab {}", p.shown_by)},
                   {"audit", p.audit_kind}});
  return out;
}

std::string consumer_pitfalls_text() {
  std::string out;
  for (const ConsumerPitfall& p : consumer_pitfalls())
    out += fmt::format("  {} ({})\n", p.name, p.option) +
           wrap(fmt::format("Reference: {}. Then: {}. Named by: idemlab audit ({}). Shown by: "
                            "idemlab {}",
                            p.reference, p.goes_wrong, p.audit_kind, p.shown_by),
                4);
  return out;
}

// The replication pitfalls that reach `strategy`, each with what it does to it; all of them,
// with every strategy they reach, when `strategy` is empty.
std::string replication_text(std::string_view strategy) {
  std::string out;
  for (const ReplicationPitfall& p : replication_pitfalls()) {
    std::string effects;
    for (const ReplicaEffect& e : p.effects)
      if (strategy.empty() || e.strategy == strategy)
        effects += wrap(fmt::format("{}: {}.", e.strategy, e.effect), 4);
    if (effects.empty()) continue;
    out += fmt::format("  {}\n", p.name);
    out += wrap(
        fmt::format("Where: {}. Reference: {}. Then: {}.", p.deployment, p.reference, p.goes_wrong),
        4);
    out += effects;
    out += wrap(fmt::format("Fix: {}. Named by: idemlab audit ({}). Shown by: {}, and idemlab "
                            "lesson {}.",
                            p.fix, p.audit_kind, p.shown_by, p.lesson),
                4);
  }
  return out;
}

nlohmann::ordered_json replication_json(std::string_view strategy) {
  auto out = nlohmann::ordered_json::array();
  for (const ReplicationPitfall& p : replication_pitfalls()) {
    auto effects = nlohmann::ordered_json::object();
    for (const ReplicaEffect& e : p.effects)
      if (strategy.empty() || e.strategy == strategy) effects[std::string(e.strategy)] = e.effect;
    if (effects.empty()) continue;
    out.push_back({{"name", p.name},
                   {"where", p.deployment},
                   {"reference", p.reference},
                   {"goes_wrong", p.goes_wrong},
                   {"effects", effects},
                   {"fix", p.fix},
                   {"audit", p.audit_kind},
                   {"shown_by", p.shown_by},
                   {"lesson", p.lesson}});
  }
  return out;
}

std::string pitfalls_text(const StrategyInfo& info) {
  std::string out;
  for (const PitfallInfo& p : info.pitfalls) {
    out += fmt::format("\n  --pitfall={}{}\n", pitfall_name(p.id),
                       &p == &info.pitfalls.front() ? " (a bare --pitfall)" : "");
    out += wrap(fmt::format("Reference: {}.", p.reference), 4);
    out += wrap(fmt::format("Removes: {}.", p.removes), 4);
    out += wrap(fmt::format("Then: {}.", p.goes_wrong), 4);
    out += wrap(fmt::format("Exposed by: {}; counted as {}.", p.exposed_by, p.verdict), 4);
    out += wrap("Shown by: " + pitfall_command(info, p), 4);
  }
  return out;
}

nlohmann::ordered_json pitfalls_json(const StrategyInfo& info) {
  auto out = nlohmann::ordered_json::array();
  for (const PitfallInfo& p : info.pitfalls)
    out.push_back({{"name", pitfall_name(p.id)},
                   {"reference", p.reference},
                   {"removes", p.removes},
                   {"goes_wrong", p.goes_wrong},
                   {"exposed_by", p.exposed_by},
                   {"verdict", p.verdict},
                   {"command", pitfall_command(info, p)},
                   {"steps", reachable_steps(info, p.id)}});
  return out;
}

}  // namespace

nlohmann::ordered_json explain_json(const Explained& e) {
  const StrategyInfo& info = *e.info;
  nlohmann::ordered_json json{{"strategy", info.name},
                              {"title", info.title},
                              {"how", info.how},
                              {"protects", info.protects},
                              {"notes", info.notes},
                              {"critical_step", info.critical_step},
                              {"steps", info.steps},
                              {"pitfalls", pitfalls_json(info)},
                              {"strategy_switch", kStrategySwitch},
                              {"replication_pitfalls", replication_json(info.name)},
                              {"trace", trace_json(e.safe)},
                              {"traced_pitfall", pitfall_json(e.traced)},
                              {"trace_pitfall", trace_json(e.pitfall)}};
  if (is_server(e.engine)) {
    json["engine"] = engine_name(e.engine);
    json["isolation"] = e.isolation.substr(0, e.isolation.find(' '));
  }
  return json;
}

std::string explain_text(const Explained& e) {
  const StrategyInfo& info = *e.info;
  std::string out = wrap(fmt::format("{}: {}", info.name, info.title), 0) + "\nHow it works\n" +
                    wrap(info.how, 2);
  out += "\nProtects against\n" + wrap(info.protects, 2);
  out += info.pitfalls.empty() ? "\nPitfalls\n  none: it has no guard to leave out\n"
                               : "\nPitfalls (--pitfall[=NAME])" + pitfalls_text(info);
  if (!info.notes.empty()) out += "\nNotes\n" + wrap(info.notes, 2);
  if (std::string replicated = replication_text(info.name); !replicated.empty())
    out += "\nOn replicated servers (docs/replication.md)\n" + replicated;
  out += fmt::format("\nSteps (crash:after=STEP and slow:at=STEP take these)\n{}",
                     wrap(fmt::format("{}", fmt::join(info.steps, ", ")), 2));
  out += wrap(fmt::format("--fault slow pauses before '{}' (its critical step) in one attempt "
                          "unless told where; simulations pause at {} unless told at=critical",
                          info.critical_step, phase_name(kSimulatedSlowPhase)),
              2);
  out += "\nOne strategy per biz_seq\n" + wrap(kStrategySwitch, 2);
  out += fmt::format("\nTrace: a first attempt and a repeat on a scratch ledger{}\n",
                     !is_server(e.engine) ? ""
                                          : fmt::format(", each statement as {} runs it at {}",
                                                        engine_name(e.engine), e.isolation));
  out += trace_text(e.safe);
  if (e.traced != Pitfall::kNone)
    out += fmt::format("\nThe same with{}\n{}", pitfall_argument(e.traced), trace_text(e.pitfall));
  return out;
}

nlohmann::ordered_json strategy_list_json() {
  nlohmann::ordered_json out{{"strategies", nlohmann::ordered_json::array()}};
  for (const Strategy* s : all_strategies())
    out["strategies"].push_back({{"name", s->info().name}, {"title", s->info().title}});
  out["strategy_switch"] = kStrategySwitch;
  out["consumer_pitfalls"] = consumer_pitfalls_json();
  out["replication_pitfalls"] = replication_json("");
  return out;
}

std::string strategy_list_text() {
  std::string strategies;
  for (const Strategy* s : all_strategies())
    strategies += std::string(s->info().name) + "\n" + wrap(s->info().title, 4);
  return fmt::format(
      "{}\nOne strategy per biz_seq\n{}\nPitfalls of a queue consumer (idemlab consume), around "
      "any strategy\n{}\nPitfalls of replicated servers, and the strategies they reach\n{}"
      "\nidemlab explain STRATEGY tells more.\n",
      strategies, wrap(kStrategySwitch, 2), consumer_pitfalls_text(), replication_text(""));
}

}  // namespace idemlab
