// Values bound to and read from SQL statements.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

// A bind's value by name, for a store that reads its parameters itself (Redis, ZooKeeper): a
// number as its digits; "" or 0 when there is no such bind.
inline std::string bind_text(const Binds& binds, std::string_view name) {
  for (const Bind& bind : binds)
    if (name == bind.name) {
      if (const auto* number = std::get_if<int64_t>(&bind.value)) return std::to_string(*number);
      return as_text(bind.value);
    }
  return "";
}
inline int64_t bind_int(const Binds& binds, std::string_view name) {
  for (const Bind& bind : binds)
    if (name == bind.name) return as_int(bind.value);
  return 0;
}

}  // namespace idemlab
