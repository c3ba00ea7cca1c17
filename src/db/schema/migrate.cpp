// Upgrades, one version at a time: 1 -> 2 (requests gained a source), 2 -> 3 (account limits),
// 3 -> 4 (an attempt's isolation level), 4 -> 5 (a consumer's deliveries), 5 -> 6 (the
// fences lock-table --fence records), 6 -> 7 (the Galera node that served an attempt) and 7 -> 8
// (a flow row's status checked as a range). New and rebuilt tables are created from the
// embedded schema itself (read back from a scratch in-memory database), so
// schema.sql stays the only definition of every table.
#include "db/schema/migrate.h"

#include <fmt/format.h>

#include <array>
#include <string>

#include "db/schema/ledger_file.h"
#include "db/sqlite/sqlite_backend.h"

namespace idemlab {

namespace {

// The tables whose shape changed in version 2; each is renamed to <name>_v1, recreated, copied.
constexpr std::array<const char*, 5> kRebuilt{"transfer_flow", "journal", "dedup", "token",
                                              "attempt"};

// What each row of a version-1 table becomes. A version-1 --pitfall was each strategy's one
// pitfall; it now has a name.
constexpr const char* kCopyRows = R"sql(
INSERT INTO transfer_flow (id, source, biz_seq, from_account, to_account, amount_minor, status,
  version, unique_key, strategy, outcome, reason, created_at_ms, updated_at_ms)
  SELECT id, 'api', biz_seq, from_account, to_account, amount_minor, status, version, unique_key,
  strategy, outcome, reason, created_at_ms, updated_at_ms FROM transfer_flow_v1;
INSERT INTO journal (id, source, biz_seq, account, side, amount_minor, created_at_ms)
  SELECT id, 'api', biz_seq, account, side, amount_minor, created_at_ms FROM journal_v1;
INSERT INTO dedup (dedup_key, source, biz_seq, strategy, payload, created_at_ms)
  SELECT 'api:' || biz_seq, 'api', biz_seq, source, payload, created_at_ms FROM dedup_v1;
INSERT INTO token (token, issued_at_ms, expires_at_ms, used_at_ms, used_by_biz_seq,
  used_by_source)
  SELECT token, issued_at_ms, expires_at_ms, used_at_ms, used_by_biz_seq,
  CASE WHEN used_by_biz_seq IS NULL THEN NULL ELSE 'api' END FROM token_v1;
INSERT INTO attempt (id, source, biz_seq, strategy, pitfall, outcome, reason, replayed, fault,
  at_ms)
  SELECT id, 'api', biz_seq, strategy, CASE WHEN pitfall = 0 THEN NULL ELSE CASE strategy
    WHEN 'select-insert' THEN 'no-unique-index' WHEN 'direct-insert' THEN 'upsert-carries-on'
    WHEN 'state-machine' THEN 'no-precondition' WHEN 'dedup-table' THEN 'separate-transactions'
    WHEN 'token' THEN 'check-then-delete' WHEN 'select-for-update' THEN 'check-outside-lock'
    WHEN 'optimistic-lock' THEN 'aba' WHEN 'lock-table' THEN 'no-owner-check' END END,
  CASE outcome WHEN 'replayed' THEN 'applied' ELSE outcome END, reason, replayed, fault, at_ms
  FROM attempt_v1;
UPDATE lock SET name = 'transfer:api:' || substr(name, 10) WHERE name LIKE 'transfer:%';
)sql";

// The CREATE statements of `tables` and their indexes, from the embedded schema.
template <size_t N>
Status new_definitions(const std::array<const char*, N>& tables, std::string* out) {
  ConnectionOptions options;
  options.create = true;
  ASSIGN_OR_RETURN(Connection scratch, open_sqlite(":memory:", options));
  RETURN_IF_ERROR(scratch.exec_script(kSchemaSql));
  std::string sql;
  for (const char* table : tables) {
    StepResult found = scratch.query(
        "SELECT sql FROM sqlite_schema WHERE tbl_name = :t AND sql IS NOT NULL "
        "ORDER BY type DESC, name",
        {{":t", std::string(table)}}, [&](const Row& row) { sql += as_text(row[0]) + ";\n"; });
    if (!found.ok()) return step_error(scratch, found);
  }
  *out = std::move(sql);
  return Status::ok();
}

// Renames the old tables out of the way and drops their indexes (whose names v2 reuses).
Status set_aside_v1(Connection& connection) {
  std::string sql;
  StepResult found = connection.query(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN "
      "('transfer_flow', 'journal', 'dedup', 'token', 'attempt')",
      {}, [&](const Row& row) { sql += fmt::format("DROP INDEX \"{}\";\n", as_text(row[0])); });
  if (!found.ok()) return step_error(connection, found);
  for (const char* table : kRebuilt)
    sql += fmt::format("ALTER TABLE {0} RENAME TO {0}_v1;\n", table);
  return connection.exec_script(sql.c_str());
}

Status upgrade_1_to_2(Connection& connection) {
  std::string definitions;
  RETURN_IF_ERROR(new_definitions(kRebuilt, &definitions));
  RETURN_IF_ERROR(set_aside_v1(connection));
  RETURN_IF_ERROR(connection.exec_script(definitions.c_str()));
  RETURN_IF_ERROR(connection.exec_script(kCopyRows));
  std::string drop;
  for (const char* table : kRebuilt) drop += fmt::format("DROP TABLE {}_v1;\n", table);
  drop += "PRAGMA user_version = 2;\n";
  return connection.exec_script(drop.c_str());
}

// An upgrade that only adds a table: its definition from the embedded schema, then `version`.
Status add_table(Connection& connection, const char* table, int version) {
  std::string definitions;
  const std::array<const char*, 1> added{table};
  RETURN_IF_ERROR(new_definitions(added, &definitions));
  definitions += fmt::format("PRAGMA user_version = {};\n", version);
  return connection.exec_script(definitions.c_str());
}

Status upgrade_2_to_3(Connection& connection) {
  return add_table(connection, "account_limit", 3);
}

// `table` rebuilt from the embedded schema, so that an upgraded file's schema is the fresh one:
// its indexes dropped (the new definitions reuse their names), the `kept` columns copied, the
// new ones left NULL.
Status rebuild_table(Connection& connection, const char* table, std::string_view kept,
                     int version) {
  std::string sql;
  StepResult found = connection.query(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = :t",
      {{":t", std::string(table)}},
      [&](const Row& row) { sql += fmt::format("DROP INDEX \"{}\";\n", as_text(row[0])); });
  if (!found.ok()) return step_error(connection, found);
  std::string definitions;
  const std::array<const char*, 1> rebuilt{table};
  RETURN_IF_ERROR(new_definitions(rebuilt, &definitions));
  sql += fmt::format(
      "ALTER TABLE {0} RENAME TO {0}_old;\n{1}INSERT INTO {0} ({2}) SELECT {2} FROM {0}_old;\n"
      "DROP TABLE {0}_old;\nPRAGMA user_version = {3};\n",
      table, definitions, kept, version);
  return connection.exec_script(sql.c_str());
}

constexpr std::string_view kAttemptV3Columns =
    "id, source, biz_seq, strategy, pitfall, outcome, reason, replayed, fault, at_ms";

// Version 4: an attempt records the isolation level it ran at (NULL on SQLite) and where its
// tokens or locks lived (NULL: in the ledger).
Status upgrade_3_to_4(Connection& connection) {
  return rebuild_table(connection, "attempt", kAttemptV3Columns, 4);
}

// Version 5: a consumer's deliveries (the delivery table), for the audit to name what a queue did.
Status upgrade_4_to_5(Connection& connection) {
  return add_table(connection, "delivery", 5);
}

// Version 6: the highest fencing token seen for each lock (lock-table --fence).
Status upgrade_5_to_6(Connection& connection) {
  return add_table(connection, "fence", 6);
}

// Version 7: an attempt names the Galera node that served it (NULL anywhere else).
Status upgrade_6_to_7(Connection& connection) {
  return rebuild_table(connection, "attempt",
                       fmt::format("{}, isolation, guard_store", kAttemptV3Columns), 7);
}

// Version 8: a flow row's status is checked as a range. SQLite checked `status IN (0, 1, 2, 3)`
// by building a temporary index of the list for every row written, a tenth of a simulated
// transfer's time; the rows are the same.
Status upgrade_7_to_8(Connection& connection) {
  return rebuild_table(connection, "transfer_flow",
                       "id, source, biz_seq, from_account, to_account, amount_minor, status, "
                       "version, unique_key, strategy, outcome, reason, created_at_ms, "
                       "updated_at_ms",
                       8);
}

Status upgrade(Connection& connection, int64_t version) {
  Status status = Status::ok();
  if (version < 2) status = upgrade_1_to_2(connection);
  if (status.is_ok() && version < 3) status = upgrade_2_to_3(connection);
  if (status.is_ok() && version < 4) status = upgrade_3_to_4(connection);
  if (status.is_ok() && version < 5) status = upgrade_4_to_5(connection);
  if (status.is_ok() && version < 6) status = upgrade_5_to_6(connection);
  if (status.is_ok() && version < 7) status = upgrade_6_to_7(connection);
  if (status.is_ok() && version < 8) status = upgrade_7_to_8(connection);
  return status;
}

// The ledger's schema version (PRAGMA user_version).
Status read_version(Connection& connection, int64_t* version) {
  StepResult result = connection.query("PRAGMA user_version", {},
                                       [&](const Row& row) { *version = as_int(row[0]); });
  return result.ok() ? Status::ok() : step_error(connection, result);
}

}  // namespace

Status migrate_ledger(Connection& connection, int64_t version) {
  if (version >= kSchemaVersion) return Status::ok();
  RETURN_IF_ERROR(connection.exec_script("BEGIN IMMEDIATE"));
  // Read again under the write lock: another process may have upgraded the file since.
  Status status = read_version(connection, &version);
  if (status.is_ok()) status = upgrade(connection, version);
  if (status.is_ok()) status = connection.exec_script("COMMIT");
  connection.rollback_if_open();
  if (!status.is_ok())
    return Status::ledger(
        fmt::format("{}: upgrading schema version {} to {} failed, nothing "
                    "changed: {}",
                    connection.location(), version, kSchemaVersion, status.message()));
  return Status::ok();
}

}  // namespace idemlab
