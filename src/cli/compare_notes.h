// What compare says under its table: findings (differences between rows that are results, not
// noise) and notes (where a fault landed differently across rows, and which guarded rows stand
// outside the band the others share).
#pragma once

#include <span>
#include <string>

#include "sim/compare.h"

namespace idemlab {

// The spread the guarded rows of one comparison are expected to keep under a fault that lands
// alike in every strategy: attempts per request, and unknown answers as a share of requests.
constexpr double kAttemptsBand = 0.05;
constexpr double kUnknownBandShare = 0.01;

// Lines to print under compare's table, each ending in a newline; "" when there are none.
std::string compare_findings(const SimConfig& config, std::span<const CompareRow> rows);
std::string placement_notes(const SimConfig& config, std::span<const CompareRow> rows);
std::string band_notes(const SimConfig& config, std::span<const SimResult> results);

}  // namespace idemlab
