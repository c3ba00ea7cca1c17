// A timeline as a sequence of lifelines and what passes between them: the model that the
// Mermaid and SVG diagrams both draw, so they always show the same thing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/simulate/simulate.h"

namespace idemlab {

struct SequenceItem {
  enum class Kind {
    kArrow,       // a message from one lifeline to another
    kLost,        // a message lost on its way: it ends in a cross
    kNote,        // a note on one lifeline (a fault, a timeout, a crash)
    kActivate,    // the lifeline takes the write lock (a bar starts)
    kDeactivate,  // ... and gives it back
    kMoneyMoved,  // the ledger moved money (a highlighted mark)
  };
  Kind kind = Kind::kNote;
  size_t from = 0;  // lifelines, by index
  size_t to = 0;
  std::string text;
};

struct Sequence {
  std::string title;
  std::string verdict;
  std::vector<std::string> ids;     // short ids: C, N, S1, S2, ..., L
  std::vector<std::string> labels;  // client, network, server r1#1, ..., ledger
  std::vector<SequenceItem> items;
};

Sequence build_sequence(const std::vector<TimelineEvent>& events, std::string_view title,
                        std::string_view verdict);

// explain's rehearsal (a first attempt and its repeat) as timeline events, one ms a step.
std::vector<TimelineEvent> rehearsal_timeline(const std::vector<struct TracedAttempt>& attempts);

}  // namespace idemlab
