// Parsing numbers from option text, the one way every key=value syntax does it.
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>

namespace idemlab {

// A whole decimal number >= low, and nothing else.
inline bool parse_whole(std::string_view text, int64_t low, int64_t* out) {
  int64_t number = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size() || number < low) return false;
  *out = number;
  return true;
}

}  // namespace idemlab
