// `idemlab report --out FILE.html`: the self-contained HTML report (report/html_report.h).
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/errors.h"
#include "cli/output_file.h"
#include "cli/sim_options.h"
#include "core/interrupt.h"
#include "core/limits.h"
#include "report/html_report.h"
#include "report/sim_view.h"
#include "sim/shared/scenario.h"
#include "sim/simulate/compare.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct ReportOptions {
  std::string out;
  std::string scenarios = "all";
  std::string strategies = "all";
  int64_t requests = 200;
  int64_t seed = 1;
  int jobs = default_jobs();
  std::vector<std::string> backends;    // report --backend: the engines section's columns
  std::vector<std::string> isolations;  // ... each server at these levels
  bool json = false;                    // the summary as JSON: the file, and the matrix's verdicts
  std::string engine_strategy = "select-for-update";
  int64_t max_interleavings = 0;      // ... of its twins per engine; 0: not given, the default
  std::vector<std::string> topology;  // --topology: the matrix's every scenario on it
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// The engines section's columns: each backend in the order given, a server once per level.
void add_engines(const ReportOptions& options, ReportInput* input) {
  if (options.backends.empty()) {
    if (!options.isolations.empty())
      throw_if_error(Status::usage("--isolation is for the engines section: add --backend"));
    if (options.max_interleavings > 0)
      throw_if_error(
          Status::usage("--max-interleavings is for the engines section: add --backend"));
    return;
  }
  std::vector<Isolation> levels;
  for (const std::string& name : options.isolations) {
    Isolation level = Isolation::kDefault;
    (void)parse_isolation(name, &level);  // the option's check allows only known names
    levels.push_back(level);
  }
  if (levels.empty()) levels.push_back(Isolation::kDefault);
  for (const std::string& text : options.backends) {
    ReportEngine engine;
    engine.backend = text;
    if (!names_embedded_engine(text)) {
      Locator locator;
      throw_if_error(parse_locator(text, &locator));
      if (!is_server(locator.engine))
        throw_if_error(Status::usage(fmt::format(
            "--backend {}: say sqlite, or give a postgresql:// or mariadb:// URL", text)));
      engine.backend = locator.shown;
      engine.server = std::move(locator);
    }
    input->backend_arguments += " --backend " + engine.backend;
    for (const ReportEngine& earlier : input->engines)
      if (earlier.backend == engine.backend)
        throw_if_error(Status::usage(fmt::format("--backend {} is given twice", engine.backend)));
    if (!engine.server) {
      input->engines.push_back(engine);
      continue;
    }
    for (Isolation level : levels) {
      engine.isolation = level;
      input->engines.push_back(engine);
    }
  }
  for (const std::string& name : options.isolations)
    input->backend_arguments += " --isolation " + name;
  input->engine_strategy = find_strategy(options.engine_strategy);
  if (options.max_interleavings > 0) input->engine_interleavings = options.max_interleavings;
}

// --topology: every scenario of the matrix runs on it; one whose faults it cannot carry (a ledger
// failover on a Galera cluster) is named in the refusal.
void choose_topology(const ReportOptions& options, const std::vector<std::string>& strategies,
                     ReportInput* input) {
  if (options.topology.empty()) return;
  SimTopology topology;
  throw_if_error(parse_topologies(options.topology, &topology));
  for (const std::string& name : input->scenarios) {
    SimConfig config;
    throw_if_error(load_scenario(name, &config, nullptr));
    config.topology = topology;
    const Status status = resolve_topology(&config.topology, &config.faults, false);
    if (!status.is_ok())
      throw_if_error(Status::usage(
          fmt::format("scenario {}: {} (leave it out with --scenarios)", name, status.message())));
    check_topology(config, false, false, strategies, true);
  }
  input->topology = topology;
}

ReportInput report_input(const ReportOptions& options) {
  ReportInput input;
  input.requests = options.requests;
  input.seed = static_cast<uint64_t>(options.seed);
  input.jobs = options.jobs;
  if (options.scenarios == "all") {
    for (const BuiltinScenario& builtin : builtin_scenarios())
      input.scenarios.push_back(builtin.name);
  } else {
    for (const std::string& name : split(options.scenarios)) {
      SimConfig config;
      throw_if_error(load_scenario(name, &config, nullptr));
      input.scenarios.push_back(name);
    }
  }
  const std::vector<std::string> names =
      options.strategies == "all" ? strategy_names() : split(options.strategies);
  for (const std::string& name : names) {
    const Strategy* strategy = find_strategy(name);
    if (!strategy)
      throw_if_error(Status::usage(fmt::format("--strategies: unknown strategy '{}'", name)));
    input.strategies.push_back(strategy);
  }
  choose_topology(options, names, &input);
  input.command = fmt::format(
      "idemlab report --out {} --scenarios {} --strategies {} --requests {} --seed {}", options.out,
      options.scenarios, options.strategies, options.requests, options.seed);
  for (const std::string& text : options.topology) input.command += " --topology " + text;
  add_engines(options, &input);
  if (!input.engines.empty())
    input.command += input.backend_arguments + " --engine-strategy " + options.engine_strategy;
  if (options.max_interleavings > 0)
    input.command += fmt::format(" --max-interleavings {}", options.max_interleavings);
  return input;
}

// What report --json prints: the file written, and each scenario's verdicts per strategy, as
// simulate --json gives them (without the timelines, which only the page draws).
nlohmann::ordered_json report_summary(const ReportOptions& options, const ReportInput& input,
                                      const ReportData& data, size_t bytes) {
  nlohmann::ordered_json matrix = nlohmann::ordered_json::array();
  for (const ScenarioRun& run : data.matrix) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const SimResult& result : run.results) rows.push_back(result_json(result));
    matrix.push_back({{"scenario", run.scenario}, {"rows", rows}});
  }
  return {{"out", options.out},           {"bytes", bytes},
          {"command", input.command},     {"strategies", input.strategies.size()},
          {"scenarios", input.scenarios}, {"matrix", matrix}};
}

ExitCode run_report(const ReportOptions& options) {
  install_interrupt_handlers();
  throw_if_error(check_whole_file_target("--out", options.out));  // before the matrix runs
  const ReportInput input = report_input(options);
  ReportData data;
  throw_if_error(gather_report(input, &data));
  const std::string page = build_report(input, data);
  // Written beside and moved into place: a failure leaves no half-written report.
  throw_if_error(write_whole_file("--out", options.out, page));
  if (options.json) {
    print_json(report_summary(options, input, data, page.size()));
    return ExitCode::kOk;
  }
  fmt::print("wrote {} ({} KiB): {}, {}\n", options.out, page.size() / 1024,
             count_of(static_cast<int64_t>(input.strategies.size()), "strategy", "strategies"),
             count_of(static_cast<int64_t>(input.scenarios.size()), "scenario"));
  return ExitCode::kOk;
}

}  // namespace

void register_report(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app.add_subcommand(
      "report", "one self-contained HTML page: strategy cards with diagrams, the matrix, lessons");
  command->add_option("-o,--out", options->out, "the HTML file to write")->required();
  add_json_flag(command, &options->json);
  command->add_option("--scenarios", options->scenarios, "comma-separated built-in names, or all")
      ->capture_default_str();
  command->add_option("--strategies", options->strategies, "comma-separated names, or all")
      ->capture_default_str();
  command->add_option("--requests", options->requests, "requests per scenario in the matrix")
      ->check(whole_number(1, limits::kMaxReportRequests))
      ->capture_default_str();
  command->add_option("--seed", options->seed, "the matrix's seed")
      ->check(whole_number(0, limits::kMaxSeed))
      ->capture_default_str();
  command->add_option("--jobs", options->jobs, "strategies simulated at once")
      ->check(whole_number(1, limits::kMaxJobs))
      ->capture_default_str();
  command->add_option("--topology", options->topology,
                      std::string(kTopologyHelp) + "; the matrix's every scenario runs on it");
  command->add_option("--backend", options->backends,
                      "add a section comparing engines, a column per backend: sqlite, or a "
                      "postgresql:// or mariadb:// URL, where each run gets a scratch schema "
                      "or database dropped at its end (repeatable)");
  command
      ->add_option("--isolation", options->isolations,
                   "with --backend: run each server at this level too (repeatable; default: "
                   "the server's own)")
      ->check(CLI::IsMember({"read-committed", "repeatable-read", "serializable"}));
  command
      ->add_option("--engine-strategy", options->engine_strategy,
                   "with --backend: the strategy whose twins the section explores on each "
                   "engine")
      ->check(CLI::IsMember(strategy_names()))
      ->capture_default_str();
  command
      ->add_option("--max-interleavings", options->max_interleavings,
                   fmt::format("with --backend: how many interleavings of the twins the section "
                               "explores on each engine, the first in explore's order (default "
                               "{}; fewer on a slow server)",
                               kReportEngineInterleavings))
      ->check(whole_number(1, limits::kMaxInterleavings));
  command->callback([options, &result] { result.exit_code = run_report(*options); });
}

}  // namespace idemlab
