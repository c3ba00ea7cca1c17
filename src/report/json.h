// JSON text for every view: one line, and text that is not UTF-8 (a user's bad input echoed in
// an error) is replaced rather than aborting the program.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "strategies/pitfall.h"

namespace idemlab {

inline std::string json_text(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// A pitfall in JSON: its name, or null for the guarded code.
inline nlohmann::ordered_json pitfall_json(Pitfall pitfall) {
  if (pitfall == Pitfall::kNone) return nullptr;
  return std::string(pitfall_name(pitfall));
}

}  // namespace idemlab
