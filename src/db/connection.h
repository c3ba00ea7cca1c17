// Connection: the handle every command, strategy and simulation holds to a ledger's database.
// It owns one Backend (backend.h), which open_connection() opens from where the ledger lives:
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

// Process-wide settings for running SQLite (the heap's trim threshold, SQLite's memory
// statistics off); main() and bench_sim call it first, before SQLite initialises.
void configure_sqlite();

// Whether a Status says the link it came over is done for (StepResult::link_lost's reasons).
bool is_link_loss(const Status& status);

class Connection final : public StatementRunner {
 public:
  Connection() = default;
  explicit Connection(std::unique_ptr<Backend> backend) : backend_(std::move(backend)) {}
  Connection(Connection&&) noexcept = default;
  Connection& operator=(Connection&&) noexcept = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  bool is_open() const { return backend_ != nullptr; }
  Engine engine() const { return backend_->engine(); }

  // Runs a named statement to completion; reads the first row.
  StepResult run(Stmt id, const Binds& binds) override { return noted(backend_->run(id, binds)); }
  // Runs ad-hoc SQL (schema, audit queries); `on_row` sees every row. Not for strategy steps.
  StepResult query(std::string_view sql, const Binds& binds, const RowSink& on_row = {}) {
    return noted(backend_->query(sql, binds, on_row ? &on_row : nullptr));
  }
  // Runs a named write as a replica applies it, with no row returned (Backend::apply).
  StepResult apply(Stmt id, const Binds& binds) { return noted(backend_->apply(id, binds)); }
  int64_t last_insert_id() const { return backend_->last_insert_id(); }  // Backend's
  Status exec_script(const char* sql) {
    Status status = backend_->exec_script(sql);
    lost_ |= is_link_loss(status);
    return status;
  }
  // The text a named statement runs as here, in this engine's dialect.
  std::string_view statement_text(Stmt id) const override { return backend_->statement_text(id); }

  bool in_transaction() const { return backend_ && backend_->in_transaction(); }
  // Rolls back an open transaction, if any; used when an attempt dies.
  void rollback_if_open() {
    if (backend_) backend_->rollback_if_open();
  }
  // Every executed statement, with its values expanded, goes to `sink` (explain, bench-cli).
  void set_trace(TraceSink sink) override { backend_->set_trace(std::move(sink)); }
  // Where the ledger lives, as messages show it: a file's path, or a URL without its password.
  const std::string& location() const override;
  // The isolation level a server runs transactions at ("" on SQLite).
  std::string isolation() const { return backend_ ? backend_->isolation() : std::string(); }
  std::string node() const { return backend_ ? backend_->node() : std::string(); }
  bool link_lost() const override { return lost_; }
  bool hung_up() const override { return backend_ && backend_->hung_up(); }
  // Whether any statement found the file damaged (corrupt, or not a database).
  bool damaged() const { return backend_ && backend_->damaged(); }
  // A server's statements without blocking (backend.h); nullptr where the backend has none.
  NonBlocking* nonblocking() { return backend_ ? backend_->nonblocking() : nullptr; }
  // The backend itself, for what one engine alone does (db/sqlite/sqlite_backend.h).
  Backend& backend() { return *backend_; }

 private:
  StepResult noted(StepResult result) {
    lost_ |= result.link_lost();
    return result;
  }

  std::unique_ptr<Backend> backend_;
  bool lost_ = false;  // a statement found the link lost: never used again
};

// Opens a connection to wherever `locator` says the ledger lives, through its engine's traits.
// A server that cannot be reached, or refuses the credentials, is a ledger error naming the URL
// without its password.
Result<Connection> open_connection(const Locator& locator, const ConnectionOptions& options);

// open_connection(), but on a cluster that spreads connections a node that cannot be reached
// gives its turn to the next, each tried once in the cluster's order: a command that starts
// while one node is down starts on another. Anything else: open_connection() as it is.
Result<Connection> open_on_any_member(const Locator& locator, const ConnectionOptions& options);

// How many more connections a server takes now: its limit less those open, for the whole
// server and for the user connected, the tighter of the two (the asking connection counts as
// open).
struct ConnectionRoom {
  int64_t limit = 0;       // what it allows at all
  int64_t open = 0;        // what was open when asked
  std::string limit_name;  // "max_connections", "the role's CONNECTION LIMIT", ...
  int64_t free() const { return limit - open; }
};
Result<ConnectionRoom> connection_room(Connection& connection);

// The Status for a failed step: a damaged file is a ledger error naming the file, a lock is
// busy, anything else internal.
// `runner` is a ledger's connection, or a guard store.
Status step_error(const StatementRunner& runner, const StepResult& result);

}  // namespace idemlab
