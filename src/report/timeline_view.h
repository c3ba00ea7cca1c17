// The narrated timeline of a simulation or of explore's twins: text for people (wrapped to the
// output width), with its legend, and JSON.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/shared/timeline.h"

namespace idemlab {

// The narrated timeline, wrapped to the output width; the SQL only with `show_sql`.
std::string timeline_text(const std::vector<TimelineEvent>& events, bool show_sql = false);
// What a timeline's columns and labels mean, once: a simulation's requests, attempts and
// copies, or explore's twins.
enum class TimelineOf : uint8_t { kSimulation, kTwins };
std::string timeline_legend(TimelineOf of = TimelineOf::kSimulation);
nlohmann::ordered_json timeline_json(const std::vector<TimelineEvent>& events);

}  // namespace idemlab
