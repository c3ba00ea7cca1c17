// The tables a statement names.
#include "db/statement_tables.h"

namespace idemlab {

std::string_view table_after(std::string_view sql, std::string_view keyword) {
  const size_t at = sql.find(keyword);
  if (at == std::string_view::npos) return {};
  std::string_view rest = sql.substr(at + keyword.size());
  return rest.substr(0, rest.find_first_of(" (;"));
}

std::string_view written_table(Stmt stmt) {
  const std::string_view sql = statement_sql(stmt);
  for (std::string_view keyword : {"INSERT INTO ", "UPDATE ", "DELETE FROM "})
    if (sql.starts_with(keyword)) return table_after(sql, keyword);
  return {};
}

}  // namespace idemlab
