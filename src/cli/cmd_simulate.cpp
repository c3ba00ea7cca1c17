// `idemlab simulate`: one strategy, many requests, seeded faults and retrying clients.
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/errors.h"
#include "cli/sim_options.h"
#include "core/interrupt.h"
#include "core/limits.h"
#include "report/mermaid.h"
#include "report/svg.h"
#include "report/timeline_view.h"

namespace idemlab {

namespace {

struct SimulateOptions {
  std::string strategy;
  std::optional<std::string> pitfall;
  bool timeline = false;
  bool sql = false;
  int64_t timeline_request = 0;
  SimCliOptions sim;
  std::string db;         // a server URL, or "" for SQLite
  std::string isolation;  // with db
  std::string redis;      // token and lock-table: where tokens and locks go, or ""
};

SimOptions simulation_options(const SimulateOptions& options, const ScratchServerChoice& server,
                              const std::optional<RedisLocator>& redis) {
  SimOptions sim_options;
  sim_options.timeline = options.timeline || options.timeline_request > 0;
  sim_options.timeline_request = options.timeline_request;
  sim_options.progress = progress_reporter("simulate " + options.strategy);
  if (server.server) sim_options.server = &*server.server;
  sim_options.isolation = server.isolation;
  if (redis) sim_options.redis = &*redis;
  return sim_options;
}

// What the options ask to see, checked against each other: a flag that would have no effect
// with another is named, never dropped.
void check_views(const SimulateOptions& options, const SimConfig& config) {
  if (options.timeline && options.timeline_request == 0 &&
      config.requests > limits::kMaxTimelineRequests)
    throw_if_error(Status::usage(fmt::format(
        "--timeline narrates every event: use it with at most {} requests, or pick one with "
        "--timeline-request N",
        limits::kMaxTimelineRequests)));
  const Format wanted = output_format(options.sim);
  if ((wanted == Format::kMermaid || wanted == Format::kSvg) && !options.timeline &&
      options.timeline_request == 0)
    throw_if_error(
        Status::usage("--format mermaid and svg draw a timeline: add --timeline-request N"));
  if (options.timeline_request > config.requests)
    throw_if_error(Status::usage("--timeline-request is beyond --requests"));
  const bool timeline = options.timeline || options.timeline_request > 0;
  if (timeline && (wanted == Format::kCsv || wanted == Format::kMarkdown))
    throw_if_error(Status::usage(fmt::format(
        "--format {} has no place for a timeline: the table and json show it, mermaid and svg "
        "draw it",
        options.sim.format)));
  if (options.sql && (!timeline || wanted != Format::kTable))
    throw_if_error(
        Status::usage("--sql adds each statement to the timeline's text: add --timeline, and no "
                      "--format or --json"));
}

ExitCode run_simulate(const SimulateOptions& options) {
  const ScratchServerChoice server =
      scratch_server_choice("simulate", options.db, options.isolation);
  const std::optional<RedisLocator> redis = scratch_redis_choice(options.redis, {options.strategy});
  install_interrupt_handlers();
  SimConfig config = build_config(options.sim);
  check_topology(config, server.server.has_value(), redis.has_value(), {options.strategy},
                 !options.sim.topology.empty());
  check_views(options, config);
  const Strategy& strategy = *find_strategy(options.strategy);
  const Pitfall pitfall = pitfall_option(strategy.info(), options.pitfall);
  const SimOptions sim_options = simulation_options(options, server, redis);
  SimResult result;
  throw_if_error(simulate(config, strategy, pitfall, sim_options, &result));
  std::string command = fmt::format("idemlab simulate --strategy {}{}{}", options.strategy,
                                    pitfall_argument(pitfall), config_arguments(config));
  command += scratch_server_arguments(server) + scratch_redis_arguments(redis);
  if (sim_options.timeline && options.timeline_request > 0)
    command += fmt::format(" --timeline-request {}", options.timeline_request);
  else if (sim_options.timeline)
    command += " --timeline";
  const Format format = output_format(options.sim);
  if (format == Format::kMermaid || format == Format::kSvg) {
    const std::string title = options.timeline_request > 0
                                  ? fmt::format("{}{}: request {}", options.strategy,
                                                pitfall_argument(pitfall), options.timeline_request)
                                  : options.strategy + pitfall_argument(pitfall);
    fmt::print("{}", format == Format::kSvg
                         ? svg_sequence(result.timeline, title, result.traced_verdict)
                         : mermaid_sequence(result.timeline, title, result.traced_verdict));
  } else if (format == Format::kJson) {
    nlohmann::ordered_json out = result_json(result);
    out["scenario"] = config.scenario;
    out["retry"] = config.retry.text();
    out["command"] = command;
    if (sim_options.timeline) out["timeline"] = timeline_json(result.timeline);
    print_json(out);
  } else if (format == Format::kTable) {
    if (sim_options.timeline)
      fmt::print("{}{}\n", timeline_legend(), timeline_text(result.timeline, options.sql));
    fmt::print("{}", result_text(result, command));
  } else {
    fmt::print("{}", results_view({result}, format, {}));
  }
  if (options.sim.fail_on_violation && breaks_guarantee(result)) return ExitCode::kAuditFailed;
  return ExitCode::kOk;
}

}  // namespace

void register_simulate(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* command = app.add_subcommand(
      "simulate", "many requests against one strategy: seeded faults, retries, verdicts");
  command->add_option("--strategy", options->strategy, "the strategy")
      ->required()
      ->check(CLI::IsMember(strategy_names()));
  add_pitfall_option(command, &options->pitfall);
  command->add_flag("--timeline", options->timeline, "narrate every event (small runs)");
  command->add_flag("--sql", options->sql, "timelines: add each statement's SQL");
  command
      ->add_option("--timeline-request", options->timeline_request,
                   "narrate the events of request N only")
      ->check(whole_number(1, limits::kMaxRequests));
  add_sim_options(command, &options->sim);
  add_scratch_server_options(command, "simulate", &options->db, &options->isolation);
  add_scratch_redis_option(command, &options->redis);
  command->footer(
      "Verdicts are counted from the journal: moved_once, moved_twice_or_more and not_moved "
      "partition the requests; never_moved (told success, nothing moved), stuck, "
      "refused and gave_up (no final answer) partition not_moved; unknown_to_client and "
      "inconsistent_answers count problems.\n"
      "Costs: attempts_per_request (what the clients sent), deliveries_per_request (copies "
      "that reached the server: double submits, redeliveries), statements_per_request "
      "(statements the ledger ran per request, the clients' own queries included), lock_waits, "
      "and the latency from a request's first attempt to its final answer, in virtual ms.\n");
  command->callback([options, &result] { result.exit_code = run_simulate(*options); });
}

}  // namespace idemlab
