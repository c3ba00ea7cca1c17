// Backend: one connection to the database a ledger lives in, whatever the engine. Connection
// (connection.h) is the handle everyone holds; it owns one Backend, opened by the engine's
// traits (engine.h) from where --db says the ledger lives. Each engine differs only through its
// SQL (its statement table) and its answers (its error map), both behind this interface.
//
// Two smaller interfaces stand beside it: NonBlocking, the calls a server's backend offers to a
// driver that must not block on a statement waiting for a lock (the simulator and explore on a
// server), and GuardStore (guard_store.h), a store that keeps only tokens and locks (Redis).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/limits.h"
#include "core/status.h"
#include "db/engine.h"
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
  kReadOnly,        // a read-only server refused the write (25006, Redis's READONLY, 1290): a
                    // standby, or a primary demoted by a failover; nothing written by it
  kNotReady,        // a cluster node that is not serving now (Galera's 1047): nothing written
  kUnreplicated,    // a guard store's write stands on its primary, but fewer replicas than the
                    // URL asks acknowledged it in time (Redis WAIT): a failover may forget it
  kDiskFull,        // the disk is full (SQLITE_FULL, ENOSPC, EDQUOT): the write did not happen
  kIoError,         // the disk failed a read, a write or a sync (SQLITE_IOERR)
  kError,           // anything else
};

struct [[nodiscard]] StepResult {
  StepCode code = StepCode::kOk;
  int changes = 0;         // rows written by the statement
  std::optional<Row> row;  // the first result row, if any
  std::string error;       // the engine's message when code != kOk

  bool ok() const { return code == StepCode::kOk; }
  // Whether the link this ran on is done for: the server went away, or answered as one that
  // cannot take the work (read-only, not ready). Such a connection is never used again: the
  // next one is resolved through the topology (db/topology.h), and may reach the new primary.
  bool link_lost() const {
    return code == StepCode::kConnectionLost || code == StepCode::kReadOnly ||
           code == StepCode::kNotReady;
  }
};

using RowSink = std::function<void(const Row&)>;
using TraceSink = std::function<void(std::string_view)>;

struct ConnectionOptions {
  bool read_only = false;
  bool create = false;
  int busy_timeout_ms = defaults::kBusyTimeoutMs;  // SQLite's busy timeout; a server's lock wait
  bool synchronous_off = false;  // simulations: durability is not what is simulated
  bool uri = false;  // read `path` as a SQLite URI (internal databases only; never a user's path)
  // A file nobody can change (on a read-only filesystem): read without locks or a -shm file,
  // which such a filesystem cannot hold (SQLite's immutable=1).
  bool immutable = false;
  // SQLite: a write that finds the lock taken by another connection of this process waits
  // until one of them ends its transaction (a condition variable), not on SQLite's timer,
  // which sleeps up to 100 ms a try: the one writer is taken in turn (serve's pool).
  bool wait_in_process = false;
  // Page cache per connection in KiB (0: SQLite's default, up to 2 MiB). A simulation opens a
  // connection per attempt in flight, so it bounds each one (sim/shared/budget.cpp counts on it).
  int cache_kib = 0;
  Isolation isolation = Isolation::kDefault;  // servers only
  bool nonblocking = false;  // servers: NonBlocking will be used (the simulator, explore)
  // A Galera node: every read waits until the node has applied what the cluster committed
  // before it (wsrep_sync_wait=1), unless the URL sets wsrep_sync_wait itself. For the
  // commands that only read (audit, history, query, ...): they see every commit made before.
  bool causal_reads = false;
};

// What runs named statements: a ledger's connection, or a store of guards (guard_store.h). A
// strategy's session sends each step to one of them.
class StatementRunner {
 public:
  // Runs a named statement, in this engine's dialect, to completion; reads the first row.
  virtual StepResult run(Stmt id, const Binds& binds) = 0;
  // The text `run(id)` sends here (explain and timelines show it).
  virtual std::string_view statement_text(Stmt id) const = 0;
  // Every statement sent, with its values, goes to `sink` (explain, bench-cli); empty: off.
  virtual void set_trace(TraceSink sink) = 0;
  // Where it lives, as errors and output show it: a file's path, or a URL without password.
  virtual const std::string& location() const = 0;
  // Whether a statement found its link lost (StepResult::link_lost): it must not be used again.
  virtual bool link_lost() const { return false; }
  // Between statements: whether the server has since spoken or closed the link unasked, as one
  // that goes away does (db/server/socket_wait.h). Such a link is not to be used.
  virtual bool hung_up() const { return false; }

 protected:
  ~StatementRunner() = default;
};

class NonBlocking;

class Backend : public StatementRunner {
 public:
  virtual ~Backend() = default;
  virtual Engine engine() const = 0;
  // Runs ad-hoc SQL (schema, audit queries) written in the portable subset every engine reads;
  // `on_row` sees every row. Not for strategy steps.
  virtual StepResult query(std::string_view sql, const Binds& binds, const RowSink* on_row) = 0;
  // Runs statements that take no values and return no rows (a schema, BEGIN, COMMIT).
  virtual Status exec_script(const char* sql) = 0;
  // Runs a named write the way a replica applies it: as run(), but with no row returned
  // (SQLite builds a RETURNING clause's rows in a temporary table a replica has no use for).
  virtual StepResult apply(Stmt id, const Binds& binds) { return run(id, binds); }
  // The id the engine gave the row this connection's last INSERT made (SQLite's
  // sqlite3_last_insert_rowid); 0 where only a RETURNING clause says it. With apply(), how a
  // replica learns the id of a row it inserted.
  virtual int64_t last_insert_id() const { return 0; }
  virtual bool in_transaction() const = 0;
  virtual void rollback_if_open() = 0;
  // The isolation level transactions run at, as the server reports it ("" on SQLite).
  virtual std::string isolation() const = 0;
  // The node of a cluster this connection reached, as the server names itself; "" elsewhere.
  virtual std::string node() const { return ""; }
  // Whether any statement found the ledger damaged: only a file can be.
  virtual bool damaged() const { return false; }
  // The non-blocking calls, where this backend has them (servers); nullptr otherwise.
  virtual NonBlocking* nonblocking() { return nullptr; }
};

// A server's statements without blocking, and what the server says of its lock waits: how the
// simulator and explore park a statement that waits for another attempt's row lock, on the
// server's own word, and end it at their wait limit in virtual time.
class NonBlocking {
 public:
  // Starts a named statement and returns at once (on a connection opened with
  // ConnectionOptions::nonblocking); receive() waits up to `wait_us` microseconds for its
  // answer and returns nothing while the server has not given it.
  virtual Status send(Stmt id, const Binds& binds) = 0;
  virtual std::optional<StepResult> receive(int wait_us) = 0;
  // The server's number for this session (PostgreSQL's backend pid, MariaDB's connection id).
  virtual int64_t session_id() const = 0;
  // Which of `sessions` (other connections' session_id()) wait for a lock, asked from this
  // connection in one question: `waiting` and `holders` get an entry each, in their order.
  // `holders` names the sessions holding the lock where the server says so
  // (EngineTraits::names_lock_holders), and stays empty where it does not.
  virtual Status lock_waits(const std::vector<int64_t>& sessions, std::vector<bool>* waiting,
                            std::vector<std::vector<int64_t>>* holders) = 0;
  // Cancels the statement session `session` is running, asked from this connection
  // (pg_cancel_backend, KILL QUERY): the simulator's lock wait limit, in virtual time.
  virtual Status cancel_statement(int64_t session) = 0;

  // lock_waits() for one session.
  Status lock_wait(int64_t session, bool* waiting, std::vector<int64_t>* holders);

 protected:
  ~NonBlocking() = default;
};

}  // namespace idemlab
