// A timeline as a Mermaid sequence diagram, for slides and Markdown: a lifeline for the client,
// the network, each server attempt and the ledger; requests and answers as arrows, lost ones
// ending in a cross; faults as notes where they hit; the write lock held as an activation bar;
// the moment money moved as a note on the ledger; the verdict as a closing note. The same
// timeline gives the same text, byte for byte.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/simulate/simulate.h"

namespace idemlab {

std::string mermaid_sequence(const std::vector<TimelineEvent>& events, std::string_view title,
                             std::string_view verdict);

}  // namespace idemlab
