// The report's page, rendered from the runs classroom/report_data.h gathered: the cards, the
// matrix and its charts, the engines section, the lessons. Same data, same bytes.
#include "report/html_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string_view>

#include "lessons/lesson.h"
#include "report/engines_section.h"
#include "report/markup.h"
#include "report/replication_section.h"
#include "report/sequence.h"
#include "report/svg.h"
#include "term/text.h"

namespace idemlab {

namespace {

// Every figure, card introduction, section and slide (a part of a section too long for one) fits
// a 1280x720 slide: a diagram is at most 584 px tall (scaled, never cropped), charts sit side by
// side, lessons in two columns, the replicated pitfalls one a slide.
constexpr const char* kStyle = R"css(
body{font-family:"DejaVu Sans",Verdana,sans-serif;margin:0 auto;max-width:1240px;padding:20px;
color:#222}
h1{font-size:28px}h2{font-size:22px;margin:0 0 8px}h3{font-size:16px;margin:0 0 4px}
p{margin:4px 0}
section{margin:0 0 28px}
.card{border:1px solid #c8d0da;border-radius:8px;padding:16px 20px;background:#fbfcfe}
.figure{break-inside:avoid;page-break-inside:avoid;margin:18px 0 0}
.diagram{overflow-x:auto;border:1px solid #e3e7ec;background:white;margin:6px 0}
.diagram svg{display:block;max-width:100%;max-height:584px;width:auto;height:auto}
.charts{display:flex;flex-wrap:wrap;gap:8px}
code{background:#eef2f7;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
table.matrix{border-collapse:collapse;font-size:12px}
table.matrix td,table.matrix th{border:1px solid #c8d0da;padding:3px 6px;text-align:center}
td.good{background:#d4f5d4}td.bad{background:#f8d0cc}td.open{background:#fff4c2}
table.legend{font-size:12px;margin:8px 0}table.legend td{padding:2px 6px}
.slide{margin:0 0 12px;break-inside:avoid;page-break-inside:avoid}
.slide table.legend th{text-align:left;vertical-align:top;white-space:nowrap;padding:2px 6px}
nav.card{margin:0 0 28px}nav ol{margin:0;padding-left:22px}
td.differs{outline:3px solid #1f4e9c;outline-offset:-3px;font-weight:bold}
.lessons ol{columns:2;column-gap:28px;font-size:13px;margin:0}.lessons li{break-inside:avoid}
@media print{body{max-width:none}.card{background:white}section{break-inside:avoid}}
)css";

// A figure: its diagram and the command that draws it alone; nothing when no run shows it.
std::string figure_html(const Figure& figure) {
  if (figure.timeline.empty()) return "";
  return diagram_box(svg_sequence(figure.timeline, figure.title, figure.verdict)) +
         fmt::format("<p>Reproduce: <code>{}</code></p>\n", markup_text(figure.command));
}

std::string strategy_card(const StrategyCard& data) {
  const StrategyInfo& info = data.strategy->info();
  std::string card = fmt::format(
      "<section class=\"card strategy\" id=\"{0}\"><div class=\"intro\"><h2>{0}</h2><p>{1}</p>"
      "<p><b>How:</b> {2}</p><p><b>Protects against:</b> {3}</p></div>\n",
      markup_text(info.name), markup_text(info.title), markup_text(info.how),
      markup_text(info.protects));
  card += fmt::format("<div class=\"figure\"><h3>{}: a first attempt and its repeat</h3>\n",
                      info.guarded ? "The guard" : "No guard") +
          diagram_box(svg_sequence(rehearsal_timeline(data.rehearsal),
                                   std::string(info.name) + ": a first attempt and a repeat", "")) +
          fmt::format("<p>Reproduce: <code>idemlab explain {} --format svg</code></p></div>\n",
                      info.name);
  if (data.race) {
    const PitfallInfo& main = info.pitfalls.front();
    card += fmt::format(
        "<div class=\"figure\"><h3>The guard in the tightest race</h3><p>Under what exposes "
        "--pitfall={}: {}. Of the {} interleavings tried ({} breaking), the one whose attempts "
        "take turns most often.</p>\n{}<p>Reproduce: <code>{}</code></p></div>\n",
        pitfall_name(main.id), markup_text(main.exposed_by), data.race->interleavings,
        data.race->breaking,
        diagram_box(svg_sequence(data.race->figure.timeline, data.race->figure.title,
                                 data.race->figure.verdict)),
        markup_text(data.race->figure.command));
  }
  for (const PitfallFigure& pitfall : data.pitfalls) {
    const PitfallInfo& p = *pitfall.pitfall;
    card += fmt::format(
        "<div class=\"figure\"><h3>--pitfall={}</h3><p>{} ({}). <b>Removes:</b> {}. "
        "<b>Then:</b> {}.</p>\n",
        pitfall_name(p.id), markup_text(p.exposed_by), markup_text(p.reference),
        markup_text(p.removes), markup_text(p.goes_wrong));
    card += figure_html(pitfall.figure) +
            fmt::format("<p>In the simulator: <code>{}</code></p></div>\n",
                        markup_text(pitfall_command(info, p)));
  }
  return card + "</section>\n";
}

// One cell of the matrix: what went wrong, coloured; "ok" in green when nothing did.
std::string matrix_cell(const SimResult& r) {
  std::vector<std::string> bad;
  if (r.moved_twice_or_more) bad.push_back(fmt::format("2x {}", r.moved_twice_or_more));
  if (r.never_moved) bad.push_back(fmt::format("lied {}", r.never_moved));
  if (r.stuck) bad.push_back(fmt::format("stuck {}", r.stuck));
  if (r.gave_up) bad.push_back(fmt::format("gave up {}", r.gave_up));
  if (r.inconsistent_answers) bad.push_back(fmt::format("incons {}", r.inconsistent_answers));
  if (!bad.empty()) return fmt::format("<td class=\"bad\">{}</td>", fmt::join(bad, "<br>"));
  if (r.unknown_to_client)
    return fmt::format("<td class=\"open\">unknown {}</td>", r.unknown_to_client);
  return "<td class=\"good\">ok</td>";
}

std::string build_report_matrix(const ReportInput& input, const ReportData& data);
std::string build_report_lessons();

// The page's table of contents: every section by its anchor, the overview first.
std::string contents(const ReportInput& input, const ReportData& data) {
  std::string strategies;
  for (const StrategyCard& card : data.cards)
    strategies += fmt::format("{}<a href=\"#{}\">{}</a>", strategies.empty() ? "" : ", ",
                              markup_text(card.strategy->info().name),
                              markup_text(card.strategy->info().name));
  std::string out =
      "<nav class=\"card\" id=\"contents\"><h2>Contents</h2><ol>\n"
      "<li><a href=\"#matrix\">Every scenario, every strategy</a>: the overview</li>\n";
  if (!data.matrix.empty()) out += "<li><a href=\"#charts\">Cost</a></li>\n";
  out += "<li>The strategies, each with its guard and its pitfalls: " + strategies + "</li>\n";
  if (!input.engines.empty())
    out += "<li><a href=\"#engines\">The same strategy on each engine</a></li>\n";
  return out +
         "<li><a href=\"#replication\">On replicated servers</a></li>\n"
         "<li><a href=\"#lessons\">Lessons</a></li>\n</ol></nav>\n";
}

// What each kind of cell in the matrix says.
constexpr std::string_view kMatrixLegend =
    "<table class=\"legend\"><tr><td class=\"good\">ok</td><td>every request's money moved "
    "once, or a definitive refusal, and each client was told so</td></tr>\n"
    "<tr><td class=\"open\">unknown N</td><td>moved once, but N clients gave up without "
    "hearing it (safe: a later retry or query finds it)</td></tr>\n"
    "<tr><td class=\"bad\">2x N</td><td>money moved twice or more for N requests</td></tr>\n"
    "<tr><td class=\"bad\">lied N</td><td>N clients told success while nothing moved</td>"
    "</tr>\n<tr><td class=\"bad\">stuck N</td><td>nothing moved for N requests: every retry "
    "was answered in_progress</td></tr>\n<tr><td class=\"bad\">gave up N</td><td>nothing moved "
    "for N requests, whose clients gave up with no final answer (busy, timeouts): payments "
    "that never happened</td></tr>\n<tr><td class=\"bad\">incons N</td><td>two answers "
    "to one request disagreed, N times</td></tr></table>\n";

// Horizontal bars, one per strategy: `value` picks the figure, scaled to the largest.
std::string bar_chart(const std::string& title, const std::vector<SimResult>& results,
                      double (*value)(const SimResult&), std::string_view unit) {
  double largest = 0;
  for (const SimResult& r : results) largest = std::max(largest, value(r));
  const int height = 30 + 20 * static_cast<int>(results.size());
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"380\" height=\"{}\" font-size=\"12\" "
      "font-family=\"DejaVu Sans, Verdana, sans-serif\"><text x=\"0\" y=\"14\" "
      "font-weight=\"bold\">{}</text>\n",
      height, markup_text(title));
  int y = 30;
  for (const SimResult& r : results) {
    const double width = largest > 0 ? 150.0 * value(r) / largest : 0;
    svg += fmt::format(
        "<g class=\"bar-row\"><text x=\"0\" y=\"{}\">{}</text><rect x=\"140\" y=\"{}\" "
        "width=\"{:.1f}\" height=\"14\" fill=\"#7fa7d9\"/><text x=\"{:.1f}\" y=\"{}\">"
        "{}</text></g>\n",
        y + 11, markup_text(r.strategy), y, width, 146 + width, y + 11,
        unit.empty() ? fmt::format("{:.2f}", value(r)) : fmt::format("{:.0f} {}", value(r), unit));
    y += 20;
  }
  return svg + "</svg>";
}

}  // namespace

std::string build_report(const ReportInput& input, const ReportData& data) {
  std::string page = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>idemlab report"
      "</title><style>{}</style></head><body>\n<h1>idemlab: idempotent transfers, side by side"
      "</h1>\n<p>Every diagram and figure below comes from a real run on a SQLite ledger{}; the "
      "section on replicated servers names the lessons and tests that run its cases. "
      "Reproduce the whole page: <code>{}</code></p>\n",
      kStyle,
      input.engines.empty() ? ""
                            : ", except the engines section, which ran on each engine it names",
      markup_text(input.command));
  page += contents(input, data) + build_report_matrix(input, data);
  for (const StrategyCard& card : data.cards) page += strategy_card(card);
  page += engines_section(input, data) + replication_section(data) + build_report_lessons() +
          "</body></html>\n";
  return page;
}

namespace {

std::string build_report_matrix(const ReportInput& input, const ReportData& data) {
  std::string table =
      "<section class=\"card\" id=\"matrix\"><h2>Every scenario, every "
      "strategy</h2>\n<table class=\"matrix\"><tr><th>scenario</th>";
  for (const Strategy* strategy : input.strategies)
    table += "<th>" + markup_text(strategy->info().name) + "</th>";
  table += "</tr>\n";
  for (const ScenarioRun& run : data.matrix) {
    table += "<tr><th>" + markup_text(run.scenario) + "</th>";
    for (const SimResult& r : run.results) table += matrix_cell(r);
    table += "</tr>\n";
  }
  std::string out =
      table + "</table>\n" + std::string(kMatrixLegend) +
      fmt::format(
          "<p>{} per scenario, seed {}. Reproduce a row: <code>idemlab compare "
          "--scenario NAME --requests {} --seed {}</code></p></section>\n",
          count_of(input.requests, "request"), input.seed, input.requests, input.seed);
  if (data.matrix.empty()) return out;
  const std::vector<SimResult>& charted = data.matrix.front().results;  // the first scenario's
  return out + fmt::format(
                   "<section class=\"card\" id=\"charts\"><h2>Cost, in scenario {}</h2>\n"
                   "<div class=\"charts\">{}{}{}</div></section>\n",
                   markup_text(data.matrix.front().scenario),
                   diagram_box(bar_chart(
                       "attempts per request", charted,
                       [](const SimResult& r) { return r.attempts_per_request; }, "")),
                   diagram_box(bar_chart(
                       "latency p50 (virtual time)", charted,
                       [](const SimResult& r) { return double(r.latency_ms_p50); }, "ms")),
                   diagram_box(bar_chart(
                       "latency p99 (virtual time)", charted,
                       [](const SimResult& r) { return double(r.latency_ms_p99); }, "ms")));
}

// The lessons in two cards, each half of them: one card of all of them is taller than a slide.
std::string build_report_lessons() {
  const std::vector<Lesson>& lessons = all_lessons();
  const size_t half = (lessons.size() + 1) / 2;
  std::string out;
  for (size_t first = 0; first < lessons.size(); first += half) {
    const size_t last = std::min(first + half, lessons.size());
    out += fmt::format(
        "<section class=\"card lessons\" id=\"{}\"><h2>Lessons {} to {}</h2><ol start=\"{}\">\n",
        first == 0 ? "lessons" : "lessons-more", lessons[first].number, lessons[last - 1].number,
        lessons[first].number);
    for (size_t i = first; i < last; ++i)
      out +=
          fmt::format("<li><b>{}</b> ({}): {} <code>{}</code></li>\n",
                      markup_text(lessons[i].title), markup_text(lessons[i].reference),
                      markup_text(lessons[i].takeaway), markup_text(lesson_invocation(lessons[i])));
    out += "</ol></section>\n";
  }
  return out;
}

}  // namespace

}  // namespace idemlab
