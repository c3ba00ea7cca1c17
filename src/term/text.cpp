// Aligned tables and wrapped paragraphs.
#include "term/text.h"

#include <fmt/format.h>

#include <algorithm>

#include "term/color.h"
#include "term/width.h"

namespace idemlab {

namespace {

// The last column's cell as lines of at most `room` columns (a cell with colour escapes is
// left whole: its visible width is not what wrap() counts).
std::vector<std::string> last_cell_lines(const std::string& cell, size_t room) {
  if (room == 0 || visible_width(cell) <= room || cell.find('\x1b') != std::string::npos)
    return {cell};
  std::vector<std::string> lines;
  const std::string wrapped = wrap(cell, 0, room);
  for (size_t start = 0; start < wrapped.size();) {
    const size_t end = wrapped.find('\n', start);
    lines.push_back(wrapped.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::string TextTable::render() const {
  // Widths are what a terminal shows: UTF-8 characters, colour escapes left out.
  std::vector<size_t> widths(header.size(), 0);
  for (size_t c = 0; c < header.size(); ++c) widths[c] = visible_width(header[c]);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c)
      widths[c] = std::max(widths[c], visible_width(row[c]));
  // A table wider than the output wraps its last column, when that is left-aligned text and
  // at least kMinLastColumn columns remain for it; the other columns are kept whole.
  constexpr size_t kMinLastColumn = 16;
  size_t last_start = 0;
  for (size_t c = 0; c + 1 < widths.size(); ++c) last_start += widths[c] + gap;
  const bool last_right =
      !widths.empty() && widths.size() <= right_aligned.size() && right_aligned[widths.size() - 1];
  size_t room = 0;
  if (!widths.empty() && !last_right && last_start + widths.back() > output_width() &&
      last_start + kMinLastColumn <= output_width())
    room = output_width() - last_start;
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c + 1 < widths.size(); ++c) {
      const std::string& cell = c < cells.size() ? cells[c] : std::string();
      const std::string pad(widths[c] - visible_width(cell), ' ');
      const bool right = c < right_aligned.size() && right_aligned[c];
      out += (right ? pad + cell : cell + pad) + std::string(gap, ' ');
    }
    const size_t last = widths.size() - 1;
    const std::string& cell = last < cells.size() ? cells[last] : std::string();
    if (last_right) return out + std::string(widths[last] - visible_width(cell), ' ') + cell + '\n';
    const std::vector<std::string> parts = last_cell_lines(cell, room);
    out += parts[0] + '\n';
    for (size_t i = 1; i < parts.size(); ++i) out += std::string(last_start, ' ') + parts[i] + '\n';
    return out;
  };
  if (widths.empty()) return "";
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

std::string duration_text(int64_t ms) {
  if (ms < 1000) return fmt::format("{} ms", ms);
  const double seconds = static_cast<double>(ms) / 1000;
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  if (seconds < 3600) return fmt::format("{:.0f} min", seconds / 60);
  if (seconds < 86400) return fmt::format("{:.1f} h", seconds / 3600);
  return count_of(static_cast<int64_t>(seconds / 86400), "day");
}

}  // namespace idemlab
