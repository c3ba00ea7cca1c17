// JSON text for every view: one line, and text that is not UTF-8 (a user's bad input echoed in
// an error) is replaced rather than aborting the program.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace idemlab {

inline std::string json_text(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace idemlab
