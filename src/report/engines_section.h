// report --backend's section: "the same strategy on N engines". Compare's matrix with a column
// per engine and level, over the report's scenarios, and per engine the first interleaving of
// two twins of ReportInput::engine_strategy that breaks there (or the first deadlock).
#pragma once

#include <string>

#include "report/html_report.h"

namespace idemlab {

// How many interleavings of the twins each engine tries (the first ones, in explore's order).
inline constexpr int64_t kReportEngineInterleavings = 2000;

// The section's HTML; "" when `input.engines` is empty.
Status engines_section(const ReportInput& input, std::string* out);

}  // namespace idemlab
