// Aligned tables and wrapped paragraphs.
#include "report/text.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/color.h"
#include "report/width.h"

namespace idemlab {

std::string TextTable::render() const {
  // Widths are what a terminal shows: UTF-8 characters, colour escapes left out.
  std::vector<size_t> widths(header.size(), 0);
  for (size_t c = 0; c < header.size(); ++c) widths[c] = visible_width(header[c]);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c)
      widths[c] = std::max(widths[c], visible_width(row[c]));
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < widths.size(); ++c) {
      const std::string& cell = c < cells.size() ? cells[c] : std::string();
      const std::string pad(widths[c] - visible_width(cell), ' ');
      const bool right = c < right_aligned.size() && right_aligned[c];
      if (c > 0) out += std::string(gap, ' ');
      out += right ? pad + cell : (c + 1 == widths.size() ? cell : cell + pad);
    }
    out += '\n';
    return out;
  };
  std::string out = line(header);
  for (const auto& row : rows) out += line(row);
  return out;
}

std::string wrap(std::string_view text, size_t indent, size_t width) {
  if (width == 0) width = output_width();
  if (indent + 20 > width) indent = std::min(indent, width / 2);  // leave room for the words
  std::string out;
  std::string current(indent, ' ');
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (current.size() > indent && current.size() + 1 + word.size() > width) {
      out += current + '\n';
      current.assign(indent, ' ');
    }
    if (current.size() > indent) current += ' ';
    while (current.size() + word.size() > width) {  // a word wider than a line: cut it
      const size_t room = width - current.size();
      current += word.substr(0, room);
      out += current + '\n';
      current.assign(indent, ' ');
      word.remove_prefix(room);
    }
    current += word;
  }
  if (current.size() > indent) out += current + '\n';
  return out;
}

std::string count_of(int64_t count, std::string_view noun, std::string_view plural_form) {
  if (count == 1) return fmt::format("1 {}", noun);
  if (plural_form.empty()) return fmt::format("{} {}s", count, noun);
  return fmt::format("{} {}", count, plural_form);
}

}  // namespace idemlab
