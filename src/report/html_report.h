// `idemlab report`: one self-contained HTML file (inline CSS and SVG; no script, no font or
// image fetched) that a class can read offline or print: a card per strategy with its guard
// and each pitfall as diagrams, the compare matrix across scenarios, small charts, the lessons.
#pragma once

#include <string>

#include "classroom/report_data.h"

namespace idemlab {

// The page, from what gather_report() ran.
std::string build_report(const ReportInput& input, const ReportData& data);

}  // namespace idemlab
