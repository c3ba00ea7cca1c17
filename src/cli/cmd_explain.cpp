// `idemlab explain [STRATEGY]`: what a strategy does, its steps and SQL, what it protects
// against and its pitfall. The trace is a real run on a scratch ledger.
#include <fmt/format.h>

#include "cli/command.h"
#include "core/status.h"
#include "db/locator.h"
#include "report/explain_view.h"
#include "report/mermaid.h"
#include "report/sequence.h"
#include "report/svg.h"

namespace idemlab {

namespace {

struct ExplainOptions {
  std::string strategy;
  std::optional<std::string> pitfall;  // whose trace to show (default: the main pitfall)
  bool json = false;
  std::string diagram;  // "mermaid" or "svg"
  std::string db;       // a server URL: show its dialect's SQL (nothing connects)
  std::string isolation;
};

// The level a server's attempts run at: --isolation, else the engine's own default.
std::string explained_isolation(Engine engine, const ExplainOptions& options) {
  const Isolation chosen = isolation_option(options.db, options.isolation);  // SQLite: refused
  const EngineTraits& traits = engine_traits(engine);
  if (!traits.server) return "";
  if (chosen != Isolation::kDefault) return std::string(isolation_name(chosen));
  return fmt::format("{} (its default)", traits.default_isolation);
}

ExitCode list_strategies(bool json) {
  if (json)
    print_json(strategy_list_json());
  else
    fmt::print("{}", strategy_list_text());
  return ExitCode::kOk;
}

// The engine whose SQL the trace shows: the one --db names, SQLite without it.
Engine explained_engine(const std::string& db) {
  Locator locator;
  if (!db.empty()) throw_if_error(parse_locator(db, &locator));
  return locator.engine;
}

ExitCode run_explain(const ExplainOptions& options) {
  if (options.strategy.empty()) return list_strategies(options.json);
  const Strategy* strategy = find_strategy(options.strategy);
  if (!strategy) throw_if_error(Status::usage("unknown strategy " + options.strategy));
  Explained e;
  e.info = &strategy->info();
  e.traced = options.pitfall ? pitfall_option(*e.info, options.pitfall) : main_pitfall(*e.info);
  e.engine = explained_engine(options.db);
  e.isolation = explained_isolation(e.engine, options);
  throw_if_error(rehearse(*strategy, Pitfall::kNone, &e.safe, e.engine));
  if (e.traced != Pitfall::kNone)
    throw_if_error(rehearse(*strategy, e.traced, &e.pitfall, e.engine));
  if (!options.diagram.empty()) {
    const bool shown = options.pitfall.has_value();
    const std::string title = fmt::format("{}{}: a first attempt and a repeat", e.info->name,
                                          shown ? pitfall_argument(e.traced) : "");
    const auto events = rehearsal_timeline(shown ? e.pitfall : e.safe);
    fmt::print("{}", options.diagram == "svg" ? svg_sequence(events, title, "")
                                              : mermaid_sequence(events, title, ""));
  } else if (options.json) {
    print_json(explain_json(e));
  } else {
    fmt::print("{}", explain_text(e));
  }
  return ExitCode::kOk;
}

}  // namespace

void register_explain(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* command =
      app.add_subcommand("explain", "what a strategy does: steps, SQL, protection, pitfall");
  command->add_option("strategy", options->strategy, "strategy name (none: list them)")
      ->check(CLI::IsMember(strategy_names()));
  command->add_option("--pitfall", options->pitfall, "trace this pitfall instead of the main one")
      ->expected(0, 1)
      ->default_str("");
  command
      ->add_option_function<std::string>(
          "--format", [options](const std::string& format) { options->diagram = format; },
          "mermaid: the traced run as a sequence diagram (with --pitfall: the pitfall's)")
      ->check(CLI::IsMember({"mermaid", "svg"}));
  command->add_option("--db", options->db,
                      "a server URL: show each step's SQL in that engine's dialect (the "
                      "rehearsal runs on a scratch ledger; nothing connects to the server)");
  add_isolation_option(command, &options->isolation);
  add_json_flag(command, &options->json);
  command->callback([options, &result] { result.exit_code = run_explain(*options); });
}

}  // namespace idemlab
