// SqlTemplate: a statement written with named values (":name"), split where the values go, for
// the engines whose clients take values by position rather than by name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "db/value.h"

namespace idemlab {

struct SqlTemplate {
  std::vector<std::string> pieces;  // the text around the values: one more than `names`
  std::vector<std::string> names;   // each value's name (":name"), in the order they appear

  // The value `binds` gives the i-th placeholder; NULL when none does (as SQLite binds it).
  const Value& value(size_t i, const Binds& binds) const;
};

// Splits `sql` at every ":name" outside quotes ('text', "identifier") and outside "::" casts.
SqlTemplate split_named_values(std::string_view sql);

// PostgreSQL's form: each distinct name becomes $1, $2, ... (a name used twice is one value);
// `order` receives the names in $-number order.
std::string numbered_placeholders(const SqlTemplate& sql, std::vector<std::string>* order);

}  // namespace idemlab
