// SQLite connection handling: open, prepare lazily, bind by name, step, map result codes.
#include "db/sqlite/sqlite_backend.h"

#include <fmt/format.h>
#include <malloc.h>
#include <sqlite3.h>

#include <cerrno>
#include <cstring>

#include "db/sqlite/open_files.h"
#include "db/sqlite/undo_log.h"

namespace idemlab {

namespace {

StepCode classify(int rc) {
  switch (rc & 0xff) {
    case SQLITE_CONSTRAINT:
      return StepCode::kConstraint;
    case SQLITE_BUSY:
      return rc == SQLITE_BUSY_SNAPSHOT ? StepCode::kBusySnapshot : StepCode::kBusy;
    case SQLITE_LOCKED:
      return StepCode::kBusy;
    case SQLITE_CORRUPT:
      return StepCode::kDamaged;  // (SQLITE_NOTADB is no ledger at all: kError)
    default:
      return StepCode::kError;
  }
}

// SQLite answers some damage with a plain SQLITE_ERROR (a bad schema format number: "unsupported
// file format"; a schema it cannot parse: "malformed database schema"): the text says which.
bool names_damage(std::string_view message) {
  for (std::string_view words : {"unsupported file format", "malformed"})
    if (message.find(words) != std::string_view::npos) return true;
  return false;
}

// A full disk is SQLITE_FULL (a short write, ENOSPC), or an I/O error whose errno says so (a
// quota: EDQUOT; a sync on a filesystem that allocates late: ENOSPC).
StepCode classify_io(int rc, sqlite3* db) {
  if ((rc & 0xff) == SQLITE_FULL) return StepCode::kDiskFull;
  const int error = sqlite3_system_errno(db);
  return error == ENOSPC || error == EDQUOT ? StepCode::kDiskFull : StepCode::kIoError;
}

StepCode classify(int rc, sqlite3* db) {
  if ((rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_IOERR) return classify_io(rc, db);
  const StepCode code = classify(rc);
  return code == StepCode::kError && names_damage(sqlite3_errmsg(db)) ? StepCode::kDamaged : code;
}

Value column_value(sqlite3_stmt* stmt, int column) {
  switch (sqlite3_column_type(stmt, column)) {
    case SQLITE_INTEGER:
      return static_cast<int64_t>(sqlite3_column_int64(stmt, column));
    case SQLITE_NULL:
      return std::monostate{};
    default: {
      auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
      return std::string(text ? text : "", static_cast<size_t>(sqlite3_column_bytes(stmt, column)));
    }
  }
}

int trace_callback(unsigned, void* context, void* statement, void*) {
  auto* sink = static_cast<TraceSink*>(context);
  char* expanded = sqlite3_expanded_sql(static_cast<sqlite3_stmt*>(statement));
  if (expanded) (*sink)(expanded);
  sqlite3_free(expanded);
  return 0;
}

// A URI that opens the file at `path` as immutable, its path percent-encoded where a URI would
// read it otherwise.
std::string immutable_uri(const std::string& path) {
  std::string uri = "file:";
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#' || static_cast<unsigned char>(c) < 0x21)
      uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    else
      uri += c;
  }
  return uri + "?immutable=1";
}

}  // namespace

SqliteBackend::~SqliteBackend() {
  if (undo_) undo_->closing(db_);
  for (sqlite3_stmt* stmt : statements_) sqlite3_finalize(stmt);
  for (sqlite3_stmt* stmt : without_rows_) sqlite3_finalize(stmt);
  for (auto& [sql, stmt] : queries_) sqlite3_finalize(stmt);
  if (db_) sqlite3_close(db_);
}

void configure_sqlite() {
  // glibc gives the top of the heap back to the kernel whenever 128 KiB are free there. A
  // simulation commits thousands of times a second, freeing and reallocating SQLite's buffers,
  // so it paid a brk() and its page faults about 5 times a request (strace -c). Keep 64 MiB.
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  // SQLite's memory statistics take one process-wide mutex on every allocation, which
  // serialised compare's threads (two jobs ran no faster than one, a fifth of their time in
  // futex calls). idemlab never reads them. This only works before SQLite initialises.
  (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

Result<std::unique_ptr<SqliteBackend>> SqliteBackend::open(const std::string& path,
                                                           const ConnectionOptions& options) {
  int flags = SQLITE_OPEN_NOMUTEX;
  if (options.uri) flags |= SQLITE_OPEN_URI;
  flags |= options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  if (options.create) flags |= SQLITE_OPEN_CREATE;
  std::unique_ptr<SqliteBackend> connection(new SqliteBackend());
  // A file is opened, and its first locks taken, while no raw read of it runs (open_files.h).
  // Declared after `connection`: released before a failed one closes.
  std::unique_lock<std::mutex> opening;
  if (!options.uri) opening = hold_file_opens();
  // Debian's SQLite reads every name that starts with "file:" as a URI, whatever the flags;
  // "./file:..." is the same file, read as a plain name.
  std::string name = !options.uri && path.starts_with("file:") ? "./" + path : path;
  if (options.immutable) {
    name = immutable_uri(path);
    flags |= SQLITE_OPEN_URI;
  }
  int rc = sqlite3_open_v2(name.c_str(), &connection->db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    return Status::ledger(
        fmt::format("cannot open {}: {}", path,
                    connection->db_ ? sqlite3_errmsg(connection->db_) : sqlite3_errstr(rc)));
  }
  connection->path_ = path;
  if (!options.uri) connection->file_.emplace(path);
  sqlite3_extended_result_codes(connection->db_, 1);
  if (options.wait_in_process) {
    connection->writer_turn_ = std::make_unique<WriterTurn>(options.busy_timeout_ms);
    sqlite3_busy_handler(connection->db_, WriterTurn::on_busy, connection->writer_turn_.get());
  } else {
    sqlite3_busy_timeout(connection->db_, options.busy_timeout_ms);
  }
  const char* pragmas = options.synchronous_off
                            ? "PRAGMA foreign_keys = ON; PRAGMA synchronous = OFF;"
                            : "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;";
  RETURN_IF_ERROR(connection->exec_script(pragmas));
  if (options.cache_kib > 0) {
    const std::string cache = fmt::format("PRAGMA cache_size = -{}", options.cache_kib);
    RETURN_IF_ERROR(connection->exec_script(cache.c_str()));
  }
  return connection;
}

Status SqliteBackend::exec_script(const char* sql) {
  char* message = nullptr;
  before_statement();
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &message);
  after_statement();
  if (undo_) undo_->statement_ended(db_, rc == SQLITE_OK);
  if (rc == SQLITE_OK) return Status::ok();
  std::string text = message ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  if ((rc & 0xff) == SQLITE_BUSY) return Status::busy(fmt::format("{} is locked: {}", path_, text));
  if ((rc & 0xff) == SQLITE_NOTADB)
    return Status::ledger(fmt::format("{} is not an idemlab ledger: {}", path_, text));
  if ((rc & 0xff) == SQLITE_CORRUPT || names_damage(text)) {
    damaged_ = true;
    return Status::damaged(fmt::format("{} is damaged: {}", path_, text));
  }
  if ((rc & 0xff) == SQLITE_READONLY) return Status::ledger("ledger is read-only: " + text);
  if ((rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_IOERR)
    return step_error(*this, StepResult{classify_io(rc, db_), 0, std::nullopt, text});
  return Status::internal(text);
}

namespace {
sqlite3_stmt* prepare_kept(sqlite3* db, std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &stmt, nullptr) != SQLITE_OK)
    return nullptr;
  return stmt;
}

// Where each statement's RETURNING clause begins (npos: it has none), found once.
size_t returning_at(Stmt id) {
  static const auto kAt = [] {
    std::array<size_t, static_cast<size_t>(Stmt::kCount)> at{};
    for (size_t i = 0; i < at.size(); ++i)
      at[i] = statement_sql(static_cast<Stmt>(i)).find(" RETURNING ");
    return at;
  }();
  return kAt[static_cast<size_t>(id)];
}

// Whether the statement is an insert whose RETURNING gives only the id of the row it inserted
// (it updates no row: no DO UPDATE), which sqlite3_last_insert_rowid() gives as well.
bool returns_inserted_id(Stmt id) {
  static const auto kReturns = [] {
    std::array<bool, static_cast<size_t>(Stmt::kCount)> returns{};
    for (size_t i = 0; i < returns.size(); ++i) {
      const std::string_view sql = statement_sql(static_cast<Stmt>(i));
      returns[i] = sql.starts_with("INSERT") && sql.ends_with(" RETURNING id") &&
                   sql.find("DO UPDATE") == std::string_view::npos;
    }
    return returns;
  }();
  return kReturns[static_cast<size_t>(id)];
}
}  // namespace

sqlite3_stmt* SqliteBackend::prepared(Stmt id) {
  auto& slot = statements_[static_cast<size_t>(id)];
  if (!slot) slot = prepare_kept(db_, statement_sql(id));
  return slot;
}

// The statement cut before its RETURNING clause, which comes last: its values, and so their
// indexes (parameters_), are the same.
sqlite3_stmt* SqliteBackend::prepared_without_rows(Stmt id) {
  const size_t returning = returning_at(id);
  if (returning == std::string_view::npos) return prepared(id);
  auto& slot = without_rows_[static_cast<size_t>(id)];
  if (!slot) slot = prepare_kept(db_, statement_sql(id).substr(0, returning));
  return slot;
}

// An insert that returns only its row's id runs without its RETURNING clause, and the row
// returned is the id SQLite gives the row (none when it inserted none): for RETURNING, SQLite
// builds a temporary table on every run, which cost a simulation 2.4% of its instructions.
// The SQL traced is the SQL run; a timeline shows the statement as the strategy wrote it.
StepResult SqliteBackend::run(Stmt id, const Binds& binds) {
  if (!returns_inserted_id(id)) return run_prepared(id, prepared(id), binds);
  StepResult result = run_prepared(id, prepared_without_rows(id), binds);
  if (result.ok() && result.changes > 0) result.row = Row{Value{sqlite3_last_insert_rowid(db_)}};
  return result;
}

StepResult SqliteBackend::apply(Stmt id, const Binds& binds) {
  return run_prepared(id, prepared_without_rows(id), binds);
}

int64_t SqliteBackend::last_insert_id() const {
  return sqlite3_last_insert_rowid(db_);
}

StepResult SqliteBackend::run_prepared(Stmt id, sqlite3_stmt* stmt, const Binds& binds) {
  if (!stmt) {
    const StepCode code = classify(sqlite3_errcode(db_), db_);
    damaged_ |= code == StepCode::kDamaged;
    return {code, 0, std::nullopt,
            fmt::format("cannot prepare {}: {}", statement_name(id), sqlite3_errmsg(db_))};
  }
  return execute(stmt, binds, nullptr, &parameters_[static_cast<size_t>(id)]);
}

StepResult SqliteBackend::query(std::string_view sql, const Binds& binds, const RowSink* on_row) {
  for (auto& [kept, stmt] : queries_)
    if (kept == sql) return execute(stmt, binds, on_row, nullptr);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) !=
      SQLITE_OK) {
    const StepCode code = classify(sqlite3_errcode(db_), db_);
    damaged_ |= code == StepCode::kDamaged;
    return {code, 0, std::nullopt, sqlite3_errmsg(db_)};
  }
  StepResult result = execute(stmt, binds, on_row, nullptr);
  if (queries_.size() < kQueriesKept)
    queries_.emplace_back(std::string(sql), stmt);  // execute() left it reset
  else
    sqlite3_finalize(stmt);
  return result;
}

namespace {
int parameter_index(sqlite3_stmt* stmt, const char* name,
                    std::vector<std::pair<const char*, int>>* cache) {
  if (!cache) return sqlite3_bind_parameter_index(stmt, name);
  for (const auto& [known, index] : *cache)
    if (known == name) return index;
  for (const auto& [known, index] : *cache)
    if (std::strcmp(known, name) == 0) return index;
  int index = sqlite3_bind_parameter_index(stmt, name);
  cache->emplace_back(name, index);
  return index;
}

// One run of a statement, from its first bind to its last row: on every way out (an error, a
// row sink that throws) the statement is reset and lets go of its values. They are bound
// without a copy (SQLITE_STATIC), so that none outlives the Binds it points into.
class StatementRun {
 public:
  explicit StatementRun(sqlite3_stmt* stmt) : stmt_(stmt) {}
  StatementRun(const StatementRun&) = delete;
  StatementRun& operator=(const StatementRun&) = delete;
  ~StatementRun() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

 private:
  sqlite3_stmt* stmt_;
};
}  // namespace

StepResult SqliteBackend::execute(sqlite3_stmt* stmt, const Binds& binds, const RowSink* on_row,
                                  std::vector<std::pair<const char*, int>>* parameters) {
  const StatementRun run(stmt);
  for (const Bind& bind : binds) {
    int index = parameter_index(stmt, bind.name, parameters);
    if (index == 0) continue;  // a statement need not use every value a step offers
    if (auto* number = std::get_if<int64_t>(&bind.value)) {
      sqlite3_bind_int64(stmt, index, *number);
    } else if (auto* text = std::get_if<std::string>(&bind.value)) {
      sqlite3_bind_text(stmt, index, text->data(), static_cast<int>(text->size()), SQLITE_STATIC);
    } else {
      sqlite3_bind_null(stmt, index);
    }
  }
  StepResult result;
  int rc;
  before_statement();
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    if (on_row || !result.row) {
      Row row;
      int columns = sqlite3_column_count(stmt);
      row.reserve(static_cast<size_t>(columns));
      for (int i = 0; i < columns; ++i) row.push_back(column_value(stmt, i));
      if (on_row) (*on_row)(row);
      if (!result.row) result.row = std::move(row);
    }
  }
  after_statement();
  if (undo_) undo_->statement_ended(db_, rc == SQLITE_DONE);
  if (rc != SQLITE_DONE) {
    result.code = classify(rc, db_);
    damaged_ |= result.code == StepCode::kDamaged;
    result.error = sqlite3_errmsg(db_);
    result.row.reset();
    return result;
  }
  result.changes = sqlite3_changes(db_);
  return result;
}

Result<Connection> open_sqlite(const std::string& path, const ConnectionOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteBackend> sqlite, SqliteBackend::open(path, options));
  return Connection(std::move(sqlite));
}

Result<std::unique_ptr<Backend>> open_sqlite_backend(const Locator& locator,
                                                     const ConnectionOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteBackend> sqlite,
                   SqliteBackend::open(locator.path, options));
  return std::unique_ptr<Backend>(std::move(sqlite));
}

Status copy_sqlite_database(Connection& from, Connection& to) {
  auto* source = dynamic_cast<SqliteBackend*>(&from.backend());
  auto* target = dynamic_cast<SqliteBackend*>(&to.backend());
  if (!source || !target) return Status::internal("only a SQLite database can be copied");
  return source->copy_database_to(*target);
}

Status SqliteBackend::copy_database_to(SqliteBackend& to) {
  sqlite3_backup* backup = sqlite3_backup_init(to.db_, "main", db_, "main");
  if (!backup) return Status::internal(sqlite3_errmsg(to.db_));
  const int stepped = sqlite3_backup_step(backup, -1);
  const int finished = sqlite3_backup_finish(backup);
  if (stepped != SQLITE_DONE || finished != SQLITE_OK)
    return Status::internal(fmt::format("cannot copy {}: {}", path_, sqlite3_errmsg(to.db_)));
  return Status::ok();
}

bool SqliteBackend::in_transaction() const {
  return db_ && !sqlite3_get_autocommit(db_);
}

void SqliteBackend::rollback_if_open() {
  if (in_transaction()) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  after_statement();
}

bool SqliteBackend::autocommit(sqlite3* db) {
  return sqlite3_get_autocommit(db) != 0;
}

void SqliteBackend::set_trace(TraceSink sink) {
  if (!sink) {
    sqlite3_trace_v2(db_, 0, nullptr, nullptr);
    trace_.reset();
    return;
  }
  trace_ = std::make_unique<TraceSink>(std::move(sink));
  sqlite3_trace_v2(db_, SQLITE_TRACE_STMT, trace_callback, trace_.get());
}

}  // namespace idemlab
