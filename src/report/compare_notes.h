// What compare says under its table: findings (differences between rows that are results, not
// noise) and notes (where a fault landed differently across rows, and which guarded rows stand
// outside the band the others share).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "sim/simulate/compare.h"

namespace idemlab {

// The spread the guarded rows of one comparison are expected to keep under a fault that lands
// alike in every strategy: attempts per request, and unknown answers as a share of requests.
constexpr double kAttemptsBand = 0.05;
constexpr double kUnknownBandShare = 0.01;

// What to say under compare's table, one unwrapped sentence each ("finding: ..." or
// "note: ..."), in the order to print them. The table prints `brief` (rows grouped, one note
// for the engines that share it: a few lines); JSON carries every `full` as "notes" (each row
// named, one note per engine).
struct CompareNotes {
  std::vector<std::string> brief;
  std::vector<std::string> full;
};
CompareNotes compare_notes(const SimConfig& config, std::span<const CompareRow> rows,
                           std::span<const SimResult> results);

}  // namespace idemlab
