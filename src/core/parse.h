// Parsing numbers from option text, the one way every key=value syntax does it.
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace idemlab {

// A whole decimal number in [low, high], and nothing else (no sign, space or exponent).
inline bool parse_whole(std::string_view text, int64_t low, int64_t high, int64_t* out) {
  int64_t number = 0;
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size() || number < low || number > high)
    return false;
  *out = number;
  return true;
}

// Splits "key=value,key=value" into pairs. Returns the first piece without '=' in `bad`
// (and false) if there is one; an empty text is no pairs.
inline bool split_pairs(std::string_view text,
                        std::vector<std::pair<std::string_view, std::string_view>>* pairs,
                        std::string_view* bad) {
  pairs->clear();
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view pair = text.substr(0, comma);
    text = comma == std::string_view::npos ? "" : text.substr(comma + 1);
    size_t equals = pair.find('=');
    if (equals == std::string_view::npos) {
      *bad = pair;
      return false;
    }
    pairs->emplace_back(pair.substr(0, equals), pair.substr(equals + 1));
  }
  return true;
}

}  // namespace idemlab
