// Commands a person pastes, broken where a shell allows.
#include "term/command_text.h"

#include "term/width.h"

namespace idemlab {

namespace {

// The words of `text`: split at spaces outside single or double quotes.
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  char quote = 0;
  for (const char c : text) {
    if (quote == 0 && c == ' ') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
      continue;
    }
    if (quote == 0 && (c == '\'' || c == '"'))
      quote = c;
    else if (c == quote)
      quote = 0;
    word += c;
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// The units a line break keeps whole: a word, or an option and its value ("--seed 1").
std::vector<std::string> units_of(const std::vector<std::string>& words) {
  std::vector<std::string> units;
  for (size_t i = 0; i < words.size(); ++i) {
    const bool option = words[i].starts_with("-") && words[i].find('=') == std::string::npos;
    if (option && i + 1 < words.size() && !words[i + 1].starts_with("-")) {
      units.push_back(words[i] + " " + words[i + 1]);
      ++i;
    } else {
      units.push_back(words[i]);
    }
  }
  return units;
}

}  // namespace

std::string shell_word(std::string_view arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_./:=,@%+-") == std::string_view::npos;
  if (plain) return std::string(arg);
  std::string out = "'";
  for (const char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string command_text(std::string_view text, size_t indent) {
  const size_t width = static_cast<size_t>(output_width());
  std::string out;
  std::string current(indent, ' ');
  size_t fresh = indent;  // where the words of the current line start
  const auto place = [&](const std::string& word) {
    if (current.size() > fresh && current.size() + 1 + word.size() + 2 > width) {
      out += current + " \\\n";
      fresh = indent + 4;
      current.assign(fresh, ' ');
    }
    if (current.size() > fresh) current += ' ';
    current += word;
  };
  for (const std::string& unit : units_of(words_of(text))) {
    if (indent + 4 + unit.size() + 2 <= width) {
      place(unit);
      continue;
    }
    for (const std::string& word : words_of(unit)) place(word);  // too long to keep whole
  }
  return out + current + "\n";
}

}  // namespace idemlab
