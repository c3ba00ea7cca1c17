// explore's views: the counts and the shown interleaving as text, the same as JSON, and the
// shown interleaving as a sequence diagram. Data in, text out: cli/cmd_explore.cpp explores and
// prints.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/explore/explore.h"

namespace idemlab {

struct ExploreView {
  bool sql = false;         // each statement's SQL on the timeline
  bool all_orders = false;  // --all-orders: both orders of commuting steps were tried
  std::string diagram;      // "mermaid" or "svg"
};

std::string explore_text(const ExploreView& view, const ExploreResult& result);
nlohmann::ordered_json explore_json(const ExploreView& view, const ExploreResult& result);
std::string explore_diagram(const ExploreView& view, const ExploreResult& result);
// Who lost the first deadlock: "the server chose attempt 2 as its victim", or on a cluster "the
// cluster turned attempt 2 away (the other node's commit came first)".
std::string deadlock_victim_text(const ExploreResult& result);

}  // namespace idemlab
