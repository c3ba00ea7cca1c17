// `idemlab explore`: every interleaving of K concurrent duplicates, and the first that breaks.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.h"
#include "cli/errors.h"
#include "cli/sim_options.h"
#include "core/interrupt.h"
#include "core/limits.h"
#include "report/json.h"
#include "report/mermaid.h"
#include "report/sim_view.h"
#include "report/svg.h"
#include "sim/explore/explore.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct ExploreOptions {
  std::string strategy;
  std::optional<std::string> pitfall;
  ExploreConfig config;
  bool json = false;
  std::string diagram;  // "mermaid" or "svg"
  bool sql = false;
  bool fail_on_violation = false;
  std::string db;         // a server URL, or "" for SQLite
  std::string isolation;  // with db
  std::string redis;      // token and lock-table: where tokens and locks go, or ""
};

// --db and --isolation into the config: explore's own ledger is a scratch one, so --db takes
// only a server, where explore makes a scratch ledger of its own.
void choose_server(ExploreOptions* options) {
  ScratchServerChoice choice = scratch_server_choice("explore", options->db, options->isolation);
  options->config.isolation = choice.isolation;
  options->config.server = std::move(choice.server);
  options->config.redis = scratch_redis_choice(options->redis, {options->strategy});
}

// "on postgresql at read-committed, " on a server, "tokens and locks in Redis, " with --redis;
// "" on SQLite alone.
std::string where_text(const ExploreResult& result) {
  const std::string redis = result.guard_store.empty() ? "" : "tokens and locks in Redis, ";
  if (!is_server(result.engine)) return redis;
  return fmt::format("on {} at {}, {}", engine_name(result.engine), result.isolation, redis);
}

// On a server, unless --all-orders: two steps that commute are tried in one order only.
bool one_order_of_commuting(const ExploreOptions& options, const ExploreResult& result) {
  return is_server(result.engine) && !options.config.all_orders;
}

std::string orders_text(const ExploreOptions& options, const ExploreResult& result) {
  return one_order_of_commuting(options, result) ? " (steps that commute tried in one order)" : "";
}

// What the server did in them, Hermitage's way: how many interleavings blocked, deadlocked or
// were refused as unserialisable.
std::string server_counts_text(const ExploreResult& result) {
  if (!is_server(result.engine)) return "";
  return fmt::format("; {} blocking, {} deadlocking, {} unserializable, {} meeting a unique key",
                     result.blocking, result.deadlocking, result.unserializable,
                     result.unique_violations);
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

// --fail-on violation: a guarded strategy without --pitfall broke an invariant.
ExitCode explore_exit(const ExploreOptions& options, const ExploreResult& result) {
  const bool guarded = find_strategy(options.strategy)->info().guarded;
  if (options.fail_on_violation && guarded && result.pitfall == Pitfall::kNone &&
      result.breaking > 0)
    return ExitCode::kAuditFailed;
  return ExitCode::kOk;
}

// The interleaving a run shows: the one --interleaving picked, else the first breaking one.
struct Shown {
  std::string label;  // "First breaking interleaving", "Interleaving 7"
  const std::vector<int>* schedule;
  CrashPoint crash;
  const std::vector<std::string>* invariants;
  const std::vector<TimelineEvent>* timeline;
};

Shown first_breaking_of(const ExploreResult& r) {
  return {"First breaking interleaving", &r.first_breaking_schedule, r.first_breaking_crash,
          &r.first_breaking_invariants, &r.first_breaking};
}

Shown shown_of(const ExploreResult& r) {
  if (r.picked_index == 0) return first_breaking_of(r);
  return {fmt::format("Interleaving {}", r.picked_index), &r.picked_schedule, r.picked_crash,
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
  const CrashPoint& crash = shown.crash;
  return {{"schedule", one_based(*shown.schedule)},
          {"crash", crash.attempt < 0 ? nlohmann::ordered_json()
                                      : nlohmann::ordered_json{{"attempt", crash.attempt + 1},
                                                               {"after_statement", crash.after}}},
          {"invariants", *shown.invariants},
          {"timeline", timeline_json(*shown.timeline)}};
}

// The counts, then the shown interleaving as a timeline.
void print_explore_text(const ExploreOptions& options, const ExploreResult& result) {
  fmt::print("{}", wrap(fmt::format("{}{}: {}{}, {}{}{}, {} breaking{}", result.strategy,
                                    pitfall_argument(result.pitfall), where_text(result),
                                    count_of(result.duplicates, "duplicate"),
                                    count_of(result.interleavings, "interleaving"),
                                    orders_text(options, result),
                                    result.truncated ? " (stopped at --max-interleavings)" : "",
                                    result.breaking, server_counts_text(result)),
                        0));
  for (const auto& [invariant, count] : result.by_invariant)
    fmt::print("  {:<24} {}\n", invariant, count_of(count, "interleaving"));
  if (const std::string wake_order = wake_order_text(result); !wake_order.empty())
    fmt::print("{}", wrap(wake_order, 0));
  if (result.first_deadlock_index > 0)
    fmt::print("{}",
               wrap(fmt::format("First deadlocking interleaving: {} (attempt per step: {}); "
                                "the server chose attempt {} as its victim (--interleaving "
                                "{} shows it).",
                                result.first_deadlock_index,
                                fmt::join(one_based(result.first_deadlock_schedule), " "),
                                result.first_deadlock_victim + 1, result.first_deadlock_index),
                    0));
  const Shown shown = shown_of(result);
  if (shown.timeline->empty()) return;
  const std::string heading = fmt::format(
      "{} (attempt per step: {}{}), {}:", shown.label, fmt::join(one_based(*shown.schedule), " "),
      shown.crash.attempt < 0 ? std::string()
                              : fmt::format("; attempt {} dies after its statement {}, then a "
                                            "late retry",
                                            shown.crash.attempt + 1, shown.crash.after),
      breaks_text(shown));
  fmt::print("\n{}{}", wrap(heading, 0),
             timeline_legend() + timeline_text(*shown.timeline, options.sql));
}

void print_explore_diagram(const ExploreOptions& options, const ExploreResult& result) {
  const Shown shown = shown_of(result);
  const std::string verdict = shown.timeline->empty()
                                  ? std::string("no interleaving breaks an invariant")
                                  : breaks_text(shown);
  const std::string title =
      fmt::format("{}{}: {}", result.strategy, pitfall_argument(result.pitfall),
                  result.picked_index > 0 ? fmt::format("interleaving {}", result.picked_index)
                                          : std::string("the first breaking interleaving"));
  fmt::print("{}", options.diagram == "svg" ? svg_sequence(*shown.timeline, title, verdict)
                                            : mermaid_sequence(*shown.timeline, title, verdict));
}

void print_explore_json(const ExploreOptions& options, const ExploreResult& result) {
  nlohmann::ordered_json out{
      {"strategy", result.strategy},        {"pitfall", pitfall_json(result.pitfall)},
      {"duplicates", result.duplicates},    {"interleavings", result.interleavings},
      {"breaking", result.breaking},        {"truncated", result.truncated},
      {"by_invariant", result.by_invariant}};
  if (!result.guard_store.empty()) out["redis"] = result.guard_store;
  if (is_server(result.engine)) {
    out["engine"] = engine_name(result.engine);
    out["isolation"] = result.isolation;
    out["orders"] = one_order_of_commuting(options, result) ? "one-of-commuting" : "all";
    out["blocking"] = result.blocking;
    out["deadlocking"] = result.deadlocking;
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
  if (!result.first_breaking_schedule.empty())
    out["first_breaking"] = shown_json(first_breaking_of(result));
  if (result.picked_index > 0) {
    out["interleaving"] = result.picked_index;
    out["picked"] = shown_json(shown_of(result));
  }
  print_json(out);
}

ExitCode run_explore(ExploreOptions& options) {
  choose_server(&options);
  if (options.config.unique_index && !find_strategy(options.strategy)->info().offers_unique_index)
    throw_if_error(Status::usage(fmt::format(
        "--unique-index is for select-for-update; {} keeps its own guard", options.strategy)));
  if (options.config.all_orders && !options.config.server)
    throw_if_error(Status::usage(
        "--all-orders is for explore --db: on SQLite a step is already a whole transaction"));
  install_interrupt_handlers();
  ExploreResult result;
  const Strategy& strategy = *find_strategy(options.strategy);
  throw_if_error(
      explore(strategy, pitfall_option(strategy.info(), options.pitfall), options.config, &result));
  if (options.config.pick > 0 && result.picked_index == 0)
    throw_if_error(
        Status::usage(fmt::format("--interleaving {}: explore tried only {}", options.config.pick,
                                  count_of(result.interleavings, "interleaving"))));
  if (!options.diagram.empty())
    print_explore_diagram(options, result);
  else if (options.json)
    print_explore_json(options, result);
  else
    print_explore_text(options, result);
  return explore_exit(options, result);
}

// What a step is on each backend, and the exit codes.
std::string explore_footer() {
  return std::string(
             "On SQLite a step is one statement outside a transaction, or one whole write "
             "transaction: while an attempt holds SQLite's write lock, other writes wait and "
             "other reads see the same snapshot, so interleaving inside it would change "
             "nothing. On a server (--db) a step is one statement: a statement that waits for "
             "another attempt's row lock is parked, on the server's own word "
             "(pg_blocking_pids, SHOW ENGINE INNODB STATUS), and the others go on until the "
             "server lets it go. Two steps of different attempts that commute (a BEGIN, which "
             "takes no lock and no snapshot; at READ COMMITTED and REPEATABLE READ a plain "
             "read beside another plain read, or beside a write another attempt has not "
             "committed) leave the same rows in either order: one order is tried (--all-orders"
             " tries both).\n") +
         sim_exit_code_help();
}

}  // namespace

void register_explore(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<ExploreOptions>();
  CLI::App* command = app.add_subcommand(
      "explore", "every interleaving of K concurrent duplicates; the first that breaks");
  command->add_option("--strategy", options->strategy, "the strategy")
      ->required()
      ->check(CLI::IsMember(strategy_names()));
  add_pitfall_option(command, &options->pitfall);
  command->add_option("-k,--duplicates", options->config.duplicates, "concurrent duplicates (K)")
      ->check(whole_number(2, 4))
      ->capture_default_str();
  command
      ->add_option("--lock-ttl-ms", options->config.lock_ttl_ms,
                   "lock-table TTL; the clock advances 1 ms per statement")
      ->check(whole_number(1, limits::kMaxDurationMs))
      ->capture_default_str();
  command
      ->add_option("--max-interleavings", options->config.max_interleavings, "stop after this many")
      ->check(whole_number(1, limits::kMaxInterleavings))
      ->capture_default_str();
  command->add_flag("--crash", options->config.crash,
                    "also kill each attempt after each statement it reaches; a crashed run "
                    "ends with one late retry after the lock's TTL (breaks: stuck)");
  command->add_flag("--sql", options->sql, "add each statement's SQL to the timeline");
  command->add_flag("--unique-index", options->config.unique_index,
                    "select-for-update: insert the flow row under the unique index on (source, "
                    "biz_seq) too");
  command->add_flag("--all-orders", options->config.all_orders,
                    "with --db: try both orders of two steps that commute too (a BEGIN, a plain "
                    "read beside another attempt's uncommitted write); without it one is tried");
  command->add_flag("--overdraw", options->config.overdraw,
                    "the request asks for more than the payer holds: a rejection every repeat "
                    "must get again");
  command
      ->add_option_function<std::string>(
          "--format", [options](const std::string& format) { options->diagram = format; },
          "mermaid or svg: the shown interleaving as a sequence diagram")
      ->check(CLI::IsMember({"mermaid", "svg"}));
  command
      ->add_option("--interleaving", options->config.pick,
                   "show interleaving N (in the order they are tried) instead of the first "
                   "breaking one")
      ->check(whole_number(1, limits::kMaxInterleavings));
  add_scratch_server_options(command, "explore", &options->db, &options->isolation);
  add_scratch_redis_option(command, &options->redis);
  add_json_flag(command, &options->json);
  add_fail_on_option(command, &options->fail_on_violation);
  command->footer(explore_footer());
  command->callback([options, &result] { result.exit_code = run_explore(*options); });
}

}  // namespace idemlab
