// Creating and opening ledgers on PostgreSQL and MariaDB.
#include "db/schema/server_ledger.h"

#include <fmt/format.h>

namespace idemlab {

namespace {

// idemlab's tables, each before the ones it refers to (dropped in this order).
constexpr const char* kDropOwnTables =
    "DROP TABLE IF EXISTS delivery, attempt, fence, \"lock\", token, dedup, journal, "
    "transfer_flow, "
    "account_limit, account, idemlab_schema";

Status list_tables(Connection& connection, std::vector<std::string>* out) {
  out->clear();
  StepResult listed = connection.query(connection.statement_text(Stmt::kListTables), {},
                                       [&](const Row& row) { out->push_back(as_text(row[0])); });
  return listed.ok() ? Status::ok() : step_error(connection, listed);
}

Status insert_accounts(Connection& connection, const std::vector<OpeningBalance>& accounts) {
  for (const auto& account : accounts) {
    StepResult result = connection.query(
        "INSERT INTO account (name, opening_balance_minor, balance_minor) VALUES (:name, "
        ":amount, :amount)",
        {{":name", account.account}, {":amount", account.amount_minor}});
    if (result.code == StepCode::kConstraint)
      return Status::usage(fmt::format("account {} is listed twice", account.account));
    if (!result.ok()) return step_error(connection, result);
  }
  return Status::ok();
}

}  // namespace

Status create_server_schema(Connection& connection, const std::vector<OpeningBalance>& accounts) {
  RETURN_IF_ERROR(connection.exec_script(*engine_traits(connection.engine()).schema_sql));
  if (StepResult begun = connection.run(Stmt::kBeginImmediate, {}); !begun.ok())
    return step_error(connection, begun);
  RETURN_IF_ERROR(insert_accounts(connection, accounts));
  StepResult committed = connection.run(Stmt::kCommit, {});
  return committed.ok() ? Status::ok() : step_error(connection, committed);
}

namespace {

// The schema version of the first ledgers idemlab made on a server; older ones never existed.
constexpr int64_t kFirstServerVersion = 3;

// The definition of `table` in the engine's embedded schema: from its CREATE TABLE to the next
// blank line (its indexes included), made safe to run again with IF NOT EXISTS.
std::string table_definition(Engine engine, std::string_view table) {
  const std::string_view schema = *engine_traits(engine).schema_sql;
  const std::string head = fmt::format("CREATE TABLE {} (", table);
  const size_t begin = schema.find(head);
  if (begin == std::string_view::npos) return "";
  const size_t end = schema.find("\n\n", begin);
  std::string sql(schema.substr(begin, end == std::string_view::npos ? end : end - begin + 1));
  for (const auto& [plain, guarded] : {std::pair<std::string_view, std::string_view>{
                                           "CREATE TABLE ", "CREATE TABLE IF NOT EXISTS "},
                                       {"CREATE INDEX ", "CREATE INDEX IF NOT EXISTS "}})
    for (size_t at = sql.find(plain); at != std::string::npos; at = sql.find(plain, at + 1))
      sql.replace(at, plain.size(), guarded);
  return sql;
}

// Version 3 was the first on a server; 4 gave each attempt its isolation level and where its
// guards lived; 5 added a consumer's deliveries; 6 the fences of lock-table --fence; 7 the
// Galera node that served an attempt; 8 changed only SQLite's file. A column or table is added
// only if missing:
// MariaDB commits each ALTER and CREATE at once, so an upgrade cut short between the
// statements is finished by the next.
Status upgrade_server_ledger(const Locator& locator, Connection& connection, int64_t version) {
  const std::string_view level_type = engine_traits(locator.engine).short_text_type;
  Status status = connection.exec_script(
      fmt::format("ALTER TABLE attempt ADD COLUMN IF NOT EXISTS isolation {}", level_type).c_str());
  if (status.is_ok())
    status =
        connection.exec_script("ALTER TABLE attempt ADD COLUMN IF NOT EXISTS guard_store TEXT");
  if (status.is_ok())
    status = connection.exec_script("ALTER TABLE attempt ADD COLUMN IF NOT EXISTS node TEXT");
  if (status.is_ok())
    status = connection.exec_script(table_definition(locator.engine, "delivery").c_str());
  if (status.is_ok())
    status = connection.exec_script(table_definition(locator.engine, "fence").c_str());
  if (status.is_ok())
    status = connection.exec_script(
        fmt::format("UPDATE idemlab_schema SET version = {}", kSchemaVersion).c_str());
  if (status.is_ok()) return Status::ok();
  return Status::ledger(fmt::format("{}: upgrading schema version {} to {} failed: {}",
                                    locator.shown, version, kSchemaVersion, status.message()));
}

}  // namespace

Status create_server_ledger(const Locator& locator, const std::vector<OpeningBalance>& accounts,
                            bool force) {
  ASSIGN_OR_RETURN(Connection connection, open_connection(locator, {}));
  std::vector<std::string> tables;
  RETURN_IF_ERROR(list_tables(connection, &tables));
  if (!tables.empty() && !force)
    return Status::ledger(fmt::format(
        "{} already holds {} table{} ({}{}); pass --force to replace idemlab's own tables",
        locator.shown, tables.size(), tables.size() == 1 ? "" : "s", tables.front(),
        tables.size() > 1 ? ", ..." : ""));
  if (force) RETURN_IF_ERROR(connection.exec_script(kDropOwnTables));
  Status status = create_server_schema(connection, accounts);
  if (!status.is_ok()) {
    // MariaDB commits each CREATE TABLE at once: take back what was made.
    connection.rollback_if_open();
    (void)connection.exec_script(kDropOwnTables);
  }
  return status;
}

Result<Connection> open_server_ledger(const Locator& locator, const ConnectionOptions& options) {
  ASSIGN_OR_RETURN(Connection connection, open_connection(locator, options));
  int64_t application_id = -1, version = -1;
  StepResult found = connection.query("SELECT application_id, version FROM idemlab_schema", {},
                                      [&](const Row& row) {
                                        application_id = as_int(row[0]);
                                        version = as_int(row[1]);
                                      });
  if (found.code == StepCode::kConnectionLost) return step_error(connection, found);
  if (!found.ok() || application_id != kApplicationId)
    return Status::ledger(fmt::format(
        "{} is not an idemlab ledger (no idemlab_schema table); create one with: idemlab init "
        "--db URL",
        locator.shown));
  if (version > kSchemaVersion)
    return Status::ledger(
        fmt::format("{} has schema version {}, newer than this idemlab understands ({})",
                    locator.shown, version, kSchemaVersion));
  if (version < kFirstServerVersion)
    return Status::ledger(fmt::format(
        "{} has schema version {}, older than any ledger idemlab made on a server ({}): "
        "re-create it with idemlab init --force",
        locator.shown, version, kFirstServerVersion));
  if (version < kSchemaVersion) {
    RETURN_IF_ERROR(upgrade_server_ledger(locator, connection, version));
  }
  return connection;
}

}  // namespace idemlab
