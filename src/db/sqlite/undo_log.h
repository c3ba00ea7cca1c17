// UndoLog: what the transactions committed on a SQLite database changed, row by row with the
// rows' old values, kept for a while so that the newest commits can be undone. The simulator
// fails a ledger over this way: a standby that had not received the last commits takes over
// holding what the primary held before them, which is the primary with those commits undone.
// No copy of the ledger is kept, applied or copied back: what it costs is each change's old
// values, for as long as a failover may still lose that change.
//
// It watches the connections it is given (SQLite's pre-update, commit and rollback hooks); a
// statement that fails leaves nothing behind, as SQLite's statement rollback does, and a
// transaction rolled back nothing at all. Every table of the database has a primary key
// (an INTEGER PRIMARY KEY or WITHOUT ROWID), as every ledger table does.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/clock.h"
#include "db/connection.h"

struct sqlite3;
struct sqlite3_stmt;

namespace idemlab {

class SqliteBackend;

class UndoLog {
 public:
  // Commits are stamped with `clock`'s time; one older than `keep_ms` before the newest is
  // forgotten. `clock` outlives the log.
  UndoLog(const Clock& clock, int64_t keep_ms) : clock_(&clock), keep_ms_(keep_ms) {}
  ~UndoLog();
  UndoLog(const UndoLog&) = delete;
  UndoLog& operator=(const UndoLog&) = delete;

  // Records what `connection` (a SQLite connection, with no transaction open) changes from now
  // on. The first connection watched also gives the tables' columns and keys.
  Status watch(Connection& connection);
  // Undoes every commit made at or after `since_ms`, newest first, in one transaction on
  // `connection` (one that is watched, and no connection with a transaction open). Every commit
  // is then forgotten, the older ones too: the promoted copy's new standby starts as a copy of
  // it, and has them. Returns how many were undone. Where `connection` enforces foreign keys,
  // they are checked at the undo's commit (`PRAGMA defer_foreign_keys`, which makes SQLite
  // prepare every statement of that connection again); a connection kept for undoing can leave
  // them off, as the rows it puts back stood together before.
  Result<int64_t> undo_since(Connection& connection, int64_t since_ms);
  // Commits recorded and not yet forgotten.
  size_t commits() const { return commits_.size(); }
  // Commits that changed a row, since the log began: forgotten and undone ones too.
  int64_t recorded() const { return recorded_; }

  // For SqliteBackend: a statement on `db` ended (ok: it succeeded), or `db` closes.
  void statement_ended(sqlite3* db, bool ok);
  void closing(sqlite3* db);

 private:
  struct Value {
    int type = 5;  // SQLITE_INTEGER, _FLOAT, _TEXT, _BLOB or _NULL (5)
    int64_t integer = 0;
    double real = 0;
    std::string bytes;
  };
  struct Change {
    size_t table;
    int op;                  // SQLITE_INSERT, _UPDATE or _DELETE, as SQLite reported it
    std::vector<Value> old;  // every column's old value (UPDATE, DELETE)
    std::vector<Value> key;  // the key columns' new values (INSERT, UPDATE)
  };
  struct Commit {
    int64_t at_ms;
    std::vector<Change> changes;
  };
  struct Table {
    std::string name;
    std::vector<std::string> columns;
    std::vector<int> key;  // the primary key's columns
    bool without_rowid = false;
  };
  struct Pending {
    UndoLog* log = nullptr;
    SqliteBackend* backend = nullptr;
    std::vector<Change> changes;  // the open transaction's
    size_t kept = 0;              // of them, those of statements that succeeded
  };

  static void on_change(void* log, sqlite3* db, int op, const char* database, const char* table,
                        long long old_rowid, long long new_rowid);  // sqlite3_int64
  static int on_commit(void* pending);
  static void on_rollback(void* pending);
  Status load_tables(Connection& connection);
  void record(sqlite3* db, int op, const char* table, int64_t new_rowid);
  void committed(Pending& pending);
  Status undo_commits(sqlite3* db, int64_t since_ms, int64_t* undone);
  Status undo(sqlite3* db, const Change& change);
  static bool is_key(const Table& table, size_t column);
  static bool key_unchanged(const Table& table, const Change& change);
  static std::string undo_sql(const Table& table, int op, bool key_kept);
  sqlite3_stmt* undo_statement(sqlite3* db, const Change& change);
  void unhook(sqlite3* db);

  const Clock* clock_;
  int64_t keep_ms_;
  std::vector<Table> tables_;
  std::unordered_map<sqlite3*, Pending> pending_;
  std::deque<Commit> commits_;
  // The undo's statements, prepared once per connection and shape of change.
  struct Prepared {
    sqlite3* db;
    size_t table;
    int op;
    bool key_kept;
    sqlite3_stmt* stmt;
  };
  std::vector<Prepared> prepared_;
  int64_t recorded_ = 0;
  bool undoing_ = false;
};

}  // namespace idemlab
