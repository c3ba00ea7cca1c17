// Splitting SQL at its named values.
#include "db/sql_template.h"

#include <algorithm>
#include <cctype>

namespace idemlab {

namespace {
bool starts_name(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool in_name(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
// The end of a quoted run that starts at `at` with `quote` (a doubled quote stays inside).
size_t quoted_end(std::string_view sql, size_t at, char quote) {
  for (size_t i = at + 1; i < sql.size(); ++i)
    if (sql[i] == quote) {
      if (i + 1 < sql.size() && sql[i + 1] == quote) {
        ++i;
        continue;
      }
      return i + 1;
    }
  return sql.size();
}
}  // namespace

const Value& SqlTemplate::value(size_t i, const Binds& binds) const {
  static const Value kNull;
  for (const Bind& bind : binds)
    if (names[i] == bind.name) return bind.value;
  return kNull;
}

SqlTemplate split_named_values(std::string_view sql) {
  SqlTemplate out;
  std::string piece;
  size_t i = 0;
  while (i < sql.size()) {
    const char c = sql[i];
    if (c == '\'' || c == '"') {
      const size_t end = quoted_end(sql, i, c);
      piece.append(sql.substr(i, end - i));
      i = end;
    } else if (c == ':' && i + 1 < sql.size() && sql[i + 1] == ':') {
      piece.append("::");
      i += 2;
    } else if (c == ':' && i + 1 < sql.size() && starts_name(sql[i + 1])) {
      size_t end = i + 1;
      while (end < sql.size() && in_name(sql[end])) ++end;
      out.pieces.push_back(std::move(piece));
      piece.clear();
      out.names.emplace_back(sql.substr(i, end - i));
      i = end;
    } else {
      piece.push_back(c);
      ++i;
    }
  }
  out.pieces.push_back(std::move(piece));
  return out;
}

std::string numbered_placeholders(const SqlTemplate& sql, std::vector<std::string>* order) {
  order->clear();
  std::string text = sql.pieces[0];
  for (size_t i = 0; i < sql.names.size(); ++i) {
    auto found = std::find(order->begin(), order->end(), sql.names[i]);
    if (found == order->end()) found = order->insert(order->end(), sql.names[i]);
    text += "$" + std::to_string(found - order->begin() + 1);
    text += sql.pieces[i + 1];
  }
  return text;
}

}  // namespace idemlab
