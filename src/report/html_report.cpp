// The report's sections, each built from real runs: explain's rehearsal for a guard, explore's
// first breaking interleaving for a pitfall (with crashes where a crash exposes it), compare for
// the matrix. Same input, same bytes.
#include "report/html_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "attempt/trace.h"
#include "lessons/lesson.h"
#include "report/engines_section.h"
#include "report/markup.h"
#include "report/sequence.h"
#include "report/svg.h"
#include "sim/explore/explore.h"
#include "sim/shared/scenario.h"
#include "sim/simulate/compare.h"

namespace idemlab {

namespace {

// Every figure, card introduction and section fits a 1280x720 slide: a diagram is at most
// 540 px tall (scaled, never cropped), charts sit side by side, lessons in two columns.
constexpr const char* kStyle = R"css(
body{font-family:"DejaVu Sans",Verdana,sans-serif;margin:0 auto;max-width:1240px;padding:20px;
color:#222}
h1{font-size:28px}h2{font-size:22px;margin:0 0 8px}h3{font-size:16px;margin:0 0 4px}
p{margin:4px 0}
section{margin:0 0 28px}
.card{border:1px solid #c8d0da;border-radius:8px;padding:16px 20px;background:#fbfcfe}
.figure{break-inside:avoid;page-break-inside:avoid;margin:18px 0 0}
.diagram{overflow-x:auto;border:1px solid #e3e7ec;background:white;margin:6px 0}
.diagram svg{display:block;max-width:100%;max-height:540px;width:auto;height:auto}
.charts{display:flex;flex-wrap:wrap;gap:8px}
code{background:#eef2f7;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
table.matrix{border-collapse:collapse;font-size:12px}
table.matrix td,table.matrix th{border:1px solid #c8d0da;padding:3px 6px;text-align:center}
td.good{background:#d4f5d4}td.bad{background:#f8d0cc}td.open{background:#fff4c2}
td.differs{outline:3px solid #1f4e9c;outline-offset:-3px;font-weight:bold}
#lessons ol{columns:2;column-gap:28px;font-size:13px;margin:0}#lessons li{break-inside:avoid}
@media print{body{max-width:none}.card{background:white}section{break-inside:avoid}}
)css";

// How many requests the simulated pitfall diagrams run, to find the first that breaks.
constexpr int64_t kSimulatedDiagramRequests = 40;

// How explore exposes a pitfall: with crashes when a crash is what exposes it, an overdraw for
// a lie about a rejection, a lock TTL the work outlasts. The guard runs under the same.
ExploreConfig explore_config(const PitfallInfo& pitfall) {
  ExploreConfig config;
  config.max_interleavings = 20000;
  config.crash =
      pitfall.verdict == std::string_view("stuck") || pitfall.id == Pitfall::kSuccessOnDuplicate;
  config.overdraw = pitfall.id == Pitfall::kSuccessOnDuplicate;
  if (pitfall.id == Pitfall::kTtlTooLong) config.lock_ttl_ms = 20;
  if (pitfall.id == Pitfall::kNoOwnerCheck || pitfall.id == Pitfall::kTtlTooShort)
    config.lock_ttl_ms = 3;  // the clock moves 1 ms a statement: the lock lapses mid-work
  return config;
}

// The explore command that draws what explore_config(pitfall) finds, for `shown` (the
// pitfall itself, or kNone for the guard) and interleaving `number` (0: the first breaking).
std::string explore_command(const StrategyInfo& info, const PitfallInfo& pitfall, Pitfall shown,
                            int64_t number) {
  const ExploreConfig config = explore_config(pitfall);
  std::string out =
      fmt::format("idemlab explore --strategy {}{}", info.name, pitfall_argument(shown));
  if (config.crash) out += " --crash";
  if (config.overdraw) out += " --overdraw";
  if (config.lock_ttl_ms != ExploreConfig{}.lock_ttl_ms)
    out += fmt::format(" --lock-ttl-ms {}", config.lock_ttl_ms);
  if (number > 0) out += fmt::format(" --interleaving {}", number);
  return out + " --format svg";
}

// A pitfall's diagram: explore's first breaking interleaving; empty when two concurrent
// duplicates cannot show it (it needs the simulator).
Status pitfall_diagram(const Strategy& strategy, const PitfallInfo& pitfall, std::string* out) {
  ExploreResult result;
  RETURN_IF_ERROR(explore(strategy, pitfall.id, explore_config(pitfall), &result));
  out->clear();
  if (result.first_breaking.empty()) return Status::ok();
  *out = svg_sequence(result.first_breaking,
                      fmt::format("{} --pitfall={}: the first breaking interleaving",
                                  strategy.info().name, pitfall_name(pitfall.id)),
                      fmt::format("breaks {}", fmt::join(result.first_breaking_invariants, ", ")));
  return Status::ok();
}

// The guard under what exposes its main pitfall: the interleaving whose attempts take turns
// most often, which it survives (or, if it did not, says what broke).
Status guard_race_figure(const Strategy& strategy, std::string* out) {
  const StrategyInfo& info = strategy.info();
  const PitfallInfo& main = info.pitfalls.front();
  ExploreConfig config = explore_config(main);
  config.pick = kTightestRace;
  ExploreResult result;
  RETURN_IF_ERROR(explore(strategy, Pitfall::kNone, config, &result));
  // The caption is the one `explore --interleaving N --format svg` draws, byte for byte.
  const std::string verdict =
      result.picked_invariants.empty()
          ? std::string("breaks nothing")
          : fmt::format("breaks {}", fmt::join(result.picked_invariants, ", "));
  *out = fmt::format(
      "<div class=\"figure\"><h3>The guard in the tightest race</h3><p>Under what exposes "
      "--pitfall={}: {}. Of the {} interleavings tried ({} breaking), the one whose attempts "
      "take turns most often.</p>\n{}<p>Reproduce: <code>{}</code></p></div>\n",
      pitfall_name(main.id), markup_text(main.exposed_by), result.interleavings, result.breaking,
      diagram_box(svg_sequence(result.picked,
                               fmt::format("{}: interleaving {}", info.name, result.picked_index),
                               verdict)),
      markup_text(explore_command(info, main, Pitfall::kNone, result.picked_index)));
  return Status::ok();
}

// A pitfall two concurrent duplicates cannot show (it needs two sources, or a client that
// leaves the key out): the simulation its `shown_by` names, drawn for the first request the
// pitfall's verdict counts. Empty when that run has none.
Status simulated_pitfall_diagram(const Strategy& strategy, const PitfallInfo& pitfall,
                                 std::string* svg, std::string* command) {
  svg->clear();
  const std::string_view shown = pitfall.shown_by;
  const size_t at = shown.find("--scenario ");
  if (!shown.starts_with("simulate") || at == std::string_view::npos) return Status::ok();
  const std::string scenario(shown.substr(at + 11, shown.find(' ', at + 11) - at - 11));
  SimConfig config;
  RETURN_IF_ERROR(load_scenario(scenario, &config, nullptr));
  config.requests = kSimulatedDiagramRequests;
  SimOptions options;
  options.find_first = pitfall.verdict;
  SimResult found;
  RETURN_IF_ERROR(simulate(config, strategy, pitfall.id, options, &found));
  if (found.first_found == 0) return Status::ok();
  options = SimOptions{};
  options.timeline = true;
  options.timeline_request = found.first_found;
  SimResult traced;
  RETURN_IF_ERROR(simulate(config, strategy, pitfall.id, options, &traced));
  *svg = svg_sequence(traced.timeline,
                      fmt::format("{}{}: request {}", strategy.info().name,
                                  pitfall_argument(pitfall.id), found.first_found),
                      traced.traced_verdict);
  *command = fmt::format(
      "idemlab simulate --strategy {}{} --scenario {} --requests {} --timeline-request {} "
      "--format svg",
      strategy.info().name, pitfall_argument(pitfall.id), scenario, config.requests,
      found.first_found);
  return Status::ok();
}

Status strategy_card(const Strategy& strategy, std::string* out) {
  const StrategyInfo& info = strategy.info();
  std::string card = fmt::format(
      "<section class=\"card strategy\" id=\"{0}\"><div class=\"intro\"><h2>{0}</h2><p>{1}</p>"
      "<p><b>How:</b> {2}</p><p><b>Protects against:</b> {3}</p></div>\n",
      markup_text(info.name), markup_text(info.title), markup_text(info.how),
      markup_text(info.protects));
  std::vector<TracedAttempt> rehearsal;
  RETURN_IF_ERROR(rehearse(strategy, Pitfall::kNone, &rehearsal));
  card += "<div class=\"figure\"><h3>The guard: a first attempt and its repeat</h3>\n" +
          diagram_box(svg_sequence(rehearsal_timeline(rehearsal),
                                   std::string(info.name) + ": a first attempt and a repeat", "")) +
          fmt::format("<p>Reproduce: <code>idemlab explain {} --format svg</code></p></div>\n",
                      info.name);
  if (!info.pitfalls.empty()) {
    std::string race;
    RETURN_IF_ERROR(guard_race_figure(strategy, &race));
    card += race;
  }
  for (const PitfallInfo& pitfall : info.pitfalls) {
    std::string svg;
    RETURN_IF_ERROR(pitfall_diagram(strategy, pitfall, &svg));
    card += fmt::format(
        "<div class=\"figure\"><h3>--pitfall={}</h3><p>{} ({}). <b>Removes:</b> {}. "
        "<b>Then:</b> {}.</p>\n",
        pitfall_name(pitfall.id), markup_text(pitfall.exposed_by), markup_text(pitfall.reference),
        markup_text(pitfall.removes), markup_text(pitfall.goes_wrong));
    std::string command = explore_command(info, pitfall, pitfall.id, 0);
    if (svg.empty()) RETURN_IF_ERROR(simulated_pitfall_diagram(strategy, pitfall, &svg, &command));
    if (!svg.empty())
      card += diagram_box(svg) +
              fmt::format("<p>Reproduce: <code>{}</code></p>\n", markup_text(command));
    card += fmt::format("<p>In the simulator: <code>{}</code></p></div>\n",
                        markup_text(pitfall_command(info, pitfall)));
  }
  *out = card + "</section>\n";
  return Status::ok();
}

// One cell of the matrix: what went wrong, coloured; "ok" in green when nothing did.
std::string matrix_cell(const SimResult& r) {
  std::vector<std::string> bad;
  if (r.moved_twice_or_more) bad.push_back(fmt::format("2x {}", r.moved_twice_or_more));
  if (r.never_moved) bad.push_back(fmt::format("lied {}", r.never_moved));
  if (r.stuck) bad.push_back(fmt::format("stuck {}", r.stuck));
  if (r.inconsistent_answers) bad.push_back(fmt::format("incons {}", r.inconsistent_answers));
  if (!bad.empty()) return fmt::format("<td class=\"bad\">{}</td>", fmt::join(bad, "<br>"));
  if (r.unknown_to_client)
    return fmt::format("<td class=\"open\">unknown {}</td>", r.unknown_to_client);
  return "<td class=\"good\">ok</td>";
}

Status build_report_matrix(const ReportInput& input, std::string* out);
std::string build_report_lessons();

// Horizontal bars, one per strategy: `value` picks the figure, scaled to the largest.
std::string bar_chart(const std::string& title, const std::vector<SimResult>& results,
                      double (*value)(const SimResult&), const char* unit) {
  double largest = 0;
  for (const SimResult& r : results) largest = std::max(largest, value(r));
  const int height = 30 + 20 * static_cast<int>(results.size());
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"380\" height=\"{}\" font-size=\"11\" "
      "font-family=\"DejaVu Sans, Verdana, sans-serif\"><text x=\"0\" y=\"14\" "
      "font-weight=\"bold\">{}</text>\n",
      height, markup_text(title));
  int y = 30;
  for (const SimResult& r : results) {
    const double width = largest > 0 ? 150.0 * value(r) / largest : 0;
    svg += fmt::format(
        "<g class=\"bar-row\"><text x=\"0\" y=\"{}\">{}</text><rect x=\"140\" y=\"{}\" "
        "width=\"{:.1f}\" height=\"14\" fill=\"#7fa7d9\"/><text x=\"{:.1f}\" y=\"{}\">"
        "{:.2f} {}</text></g>\n",
        y + 11, markup_text(r.strategy), y, width, 146 + width, y + 11, value(r), unit);
    y += 20;
  }
  return svg + "</svg>";
}

}  // namespace

Status build_report(const ReportInput& input, std::string* out) {
  std::string page = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>idemlab report"
      "</title><style>{}</style></head><body>\n<h1>idemlab: idempotent transfers, side by side"
      "</h1>\n<p>Every diagram and figure below comes from a real run on a SQLite ledger{}. "
      "Reproduce the whole page: <code>{}</code></p>\n",
      kStyle,
      input.engines.empty() ? ""
                            : ", except the engines section, which ran on each engine it names",
      markup_text(input.command));
  for (const Strategy* strategy : input.strategies) {
    std::string card;
    RETURN_IF_ERROR(strategy_card(*strategy, &card));
    page += card;
  }
  std::string matrix;
  RETURN_IF_ERROR(build_report_matrix(input, &matrix));
  std::string engines;
  RETURN_IF_ERROR(engines_section(input, &engines));
  page += matrix + engines + build_report_lessons() + "</body></html>\n";
  *out = std::move(page);
  return Status::ok();
}

namespace {

Status build_report_matrix(const ReportInput& input, std::string* out) {
  std::vector<CompareRow> rows;
  for (const Strategy* strategy : input.strategies) {
    CompareRow row;
    row.strategy = strategy;
    rows.push_back(row);
  }
  std::string table =
      "<section class=\"card\" id=\"matrix\"><h2>Every scenario, every "
      "strategy</h2>\n<table class=\"matrix\"><tr><th>scenario</th>";
  for (const CompareRow& row : rows)
    table += "<th>" + markup_text(row.strategy->info().name) + "</th>";
  table += "</tr>\n";
  std::vector<SimResult> charted;  // the first scenario's rows, for the charts
  for (const std::string& name : input.scenarios) {
    SimConfig config;
    RETURN_IF_ERROR(load_scenario(name, &config, nullptr));
    config.requests = input.requests;
    config.seed = input.seed;
    std::vector<SimResult> results;
    RETURN_IF_ERROR(compare(config, rows, input.jobs, {}, &results));
    table += "<tr><th>" + markup_text(name) + "</th>";
    for (const SimResult& r : results) table += matrix_cell(r);
    table += "</tr>\n";
    if (charted.empty()) charted = results;
  }
  *out = table + fmt::format(
                     "</table><p>{} requests per scenario, seed {}. 2x: money moved twice; lied: "
                     "told success, nothing moved; stuck: the client gave up on in_progress; "
                     "incons: answers disagree. Reproduce a row: <code>idemlab compare "
                     "--scenario NAME --requests {} --seed {}</code></p></section>\n",
                     input.requests, input.seed, input.requests, input.seed);
  if (!charted.empty())
    *out += fmt::format(
        "<section class=\"card\" id=\"charts\"><h2>Cost, in scenario {}</h2>\n"
        "<div class=\"charts\">{}{}{}</div></section>\n",
        markup_text(input.scenarios.front()),
        diagram_box(bar_chart(
            "attempts per request", charted,
            [](const SimResult& r) { return r.attempts_per_request; }, "")),
        diagram_box(bar_chart(
            "latency p50 (virtual ms)", charted,
            [](const SimResult& r) { return double(r.latency_ms_p50); }, "ms")),
        diagram_box(bar_chart(
            "latency p99 (virtual ms)", charted,
            [](const SimResult& r) { return double(r.latency_ms_p99); }, "ms")));
  return Status::ok();
}

std::string build_report_lessons() {
  std::string out = "<section class=\"card\" id=\"lessons\"><h2>Lessons</h2><ol>\n";
  for (const Lesson& lesson : all_lessons())
    out += fmt::format("<li><b>{}</b> ({}): {} <code>idemlab lesson {}</code></li>\n",
                       markup_text(lesson.title), markup_text(lesson.reference),
                       markup_text(lesson.takeaway), lesson.number);
  return out + "</ol></section>\n";
}

}  // namespace

}  // namespace idemlab
