// The report's "same strategy on every engine" section (report --backend): compare's matrix with
// a column per engine and level, and per engine the first interleaving of two twins that breaks
// the chosen strategy there, or the first the server ended as a deadlock.
#include "report/engines_section.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "report/compact_table.h"
#include "report/explore_view.h"
#include "report/markup.h"
#include "report/svg.h"

namespace idemlab {

namespace {

// What went wrong in one (strategy, engine) cell, over every scenario.
struct EngineCell {
  std::vector<std::string> problems;  // "double-click: 2x 3"
  std::string verdict;                // the same without the counts: what engines compare
  int64_t unknown = 0;
};

// What a result got wrong: "2x 3", "lied 1", ...; without the counts, `kinds` only.
std::vector<std::string> problems_of(const SimResult& r, bool with_counts) {
  std::vector<std::string> out;
  auto add = [&](int64_t count, std::string_view kind) {
    if (count) out.push_back(with_counts ? fmt::format("{} {}", kind, count) : std::string(kind));
  };
  add(r.moved_twice_or_more, "2x");
  add(r.never_moved, "lied");
  add(r.stuck, "stuck");
  add(r.gave_up, "gave up");
  add(r.inconsistent_answers, "incons");
  if (!r.audit_ok) out.emplace_back("audit");
  return out;
}

void add_problems(const std::string& scenario, const SimResult& r, EngineCell* cell) {
  cell->unknown += r.unknown_to_client;
  const std::vector<std::string> bad = problems_of(r, true);
  if (bad.empty()) return;
  cell->problems.push_back(fmt::format("{}: {}", scenario, fmt::join(bad, ", ")));
  cell->verdict += fmt::format("{}: {}; ", scenario, fmt::join(problems_of(r, false), ", "));
}

// A cell; `differs` marks one whose verdict another engine does not share.
std::string cell_html(const EngineCell& cell, bool differs) {
  const std::string_view mark = differs ? " differs" : "";
  const std::string_view sign = differs ? "\u2260 " : "";
  if (!cell.problems.empty())
    return fmt::format("<td class=\"bad{}\">{}{}</td>", mark, sign,
                       markup_text(fmt::format("{}", fmt::join(cell.problems, "; "))));
  if (cell.unknown)
    return fmt::format("<td class=\"open{}\">{}unknown {}</td>", mark, sign, cell.unknown);
  return fmt::format("<td class=\"good{}\">{}ok</td>", mark, sign);
}

// The client's own pitfalls (a retry under a new key): no server-side strategy can tell, so
// they break every cell alike and would hide where the engines differ.
bool clients_own_pitfall(const SimConfig& config) {
  return config.retry.fresh_key;
}

// "postgresql read-committed" from a row that ran there; "sqlite" for SQLite; "galera
// repeatable-read" for a MariaDB Galera cluster (each client's connection on the next node).
std::string engine_heading(const SimResult& r) {
  const std::string_view engine = engine_shown(r);
  return is_server(r.engine) ? fmt::format("{} {}", engine, r.isolation) : std::string(engine);
}

// One client's-own-pitfall scenario: how many (strategy, engine) cells it broke, and how.
std::string client_row(const std::string& scenario, const std::vector<SimResult>& results) {
  size_t broken = 0;
  std::vector<std::string> hows;
  for (const SimResult& result : results) {
    const std::string how = fmt::format("{}", fmt::join(problems_of(result, false), ", "));
    if (how.empty()) continue;
    ++broken;
    if (std::find(hows.begin(), hows.end(), how) == hows.end()) hows.push_back(how);
  }
  return fmt::format("<tr><th>{}</th><td class=\"{}\">{} of {}</td><td>{}</td></tr>\n",
                     markup_text(scenario), broken ? "bad" : "good", broken, results.size(),
                     markup_text(fmt::format("{}", fmt::join(hows, "; "))));
}

// A row per strategy, a column per engine; a strategy whose engines disagree has each cell
// marked.
std::string matrix_table(const ReportInput& input, const std::vector<std::string>& headings,
                         const std::vector<EngineCell>& cells) {
  std::string table = "<table class=\"matrix\"><tr><th>strategy</th>";
  for (const std::string& heading : headings) table += "<th>" + markup_text(heading) + "</th>";
  table += "</tr>\n";
  const size_t engines = input.engines.size();
  for (size_t s = 0; s < input.strategies.size(); ++s) {
    table += "<tr><th>" + markup_text(input.strategies[s]->info().name) + "</th>";
    const EngineCell* row = &cells[s * engines];
    bool disagree = false;
    for (size_t e = 1; e < engines; ++e) disagree |= row[e].verdict != row[0].verdict;
    for (size_t e = 0; e < engines; ++e) table += cell_html(row[e], disagree);
    table += "</tr>\n";
  }
  return table;
}

std::string engine_matrix(const ReportInput& input, const ReportData& data,
                          std::vector<std::string>* headings) {
  std::vector<EngineCell> cells(input.strategies.size() * input.engines.size());
  std::vector<std::string> matrix_scenarios;
  std::string client_rows;
  for (const ScenarioRun& run : data.engine_runs) {
    if (headings->empty())
      for (size_t e = 0; e < input.engines.size(); ++e)
        headings->push_back(engine_heading(run.results[e]));
    if (clients_own_pitfall(run.config)) {
      client_rows += client_row(run.scenario, run.results);
      continue;
    }
    matrix_scenarios.push_back(run.scenario);
    for (size_t i = 0; i < run.results.size(); ++i)
      add_problems(run.scenario, run.results[i], &cells[i]);
  }
  std::string out =
      matrix_table(input, *headings, cells) +
      fmt::format(
          "</table><p>Every scenario asked for but the client's own pitfalls ({}), {} "
          "requests each, seed "
          "{}, on the identical schedule in every column. A cell names each scenario "
          "where the strategy moved money twice (2x), lied, left a request stuck, "
          "gave up with nothing moved, answered inconsistently or failed its audit; "
          "\u2260 marks a strategy whose engines disagree. Reproduce a scenario: "
          "<code>{}</code></p>\n",
          markup_text(fmt::format("{}", fmt::join(matrix_scenarios, ", "))), input.requests,
          input.seed,
          markup_text(fmt::format("idemlab compare --scenario NAME --requests {} "
                                  "--seed {}{}",
                                  input.requests, input.seed, input.backend_arguments)));
  if (std::any_of(headings->begin(), headings->end(),
                  [](const std::string& heading) { return heading.starts_with("galera"); }))
    out +=
        "<p>On galera each client's connection went to the next of the cluster's nodes. "
        "Certification and the nodes' appliers run on the servers' own threads, outside the "
        "schedule: that column's counts can differ from run to run where one server's do "
        "not.</p>\n";
  if (!client_rows.empty())
    out += fmt::format(
        "<h3>The client's own pitfalls</h3><p>A client that retries under a new key sends the "
        "server a new request: no strategy on any engine can tell, so these break every cell "
        "alike and stand apart from the matrix above.</p><table class=\"matrix\"><tr>"
        "<th>scenario</th><th>cells broken</th><th>how</th></tr>\n{}</table>\n",
        client_rows);
  return out;
}

// One engine's explore of the chosen strategy: its counts, and a diagram of the first breaking
// interleaving (or, when none breaks, of the first deadlock).
std::string engine_explore(const ReportInput& input, const EngineFigure& engine,
                           const std::string& heading) {
  const Strategy& strategy = *input.engine_strategy;
  const ExploreResult& result = engine.result;
  const std::string& command = engine.command;
  const bool cluster = result.nodes > 1;  // a twin turned away is a certification failure
  std::string figure = fmt::format(
      "<div class=\"figure\"><h3>{}</h3><p>{} interleavings{}{}: {} block, {} {}, {} meet "
      "a unique key, {} break.</p>\n",
      markup_text(heading), result.interleavings,
      result.truncated ? ", the first of more in explore's order" : "",
      engine.engine->server ? " (steps that commute tried in one order)" : "", result.blocking,
      result.deadlocking, cluster ? "refused at certification" : "deadlock",
      result.unique_violations, result.breaking);
  const std::string_view event = cluster ? "certification failure" : "deadlock";
  if (!result.first_breaking.empty()) {
    figure += diagram_box(svg_sequence(
        result.first_breaking,
        fmt::format("{} on {}: the first breaking interleaving", strategy.info().name, heading),
        fmt::format("breaks {}", fmt::join(result.first_breaking_invariants, ", "))));
    figure += fmt::format("<p>Reproduce: <code>{} --format svg</code></p>", markup_text(command));
  } else if (!result.first_deadlock.empty()) {
    figure += diagram_box(
        svg_sequence(result.first_deadlock,
                     fmt::format("{} on {}: the first {}, interleaving {}", strategy.info().name,
                                 heading, event, result.first_deadlock_index),
                     "no interleaving breaks; " + deadlock_victim_text(result)));
    figure += fmt::format(
        "<p>No interleaving breaks it here. Reproduce the {}: "
        "<code>{} --interleaving {} --format svg</code></p>",
        event, markup_text(command), result.first_deadlock_index);
  } else {
    figure += fmt::format("<p>No interleaving breaks it here. Reproduce: <code>{}</code></p>",
                          markup_text(command));
  }
  return figure + "</div>\n";
}

}  // namespace

std::string engines_section(const ReportInput& input, const ReportData& data) {
  if (input.engines.empty()) return "";
  std::vector<std::string> headings;
  const std::string matrix = engine_matrix(input, data, &headings);
  std::string section = fmt::format(
      "<section class=\"card\" id=\"engines\"><h2>The same strategy on {} engines</h2>\n"
      "<p>The same requests, faults and twins on each engine: a difference between columns is "
      "the engine's locks, snapshots and isolation level, never the schedule.</p>\n{}"
      "<h3>Two twins of {} on each engine</h3><p>Every interleaving of two concurrent "
      "duplicates, each statement a step, run against the engine's own locks.</p>\n",
      input.engines.size(), matrix, markup_text(input.engine_strategy->info().name));
  for (size_t e = 0; e < data.engine_figures.size(); ++e)
    section += engine_explore(input, data.engine_figures[e], headings[e]);
  return section + "</section>\n";
}

}  // namespace idemlab
