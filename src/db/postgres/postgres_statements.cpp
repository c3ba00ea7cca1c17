// PostgreSQL's statement table: only where its dialect differs from SQLite's (statements.cpp).
// The rest runs as SQLite's text: PostgreSQL reads the same INSERT ... ON CONFLICT, including
// the WHERE that names the partial unique index, and the same RETURNING.
#include <array>
#include <utility>

#include "db/postgres/postgres_backend.h"
#include "db/statement_parts.h"
#include "db/statements.h"

namespace idemlab {

namespace {

constexpr std::array<std::pair<Stmt, std::string_view>, 4> kPostgres{{
    // No database-wide write lock to take first: the lock is the row's, taken by the read.
    {Stmt::kBeginDeferred, "BEGIN"},
    {Stmt::kBeginImmediate, "BEGIN"},
    // A real row lock. It locks nothing when the row does not exist yet: twins then meet at
    // the INSERT, on the unique index if there is one (23505), or not at all.
    {Stmt::kSelectFlowForUpdate, FLOW_SELECT " FOR UPDATE"},
    {Stmt::kListTables,
     "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
     "ORDER BY table_name"},
}};

}  // namespace

std::string_view postgres_statement_sql(Stmt id) {
  for (const auto& [stmt, sql] : kPostgres)
    if (stmt == id) return sql;
  return statement_sql(id);
}

}  // namespace idemlab
