// MariaDB's statement table: only where its dialect differs from SQLite's (statements.cpp).
// Every session runs with sql_mode ANSI_QUOTES and PIPES_AS_CONCAT, so "lock" names the table
// and || joins text as elsewhere; `lock` alone is a reserved word.
#include <array>
#include <utility>

#include "db/mariadb/mariadb_backend.h"
#include "db/statement_parts.h"
#include "db/statements.h"

namespace idemlab {

namespace {

// The lock is taken only when free or expired: each column keeps its value unless the lock
// had expired. MariaDB assigns left to right, so lock_until_ms, which the test reads, goes last.
#define LOCK_FREE "\"lock\".lock_until_ms <= VALUES(locked_at_ms)"

// The fence is taken only when higher than the one recorded; owner first, while fence is the old.
#define FENCE_HIGHER "fence.fence < VALUES(fence)"

constexpr std::array<std::pair<Stmt, std::string_view>, 13> kMariadb{{
    {Stmt::kBeginDeferred, "BEGIN"},
    {Stmt::kBeginImmediate, "BEGIN"},
    // A real row lock; on a row that does not exist yet, InnoDB (REPEATABLE READ) takes a gap
    // lock, which does not stop a twin's: both INSERTs then wait on each other, a deadlock.
    {Stmt::kSelectFlowForUpdate, FLOW_SELECT " FOR UPDATE"},
    // MariaDB has ON DUPLICATE KEY UPDATE instead of ON CONFLICT. INSERT IGNORE skips a row a
    // unique key refuses, and RETURNING then returns nothing, as DO NOTHING does.
    {Stmt::kInsertFlowIfAbsent,
     "INSERT IGNORE INTO transfer_flow (" FLOW_COLUMNS ") VALUES (" FLOW_VALUES ") RETURNING id"},
    {Stmt::kUpsertFlow,
     "INSERT INTO transfer_flow (" FLOW_COLUMNS ") VALUES (" FLOW_VALUES
     ") ON DUPLICATE KEY UPDATE updated_at_ms = VALUES(updated_at_ms) RETURNING id"},
    // The answer is one column, 1 when this owner now holds the lock: with CLIENT_FOUND_ROWS an
    // upsert that leaves the row as it was counts 1, like one that inserted it, so the row
    // count cannot tell. The backend reads this column as the count (mariadb_backend.cpp).
    {Stmt::kAcquireLock,
     "INSERT INTO \"lock\" (name, lock_until_ms, locked_at_ms, locked_by) "
     "VALUES (:name, :until, :now, :owner) ON DUPLICATE KEY UPDATE "
     "locked_by = IF(" LOCK_FREE ", VALUES(locked_by), locked_by), "
     "locked_at_ms = IF(" LOCK_FREE ", VALUES(locked_at_ms), locked_at_ms), "
     "lock_until_ms = IF(" LOCK_FREE ", VALUES(lock_until_ms), lock_until_ms) "
     "RETURNING locked_by = :owner AND locked_at_ms = :now AND lock_until_ms = :until"},
    {Stmt::kCheckLockOwner,
     "SELECT count(*) FROM \"lock\" WHERE name = :name AND locked_by = :owner "
     "AND lock_until_ms > :now"},
    {Stmt::kReleaseLock, "DELETE FROM \"lock\" WHERE name = :name AND locked_by = :owner"},
    {Stmt::kReleaseLockAnyOwner, "DELETE FROM \"lock\" WHERE name = :name"},
    // 1 when this holder's fence is now the recorded one (counted in the column, as above).
    {Stmt::kCheckFence,
     "INSERT INTO fence (name, fence, owner, fenced_at_ms) VALUES (:name, :fence, :owner, :now) "
     "ON DUPLICATE KEY UPDATE owner = IF(" FENCE_HIGHER ", VALUES(owner), owner), "
     "fenced_at_ms = IF(" FENCE_HIGHER ", VALUES(fenced_at_ms), fenced_at_ms), "
     "fence = IF(" FENCE_HIGHER ", VALUES(fence), fence) "
     "RETURNING fence = :fence AND owner = :owner AND fenced_at_ms = :now"},
    {Stmt::kServedBy,
     "SELECT strategy FROM (SELECT strategy, created_at_ms AS at FROM transfer_flow "
     "WHERE " FLOW_KEY " UNION ALL SELECT strategy, created_at_ms FROM dedup "
     "WHERE " FLOW_KEY " UNION ALL SELECT 'lock-table', locked_at_ms FROM \"lock\" "
     "WHERE name = 'transfer:' || :source || ':' || :biz_seq UNION ALL "
     "SELECT strategy, at_ms FROM attempt WHERE " FLOW_KEY ") AS trace ORDER BY at LIMIT 1"},
    {Stmt::kListTables,
     "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() "
     "ORDER BY table_name"},
    {Stmt::kSetLimit,
     "INSERT INTO account_limit (account, limit_minor, updated_at_ms) VALUES (:account, "
     ":amount, :now) ON DUPLICATE KEY UPDATE limit_minor = VALUES(limit_minor), "
     "updated_at_ms = VALUES(updated_at_ms)"},
}};

}  // namespace

std::string_view mariadb_statement_sql(Stmt id) {
  for (const auto& [stmt, sql] : kMariadb)
    if (stmt == id) return sql;
  return statement_sql(id);
}

bool mariadb_counts_in_column(Stmt id) {
  return id == Stmt::kAcquireLock || id == Stmt::kCheckFence;
}

}  // namespace idemlab
