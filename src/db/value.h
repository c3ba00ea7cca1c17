// Values bound to and read from SQL statements.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace idemlab {

using Value = std::variant<std::monostate, int64_t, std::string>;
using Row = std::vector<Value>;

// A named parameter, e.g. {":biz_seq", "r1"}. Values are owned: a bind outlives any suspension.
struct Bind {
  const char* name;
  Value value;
};
using Binds = std::vector<Bind>;

inline int64_t as_int(const Value& value) {
  auto* number = std::get_if<int64_t>(&value);
  return number ? *number : 0;
}
inline std::string as_text(const Value& value) {
  auto* text = std::get_if<std::string>(&value);
  return text ? *text : std::string();
}
inline bool is_null(const Value& value) {
  return std::holds_alternative<std::monostate>(value);
}

}  // namespace idemlab
