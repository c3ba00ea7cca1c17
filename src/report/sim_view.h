// Views of simulation results: a table for people, JSON, CSV and Markdown for scripts and
// documents. The narrated timeline is timeline_view.h's.
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

}  // namespace idemlab
