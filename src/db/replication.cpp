// A standby's log, asked through the engine's traits.
#include "db/replication.h"

#include <fmt/format.h>

#include <cctype>

namespace idemlab {

namespace {

struct Identity {
  bool in_recovery = false;
  std::string log;  // whose log it is: PostgreSQL's system identifier
  std::string database;
};

Status identity_of(Connection& connection, Identity* out) {
  const char* sql = engine_traits(connection.engine()).standby_identity_sql;
  StepResult asked = connection.query(sql, {}, [&](const Row& row) {
    *out = {as_int(row[0]) != 0, as_text(row[1]), as_text(row[2])};
  });
  if (!asked.ok()) return step_error(connection, asked);
  return Status::ok();
}

}  // namespace

bool has_readable_standby(Engine engine) {
  return engine_traits(engine).standby_identity_sql != nullptr;
}

Status commit_position(Connection& primary, std::string* position) {
  position->clear();
  const char* sql = engine_traits(primary.engine()).commit_position_sql;
  if (!sql) return Status::ok();
  StepResult result = primary.query(sql, {}, [&](const Row& row) { *position = as_text(row[0]); });
  if (!result.ok()) return step_error(primary, result);
  return Status::ok();
}

WhereRan where_ran(Connection& connection, bool applied) {
  WhereRan where;
  where.node = connection.node();
  if (applied) (void)commit_position(connection, &where.commit_position);
  return where;
}

std::string where_ran_text(const WhereRan& where) {
  std::string text;
  if (!where.commit_position.empty()) text += " at " + where.commit_position;
  if (!where.node.empty()) text += " on " + where.node;
  return text + guard_node_text(where);
}

std::string guard_node_text(const WhereRan& where) {
  if (where.guard_node.empty()) return "";
  return " (guards on " + where.guard_node + ", " + where.guard_node_role + ")";
}

Status replayed_past(Connection& standby, const std::string& position, bool* past,
                     std::string* replayed) {
  *past = false;
  replayed->clear();
  const char* sql = engine_traits(standby.engine()).replayed_past_sql;
  if (!sql) return Status::internal("this engine has no standby to ask how far it replayed");
  StepResult result = standby.query(sql, {{":position", position}}, [&](const Row& row) {
    *replayed = as_text(row[0]);
    *past = as_int(row[1]) != 0;
  });
  if (!result.ok()) return step_error(standby, result);
  return Status::ok();
}

bool is_commit_position(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == 0 || slash == std::string_view::npos || slash > 8 || slash + 1 == text.size() ||
      text.size() - slash - 1 > 8)
    return false;
  for (size_t i = 0; i < text.size(); ++i)
    if (i != slash && !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

Status check_standby_url(const Locator& ledger, const Locator& standby) {
  if (has_readable_standby(ledger.engine) && standby.engine == ledger.engine) return Status::ok();
  return Status::usage(fmt::format(
      "--read-db {}: a standby to read from is a PostgreSQL standby of a PostgreSQL --db",
      standby.shown));
}

Status check_standby(Connection& primary, Connection& standby) {
  const std::string& named = standby.location();
  if (!has_readable_standby(primary.engine()) || standby.engine() != primary.engine())
    return Status::usage(fmt::format(
        "--read-db {}: a standby to read from is a PostgreSQL standby of a PostgreSQL --db",
        named));
  Identity of_primary, of_standby;
  RETURN_IF_ERROR(identity_of(primary, &of_primary));
  RETURN_IF_ERROR(identity_of(standby, &of_standby));
  if (!of_standby.in_recovery)
    return Status::usage(fmt::format(
        "--read-db {} is not in recovery: it takes writes itself, so it is a primary (the "
        "ledger's own, or another's), not a standby of {}",
        named, primary.location()));
  if (of_standby.log != of_primary.log)
    return Status::usage(fmt::format(
        "--read-db {} replays another server's log (system identifier {}, where {} has {}): it "
        "is a standby of another ledger",
        named, of_standby.log, primary.location(), of_primary.log));
  if (of_standby.database != of_primary.database)
    return Status::usage(fmt::format("--read-db {} is database {}, where {} is database {}", named,
                                     of_standby.database, primary.location(), of_primary.database));
  return Status::ok();
}

}  // namespace idemlab
