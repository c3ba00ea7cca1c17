// Views of simulation results: a table for people, JSON, CSV and Markdown for scripts and
// documents, and the narrated timeline.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/compact_table.h"
#include "sim/simulate/simulate.h"

namespace idemlab {

enum class Format { kTable, kJson, kCsv, kMarkdown, kMermaid, kSvg };

nlohmann::ordered_json result_json(const SimResult& result);
// One row per result, in the chosen format; JSON: {"rows": [...], plus `extra` fields}. The
// text table fits 100 columns unless `wide` (every column).
std::string results_view(const std::vector<SimResult>& results, Format format,
                         const nlohmann::ordered_json& extra, bool wide = false);
// simulate's text view: every figure on its own line.
std::string result_text(const SimResult& result, const std::string& command);
// "reproduce: COMMAND", wrapped to the output width, and how to paste it when a URL in it
// hides its password.
std::string reproduce_text(const std::string& command);
// The narrated timeline, wrapped to the output width; the SQL only with `show_sql`.
std::string timeline_text(const std::vector<TimelineEvent>& events, bool show_sql = false);
// What the timeline's notation means, once.
// What a timeline's columns and labels mean: a simulation's requests, attempts and copies, or
// explore's twins.
enum class TimelineOf : uint8_t { kSimulation, kTwins };
std::string timeline_legend(TimelineOf of = TimelineOf::kSimulation);
nlohmann::ordered_json timeline_json(const std::vector<TimelineEvent>& events);

}  // namespace idemlab
