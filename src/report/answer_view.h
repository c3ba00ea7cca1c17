// Views of one attempt's answer: a line for people, an object for scripts.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "attempt/direct.h"

namespace idemlab {

// A text field for JSON: the string, or null when it is empty.
nlohmann::ordered_json text_or_null(const std::string& text);

std::string answer_text(const AttemptReport& report, const TransferRequest& request,
                        std::string_view strategy);
nlohmann::ordered_json answer_json(const AttemptReport& report, const TransferRequest& request,
                                   std::string_view strategy, Pitfall pitfall);

}  // namespace idemlab
