// Read-your-writes on a PostgreSQL standby.
#include "ledger/wal_position.h"

#include <cctype>

namespace idemlab {

Status wal_position(Connection& primary, std::string* lsn) {
  lsn->clear();
  if (primary.engine() != Engine::kPostgres) return Status::ok();
  StepResult result = primary.query("SELECT CAST(pg_current_wal_lsn() AS TEXT)", {},
                                    [&](const Row& row) { *lsn = as_text(row[0]); });
  if (!result.ok()) return step_error(primary, result);
  return Status::ok();
}

Status replayed_past(Connection& standby, const std::string& lsn, bool* past,
                     std::string* replayed) {
  *past = false;
  replayed->clear();
  StepResult result = standby.query(
      "SELECT COALESCE(CAST(pg_last_wal_replay_lsn() AS TEXT), ''), "
      "CASE WHEN pg_last_wal_replay_lsn() >= CAST(:lsn AS pg_lsn) THEN 1 ELSE 0 END",
      {{":lsn", lsn}}, [&](const Row& row) {
        *replayed = as_text(row[0]);
        *past = as_int(row[1]) != 0;
      });
  if (!result.ok()) return step_error(standby, result);
  return Status::ok();
}

bool is_wal_position(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == 0 || slash == std::string_view::npos || slash + 1 == text.size() || text.size() > 17)
    return false;
  for (size_t i = 0; i < text.size(); ++i)
    if (i != slash && !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

}  // namespace idemlab
