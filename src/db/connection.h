// Connection: the handle every command, strategy and simulation holds to a ledger's database.
// It owns one Backend (backend.h), which open_connection() chooses from where the ledger lives:
// a SQLite file, PostgreSQL or MariaDB. Busy and constraint results come back as values,
// because strategies branch on them.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"
#include "db/backend.h"
#include "db/locator.h"

namespace idemlab {

class SqliteBackend;

struct ConnectionOptions {
  bool read_only = false;
  bool create = false;
  int busy_timeout_ms = 5000;    // SQLite's busy timeout; a server's lock wait limit
  bool synchronous_off = false;  // simulations: durability is not what is simulated
  bool uri = false;  // read `path` as a SQLite URI (internal databases only; never a user's path)
  // Page cache per connection in KiB (0: SQLite's default, up to 2 MiB). A simulation opens a
  // connection per attempt in flight, so it bounds each one (sim/budget.cpp counts on it).
  int cache_kib = 0;
  Isolation isolation = Isolation::kDefault;  // servers only
  bool nonblocking = false;  // servers: send() and receive() will be used (explore)
};

// Process-wide settings for running SQLite (the heap's trim threshold, SQLite's memory
// statistics off); main() and bench_sim call it first, before SQLite initialises.
void configure_sqlite();

class Connection {
 public:
  Connection() = default;
  ~Connection();
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Opens a SQLite database at `path`, a plain file name unless options.uri. Does not check
  // that it is a ledger: see ledger_file.h.
  static Status open(const std::string& path, const ConnectionOptions& options, Connection* out);

  // Runs a named statement to completion; reads the first row.
  StepResult run(Stmt id, const Binds& binds) { return backend_->run(id, binds); }
  // Runs ad-hoc SQL (schema, audit queries); `on_row` sees every row. Not for strategy steps.
  StepResult query(std::string_view sql, const Binds& binds, const RowSink& on_row = {}) {
    return backend_->query(sql, binds, on_row ? &on_row : nullptr);
  }
  Status exec_script(const char* sql) { return backend_->exec_script(sql); }
  // The text a named statement runs as here, in this engine's dialect.
  std::string_view statement_text(Stmt id) const { return backend_->statement_text(id); }
  // Copies this SQLite database over `to`'s (SQLite's backup API); both must be SQLite.
  Status copy_database_to(Connection& to);

  bool in_transaction() const { return backend_ && backend_->in_transaction(); }
  // Rolls back an open transaction, if any; used when an attempt dies.
  void rollback_if_open() {
    if (backend_) backend_->rollback_if_open();
  }
  // Every executed statement, with its values expanded, goes to `sink` (explain, bench-cli).
  void set_trace(TraceSink sink) { backend_->set_trace(std::move(sink)); }
  // Where the ledger lives, as messages show it: a file's path, or a URL without its password.
  const std::string& path() const;
  // The isolation level a server runs transactions at ("" on SQLite).
  std::string isolation() const { return backend_ ? backend_->isolation() : std::string(); }
  // The query that checks the ledger's pages, or nullptr on a server (backend.h).
  const char* integrity_check_sql() const { return backend_->integrity_check_sql(); }
  // Whether any statement found the file damaged (corrupt, or not a database).
  bool damaged() const { return backend_ && backend_->damaged(); }
  // A server's statements without blocking, for the explorer (backend.h).
  Status send(Stmt id, const Binds& binds) { return backend_->send(id, binds); }
  std::optional<StepResult> receive(int wait_us) { return backend_->receive(wait_us); }
  int64_t session_id() const { return backend_->session_id(); }
  Status lock_wait(int64_t session, bool* waiting, std::vector<int64_t>* holders) {
    return backend_->lock_wait(session, waiting, holders);
  }
  Status lock_waits(const std::vector<int64_t>& sessions, std::vector<bool>* waiting,
                    std::vector<std::vector<int64_t>>* holders) {
    return backend_->lock_waits(sessions, waiting, holders);
  }
  Status cancel_statement(int64_t session) { return backend_->cancel_statement(session); }

 private:
  friend Status open_connection(const Locator&, const ConnectionOptions&, Connection*);
  friend Status open_redis_store(const struct RedisLocator&, Connection*);
  friend Status open_redis_scratch(const struct RedisLocator&, std::string, Connection*);
  friend Status clear_redis_scratch(Connection&);
  std::unique_ptr<Backend> backend_;
  SqliteBackend* sqlite_ = nullptr;  // backend_, when it is SQLite
};

// Opens a connection to wherever `locator` says the ledger lives. A server that cannot be
// reached, or refuses the credentials, is a ledger error naming the URL without its password.
Status open_connection(const Locator& locator, const ConnectionOptions& options, Connection* out);

// The Status for a failed step: a damaged file is a ledger error naming the file, a lock is
// busy, anything else internal.
Status step_error(const Connection& connection, const StepResult& result);

}  // namespace idemlab
