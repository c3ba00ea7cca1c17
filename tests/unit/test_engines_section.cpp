// The report's engines section: a Galera cluster is its own column, and its figure and notes
// say what a cluster does differently from one server.
#include <doctest/doctest.h>

#include "report/engines_section.h"
#include "strategies/registry.h"

namespace idemlab {

namespace {

SimResult ran_on(Engine engine, int nodes) {
  SimResult result;
  result.strategy = "select-for-update";
  result.engine = engine;
  result.isolation = engine == Engine::kSqlite ? "" : "repeatable-read";
  result.nodes = nodes;
  result.backend = engine == Engine::kSqlite ? "sqlite" : "mariadb://u:***@h:1,h:2,h:3/x";
  result.audit_ok = true;
  return result;
}

}  // namespace

TEST_CASE("report: a Galera cluster is a column of its own, its deadlock the cluster's") {
  ReportInput input;
  input.strategies = {&select_for_update_strategy()};
  input.engine_strategy = &select_for_update_strategy();
  Locator cluster;
  REQUIRE(parse_locator("mariadb://u:pw@h:1,h:2,h:3/x", &cluster).is_ok());
  input.engines = {ReportEngine{"sqlite", std::nullopt, Isolation::kDefault},
                   ReportEngine{cluster.shown, cluster, Isolation::kDefault}};
  ReportData data;
  ScenarioRun run;
  run.scenario = "double-click";
  run.results = {ran_on(Engine::kSqlite, 0), ran_on(Engine::kMariadb, 3)};
  data.engine_runs.push_back(run);
  for (const ReportEngine& engine : input.engines) {
    EngineFigure figure;
    figure.engine = &engine;
    figure.command = "idemlab explore --strategy select-for-update";
    data.engine_figures.push_back(figure);
  }
  data.engine_figures[1].result.first_deadlock = {TimelineEvent{}};
  data.engine_figures[1].result.first_deadlock_index = 3;
  data.engine_figures[1].result.first_deadlock_victim = 1;
  data.engine_figures[1].result.nodes = 3;
  const std::string html = engines_section(input, data);
  CHECK(html.find("<th>galera repeatable-read</th>") != std::string::npos);
  CHECK(html.find("<th>mariadb") == std::string::npos);
  CHECK(html.find("the cluster turned attempt 2 away") != std::string::npos);
  CHECK(html.find("counts can differ from run to run") != std::string::npos);

  run.results[1].nodes = 0;  // one MariaDB server: its own name, and no cluster note
  data.engine_runs = {run};
  input.engines[1].server->nodes.clear();
  data.engine_figures[1].result.nodes = 0;
  const std::string one = engines_section(input, data);
  CHECK(one.find("<th>mariadb repeatable-read</th>") != std::string::npos);
  CHECK(one.find("the server chose attempt 2 as its victim") != std::string::npos);
  CHECK(one.find("counts can differ") == std::string::npos);
}

}  // namespace idemlab
