// Engines: where a ledger can live (SQLite, the embedded default; PostgreSQL; MariaDB), and one
// table of what each is and can do. Code above src/db/ asks the table for a capability, never
// an engine for its name: an engine differs only through its traits, its statement table and
// its answers.
#pragma once

#include <memory>
#include <string_view>

#include "core/status.h"
#include "db/statements.h"

namespace idemlab {

enum class Engine { kSqlite, kPostgres, kMariadb };
// The engine a plain file path names, and the one a run without --db uses: a SQLite file.
inline constexpr Engine kEmbeddedEngine = Engine::kSqlite;

// How a server runs transactions; kDefault leaves the server's own default in place.
enum class Isolation { kDefault, kReadCommitted, kRepeatableRead, kSerializable };
std::string_view isolation_name(Isolation isolation);  // "read-committed", ...; "" for default
bool parse_isolation(std::string_view text, Isolation* out);

struct Locator;
struct ConnectionOptions;
class Backend;

struct EngineTraits {
  Engine engine;
  std::string_view name;  // as output and JSON say it: "sqlite", "postgresql", "mariadb"
  // A database server: reached over a connection, with isolation levels, row locks and a limit
  // on connections. A SQLite file has one writer at a time, always serializable.
  bool server;
  // The level a server runs transactions at unless told, as explain says it ("" on SQLite).
  std::string_view default_isolation;
  // BEGIN IMMEDIATE takes the database's write lock (SQLite); a server's BEGIN takes no lock.
  bool begin_takes_write_lock;
  // Lock waits name the sessions holding the lock (PostgreSQL's pg_blocking_pids); MariaDB's
  // status report names none.
  bool names_lock_holders;
  // A deadlock is answered the moment a wait would close the ring (InnoDB), not after a
  // timeout (PostgreSQL's deadlock_timeout).
  bool finds_deadlocks_at_once;
  // The query that checks the ledger's own pages, each row a problem or "ok" (SQLite's
  // integrity_check); nullptr where the server keeps its pages to itself.
  const char* page_check_sql;
  // Two texts are equal exactly when their bytes are: SQLite's BINARY collation and
  // PostgreSQL's deterministic ones, not MariaDB's case-insensitive default. Where they are, a
  // pass that groups rows by their bytes groups them as the engine's own comparisons do.
  bool text_equal_as_bytes;
  // The schema a new ledger is made from (schema.sql and its server dialects, embedded).
  const char* const* schema_sql;
  // The type of a short text column added by a schema upgrade.
  std::string_view short_text_type;
  // A run's scratch ledger on a server (simulate, compare, explore): a schema (PostgreSQL) or
  // a database (MariaDB) of its own, made, emptied and dropped with these; "{}" is its name.
  const char* scratch_create_sql;
  const char* scratch_drop_sql;
  const char* scratch_reset_sql;
  bool scratch_is_schema;  // false: a database, which a connection names instead of the URL's
  // How many connections the server allows and how many are open, for the whole server and for
  // the user connected: one row of four numbers (a user limit of 0 or less: none). nullptr on
  // SQLite, which has no connections to count.
  const char* connection_room_sql;
  // What the user's own limit is called on this server.
  std::string_view user_limit_name;
  // Reading from a standby (--read-db), by the replication the engine has; nullptr where it
  // has no readable standby idemlab can check (db/replication.h):
  //   commit_position_sql   one row: how far the primary's log has reached now, past every
  //                         commit made before it (a text, such as a WAL position)
  //   replayed_past_sql     one row: how far a standby has replayed, and 1 when that is at or
  //                         past :position (0 otherwise)
  //   standby_identity_sql  one row: 1 when the server replays another's log (in recovery),
  //                         the identity its log belongs to, and the database
  const char* commit_position_sql;
  const char* replayed_past_sql;
  const char* standby_identity_sql;
  // Each named statement's text in this engine's dialect.
  std::string_view (*statement_sql)(Stmt id);
  // Opens a connection (a SQLite file at locator.path, or a server).
  Result<std::unique_ptr<Backend>> (*open)(const Locator& locator,
                                           const ConnectionOptions& options);
};

const EngineTraits& engine_traits(Engine engine);
inline std::string_view engine_name(Engine engine) {
  return engine_traits(engine).name;
}
inline bool is_server(Engine engine) {
  return engine_traits(engine).server;
}

// The text `id` runs as on `engine`, without connecting: explain --db shows it.
inline std::string_view engine_statement_sql(Engine engine, Stmt id) {
  return engine_traits(engine).statement_sql(id);
}

}  // namespace idemlab
