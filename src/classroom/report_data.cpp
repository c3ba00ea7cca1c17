// Gathering the report's runs.
#include "classroom/report_data.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "classroom/pitfall_figures.h"
#include "sim/shared/scenario.h"

namespace idemlab {

namespace {

Status strategy_card(const Strategy& strategy, StrategyCard* out) {
  const StrategyInfo& info = strategy.info();
  out->strategy = &strategy;
  RETURN_IF_ERROR(rehearse(strategy, Pitfall::kNone, &out->rehearsal));
  if (!info.pitfalls.empty()) {
    out->race.emplace();
    RETURN_IF_ERROR(guard_race_figure(strategy, &*out->race));
  }
  for (const PitfallInfo& pitfall : info.pitfalls) {
    PitfallFigure figure{&pitfall, {}};
    RETURN_IF_ERROR(pitfall_figure(strategy, pitfall, &figure.figure));
    out->pitfalls.push_back(std::move(figure));
  }
  return Status::ok();
}

std::vector<CompareRow> strategy_rows(const ReportInput& input) {
  std::vector<CompareRow> rows;
  for (const Strategy* strategy : input.strategies) {
    CompareRow row;
    row.strategy = strategy;
    rows.push_back(row);
  }
  return rows;
}

std::vector<CompareRow> engine_rows(const ReportInput& input) {
  std::vector<CompareRow> rows;
  for (const Strategy* strategy : input.strategies)
    for (const ReportEngine& engine : input.engines) {
      CompareRow row;
      row.strategy = strategy;
      row.backend = engine.backend;
      row.server = engine.server ? &*engine.server : nullptr;
      row.isolation = engine.isolation;
      rows.push_back(row);
    }
  return rows;
}

std::string engine_arguments(const ReportEngine& engine) {
  if (!engine.server) return "";
  std::string out = " --db " + engine.backend;
  if (engine.isolation != Isolation::kDefault)
    out += fmt::format(" --isolation {}", isolation_name(engine.isolation));
  return out;
}

Status engine_figure(const ReportInput& input, const ReportEngine& engine, EngineFigure* out) {
  const Strategy& strategy = *input.engine_strategy;
  ExploreConfig config;
  config.max_interleavings = input.engine_interleavings;
  config.server = engine.server;
  config.isolation = engine.isolation;
  out->engine = &engine;
  RETURN_IF_ERROR(explore(strategy, Pitfall::kNone, config, &out->result));
  out->command =
      fmt::format("idemlab explore --strategy {} --max-interleavings {}{}", strategy.info().name,
                  input.engine_interleavings, engine_arguments(engine));
  return Status::ok();
}

}  // namespace

Status run_scenarios(const ReportInput& input, const std::vector<CompareRow>& rows,
                     bool on_topology, std::vector<ScenarioRun>* out) {
  out->clear();
  for (const std::string& name : input.scenarios) {
    ScenarioRun run;
    run.scenario = name;
    RETURN_IF_ERROR(load_scenario(name, &run.config, nullptr));
    if (on_topology && input.topology) run.config.topology = *input.topology;
    run.config.requests = input.requests;
    run.config.seed = input.seed;
    SimConfig resolved = run.config;
    RETURN_IF_ERROR(
        resolve_topology(&resolved.topology, &resolved.faults, resolved.read_your_writes));
    run.topology = topology_words(resolved.topology);
    RETURN_IF_ERROR(compare(run.config, rows, input.jobs, {}, &run.results));
    out->push_back(std::move(run));
  }
  return Status::ok();
}

Status gather_report(const ReportInput& input, ReportData* out) {
  *out = ReportData{};
  for (const Strategy* strategy : input.strategies) {
    StrategyCard card;
    RETURN_IF_ERROR(strategy_card(*strategy, &card));
    out->cards.push_back(std::move(card));
  }
  RETURN_IF_ERROR(run_scenarios(input, strategy_rows(input), true, &out->matrix));
  if (input.engines.empty()) return Status::ok();
  RETURN_IF_ERROR(run_scenarios(input, engine_rows(input), false, &out->engine_runs));
  for (const ReportEngine& engine : input.engines) {
    EngineFigure figure;
    RETURN_IF_ERROR(engine_figure(input, engine, &figure));
    out->engine_figures.push_back(std::move(figure));
  }
  return Status::ok();
}

}  // namespace idemlab
