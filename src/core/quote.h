// Input echoed in a message, made safe for a terminal: what a user typed is shown between
// single quotes, with control characters, DEL and bytes outside ASCII written as \xHH, so
// that an account name holding escape codes cannot move the cursor or recolour a screen.
#pragma once

#include <string>
#include <string_view>

namespace idemlab {

inline std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(c);
    } else {
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 15]);
    }
  }
  return out;
}

inline std::string in_quotes(std::string_view text) {
  return "'" + printable(text) + "'";
}

}  // namespace idemlab
