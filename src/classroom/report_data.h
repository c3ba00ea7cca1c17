// What `idemlab report` shows, computed from real runs: explain's rehearsal for each guard,
// explore's tightest race and first breaking interleavings, the simulator where two twins
// cannot show a pitfall, compare's runs of every scenario, and (report --backend) the same per
// engine. report/html_report.h renders it and computes nothing; this computes and renders
// nothing. Same input, same data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attempt/trace.h"
#include "sim/explore/explore.h"
#include "sim/simulate/compare.h"

namespace idemlab {

// report --backend: one column of the engines section, SQLite (no server) or a server at a
// level.
struct ReportEngine {
  std::string backend;  // "sqlite", or the URL as shown (no password)
  std::optional<Locator> server;
  Isolation isolation = Isolation::kDefault;
};

// How many interleavings of the twins each engine tries (the first ones, in explore's order),
// unless report --max-interleavings says.
inline constexpr int64_t kReportEngineInterleavings = 2000;

struct ReportInput {
  std::vector<std::string> scenarios;  // built-in scenario names
  std::vector<const Strategy*> strategies;
  int64_t requests = 200;  // per scenario in the matrix
  uint64_t seed = 1;
  int jobs = 1;
  std::string command;  // the command that reproduces the report
  // report --topology: the matrix's every scenario runs on it (its own topology replaced)
  std::optional<SimTopology> topology;
  // report --backend: the engines section's columns, the strategy its twins explore, and
  // " --backend ... --isolation ..." for its reproduce lines. No engines: no section.
  std::vector<ReportEngine> engines;
  const Strategy* engine_strategy = nullptr;
  int64_t engine_interleavings = kReportEngineInterleavings;  // explored per engine, at most
  std::string backend_arguments;
};

// A figure: a timeline, what it is, what it shows, and the command that draws it alone.
struct Figure {
  std::vector<TimelineEvent> timeline;  // empty: no run shows it
  std::string title;
  std::string verdict;
  std::string command;
};

struct PitfallFigure {
  const PitfallInfo* pitfall = nullptr;
  Figure figure;  // explore's first breaking interleaving, else the simulator's first request
};

// The guard in the tightest race: under what exposes the main pitfall, the interleaving whose
// attempts take turns most often.
struct RaceFigure {
  int64_t interleavings = 0;
  int64_t breaking = 0;
  Figure figure;
};

struct StrategyCard {
  const Strategy* strategy = nullptr;
  std::vector<TracedAttempt> rehearsal;  // a first attempt and its repeat
  std::optional<RaceFigure> race;        // strategies with a pitfall
  std::vector<PitfallFigure> pitfalls;
};

// One scenario run against a list of rows (strategies; or strategies x engines).
struct ScenarioRun {
  std::string scenario;
  SimConfig config;
  std::string topology;  // its servers in words, with the replicas its faults imply; "" for one
                         // ledger and no replica (topology_words)
  std::vector<SimResult> results;  // one per row, in the rows' order
};

// One engine's explore of ReportInput::engine_strategy.
struct EngineFigure {
  const ReportEngine* engine = nullptr;
  ExploreResult result;
  std::string command;
};

struct ReportData {
  std::vector<StrategyCard> cards;
  std::vector<ScenarioRun> matrix;       // every scenario, every strategy, on SQLite
  std::vector<ScenarioRun> engine_runs;  // report --backend: rows strategy-major, engine-minor
  std::vector<EngineFigure> engine_figures;
};

Status gather_report(const ReportInput& input, ReportData* out);

// The one scenario loop: each of `input`'s scenarios, at its requests and seed, against `rows`;
// `on_topology`: on input.topology, when given (the matrix; the engines section runs each
// scenario as written).
Status run_scenarios(const ReportInput& input, const std::vector<CompareRow>& rows,
                     bool on_topology, std::vector<ScenarioRun>* out);

}  // namespace idemlab
