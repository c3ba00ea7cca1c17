// `idemlab compare`: the identical schedule against every strategy, one row each.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

#include "cli/command.h"
#include "cli/errors.h"
#include "cli/sim_options.h"
#include "core/interrupt.h"
#include "report/compare_notes.h"
#include "report/sim_view.h"
#include "sim/shared/budget.h"
#include "sim/simulate/compare.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct CompareOptions {
  std::string strategies = "all";
  bool with_pitfalls = false;
  bool wide = false;
  int jobs = default_jobs();
  SimCliOptions sim;
  std::vector<std::string> backends;    // "sqlite" or server URLs; none: SQLite, no backend column
  std::vector<std::string> isolations;  // each server's levels; none: its default
  std::string redis;                    // token and lock-table: where tokens and locks go
  std::string db;  // as simulate and explore say it: one server, the same as --backend URL
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

// Where compare --backend runs each row: SQLite in memory, or a server at each level asked.
struct Backend {
  std::string shown;              // "sqlite", or the URL without its password
  std::optional<Locator> server;  // none for SQLite
};

Backend parse_backend(const std::string& text) {
  if (names_embedded_engine(text)) return {text, std::nullopt};
  Locator locator;
  throw_if_error(parse_locator(text, &locator));
  if (!is_server(locator.engine))
    throw_if_error(Status::usage(fmt::format(
        "--backend {}: compare runs SQLite in a scratch ledger of its own; say --backend "
        "sqlite, or give a postgresql:// or mariadb:// URL",
        locator.shown)));
  return {locator.shown, std::move(locator)};
}

std::vector<Backend> chosen_backends(const CompareOptions& options) {
  std::vector<Backend> out;
  std::vector<std::string> texts = options.backends;
  if (!options.db.empty()) {
    // The same word as simulate and explore, with the same answer for a SQLite file.
    (void)scratch_server_choice("compare", options.db, "");
    texts.push_back(options.db);
  }
  for (const std::string& text : texts) {
    Backend backend = parse_backend(text);
    for (const Backend& earlier : out)
      if (earlier.shown == backend.shown)
        throw_if_error(Status::usage(fmt::format("--backend {} is given twice", backend.shown)));
    out.push_back(std::move(backend));
  }
  const bool any_server =
      std::any_of(out.begin(), out.end(), [](const Backend& b) { return b.server.has_value(); });
  if (!options.isolations.empty() && !any_server)
    throw_if_error(Status::usage(
        "--isolation is for --backend servers: SQLite has one writer at a time, always "
        "serializable"));
  return out;
}

std::vector<Isolation> chosen_isolations(const std::vector<std::string>& names) {
  std::vector<Isolation> out;
  for (const std::string& name : names) {
    Isolation level = Isolation::kDefault;
    (void)parse_isolation(name, &level);  // the option's check allows only known names
    if (std::find(out.begin(), out.end(), level) != out.end())
      throw_if_error(Status::usage(fmt::format("--isolation {} is given twice", name)));
    out.push_back(level);
  }
  if (out.empty()) out.push_back(Isolation::kDefault);
  return out;
}

// One row per strategy (and pitfall), then per backend, then per level on a server: a
// strategy's rows on every engine follow each other.
std::vector<CompareRow> plan_rows(const CompareOptions& options,
                                  const std::vector<Backend>& backends, const RedisLocator* redis) {
  std::vector<std::pair<const Strategy*, Pitfall>> runs;
  for (const Strategy* strategy : chosen(options.strategies)) {
    runs.push_back({strategy, Pitfall::kNone});
    if (options.with_pitfalls)
      for (const PitfallInfo& pitfall : strategy->info().pitfalls)
        runs.push_back({strategy, pitfall.id});
  }
  const std::vector<Isolation> levels = chosen_isolations(options.isolations);
  std::vector<CompareRow> plan;
  for (const auto& [strategy, pitfall] : runs) {
    CompareRow row;
    row.strategy = strategy;
    row.pitfall = pitfall;
    row.redis = redis;
    if (backends.empty()) plan.push_back(row);
    for (const Backend& backend : backends) {
      row.backend = backend.shown;
      if (!backend.server) {
        plan.push_back(row);
        continue;
      }
      row.server = &*backend.server;
      for (Isolation level : levels) {
        row.isolation = level;
        plan.push_back(row);
      }
      row.server = nullptr;
    }
  }
  return plan;
}

std::string backend_arguments(const CompareOptions& options, const std::vector<Backend>& backends) {
  std::string out;
  for (const Backend& backend : backends) out += " --backend " + backend.shown;
  for (const std::string& level : options.isolations) out += " --isolation " + level;
  return out;
}

ExitCode run_compare(const CompareOptions& options) {
  install_interrupt_handlers();
  SimConfig config = build_config(options.sim);
  const std::vector<Backend> backends = chosen_backends(options);
  std::vector<std::string> names;
  for (const Strategy* strategy : chosen(options.strategies))
    names.emplace_back(strategy->info().name);
  const std::optional<RedisLocator> redis = scratch_redis_choice(options.redis, names);
  check_topology(
      config,
      std::any_of(backends.begin(), backends.end(), [](const Backend& b) { return b.server; }),
      redis.has_value(), names, !options.sim.topology.empty());
  const std::vector<CompareRow> plan = plan_rows(options, backends, redis ? &*redis : nullptr);
  std::vector<SimResult> rows;
  throw_if_error(check_sim_budget_for_jobs(config, options.jobs));
  throw_if_error(compare(config, plan, options.jobs, rows_reporter("compare"), &rows));
  std::string command =
      fmt::format("idemlab compare --strategies {}{}{}", options.strategies,
                  options.with_pitfalls ? " --with-pitfalls" : "", config_arguments(config)) +
      backend_arguments(options, backends) + scratch_redis_arguments(redis);
  const Format format = output_format(options.sim);
  if (format == Format::kMermaid || format == Format::kSvg)
    throw_if_error(
        Status::usage("--format mermaid and svg draw one timeline: use them with simulate "
                      "--timeline-request N, explore or explain"));
  const CompareNotes notes = compare_notes(config, plan, rows);
  nlohmann::ordered_json extra{{"scenario", config.scenario},
                               {"seed", config.seed},
                               {"retry", config.retry.text()},
                               {"command", command},
                               {"notes", notes.full}};
  fmt::print("{}", results_view(rows, format, extra, options.wide));
  if (format == Format::kTable) {
    std::string under = options.wide ? "" : compact_table_legend();
    for (const std::string& note : notes.brief) under += wrap(note, 0);
    fmt::print("{}{}", under, reproduce_text(command));
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
      ->check(whole_number(1, limits::kMaxJobs))
      ->capture_default_str();
  command->add_option("--db", options->db,
                      "compare on this PostgreSQL or MariaDB server, as simulate and explore "
                      "do: the same as --backend URL");
  command->add_option("--backend", options->backends,
                      "run every row on this backend too: sqlite, or a postgresql:// or "
                      "mariadb:// URL, where each run gets a scratch schema or database "
                      "dropped at its end (repeatable; rows then name engine and level)");
  command
      ->add_option("--isolation", options->isolations,
                   "with --backend servers: run each at this level too: read-committed, "
                   "repeatable-read or serializable (repeatable; default: the server's own)")
      ->check(CLI::IsMember({"read-committed", "repeatable-read", "serializable"}));
  add_scratch_redis_option(command, &options->redis);
  add_sim_options(command, &options->sim);
  command->callback([options, &result] { result.exit_code = run_compare(*options); });
}

}  // namespace idemlab
