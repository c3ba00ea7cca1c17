// Values written into and read from the text servers send.
#include "db/server/server_text.h"

#include <charconv>

namespace idemlab {

namespace {
std::string literal(const Value& value) {
  if (const auto* number = std::get_if<int64_t>(&value)) return std::to_string(*number);
  const auto* text = std::get_if<std::string>(&value);
  if (!text) return "NULL";
  std::string quoted = "'";
  for (char c : *text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}
}  // namespace

std::string sql_with_values(const SqlTemplate& sql, const Binds& binds) {
  std::string text = sql.pieces[0];
  for (size_t i = 0; i < sql.names.size(); ++i) {
    text += literal(sql.value(i, binds));
    text += sql.pieces[i + 1];
  }
  return text;
}

Value integer_or_text(std::string_view text, bool integer_type) {
  if (integer_type) {
    int64_t number = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error == std::errc() && end == text.data() + text.size()) return number;
  }
  return std::string(text);
}

}  // namespace idemlab
