// Text views for people: aligned tables and wrapped paragraphs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idemlab {

struct TextTable {
  std::vector<std::string> header;
  std::vector<bool> right_aligned;  // per column; missing means left
  std::vector<std::vector<std::string>> rows;
  size_t gap = 2;  // spaces between columns

  std::string render() const;
};

// "1 transfer", "2 transfers": a count and a noun, plural when it is not 1. `plural_form`
// defaults to the noun with an "s".
std::string count_of(int64_t count, std::string_view noun, std::string_view plural_form = {});

// A span of time as a person reads it: "750 ms", "29.5 s", "12 min", "3.5 h", "41 days".
std::string duration_text(int64_t ms);

// Wraps `text` at `width` columns (0: output_width()), every line indented by `indent` spaces.
// A word longer than a line is cut, so no line is ever wider than `width`.
std::string wrap(std::string_view text, size_t indent, size_t width = 0);

}  // namespace idemlab
