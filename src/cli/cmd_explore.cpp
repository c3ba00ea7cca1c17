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
#include "report/text.h"
#include "sim/explore.h"

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
};

// --fail-on violation: a guarded strategy without --pitfall broke an invariant.
ExitCode explore_exit(const ExploreOptions& options, const ExploreResult& result) {
  const bool guarded = find_strategy(options.strategy)->info().guarded;
  if (options.fail_on_violation && guarded && result.pitfall == Pitfall::kNone &&
      result.breaking > 0)
    return ExitCode::kAuditFailed;
  return ExitCode::kOk;
}

// The counts, then the first breaking interleaving as a timeline.
void print_explore_text(const ExploreOptions& options, const ExploreResult& result) {
  fmt::print("{}",
             wrap(fmt::format(
                      "{}{}: {}, {}{}, {} breaking", result.strategy,
                      pitfall_argument(result.pitfall), count_of(result.duplicates, "duplicate"),
                      count_of(result.interleavings, "interleaving"),
                      result.truncated ? " (stopped at --max-interleavings)" : "", result.breaking),
                  0));
  for (const auto& [invariant, count] : result.by_invariant)
    fmt::print("  {:<24} {}\n", invariant, count_of(count, "interleaving"));
  if (!result.first_breaking.empty()) {
    std::vector<int> schedule;
    for (int attempt : result.first_breaking_schedule) schedule.push_back(attempt + 1);
    const CrashPoint& crash = result.first_breaking_crash;
    const std::string heading = fmt::format(
        "First breaking interleaving (attempt per step: {}{}), breaks {}:",
        fmt::join(schedule, " "),
        crash.attempt < 0 ? std::string()
                          : fmt::format("; attempt {} dies after its statement {}, then "
                                        "a late retry",
                                        crash.attempt + 1, crash.after),
        fmt::join(result.first_breaking_invariants, ", "));
    fmt::print("\n{}{}", wrap(heading, 0),
               timeline_legend() + timeline_text(result.first_breaking, options.sql));
  }
}

ExitCode run_explore(const ExploreOptions& options) {
  install_interrupt_handlers();
  ExploreResult result;
  const Strategy& strategy = *find_strategy(options.strategy);
  throw_if_error(
      explore(strategy, pitfall_option(strategy.info(), options.pitfall), options.config, &result));
  if (!options.diagram.empty()) {
    const std::string verdict =
        result.first_breaking.empty()
            ? std::string("no interleaving breaks an invariant")
            : fmt::format("breaks {}", fmt::join(result.first_breaking_invariants, ", "));
    const std::string title = fmt::format("{}{}: the first breaking interleaving", result.strategy,
                                          pitfall_argument(result.pitfall));
    fmt::print("{}", options.diagram == "svg"
                         ? svg_sequence(result.first_breaking, title, verdict)
                         : mermaid_sequence(result.first_breaking, title, verdict));
    return explore_exit(options, result);
  }
  if (options.json) {
    nlohmann::ordered_json out{
        {"strategy", result.strategy},        {"pitfall", pitfall_json(result.pitfall)},
        {"duplicates", result.duplicates},    {"interleavings", result.interleavings},
        {"breaking", result.breaking},        {"truncated", result.truncated},
        {"by_invariant", result.by_invariant}};
    if (!result.first_breaking_schedule.empty()) {
      std::vector<int> schedule;
      for (int attempt : result.first_breaking_schedule) schedule.push_back(attempt + 1);
      const CrashPoint& crash = result.first_breaking_crash;
      out["first_breaking"] = {
          {"schedule", schedule},
          {"crash", crash.attempt < 0 ? nlohmann::ordered_json()
                                      : nlohmann::ordered_json{{"attempt", crash.attempt + 1},
                                                               {"after_statement", crash.after}}},
          {"invariants", result.first_breaking_invariants},
          {"timeline", timeline_json(result.first_breaking)}};
    }
    print_json(out);
    return explore_exit(options, result);
  }
  print_explore_text(options, result);
  return explore_exit(options, result);
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
  command->add_option("--duplicates", options->config.duplicates, "concurrent duplicates (K)")
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
  command->add_flag("--overdraw", options->config.overdraw,
                    "the request asks for more than the payer holds: a rejection every repeat "
                    "must get again");
  command
      ->add_option_function<std::string>(
          "--format", [options](const std::string& format) { options->diagram = format; },
          "mermaid: the first breaking interleaving as a sequence diagram")
      ->check(CLI::IsMember({"mermaid", "svg"}));
  add_json_flag(command, &options->json);
  add_fail_on_option(command, &options->fail_on_violation);
  command->footer(
      "A step is one statement outside a transaction, or one whole write transaction: while an\n"
      "attempt holds SQLite's write lock, other writes wait and other reads see the same\n"
      "snapshot, so interleaving inside it would change nothing.\n" +
      sim_exit_code_help());
  command->callback([options, &result] { result.exit_code = run_explore(*options); });
}

}  // namespace idemlab
