// Wrapping --help to output_width(), with the column CLI11 chose for names.
#include "cli/help_format.h"

#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// The choices of an IsMember check, as CLI11 writes them ("TEXT:{a,b,c}"); none if it is not one.
std::vector<std::string> choices_of(const std::string& type) {
  std::vector<std::string> out;
  const size_t open = type.find('{');
  const size_t close = type.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  for (size_t start = open + 1; start < close;) {
    const size_t comma = std::min(type.find(',', start), close);
    std::string word = type.substr(start, comma - start);
    while (!word.empty() && word.front() == ' ') word.erase(0, 1);
    out.push_back(word);
    start = comma + 1;
  }
  return out;
}

std::string upper_name(const CLI::Option* opt) {
  std::string name = opt->get_lnames().empty() ? opt->get_name() : opt->get_lnames().front();
  for (char& c : name) c = c == '-' ? '_' : static_cast<char>(std::toupper(c));
  return name;
}

// What a free-text option's value is, by the option's long name: help says "--from ACCOUNT",
// not CLI11's "--from TEXT".
std::string text_value_name(const CLI::Option* opt) {
  static const std::pair<std::string_view, std::string_view> kNames[] = {
      {"account", "ACCOUNT"},  {"from", "ACCOUNT"},     {"to", "ACCOUNT"},
      {"amount", "AMOUNT"},    {"raise", "AMOUNT"},     {"set", "AMOUNT"},
      {"biz-seq", "ID"},       {"token", "TOKEN"},      {"idempotency-key", "KEY"},
      {"db", "PATH|URL"},      {"backend", "ENGINE"},   {"postgres", "URL"},
      {"mariadb", "URL"},      {"broker", "URL"},       {"redis", "URL"},
      {"listen", "HOST:PORT"}, {"queue", "NAME"},       {"prefix", "TEXT"},
      {"source", "NAME"},      {"sources", "NAMES"},    {"pitfall", "NAME"},
      {"fault", "FAULT"},      {"retry", "POLICY"},     {"scenario", "NAME|FILE"},
      {"scenarios", "NAMES"},  {"strategies", "NAMES"}, {"trace-sql", "FILE"},
      {"out", "FILE"},         {"data", "BODY"},
  };
  const std::string name = opt->get_lnames().empty() ? "" : opt->get_lnames().front();
  for (const auto& [option, value] : kNames)
    if (option == name) return std::string(value);
  return "TEXT";
}

}  // namespace

std::string option_value_name(const CLI::Option* opt) {
  const std::string type = opt->get_type_name();
  if (type.starts_with("INT") || type.starts_with("UINT")) return "N";
  if (type.starts_with("FLOAT")) return "X";
  const std::vector<std::string> choices = choices_of(type);
  if (!choices.empty() && choices.size() <= 4) {
    std::string out;
    for (const std::string& choice : choices) out += (out.empty() ? "" : "|") + choice;
    return out;
  }
  if (!choices.empty()) return upper_name(opt);
  const size_t colon = type.rfind(':');
  const std::string word = colon == std::string::npos ? type : type.substr(colon + 1);
  return word == "TEXT" ? text_value_name(opt) : word;
}

std::string WrappingFormatter::make_option_opts(const CLI::Option* opt) const {
  if (opt->get_items_expected_max() == 0) return "";                           // a flag
  if (!opt->nonpositional()) return opt->get_required() ? " (required)" : "";  // named already
  std::string out = " " + option_value_name(opt);
  if (opt->get_items_expected_min() == 0) out = "[=" + out.substr(1) + "]";
  if (!opt->get_default_str().empty()) out += "=" + opt->get_default_str();
  if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out += " ...";
  if (opt->get_required()) out += " (required)";
  return out;
}

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

std::string WrappingFormatter::make_usage(const CLI::App* app, std::string name) const {
  std::string usage = CLI::Formatter::make_usage(app, std::move(name));
  for (size_t at; (at = usage.find("SUBCOMMAND")) != std::string::npos;) usage.erase(at, 3);
  return usage;
}

std::string WrappingFormatter::make_footer(const CLI::App* app) const {
  return wrap_lines(app->get_footer());
}

}  // namespace idemlab
