// Text both server backends need: a statement with its values written in, for traces and
// `explain` (never for running it), and a column's text read back as a Value.
#pragma once

#include <string>
#include <string_view>

#include "db/sql_template.h"

namespace idemlab {

// `sql` with each value as a SQL literal: numbers bare, text quoted, NULL.
std::string sql_with_values(const SqlTemplate& sql, const Binds& binds);

// A server's column, sent as text: an integer type becomes an int64 (and a whole-number numeric
// too, as sum() gives on PostgreSQL), anything else stays text.
Value integer_or_text(std::string_view text, bool integer_type);

}  // namespace idemlab
