// ANSI SGR colours: 32 green, 31 red, 33 yellow; 0 resets.
#include "term/color.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace idemlab {

namespace {

ColorMode& mode() {
  static ColorMode chosen = ColorMode::kAuto;
  return chosen;
}

bool terminal_wants_color() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(STDOUT_FILENO) != 0;
}

}  // namespace

void set_color_mode(ColorMode chosen) {
  mode() = chosen;
}

bool color_enabled() {
  static const bool automatic = terminal_wants_color();
  switch (mode()) {
    case ColorMode::kAlways:
      return true;
    case ColorMode::kNever:
      return false;
    case ColorMode::kAuto:
      break;
  }
  return automatic;
}

std::string paint(std::string_view text, Tone tone) {
  if (!color_enabled() || text.empty()) return std::string(text);
  const char* code = tone == Tone::kGood ? "32" : tone == Tone::kBad ? "31" : "33";
  return "\033[" + std::string(code) + "m" + std::string(text) + "\033[0m";
}

std::string paint_outcome(std::string_view text) {
  if (text.starts_with("applied") || text == "ok" || text.starts_with("money moved once"))
    return paint(text, Tone::kGood);
  if (text.starts_with("in_progress") || text.starts_with("timeout") || text.starts_with("busy"))
    return paint(text, Tone::kOpen);
  if (text == "FAIL" || text.starts_with("money moved ") || text.starts_with("money never"))
    return paint(text, Tone::kBad);
  return std::string(text);
}

size_t visible_width(std::string_view text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\033') {  // skip "\033[...m"
      while (i < text.size() && text[i] != 'm') ++i;
      continue;
    }
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++width;  // not a continuation
  }
  return width;
}

}  // namespace idemlab
