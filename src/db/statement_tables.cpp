// The tables a statement names.
#include "db/statement_tables.h"

#include <array>

namespace idemlab {

std::string_view table_after(std::string_view sql, std::string_view keyword) {
  const size_t at = sql.find(keyword);
  if (at == std::string_view::npos) return {};
  std::string_view rest = sql.substr(at + keyword.size());
  return rest.substr(0, rest.find_first_of(" (;"));
}

namespace {
std::string_view read_written_table(Stmt stmt) {
  const std::string_view sql = statement_sql(stmt);
  for (std::string_view keyword : {"INSERT INTO ", "UPDATE ", "DELETE FROM "})
    if (sql.starts_with(keyword)) return table_after(sql, keyword);
  return {};
}
}  // namespace

// Read once per statement: the simulator's cluster asks it of every write it certifies and
// applies on each node (reading the text each time was 5% of a Galera run).
std::string_view written_table(Stmt stmt) {
  static const auto kTables = [] {
    std::array<std::string_view, static_cast<size_t>(Stmt::kCount)> tables{};
    for (size_t i = 0; i < tables.size(); ++i) tables[i] = read_written_table(static_cast<Stmt>(i));
    return tables;
  }();
  return kTables[static_cast<size_t>(stmt)];
}

}  // namespace idemlab
