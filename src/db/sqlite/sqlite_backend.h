// SqliteBackend: a ledger in a SQLite file (or a simulation's in-memory database), the
// embedded default. The named statements are prepared lazily and reused.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "db/backend.h"
#include "db/connection.h"
#include "db/sqlite/open_files.h"
#include "db/sqlite/writer_turns.h"

struct sqlite3;
struct sqlite3_stmt;

namespace idemlab {

// Opens the SQLite database at `path`, a plain file name unless options.uri. Does not check
// that it is a ledger: see db/schema/ledger_file.h.
class UndoLog;

Result<Connection> open_sqlite(const std::string& path, const ConnectionOptions& options);
// The engine table's opener (engine.h): the file at locator.path.
Result<std::unique_ptr<Backend>> open_sqlite_backend(const Locator& locator,
                                                     const ConnectionOptions& options);
// Copies the database `from` holds over `to`'s (SQLite's backup API); both must be SQLite's.
Status copy_sqlite_database(Connection& from, Connection& to);

class SqliteBackend final : public Backend {
 public:
  ~SqliteBackend() override;

  // Opens `path`, a plain file name unless options.uri. Does not check that it is a ledger:
  // see ledger_file.h.
  static Result<std::unique_ptr<SqliteBackend>> open(const std::string& path,
                                                     const ConnectionOptions& options);

  Engine engine() const override { return Engine::kSqlite; }
  StepResult run(Stmt id, const Binds& binds) override;
  std::string_view statement_text(Stmt id) const override { return statement_sql(id); }
  StepResult query(std::string_view sql, const Binds& binds, const RowSink* on_row) override;
  Status exec_script(const char* sql) override;
  StepResult apply(Stmt id, const Binds& binds) override;
  int64_t last_insert_id() const override;
  bool in_transaction() const override;
  void rollback_if_open() override;
  void set_trace(TraceSink sink) override;
  const std::string& location() const override { return path_; }
  std::string isolation() const override { return ""; }
  bool damaged() const override { return damaged_; }

  // Copies this database over `to`'s (SQLite's backup API).
  Status copy_database_to(SqliteBackend& to);

 private:
  friend class UndoLog;  // hooks this connection, and runs its undo on it
  SqliteBackend() = default;
  sqlite3_stmt* prepared(Stmt id);
  sqlite3_stmt* prepared_without_rows(Stmt id);
  StepResult run_prepared(Stmt id, sqlite3_stmt* stmt, const Binds& binds);
  StepResult execute(sqlite3_stmt* stmt, const Binds& binds, const RowSink* on_row,
                     std::vector<std::pair<const char*, int>>* parameters);

  sqlite3* db_ = nullptr;
  std::string path_;
  std::optional<FileInUse> file_;  // closed after db_: noted in open_files.h while it lives
  bool damaged_ = false;
  std::array<sqlite3_stmt*, static_cast<size_t>(Stmt::kCount)> statements_{};
  // apply()'s: the writes with a RETURNING clause, without it (the others are statements_').
  std::array<sqlite3_stmt*, static_cast<size_t>(Stmt::kCount)> without_rows_{};
  // query()'s statements by their text, the first kQueriesKept of them: serve's resources read
  // the same few queries thousands of times a second, and preparing each anew was the most
  // of SQLite's share of a GET (perf: sqlite3Parser on top).
  static constexpr size_t kQueriesKept = 32;
  std::vector<std::pair<std::string, sqlite3_stmt*>> queries_;
  // Per named statement: bind name -> parameter index (0: unused). Looking names up in SQLite
  // on every bind was a quarter of a simulation's time.
  std::array<std::vector<std::pair<const char*, int>>, static_cast<size_t>(Stmt::kCount)>
      parameters_{};
  std::unique_ptr<TraceSink> trace_;
  std::unique_ptr<WriterTurn> writer_turn_;  // ConnectionOptions::wait_in_process
  UndoLog* undo_ = nullptr;                  // set: an undo log watches this connection

  // Around every statement, for writer_turn_.
  void before_statement() {
    if (writer_turn_) writer_turn_->before_statement();
  }
  void after_statement() {
    if (writer_turn_ && autocommit(db_)) WriterTurn::transaction_ended();
  }
  static bool autocommit(sqlite3* db);
};

}  // namespace idemlab
