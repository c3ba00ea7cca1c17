// Wrapping --help to output_width(), with the column CLI11 chose for names.
#include "cli/help_format.h"

#include "term/color.h"
#include "term/text.h"
#include "term/width.h"

namespace idemlab {

namespace {

// "  NAME      description" with the description wrapped in its column; a name wider than
// the column puts the description on the next line.
std::string name_and_description(const std::string& name, const std::string& description,
                                 size_t column) {
  std::string out = "  " + name;
  if (out.size() > static_cast<size_t>(output_width())) {  // a long list of choices
    std::string spaced;
    for (const char c : name) spaced += c == ',' ? std::string(", ") : std::string(1, c);
    out = wrap(spaced, 4).substr(2);  // the first line at 2, the rest at 4
    out.pop_back();                   // the newline; the description goes on a line of its own
  }
  if (description.empty()) return out + "\n";
  if (out.size() + 1 > column)
    out += "\n" + std::string(column, ' ');
  else
    out += std::string(column - out.size(), ' ');
  const std::string wrapped = wrap(description, column);
  return out + wrapped.substr(std::min(column, wrapped.size()));
}

// Where a footer line's continuation lines start: under its text after a first column
// ("  4   mismatch: ..." continues under "mismatch"), else under its own indentation.
size_t hanging_indent(const std::string& line, size_t indent) {
  const size_t gap = line.find("  ", indent);
  const size_t text = gap == std::string::npos ? gap : line.find_first_not_of(' ', gap);
  if (text != std::string::npos && text < line.size() / 2) return text;
  return indent;
}

// One footer line wrapped to the width, keeping its own layout on the first line.
std::string wrap_line(const std::string& line) {
  const size_t width = static_cast<size_t>(output_width());
  const size_t indent = line.find_first_not_of(' ');
  if (indent == std::string::npos || visible_width(line) <= width) return line + "\n";
  const size_t hang = hanging_indent(line, indent);
  const size_t cut = line.rfind(' ', width);
  if (cut == std::string::npos || cut <= hang) return wrap(line.substr(indent), indent);
  return line.substr(0, cut) + "\n" + wrap(line.substr(cut + 1), hang);
}

std::string wrap_lines(const std::string& text) {
  std::string out;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    out += wrap_line(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string WrappingFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  return name_and_description(make_option_name(opt, is_positional) + make_option_opts(opt),
                              make_option_desc(opt), get_column_width());
}

std::string WrappingFormatter::make_subcommand(const CLI::App* sub) const {
  return name_and_description(sub->get_display_name(true), sub->get_description(),
                              get_column_width());
}

std::string WrappingFormatter::make_description(const CLI::App* app) const {
  return wrap_lines(CLI::Formatter::make_description(app));
}

std::string WrappingFormatter::make_footer(const CLI::App* app) const {
  return wrap_lines(app->get_footer());
}

}  // namespace idemlab
