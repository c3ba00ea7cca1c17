// Markup the report's pages share: a figure's box, and (term/markup.h) text inside HTML and SVG.
#pragma once

#include <string>

#include "term/markup.h"

namespace idemlab {

// A figure in the HTML report: scrolls sideways, scales down to fit a slide.
inline std::string diagram_box(const std::string& svg) {
  return "<div class=\"diagram\">" + svg + "</div>\n";
}

}  // namespace idemlab
