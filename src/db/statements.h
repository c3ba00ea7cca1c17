// The named statements every strategy and command runs: an id per statement and one table of
// SQL texts (as SQLite's FTS5 keeps them), prepared once per connection and bound by name.
#pragma once

#include <string_view>

namespace idemlab {

enum class Stmt : int {
  kBeginDeferred,
  kBeginImmediate,
  kCommit,
  kRollback,
  // requests
  kCheckAccounts,
  kSelectFlow,
  kSelectFlowForUpdate,  // the flow row, row-locked where the engine has row locks
  kInsertFlow,
  kInsertFlowIfAbsent,
  kUpsertFlow,
  kFinishFlow,
  kClaimFlow,
  kClaimFlowUnguarded,
  kClaimVersion,
  kFinishVersion,
  kFinishVersionRestoring,
  // money
  kDebit,
  kCredit,
  kJournalDebit,
  kJournalCredit,
  // guards
  kInsertDedup,
  kSelectDedup,
  kDeleteDedup,
  kInsertToken,
  kSelectToken,
  kConsumeToken,
  kConsumeTokenUnchecked,
  kAcquireLock,
  kCheckLockOwner,
  kReleaseLock,
  kReleaseLockAnyOwner,
  kCheckFence,  // records the grant's fence, or changes nothing when it is not the highest
  // bookkeeping
  kLogAttempt,
  kLogDelivery,
  kServedBy,
  // account limits
  kSetLimit,
  kRaiseLimit,
  kRemoveLimit,
  // the database's tables (init refuses a database that holds any)
  kListTables,
  kCount
};

// SQLite's text, the one the others start from; each server's dialect lists only the
// statements it writes otherwise (db/postgres/postgres_statements.cpp,
// db/mariadb/mariadb_statements.cpp), and engine_statement_sql() (db/engine.h) picks.
std::string_view statement_sql(Stmt id);
std::string_view statement_name(Stmt id);

}  // namespace idemlab

namespace idemlab {
// Whether running the statement needs the database write lock when no transaction is open
// (BEGIN IMMEDIATE and every write). In WAL mode nothing else ever waits for a lock.
bool statement_takes_write_lock(Stmt id);
// Whether the statement reads or writes a guard a separate store can keep instead of the ledger
// (tokens and locks: --redis): a session with such a store sends it there.
bool statement_is_guard(Stmt id);
// A guard statement that writes: every one but the token and lock owner reads.
bool statement_writes_guard(Stmt id);
}  // namespace idemlab
