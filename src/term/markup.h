// Text inside HTML and SVG: the characters markup would read as its own. The report's pages and
// diagrams, and serve's payment page, write text for people through it.
#pragma once

#include <string>
#include <string_view>

namespace idemlab {

inline std::string markup_text(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace idemlab
