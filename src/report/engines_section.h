// report --backend's section: "the same strategy on N engines". Compare's matrix with a column
// per engine and level, over the report's scenarios, and per engine the first interleaving of
// two twins of ReportInput::engine_strategy that breaks there (or the first deadlock).
#pragma once

#include <string>

#include "report/html_report.h"

namespace idemlab {

// The section's HTML, from gather_report()'s runs; "" when `input.engines` is empty.
std::string engines_section(const ReportInput& input, const ReportData& data);

}  // namespace idemlab
