// The engine table: what each engine is and can do, in one place.
#include "db/engine.h"

#include <array>

#include "db/mariadb/mariadb_backend.h"
#include "db/postgres/postgres_backend.h"
#include "db/sqlite/sqlite_backend.h"

namespace idemlab {

extern const char* const kSchemaSql;          // schema.sql, embedded by CMake
extern const char* const kPostgresSchemaSql;  // schema.postgresql.sql
extern const char* const kMariadbSchemaSql;   // schema.mariadb.sql

namespace {

constexpr std::array<std::pair<Isolation, std::string_view>, 3> kIsolationNames{{
    {Isolation::kReadCommitted, "read-committed"},
    {Isolation::kRepeatableRead, "repeatable-read"},
    {Isolation::kSerializable, "serializable"},
}};

// Every table but the accounts emptied, each account given its opening balance back, and the
// row numbers restarted, so a timeline's flow row is row 1 whichever interleaving it shows.
// - PostgreSQL: DELETE and setval. It takes no gap locks, and a row whose deletion committed
//   neither blocks nor conflicts with a new one; TRUNCATE makes new files for seven tables.
//   Measured on tmpfs (psql \timing, a few rows): TRUNCATE 1.8 to 2.9 ms, the DELETEs 0.1 to
//   0.4 ms; explore direct-insert (420 interleavings) went from 4.0 s to 3.0 s.
// - MariaDB: TRUNCATE, not DELETE. A deleted row stays in InnoDB's indexes until purge removes
//   it, in its own time, and a SELECT ... FOR UPDATE gap-locks around it, so a replayed
//   schedule waited in one run and not in another.
constexpr const char* kPostgresResetSql =
    "DELETE FROM attempt; DELETE FROM fence; DELETE FROM \"lock\"; DELETE FROM token; "
    "DELETE FROM dedup; DELETE FROM journal; DELETE FROM transfer_flow; DELETE FROM account_limit; "
    "UPDATE account SET balance_minor = opening_balance_minor; "
    "SELECT setval(pg_get_serial_sequence('attempt', 'id'), 1, false), "
    "setval(pg_get_serial_sequence('journal', 'id'), 1, false), "
    "setval(pg_get_serial_sequence('transfer_flow', 'id'), 1, false)";
constexpr const char* kMariadbResetSql =
    "TRUNCATE TABLE attempt; TRUNCATE TABLE fence; TRUNCATE TABLE \"lock\"; "
    "TRUNCATE TABLE token; TRUNCATE TABLE dedup; TRUNCATE TABLE journal; TRUNCATE TABLE "
    "transfer_flow; TRUNCATE TABLE account_limit; "
    "UPDATE account SET balance_minor = opening_balance_minor";

// PostgreSQL keeps superuser_reserved_connections of max_connections for superusers; a role's
// CONNECTION LIMIT is -1 when it has none.
constexpr const char* kPostgresRoomSql =
    "SELECT current_setting('max_connections')::int - "
    "current_setting('superuser_reserved_connections')::int, "
    "(SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'), "
    "(SELECT rolconnlimit FROM pg_roles WHERE rolname = current_user), "
    "(SELECT count(*) FROM pg_stat_activity WHERE usename = current_user)";
// MariaDB's max_user_connections reads the account's own limit when it has one (0: none).
constexpr const char* kMariadbRoomSql =
    "SELECT @@max_connections, (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
    "WHERE VARIABLE_NAME = 'THREADS_CONNECTED'), @@max_user_connections, "
    "(SELECT count(*) FROM information_schema.PROCESSLIST "
    "WHERE USER = SUBSTRING_INDEX(CURRENT_USER(), '@', 1))";

// A standby's WAL replay, as read-your-writes asks it (db/replication.h).
constexpr const char* kPostgresPositionSql = "SELECT CAST(pg_current_wal_lsn() AS TEXT)";
constexpr const char* kPostgresReplayedSql =
    "SELECT COALESCE(CAST(pg_last_wal_replay_lsn() AS TEXT), ''), "
    "CASE WHEN pg_last_wal_replay_lsn() >= CAST(:position AS pg_lsn) THEN 1 ELSE 0 END";
// pg_control_system() is readable by any role: the system identifier initdb drew, which a
// standby made by pg_basebackup shares with its primary.
constexpr const char* kPostgresIdentitySql =
    "SELECT CASE WHEN pg_is_in_recovery() THEN 1 ELSE 0 END, CAST(system_identifier AS TEXT), "
    "current_database() FROM pg_control_system()";

constexpr std::array<EngineTraits, 3> kEngines{{
    {
        .engine = Engine::kSqlite,
        .name = "sqlite",
        .server = false,
        .default_isolation = "",
        .begin_takes_write_lock = true,
        .names_lock_holders = false,
        .finds_deadlocks_at_once = false,
        .page_check_sql = "PRAGMA integrity_check",
        .text_equal_as_bytes = true,
        .schema_sql = &kSchemaSql,
        .short_text_type = "TEXT",
        .scratch_create_sql = nullptr,
        .scratch_drop_sql = nullptr,
        .scratch_reset_sql = nullptr,
        .scratch_is_schema = false,
        .connection_room_sql = nullptr,
        .user_limit_name = "",
        .commit_position_sql = nullptr,
        .replayed_past_sql = nullptr,
        .standby_identity_sql = nullptr,
        .statement_sql = statement_sql,
        .open = open_sqlite_backend,
    },
    {
        .engine = Engine::kPostgres,
        .name = "postgresql",
        .server = true,
        .default_isolation = "read-committed",
        .begin_takes_write_lock = false,
        .names_lock_holders = true,
        .finds_deadlocks_at_once = false,
        .page_check_sql = nullptr,
        .text_equal_as_bytes = true,
        .schema_sql = &kPostgresSchemaSql,
        .short_text_type = "TEXT",
        .scratch_create_sql = "CREATE SCHEMA \"{}\"",
        .scratch_drop_sql = "DROP SCHEMA IF EXISTS \"{}\" CASCADE",
        .scratch_reset_sql = kPostgresResetSql,
        .scratch_is_schema = true,
        .connection_room_sql = kPostgresRoomSql,
        .user_limit_name = "the role's CONNECTION LIMIT",
        .commit_position_sql = kPostgresPositionSql,
        .replayed_past_sql = kPostgresReplayedSql,
        .standby_identity_sql = kPostgresIdentitySql,
        .statement_sql = postgres_statement_sql,
        .open = open_postgres,
    },
    {
        .engine = Engine::kMariadb,
        .name = "mariadb",
        .server = true,
        .default_isolation = "repeatable-read",
        .begin_takes_write_lock = false,
        .names_lock_holders = false,
        .finds_deadlocks_at_once = true,
        .page_check_sql = nullptr,
        .text_equal_as_bytes = false,
        .schema_sql = &kMariadbSchemaSql,
        .short_text_type = "VARCHAR(32)",
        .scratch_create_sql = "CREATE DATABASE `{}`",
        .scratch_drop_sql = "DROP DATABASE IF EXISTS `{}`",
        .scratch_reset_sql = kMariadbResetSql,
        .scratch_is_schema = false,
        .connection_room_sql = kMariadbRoomSql,
        .user_limit_name = "the account's max_user_connections",
        .commit_position_sql = nullptr,
        .replayed_past_sql = nullptr,
        .standby_identity_sql = nullptr,
        .statement_sql = mariadb_statement_sql,
        .open = open_mariadb,
    },
}};

constexpr bool table_is_in_order() {
  for (size_t i = 0; i < kEngines.size(); ++i)
    if (static_cast<size_t>(kEngines[i].engine) != i) return false;
  return true;
}

}  // namespace

const EngineTraits& engine_traits(Engine engine) {
  static_assert(table_is_in_order(), "kEngines must list every Engine in enum order");
  return kEngines[static_cast<size_t>(engine)];
}

std::string_view isolation_name(Isolation isolation) {
  for (const auto& [level, name] : kIsolationNames)
    if (level == isolation) return name;
  return "";
}

bool parse_isolation(std::string_view text, Isolation* out) {
  for (const auto& [level, name] : kIsolationNames)
    if (name == text) {
      *out = level;
      return true;
    }
  return false;
}

}  // namespace idemlab
