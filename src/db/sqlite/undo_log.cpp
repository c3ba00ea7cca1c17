// The undo log: SQLite's hooks record each committed row change's old values; undoing runs
// the inverse statements newest first.
// Debian's libsqlite3 is built with the pre-update hook; its header declares it on request
// (SQLITE_ENABLE_PREUPDATE_HOOK, defined for the db library in CMakeLists.txt).
#include "db/sqlite/undo_log.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstring>

#include "core/check.h"
#include "db/sqlite/sqlite_backend.h"

namespace idemlab {

namespace {

// A value SQLite hands a hook, copied: it lives only as long as the hook's call.
template <class Value>
Value copied(sqlite3_value* value) {
  Value out;
  out.type = sqlite3_value_type(value);
  if (out.type == SQLITE_INTEGER) out.integer = sqlite3_value_int64(value);
  if (out.type == SQLITE_FLOAT) out.real = sqlite3_value_double(value);
  if (out.type == SQLITE_TEXT || out.type == SQLITE_BLOB) {
    const void* bytes =
        out.type == SQLITE_TEXT ? sqlite3_value_text(value) : sqlite3_value_blob(value);
    out.bytes.assign(static_cast<const char*>(bytes),
                     static_cast<size_t>(sqlite3_value_bytes(value)));
  }
  return out;
}

template <class Value>
void bind(sqlite3_stmt* stmt, int index, const Value& value) {
  switch (value.type) {
    case SQLITE_INTEGER:
      sqlite3_bind_int64(stmt, index, value.integer);
      break;
    case SQLITE_FLOAT:
      sqlite3_bind_double(stmt, index, value.real);
      break;
    case SQLITE_TEXT:
      sqlite3_bind_text(stmt, index, value.bytes.data(), static_cast<int>(value.bytes.size()),
                        SQLITE_STATIC);
      break;
    case SQLITE_BLOB:
      sqlite3_bind_blob(stmt, index, value.bytes.data(), static_cast<int>(value.bytes.size()),
                        SQLITE_STATIC);
      break;
    default:
      sqlite3_bind_null(stmt, index);
  }
}

std::string quoted(const std::string& name) {
  return "\"" + name + "\"";
}

}  // namespace

UndoLog::~UndoLog() {
  for (const Prepared& prepared : prepared_) sqlite3_finalize(prepared.stmt);
  for (auto& [db, pending] : pending_) {
    unhook(db);
    pending.backend->undo_ = nullptr;
  }
}

Status UndoLog::watch(Connection& connection) {
  auto* backend = dynamic_cast<SqliteBackend*>(&connection.backend());
  if (!backend) return Status::internal("an undo log watches SQLite connections only");
  if (tables_.empty()) RETURN_IF_ERROR(load_tables(connection));
  sqlite3* db = backend->db_;
  Pending& pending = pending_[db];
  pending.log = this;
  pending.backend = backend;
  backend->undo_ = this;
  sqlite3_preupdate_hook(db, on_change, this);
  sqlite3_commit_hook(db, on_commit, &pending);
  sqlite3_rollback_hook(db, on_rollback, &pending);
  return Status::ok();
}

// Every table's columns and primary key, from SQLite's own description of the schema.
Status UndoLog::load_tables(Connection& connection) {
  std::vector<std::pair<std::string, bool>> names;
  StepResult listed = connection.query(
      "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' "
      "AND name NOT LIKE 'sqlite_%' ORDER BY name",
      {}, [&](const Row& row) { names.emplace_back(as_text(row[0]), as_int(row[1]) != 0); });
  if (!listed.ok()) return step_error(connection, listed);
  for (const auto& [name, without_rowid] : names) {
    Table table{name, {}, {}, without_rowid};
    StepResult described =
        connection.query("SELECT name, pk FROM pragma_table_info(:table) ORDER BY cid",
                         {{":table", name}}, [&](const Row& row) {
                           if (as_int(row[1]) > 0)
                             table.key.push_back(static_cast<int>(table.columns.size()));
                           table.columns.push_back(as_text(row[0]));
                         });
    if (!described.ok()) return step_error(connection, described);
    if (table.key.empty())
      return Status::internal(fmt::format("table {} has no primary key to undo by", name));
    tables_.push_back(std::move(table));
  }
  return Status::ok();
}

void UndoLog::on_change(void* log, sqlite3* db, int op, const char*, const char* table, long long,
                        long long new_rowid) {
  auto* self = static_cast<UndoLog*>(log);
  if (!self->undoing_) self->record(db, op, table, new_rowid);
}

void UndoLog::record(sqlite3* db, int op, const char* name, int64_t new_rowid) {
  size_t index = 0;
  while (index < tables_.size() && tables_[index].name != name) ++index;
  IDEMLAB_CHECK(index < tables_.size(), "every table an undo log sees was there when it began");
  const Table& table = tables_[index];
  Change change{index, op, {}, {}};
  sqlite3_value* value = nullptr;
  if (op != SQLITE_INSERT)
    for (int column = 0; column < static_cast<int>(table.columns.size()); ++column) {
      sqlite3_preupdate_old(db, column, &value);
      change.old.push_back(copied<Value>(value));
    }
  if (op != SQLITE_DELETE) {
    if (table.without_rowid) {
      for (int column : table.key) {
        sqlite3_preupdate_new(db, column, &value);
        change.key.push_back(copied<Value>(value));
      }
    } else {
      change.key.push_back(Value{SQLITE_INTEGER, new_rowid, 0, {}});
    }
  }
  pending_.at(db).changes.push_back(std::move(change));
}

int UndoLog::on_commit(void* pending) {
  auto* state = static_cast<Pending*>(pending);
  state->log->committed(*state);
  return 0;  // the commit goes on
}

void UndoLog::on_rollback(void* pending) {
  auto* state = static_cast<Pending*>(pending);
  state->changes.clear();
  state->kept = 0;
}

// A commit that changed something is kept; those too old for any failover to lose are not.
void UndoLog::committed(Pending& pending) {
  const int64_t now = clock_->now_ms();
  if (!pending.changes.empty()) {
    commits_.push_back(Commit{now, std::move(pending.changes)});
    ++recorded_;
  }
  pending.changes.clear();
  pending.kept = 0;
  while (!commits_.empty() && commits_.front().at_ms < now - keep_ms_ - 1) commits_.pop_front();
}

void UndoLog::statement_ended(sqlite3* db, bool ok) {
  const auto found = pending_.find(db);
  if (found == pending_.end()) return;
  Pending& pending = found->second;
  if (!ok) pending.changes.resize(pending.kept);  // SQLite undid the statement's rows
  pending.kept = pending.changes.size();
}

void UndoLog::closing(sqlite3* db) {
  std::erase_if(prepared_, [db](const Prepared& prepared) {
    if (prepared.db == db) sqlite3_finalize(prepared.stmt);
    return prepared.db == db;
  });
  unhook(db);
  pending_.erase(db);
}

void UndoLog::unhook(sqlite3* db) {
  sqlite3_preupdate_hook(db, nullptr, nullptr);
  sqlite3_commit_hook(db, nullptr, nullptr);
  sqlite3_rollback_hook(db, nullptr, nullptr);
}

Result<int64_t> UndoLog::undo_since(Connection& connection, int64_t since_ms) {
  auto* backend = dynamic_cast<SqliteBackend*>(&connection.backend());
  if (!backend || !pending_.count(backend->db_))
    return Status::internal("an undo runs on a connection the log watches");
  int64_t undone = 0;
  undoing_ = true;
  const Status status = undo_commits(backend->db_, since_ms, &undone);
  undoing_ = false;
  RETURN_IF_ERROR(status);
  commits_.clear();  // the new standby has the rest
  return undone;
}

Status UndoLog::undo_commits(sqlite3* db, int64_t since_ms, int64_t* undone) {
  if (commits_.empty() || commits_.back().at_ms < since_ms) return Status::ok();
  // Foreign keys are checked at the end, as the rows come back in an order of their own.
  int enforced = 0;
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, -1, &enforced);
  const char* begin =
      enforced ? "BEGIN IMMEDIATE; PRAGMA defer_foreign_keys = ON" : "BEGIN IMMEDIATE";
  if (sqlite3_exec(db, begin, nullptr, nullptr, nullptr) != SQLITE_OK)
    return Status::internal(fmt::format("cannot begin an undo: {}", sqlite3_errmsg(db)));
  while (!commits_.empty() && commits_.back().at_ms >= since_ms) {
    const std::vector<Change>& changes = commits_.back().changes;
    for (auto change = changes.rbegin(); change != changes.rend(); ++change) {
      const Status status = undo(db, *change);
      if (!status.is_ok()) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        return status;
      }
    }
    commits_.pop_back();
    ++*undone;
  }
  if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
    return Status::internal(fmt::format("cannot commit an undo: {}", sqlite3_errmsg(db)));
  return Status::ok();
}

bool UndoLog::is_key(const Table& table, size_t column) {
  return std::find(table.key.begin(), table.key.end(), static_cast<int>(column)) != table.key.end();
}

// Whether an update left the row's key as it was: its old key columns (or, in a table with a
// rowid, its INTEGER PRIMARY KEY) against the key it has now.
bool UndoLog::key_unchanged(const Table& table, const Change& change) {
  for (size_t i = 0; i < table.key.size(); ++i) {
    const Value& before = change.old[static_cast<size_t>(table.key[i])];
    const Value& after = change.key[i];
    if (before.type != after.type || before.integer != after.integer || before.real != after.real ||
        before.bytes != after.bytes)
      return false;
  }
  return true;
}

// The inverse of one row's change: an insert deleted, a delete inserted again, an update's
// old values put back, each row found by its primary key. Its parameters: the old values,
// then the key's new values.
std::string UndoLog::undo_sql(const Table& table, int op, bool key_kept) {
  std::string where;
  for (size_t i = 0; i < table.key.size(); ++i)
    where += fmt::format("{}{} = ?{}", i ? " AND " : "", quoted(table.columns[table.key[i]]),
                         (op == SQLITE_INSERT ? 0 : table.columns.size()) + i + 1);
  if (op == SQLITE_INSERT) return fmt::format("DELETE FROM {} WHERE {}", quoted(table.name), where);
  if (op == SQLITE_DELETE) {
    std::string columns, values;
    for (size_t i = 0; i < table.columns.size(); ++i) {
      columns += fmt::format("{}{}", i ? ", " : "", quoted(table.columns[i]));
      values += fmt::format("{}?{}", i ? ", " : "", i + 1);
    }
    return fmt::format("INSERT INTO {} ({}) VALUES ({})", quoted(table.name), columns, values);
  }
  // The key columns are set only if the update changed them: setting a parent's key, even to
  // the value it has, makes SQLite look for its children, by a scan where they have no index.
  std::string set;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (key_kept && is_key(table, i)) continue;
    set += fmt::format("{}{} = ?{}", set.empty() ? "" : ", ", quoted(table.columns[i]), i + 1);
  }
  return fmt::format("UPDATE {} SET {} WHERE {}", quoted(table.name), set, where);
}

// The statement that undoes `change` on `db`, prepared on first use.
sqlite3_stmt* UndoLog::undo_statement(sqlite3* db, const Change& change) {
  const Table& table = tables_[change.table];
  const bool key_kept = change.op == SQLITE_UPDATE && key_unchanged(table, change);
  for (const Prepared& prepared : prepared_)
    if (prepared.db == db && prepared.table == change.table && prepared.op == change.op &&
        prepared.key_kept == key_kept)
      return prepared.stmt;
  const std::string sql = undo_sql(table, change.op, key_kept);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) !=
      SQLITE_OK)
    return nullptr;
  prepared_.push_back({db, change.table, change.op, key_kept, stmt});
  return stmt;
}

Status UndoLog::undo(sqlite3* db, const Change& change) {
  const Table& table = tables_[change.table];
  sqlite3_stmt* stmt = undo_statement(db, change);
  if (!stmt)
    return Status::internal(fmt::format("cannot undo on {}: {}", table.name, sqlite3_errmsg(db)));
  int index = 0;
  for (const Value& value : change.old) bind(stmt, ++index, value);
  for (const Value& value : change.key) bind(stmt, ++index, value);
  const int rc = sqlite3_step(stmt);
  const std::string failed = rc != SQLITE_DONE          ? sqlite3_errmsg(db)
                             : sqlite3_changes(db) != 1 ? "no such row"
                                                        : "";
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
  if (!failed.empty())
    return Status::internal(fmt::format("cannot undo a change to {}: {}", table.name, failed));
  return Status::ok();
}

}  // namespace idemlab
