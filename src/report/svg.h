// A timeline as an SVG space-time diagram, self-contained (no script, no external font): a
// lifeline per participant, time downwards, messages as arrows and lost ones ending in a red
// cross, faults as notes, the write lock as a bar on its holder, the money moving as a green
// mark on the ledger, the verdict as a caption. The same timeline gives the same bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/simulate/simulate.h"

namespace idemlab {

std::string svg_sequence(const std::vector<TimelineEvent>& events, std::string_view title,
                         std::string_view verdict);

}  // namespace idemlab
