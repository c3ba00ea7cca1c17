// Text inside HTML and SVG: the characters markup would read as its own.
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

// A figure in the HTML report: scrolls sideways, scales down to fit a slide.
inline std::string diagram_box(const std::string& svg) {
  return "<div class=\"diagram\">" + svg + "</div>\n";
}

}  // namespace idemlab
