// The tables a statement names, read from its SQLite text: what the simulator's replicas and
// cluster need to know of a write (which table it changes) without a table of their own.
#pragma once

#include <string_view>

#include "db/statements.h"

namespace idemlab {

// The table named right after `keyword` (e.g. "FROM ") in `sql`; "" if none.
std::string_view table_after(std::string_view sql, std::string_view keyword);
// The table an INSERT, UPDATE or DELETE writes; "" for any other statement.
std::string_view written_table(Stmt stmt);

}  // namespace idemlab
