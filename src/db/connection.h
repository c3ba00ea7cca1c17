// Connection: one SQLite connection with the named statements prepared lazily and reused.
// Busy and constraint results come back as values, because strategies branch on them.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "db/statements.h"
#include "db/value.h"

struct sqlite3;
struct sqlite3_stmt;

namespace idemlab {

enum class StepCode {
  kOk,            // ran to completion
  kConstraint,    // a UNIQUE, CHECK or NOT NULL constraint refused the write
  kBusy,          // the lock is held by another connection (after the busy timeout, if any)
  kBusySnapshot,  // a read transaction cannot become a write one: another writer got in first
  kDamaged,       // SQLite found the file corrupt (SQLITE_CORRUPT)
  kError,         // anything else
};

struct [[nodiscard]] StepResult {
  StepCode code = StepCode::kOk;
  int changes = 0;         // rows written by the statement
  std::optional<Row> row;  // the first result row, if any
  std::string error;       // SQLite's message when code != kOk

  bool ok() const { return code == StepCode::kOk; }
};

struct ConnectionOptions {
  bool read_only = false;
  bool create = false;
  int busy_timeout_ms = 5000;
  bool synchronous_off = false;  // simulations: durability is not what is simulated
  bool uri = false;
  // Page cache per connection in KiB (0: SQLite's default, up to 2 MiB). A simulation opens a
  // connection per attempt in flight, so it bounds each one (sim/budget.cpp counts on it).
  int cache_kib = 0;  // read `path` as a SQLite URI (internal databases only; never a user's path)
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

  // Opens `path`, a plain file name unless options.uri. Does not check that it is a ledger:
  // see ledger_file.h.
  static Status open(const std::string& path, const ConnectionOptions& options, Connection* out);

  // Runs a named statement to completion; reads the first row.
  StepResult run(Stmt id, const Binds& binds);

  // Runs ad-hoc SQL (schema, audit queries); `on_row` sees every row. Not for strategy steps.
  StepResult query(std::string_view sql, const Binds& binds,
                   const std::function<void(const Row&)>& on_row = {});
  Status exec_script(const char* sql);
  // Copies this connection's whole database over `to`'s (SQLite's backup API).
  Status copy_database_to(Connection& to);

  bool in_transaction() const;
  // Rolls back an open transaction, if any; used when an attempt dies.
  void rollback_if_open();
  // Every executed statement, with its values expanded, goes to `sink` (explain, bench-cli).
  void set_trace(std::function<void(std::string_view)> sink);
  sqlite3* raw() const { return db_; }
  const std::string& path() const { return path_; }
  // Whether any statement found the file damaged (corrupt, or not a database).
  bool damaged() const { return damaged_; }

 private:
  sqlite3_stmt* prepared(Stmt id);
  StepResult execute(sqlite3_stmt* stmt, const Binds& binds,
                     const std::function<void(const Row&)>* on_row,
                     std::vector<std::pair<const char*, int>>* parameters);
  void close();

  sqlite3* db_ = nullptr;
  std::string path_;
  bool damaged_ = false;
  std::array<sqlite3_stmt*, static_cast<size_t>(Stmt::kCount)> statements_{};
  // Per named statement: bind name -> parameter index (0: unused). Looking names up in SQLite
  // on every bind was a quarter of a simulation's time.
  std::array<std::vector<std::pair<const char*, int>>, static_cast<size_t>(Stmt::kCount)>
      parameters_{};
  std::unique_ptr<std::function<void(std::string_view)>> trace_;
};

// The Status for a failed step: a damaged file is a ledger error naming the file, a lock is
// busy, anything else internal.
Status step_error(const Connection& connection, const StepResult& result);

}  // namespace idemlab
