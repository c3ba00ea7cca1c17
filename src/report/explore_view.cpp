// explore's text, JSON and diagram.
#include "report/explore_view.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/json.h"
#include "report/mermaid.h"
#include "report/sim_view.h"
#include "report/svg.h"
#include "report/timeline_view.h"
#include "term/text.h"

namespace idemlab {

namespace {

// "on postgresql at read-committed, " on a server ("on a Galera cluster of 3 nodes, mariadb at
// repeatable-read, " on a cluster), "tokens and locks in Redis, " with --redis,
// "tokens and locks in a store that fails over, " with --failover, "a ledger that fails over, "
// with --failover=ledger, "lookups on the ledger's lagging standby, " with reads on it (each
// that is asked); "" on SQLite alone.
std::string where_text(const ExploreResult& result) {
  std::string redis = !result.guard_store.empty() ? "tokens and locks in Redis, "
                      : result.fails_over         ? "tokens and locks in a store that fails over, "
                      : result.guards_apart       ? "tokens and locks in a store that stays up, "
                                                  : "";
  if (result.ledger_fails_over) redis += "a ledger that fails over, ";
  if (result.replica_lag) redis += "lookups on the ledger's lagging standby, ";
  if (!is_server(result.engine) && result.nodes > 1)
    return fmt::format("on the simulator's Galera cluster of {} nodes, {}", result.nodes, redis);
  if (!is_server(result.engine)) return redis;
  const std::string cluster =
      result.nodes > 1 ? fmt::format("a Galera cluster of {} nodes, ", result.nodes) : "";
  return fmt::format("on {}{} at {}, {}", cluster, engine_name(result.engine), result.isolation,
                     redis);
}

// On a server, unless --all-orders: two steps that commute are tried in one order only.
bool one_order_of_commuting(const ExploreView& view, const ExploreResult& result) {
  return is_server(result.engine) && !view.all_orders;
}

std::string orders_text(const ExploreView& view, const ExploreResult& result) {
  return one_order_of_commuting(view, result) ? " (steps that commute tried in one order)" : "";
}

// What the server did in them, Hermitage's way: how many interleavings blocked, deadlocked or
// were refused as unserialisable.
std::string server_counts_text(const ExploreResult& result) {
  if (!is_server(result.engine) && result.nodes > 1)
    return fmt::format("; {} refused at certification", result.deadlocking);
  if (!is_server(result.engine)) return "";
  return fmt::format("; {} blocking, {} {}, {} unserializable, {} meeting a unique key",
                     result.blocking, result.deadlocking,
                     result.nodes > 1 ? "refused at certification" : "deadlocking",
                     result.unserializable, result.unique_violations);
}

// Where the server let waiting statements go in another order when the same steps ran again:
// how often, and what that cost the count. Empty where it never did.
std::string wake_order_text(const ExploreResult& result) {
  if (result.replays_repeated == 0 && result.branches_not_replayed == 0) return "";
  std::string text = fmt::format(
      "The server let waiting statements go in another order than before {}; each was run "
      "again until it went as before",
      count_of(result.replays_repeated, "time"));
  if (result.branches_not_replayed > 0)
    text += fmt::format(", except {} that never did: the interleavings after them are not counted",
                        count_of(result.branches_not_replayed, "branch", "branches"));
  return text + ". (See \"Which waiter goes first\" in docs/simulator.md.)";
}

// The links a failover cut under the run, and what the run did about them. Empty where none was.
std::string relinks_text(const ExploreResult& result) {
  if (result.relinks == 0) return "";
  return fmt::format(
      "A link to the server was lost under the run {} (a failover?): each time it connected "
      "again through the topology and ran the interleaving that was cut again from its start.",
      result.relinks == 1 ? std::string("once") : fmt::format("{} times", result.relinks));
}

// The interleaving a run shows: the one --interleaving picked, else the first breaking one.
struct Shown {
  std::string label;  // "First breaking interleaving", "Interleaving 7"
  const std::vector<int>* schedule;
  FaultPoint crash;
  const std::vector<std::string>* invariants;
  const std::vector<TimelineEvent>* timeline;
  bool by_fault = false;  // it breaks only because of the fault point it carries
};

// What alone breaks the interleaving a fault point was added to: "the standby's lag".
std::string_view fault_cause(const FaultPoint& point) {
  if (point.apply_lag_ms >= 0) return "the appliers' lag";
  if (point.replica_applies >= 0) return "the standby's lag";
  if (point.failover_after > 0) return "the failover";
  if (point.ledger_failover_after > 0) return "the ledger's failover";
  return "the crash";
}

Shown first_breaking_of(const ExploreResult& r) {
  const std::string label = r.first_breaking_by_fault
                                ? fmt::format("First interleaving that breaks only because of {}",
                                              fault_cause(r.first_breaking_point))
                                : std::string("First breaking interleaving");
  return {label,
          &r.first_breaking_schedule,
          r.first_breaking_point,
          &r.first_breaking_invariants,
          &r.first_breaking,
          r.first_breaking_by_fault};
}

Shown shown_of(const ExploreResult& r) {
  if (r.picked_index == 0) return first_breaking_of(r);
  return {fmt::format("Interleaving {}", r.picked_index), &r.picked_schedule, r.picked_point,
          &r.picked_invariants, &r.picked};
}

std::string breaks_text(const Shown& shown) {
  return shown.invariants->empty() ? std::string("breaks nothing")
                                   : fmt::format("breaks {}", fmt::join(*shown.invariants, ", "));
}

std::vector<int> one_based(const std::vector<int>& schedule) {
  std::vector<int> out;
  for (int attempt : schedule) out.push_back(attempt + 1);
  return out;
}

nlohmann::ordered_json shown_json(const Shown& shown) {
  const FaultPoint& crash = shown.crash;
  nlohmann::ordered_json out{
      {"schedule", one_based(*shown.schedule)},
      {"crash", crash.attempt < 0 ? nlohmann::ordered_json()
                                  : nlohmann::ordered_json{{"attempt", crash.attempt + 1},
                                                           {"after_statement", crash.after}}}};
  if (crash.failover_after > 0) out["failover"] = {{"after_guard_write", crash.failover_after}};
  if (crash.ledger_failover_after > 0)
    out["ledger_failover"] = {{"after_commit", crash.ledger_failover_after}};
  if (crash.replica_applies >= 0) out["replica"] = {{"applied_commits", crash.replica_applies}};
  if (crash.apply_lag_ms >= 0) out["appliers"] = {{"lag_ms", crash.apply_lag_ms}};
  if (shown.by_fault) out["breaks_only_with_fault"] = true;
  out["invariants"] = *shown.invariants;
  out["timeline"] = timeline_json(*shown.timeline);
  return out;
}

// Where the shown interleaving's crash or failover landed: "" for neither.
std::string faults_text(const FaultPoint& point) {
  if (point.apply_lag_ms >= 0)
    return fmt::format("; the other nodes' appliers apply each commit {} ms (statements) after it",
                       point.apply_lag_ms);
  if (point.replica_applies == 0)
    return "; the lookups read a standby that applied none of the run's commits";
  if (point.replica_applies > 0)
    return fmt::format(
        "; the lookups read a standby that applied the first {} of the run's commits that changed "
        "a "
        "row, and no more",
        point.replica_applies);
  if (point.failover_after > 0)
    return fmt::format("; the guard store fails over right after guard write {}",
                       point.failover_after);
  if (point.ledger_failover_after > 0)
    return fmt::format(
        "; the ledger fails over right after the run's commit {} (of those that changed a row), "
        "which its standby never received",
        point.ledger_failover_after);
  if (point.attempt < 0) return "";
  return fmt::format("; attempt {} dies after its statement {}, then a late retry",
                     point.attempt + 1, point.after);
}

// The counts, then the shown interleaving as a timeline.
}  // namespace

std::string explore_text(const ExploreView& view, const ExploreResult& result) {
  std::string out =
      wrap(fmt::format("{}{}: {}{}, {}{}{}, {} breaking{}", result.strategy,
                       pitfall_argument(result.pitfall), where_text(result),
                       count_of(result.duplicates, "duplicate"),
                       count_of(result.interleavings, "interleaving"), orders_text(view, result),
                       result.truncated ? " (stopped at --max-interleavings)" : "", result.breaking,
                       server_counts_text(result)),
           0);
  for (const auto& [invariant, count] : result.by_invariant)
    out += fmt::format("  {:<24} {}\n", invariant, count_of(count, "interleaving"));
  if (const std::string wake_order = wake_order_text(result); !wake_order.empty())
    out += wrap(wake_order, 0);
  if (const std::string relinked = relinks_text(result); !relinked.empty())
    out += wrap(relinked, 0);
  if (result.first_deadlock_index > 0)
    out += wrap(fmt::format("First {}: {} (attempt per step: {}); {} "
                            "(--interleaving {} shows it).",
                            result.nodes > 1 ? "interleaving the cluster refused at certification"
                                             : "deadlocking interleaving",
                            result.first_deadlock_index,
                            fmt::join(one_based(result.first_deadlock_schedule), " "),
                            deadlock_victim_text(result), result.first_deadlock_index),
                0);
  const Shown shown = shown_of(result);
  if (shown.timeline->empty()) return out;
  const std::string heading = fmt::format("{} (attempt per step: {}{}), {}:", shown.label,
                                          fmt::join(one_based(*shown.schedule), " "),
                                          faults_text(shown.crash), breaks_text(shown));
  return out + "\n" + wrap(heading, 0) + timeline_legend(TimelineOf::kTwins) +
         timeline_text(*shown.timeline, view.sql);
}

std::string explore_diagram(const ExploreView& view, const ExploreResult& result) {
  const Shown shown = shown_of(result);
  const std::string verdict = shown.timeline->empty()
                                  ? std::string("no interleaving breaks an invariant")
                                  : breaks_text(shown);
  const std::string title =
      fmt::format("{}{}: {}", result.strategy, pitfall_argument(result.pitfall),
                  result.picked_index > 0 ? fmt::format("interleaving {}", result.picked_index)
                                          : std::string("the first breaking interleaving"));
  return view.diagram == "svg" ? svg_sequence(*shown.timeline, title, verdict)
                               : mermaid_sequence(*shown.timeline, title, verdict);
}

std::string deadlock_victim_text(const ExploreResult& result) {
  const int victim = result.first_deadlock_victim + 1;
  if (result.nodes > 1)
    return fmt::format(
        "the cluster turned attempt {} away at certification (the other node's commit came "
        "first)",
        victim);
  return fmt::format("the server chose attempt {} as its victim", victim);
}

nlohmann::ordered_json explore_json(const ExploreView& view, const ExploreResult& result) {
  nlohmann::ordered_json out{
      {"strategy", result.strategy},        {"pitfall", pitfall_json(result.pitfall)},
      {"duplicates", result.duplicates},    {"interleavings", result.interleavings},
      {"breaking", result.breaking},        {"truncated", result.truncated},
      {"by_invariant", result.by_invariant}};
  if (!result.guard_store.empty()) out["redis"] = result.guard_store;
  if (result.fails_over) out["failover"] = true;
  if (result.ledger_fails_over) out["ledger_failover"] = true;
  if (result.guards_apart) out["guards"] = "replica";
  if (result.replica_lag) out["replica_lag"] = true;
  if (!is_server(result.engine) && result.nodes > 1) {
    out["nodes"] = result.nodes;
    out["certification_failures"] = result.deadlocking;
  }
  if (is_server(result.engine)) {
    out["engine"] = engine_name(result.engine);
    out["isolation"] = result.isolation;
    if (result.nodes > 1) out["nodes"] = result.nodes;
    out["orders"] = one_order_of_commuting(view, result) ? "one-of-commuting" : "all";
    out["blocking"] = result.blocking;
    // On a cluster each twin runs on its own node: its 1213 is a certification failure.
    out[result.nodes > 1 ? "certification_failures" : "deadlocking"] = result.deadlocking;
    out["unserializable"] = result.unserializable;
    out["unique_violations"] = result.unique_violations;
    out["replays_repeated"] = result.replays_repeated;
    out["branches_not_replayed"] = result.branches_not_replayed;
    if (result.first_deadlock_index > 0)
      out["first_deadlock"] = {{"interleaving", result.first_deadlock_index},
                               {"schedule", one_based(result.first_deadlock_schedule)},
                               {"victim", result.first_deadlock_victim + 1},
                               {"timeline", timeline_json(result.first_deadlock)}};
  }
  if (result.relinks > 0) out["relinks"] = result.relinks;  // the servers moved under the run
  if (!result.first_breaking_schedule.empty())
    out["first_breaking"] = shown_json(first_breaking_of(result));
  if (result.picked_index > 0) {
    out["interleaving"] = result.picked_index;
    out["picked"] = shown_json(shown_of(result));
  }
  return out;
}

}  // namespace idemlab
