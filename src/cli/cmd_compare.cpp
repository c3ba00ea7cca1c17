// `idemlab compare`: the identical schedule against every strategy, one row each.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cli/command.h"
#include "cli/compare_notes.h"
#include "cli/errors.h"
#include "cli/sim_options.h"
#include "core/interrupt.h"
#include "report/text.h"
#include "sim/budget.h"
#include "sim/compare.h"

namespace idemlab {

namespace {

struct CompareOptions {
  std::string strategies = "all";
  bool with_pitfalls = false;
  bool wide = false;
  int jobs = default_jobs();
  SimCliOptions sim;
};

std::vector<const Strategy*> chosen(const std::string& list) {
  if (list == "all") return {all_strategies().begin(), all_strategies().end()};
  std::vector<const Strategy*> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = std::min(list.find(',', start), list.size());
    std::string name = list.substr(start, comma - start);
    const Strategy* strategy = find_strategy(name);
    if (!strategy)
      throw_if_error(Status::usage(fmt::format("--strategies: unknown strategy '{}'", name)));
    out.push_back(strategy);
    start = comma + 1;
  }
  return out;
}

ExitCode run_compare(const CompareOptions& options) {
  install_interrupt_handlers();
  SimConfig config = build_config(options.sim);
  std::vector<CompareRow> plan;
  for (const Strategy* strategy : chosen(options.strategies)) {
    plan.push_back({strategy, Pitfall::kNone});
    if (options.with_pitfalls)
      for (const PitfallInfo& pitfall : strategy->info().pitfalls)
        plan.push_back({strategy, pitfall.id});
  }
  std::vector<SimResult> rows;
  throw_if_error(check_sim_budget_for_jobs(config, options.jobs));
  throw_if_error(compare(config, plan, options.jobs, rows_reporter("compare"), &rows));
  std::string command =
      fmt::format("idemlab compare --strategies {}{}{}", options.strategies,
                  options.with_pitfalls ? " --with-pitfalls" : "", config_arguments(config));
  const Format format = output_format(options.sim);
  if (format == Format::kMermaid || format == Format::kSvg)
    throw_if_error(
        Status::usage("--format mermaid and svg draw one timeline: use them with simulate "
                      "--timeline-request N, explore or explain"));
  const std::vector<std::string> notes = compare_notes(config, plan, rows);
  nlohmann::ordered_json extra{{"scenario", config.scenario},
                               {"seed", config.seed},
                               {"retry", config.retry.text()},
                               {"command", command},
                               {"notes", notes}};
  fmt::print("{}", results_view(rows, format, extra, options.wide));
  if (format == Format::kTable) {
    std::string under = options.wide ? "" : compact_table_legend();
    for (const std::string& note : notes) under += wrap(note, 0);
    fmt::print("{}{}", under, wrap("reproduce: " + command, 0));
  }
  if (options.sim.fail_on_violation && std::any_of(rows.begin(), rows.end(), breaks_guarantee))
    return ExitCode::kAuditFailed;
  return ExitCode::kOk;
}

}  // namespace

void register_compare(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command =
      app.add_subcommand("compare", "the same schedule against each strategy, side by side");
  command->add_option("--strategies", options->strategies, "comma-separated names, or all")
      ->capture_default_str();
  command->add_flag("--with-pitfalls", options->with_pitfalls,
                    "add a row for each pitfall of each strategy");
  command->add_flag("--wide", options->wide, "every column (wider than 100)");
  command
      ->add_option("--jobs", options->jobs,
                   "strategies simulated at once, one ledger each (default: one per core); "
                   "the output is the same bytes for any value")
      ->check(whole_number(1, 64))
      ->capture_default_str();
  add_sim_options(command, &options->sim);
  command->callback([options, &result] { result.exit_code = run_compare(*options); });
}

}  // namespace idemlab
