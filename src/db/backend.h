// Backend: one connection to the database a ledger lives in, whatever the engine. Connection
// (connection.h) is the handle everyone holds; it owns one Backend, chosen from --db by
// open_connection(). Each engine differs only through its SQL (its statement table) and its
// answers (its error map), both behind this interface.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "db/statements.h"
#include "db/value.h"

namespace idemlab {

enum class StepCode {
  kOk,              // ran to completion
  kConstraint,      // a UNIQUE, CHECK or NOT NULL constraint refused the write (23505, 1062)
  kBusy,            // the lock is held by another connection (after the busy timeout, if any)
  kBusySnapshot,    // a read transaction cannot become a write one: another writer got in first
  kDamaged,         // SQLite found the file corrupt (SQLITE_CORRUPT)
  kSerialization,   // the server refused to serialise this transaction (40001, 1020); rolled back
  kDeadlock,        // the server chose this transaction as a deadlock's victim (40P01, 1213)
  kLockTimeout,     // a row lock was not granted in time (55P03, 1205)
  kConnectionLost,  // the server went away mid-statement: whether it committed is unknown
  kError,           // anything else
};

struct [[nodiscard]] StepResult {
  StepCode code = StepCode::kOk;
  int changes = 0;         // rows written by the statement
  std::optional<Row> row;  // the first result row, if any
  std::string error;       // the engine's message when code != kOk

  bool ok() const { return code == StepCode::kOk; }
};

using RowSink = std::function<void(const Row&)>;
using TraceSink = std::function<void(std::string_view)>;

// How a server runs transactions; kDefault leaves the server's own default in place.
enum class Isolation { kDefault, kReadCommitted, kRepeatableRead, kSerializable };
std::string_view isolation_name(Isolation isolation);  // "read-committed", ...; "" for default
bool parse_isolation(std::string_view text, Isolation* out);

class Backend {
 public:
  virtual ~Backend() = default;
  // Runs a named statement, in this engine's dialect, to completion; reads the first row.
  virtual StepResult run(Stmt id, const Binds& binds) = 0;
  // The text `run(id)` sends in this engine's dialect (explain --db shows it).
  virtual std::string_view statement_text(Stmt id) const = 0;
  // Runs ad-hoc SQL (schema, audit queries) written in the portable subset every engine reads;
  // `on_row` sees every row. Not for strategy steps.
  virtual StepResult query(std::string_view sql, const Binds& binds, const RowSink* on_row) = 0;
  // Runs statements that take no values and return no rows (a schema, BEGIN, COMMIT).
  virtual Status exec_script(const char* sql) = 0;
  virtual bool in_transaction() const = 0;
  virtual void rollback_if_open() = 0;
  // Every statement sent, with its values, goes to `sink` (explain, bench-cli); empty: off.
  virtual void set_trace(TraceSink sink) = 0;
  // Where the ledger lives, as errors and output show it (a password never).
  virtual const std::string& shown() const = 0;
  // The isolation level transactions run at, as the server reports it ("" on SQLite).
  virtual std::string isolation() const = 0;
  // The query that checks the ledger's own pages, each row a problem or "ok" (SQLite's
  // integrity_check); nullptr where the server keeps its pages to itself.
  virtual const char* integrity_check_sql() const { return nullptr; }
  // Whether any statement found the ledger damaged (SQLite files only).
  virtual bool damaged() const { return false; }

  // Servers, for the explorer: send() starts a named statement and returns at once; receive()
  // waits up to `wait_us` microseconds for its answer and returns nothing while the server has
  // not given it. Only on connections opened with ConnectionOptions::nonblocking.
  virtual Status send(Stmt id, const Binds& binds);
  virtual std::optional<StepResult> receive(int wait_us);
  // The server's number for this session (PostgreSQL's backend pid, MariaDB's connection id).
  virtual int64_t session_id() const { return 0; }
  // Whether session `session` (another connection's session_id()) waits for a lock, asked
  // from this connection. `holders` gets the sessions holding it where the server says so
  // (PostgreSQL's pg_blocking_pids), and stays empty where it does not (MariaDB).
  virtual Status lock_wait(int64_t session, bool* waiting, std::vector<int64_t>* holders);
  // lock_wait() for many sessions, in one question to the server where it can (a simulation
  // step asks about every parked statement): `waiting` and `holders` get one entry each, in
  // the order of `sessions`.
  virtual Status lock_waits(const std::vector<int64_t>& sessions, std::vector<bool>* waiting,
                            std::vector<std::vector<int64_t>>* holders);
  // Cancels the statement session `session` is running, asked from this connection
  // (pg_cancel_backend, KILL QUERY): the simulator's lock wait limit, in virtual time.
  virtual Status cancel_statement(int64_t session);
};

}  // namespace idemlab
