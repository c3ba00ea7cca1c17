// Colour for people at a terminal: what went right in green, what moved money twice or lied in
// red, what is still open in yellow. Off when standard output is not a terminal, when NO_COLOR
// is set (https://no-color.org), with TERM=dumb, or with --color never; --color always forces
// it. JSON, CSV and Markdown never carry colour.
#pragma once

#include <string>
#include <string_view>

namespace idemlab {

enum class ColorMode { kAuto, kAlways, kNever };
void set_color_mode(ColorMode mode);
bool color_enabled();

enum class Tone { kGood, kBad, kOpen };
// `text` in the tone's colour when colour is on; `text` itself otherwise.
std::string paint(std::string_view text, Tone tone);
// The tone of an answer or verdict word ("applied", "in_progress", ...), if it has one.
std::string paint_outcome(std::string_view text);

// Columns `text` takes on a terminal: its UTF-8 characters, without colour escapes.
size_t visible_width(std::string_view text);

}  // namespace idemlab
