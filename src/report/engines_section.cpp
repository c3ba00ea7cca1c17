// The report's "same strategy on every engine" section (report --backend): compare's matrix with
// a column per engine and level, and per engine the first interleaving of two twins that breaks
// the chosen strategy there, or the first the server ended as a deadlock.
#include "report/engines_section.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/markup.h"
#include "report/svg.h"
#include "sim/explore/explore.h"
#include "sim/simulate/compare.h"

namespace idemlab {

namespace {

// What went wrong in one (strategy, engine) cell, over every scenario.
struct EngineCell {
  std::vector<std::string> problems;  // "double-click: 2x 3"
  int64_t unknown = 0;
};

void add_problems(const std::string& scenario, const SimResult& r, EngineCell* cell) {
  std::vector<std::string> bad;
  if (r.moved_twice_or_more) bad.push_back(fmt::format("2x {}", r.moved_twice_or_more));
  if (r.never_moved) bad.push_back(fmt::format("lied {}", r.never_moved));
  if (r.stuck) bad.push_back(fmt::format("stuck {}", r.stuck));
  if (r.inconsistent_answers) bad.push_back(fmt::format("incons {}", r.inconsistent_answers));
  if (!r.audit_ok) bad.push_back("audit");
  if (!bad.empty()) cell->problems.push_back(fmt::format("{}: {}", scenario, fmt::join(bad, ", ")));
  cell->unknown += r.unknown_to_client;
}

std::string cell_html(const EngineCell& cell) {
  if (!cell.problems.empty())
    return fmt::format("<td class=\"bad\">{}</td>",
                       markup_text(fmt::format("{}", fmt::join(cell.problems, "; "))));
  if (cell.unknown) return fmt::format("<td class=\"open\">unknown {}</td>", cell.unknown);
  return "<td class=\"good\">ok</td>";
}

// "postgresql read-committed" from a row that ran there; "sqlite" for SQLite.
std::string engine_heading(const SimResult& r) {
  const std::string_view engine = engine_name(r.engine);
  return is_server(r.engine) ? fmt::format("{} {}", engine, r.isolation) : std::string(engine);
}

std::string engine_arguments(const ReportEngine& engine) {
  if (!engine.server) return "";
  std::string out = " --db " + engine.backend;
  if (engine.isolation != Isolation::kDefault)
    out += fmt::format(" --isolation {}", isolation_name(engine.isolation));
  return out;
}

Status engine_matrix(const ReportInput& input, std::vector<std::string>* headings,
                     std::string* out) {
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
  std::vector<EngineCell> cells(rows.size());
  for (const std::string& name : input.scenarios) {
    SimConfig config;
    RETURN_IF_ERROR(load_scenario(name, &config, nullptr));
    config.requests = input.requests;
    config.seed = input.seed;
    std::vector<SimResult> results;
    RETURN_IF_ERROR(compare(config, rows, input.jobs, {}, &results));
    for (size_t i = 0; i < results.size(); ++i) add_problems(name, results[i], &cells[i]);
    if (headings->empty())
      for (size_t e = 0; e < input.engines.size(); ++e)
        headings->push_back(engine_heading(results[e]));
  }
  std::string table = "<table class=\"matrix\"><tr><th>strategy</th>";
  for (const std::string& heading : *headings) table += "<th>" + markup_text(heading) + "</th>";
  table += "</tr>\n";
  for (size_t s = 0; s < input.strategies.size(); ++s) {
    table += "<tr><th>" + markup_text(input.strategies[s]->info().name) + "</th>";
    for (size_t e = 0; e < input.engines.size(); ++e)
      table += cell_html(cells[s * input.engines.size() + e]);
    table += "</tr>\n";
  }
  *out = table + fmt::format(
                     "</table><p>Every built-in scenario asked for ({}), {} requests each, seed "
                     "{}, on the identical schedule in every column. A cell names each scenario "
                     "where the strategy moved money twice (2x), lied, left a request stuck, "
                     "answered inconsistently or failed its audit. Reproduce a scenario: "
                     "<code>{}</code></p>\n",
                     markup_text(fmt::format("{}", fmt::join(input.scenarios, ", "))),
                     input.requests, input.seed,
                     markup_text(fmt::format("idemlab compare --scenario NAME --requests {} "
                                             "--seed {}{}",
                                             input.requests, input.seed, input.backend_arguments)));
  return Status::ok();
}

// One engine's explore of the chosen strategy: its counts, and a diagram of the first breaking
// interleaving (or, when none breaks, of the first deadlock).
Status engine_explore(const ReportInput& input, const ReportEngine& engine,
                      const std::string& heading, std::string* out) {
  const Strategy& strategy = *input.engine_strategy;
  ExploreConfig config;
  config.max_interleavings = kReportEngineInterleavings;
  config.server = engine.server;
  config.isolation = engine.isolation;
  ExploreResult result;
  RETURN_IF_ERROR(explore(strategy, Pitfall::kNone, config, &result));
  const std::string command =
      fmt::format("idemlab explore --strategy {} --max-interleavings {}{}", strategy.info().name,
                  kReportEngineInterleavings, engine_arguments(engine));
  std::string figure = fmt::format(
      "<div class=\"figure\"><h3>{}</h3><p>{} interleavings{}{}: {} block, {} deadlock, {} meet "
      "a unique key, {} break.</p>\n",
      markup_text(heading), result.interleavings,
      engine.server ? " (steps that commute tried in one order)" : "",
      result.truncated ? " (the first tried)" : "", result.blocking, result.deadlocking,
      result.unique_violations, result.breaking);
  if (!result.first_breaking.empty()) {
    figure += diagram_box(svg_sequence(
        result.first_breaking,
        fmt::format("{} on {}: the first breaking interleaving", strategy.info().name, heading),
        fmt::format("breaks {}", fmt::join(result.first_breaking_invariants, ", "))));
    figure += fmt::format("<p>Reproduce: <code>{} --format svg</code></p>", markup_text(command));
  } else if (!result.first_deadlock.empty()) {
    figure += diagram_box(svg_sequence(
        result.first_deadlock,
        fmt::format("{} on {}: the first deadlock, interleaving {}", strategy.info().name, heading,
                    result.first_deadlock_index),
        fmt::format("no interleaving breaks; the server chose attempt {} as the victim",
                    result.first_deadlock_victim + 1)));
    figure += fmt::format(
        "<p>No interleaving breaks it here. Reproduce the deadlock: "
        "<code>{} --interleaving {} --format svg</code></p>",
        markup_text(command), result.first_deadlock_index);
  } else {
    figure += fmt::format("<p>No interleaving breaks it here. Reproduce: <code>{}</code></p>",
                          markup_text(command));
  }
  *out = figure + "</div>\n";
  return Status::ok();
}

}  // namespace

Status engines_section(const ReportInput& input, std::string* out) {
  out->clear();
  if (input.engines.empty()) return Status::ok();
  std::vector<std::string> headings;
  std::string matrix;
  RETURN_IF_ERROR(engine_matrix(input, &headings, &matrix));
  std::string section = fmt::format(
      "<section class=\"card\" id=\"engines\"><h2>The same strategy on {} engines</h2>\n"
      "<p>The same requests, faults and twins on each engine: a difference between columns is "
      "the engine's locks, snapshots and isolation level, never the schedule.</p>\n{}"
      "<h3>Two twins of {} on each engine</h3><p>Every interleaving of two concurrent "
      "duplicates, each statement a step, run against the engine's own locks.</p>\n",
      input.engines.size(), matrix, markup_text(input.engine_strategy->info().name));
  for (size_t e = 0; e < input.engines.size(); ++e) {
    std::string figure;
    RETURN_IF_ERROR(engine_explore(input, input.engines[e], headings[e], &figure));
    section += figure;
  }
  *out = section + "</section>\n";
  return Status::ok();
}

}  // namespace idemlab
