// The SQL text of every named statement. Values are always bound, never formatted in.
#include "db/statements.h"

#include <array>

#include "db/statement_parts.h"

namespace idemlab {

namespace {

struct Entry {
  Stmt id;
  std::string_view name;
  std::string_view sql;
};

constexpr std::array<Entry, static_cast<size_t>(Stmt::kCount)> kStatements{{
    {Stmt::kBeginDeferred, "begin_deferred", "BEGIN DEFERRED"},
    {Stmt::kBeginImmediate, "begin_immediate", "BEGIN IMMEDIATE"},
    {Stmt::kCommit, "commit", "COMMIT"},
    {Stmt::kRollback, "rollback", "ROLLBACK"},
    {Stmt::kCheckAccounts, "check_accounts",
     "SELECT (SELECT count(*) FROM account WHERE name = :from), "
     "(SELECT count(*) FROM account WHERE name = :to), "
     "(SELECT limit_minor FROM account_limit WHERE account = :from)"},
    {Stmt::kSelectFlow, "select_flow", FLOW_SELECT},
    // SQLite has no row locks: BEGIN IMMEDIATE, the step before, already holds the write lock.
    {Stmt::kSelectFlowForUpdate, "select_flow_for_update", FLOW_SELECT},
    {Stmt::kInsertFlow, "insert_flow",
     "INSERT INTO transfer_flow (" FLOW_COLUMNS ") VALUES (" FLOW_VALUES ") RETURNING id"},
    {Stmt::kInsertFlowIfAbsent, "insert_flow_if_absent",
     "INSERT INTO transfer_flow (" FLOW_COLUMNS ") VALUES (" FLOW_VALUES
     ") ON CONFLICT (source, biz_seq) WHERE unique_key = 1 DO NOTHING RETURNING id"},
    {Stmt::kUpsertFlow, "upsert_flow",
     "INSERT INTO transfer_flow (" FLOW_COLUMNS ") VALUES (" FLOW_VALUES
     ") ON CONFLICT (source, biz_seq) WHERE unique_key = 1 DO UPDATE SET updated_at_ms = "
     "excluded.updated_at_ms RETURNING id"},
    {Stmt::kFinishFlow, "finish_flow",
     "UPDATE transfer_flow SET status = :status, outcome = :outcome, reason = :reason, "
     "updated_at_ms = :now WHERE id = :flow_id"},
    {Stmt::kClaimFlow, "claim_flow",
     "UPDATE transfer_flow SET status = 2, updated_at_ms = :now "
     "WHERE " FLOW_KEY " AND status = 1"},
    {Stmt::kClaimFlowUnguarded, "claim_flow_unguarded",
     "UPDATE transfer_flow SET status = 2, updated_at_ms = :now WHERE " FLOW_KEY},
    {Stmt::kClaimVersion, "claim_version",
     "UPDATE transfer_flow SET version = version + 1, status = 1, updated_at_ms = :now "
     "WHERE id = :flow_id AND version = :version"},
    {Stmt::kFinishVersion, "finish_version",
     "UPDATE transfer_flow SET version = version + 1, status = :status, outcome = :outcome, "
     "reason = :reason, updated_at_ms = :now WHERE id = :flow_id"},
    {Stmt::kFinishVersionRestoring, "finish_version_restoring",
     "UPDATE transfer_flow SET version = version - 1, status = :status, outcome = :outcome, "
     "reason = :reason, updated_at_ms = :now WHERE id = :flow_id"},
    {Stmt::kDebit, "debit",
     "UPDATE account SET balance_minor = balance_minor - :amount "
     "WHERE name = :from AND balance_minor >= :amount"},
    {Stmt::kCredit, "credit",
     "UPDATE account SET balance_minor = balance_minor + :amount WHERE name = :to"},
    {Stmt::kJournalDebit, "journal_debit",
     "INSERT INTO journal (source, biz_seq, account, side, amount_minor, created_at_ms) "
     "VALUES (:source, :biz_seq, :from, 'debit', :amount, :now)"},
    {Stmt::kJournalCredit, "journal_credit",
     "INSERT INTO journal (source, biz_seq, account, side, amount_minor, created_at_ms) "
     "VALUES (:source, :biz_seq, :to, 'credit', :amount, :now)"},
    {Stmt::kInsertDedup, "insert_dedup",
     "INSERT INTO dedup (dedup_key, source, biz_seq, strategy, payload, created_at_ms) "
     "VALUES (:key, :source, :biz_seq, 'dedup-table', :payload, :now)"},
    {Stmt::kSelectDedup, "select_dedup", "SELECT payload FROM dedup WHERE dedup_key = :key"},
    {Stmt::kDeleteDedup, "delete_dedup", "DELETE FROM dedup WHERE dedup_key = :key"},
    {Stmt::kInsertToken, "insert_token",
     "INSERT INTO token (token, issued_at_ms, expires_at_ms) VALUES (:token, :now, :expires)"},
    {Stmt::kSelectToken, "select_token",
     "SELECT expires_at_ms, used_at_ms, used_by_biz_seq, used_by_source FROM token "
     "WHERE token = :token"},
    {Stmt::kConsumeToken, "consume_token",
     "UPDATE token SET used_at_ms = :now, used_by_biz_seq = :biz_seq, used_by_source = :source "
     "WHERE token = :token AND used_at_ms IS NULL AND expires_at_ms > :now"},
    {Stmt::kConsumeTokenUnchecked, "consume_token_unchecked",
     "UPDATE token SET used_at_ms = :now, used_by_biz_seq = :biz_seq, used_by_source = :source "
     "WHERE token = :token"},
    {Stmt::kAcquireLock, "acquire_lock",
     "INSERT INTO lock (name, lock_until_ms, locked_at_ms, locked_by) "
     "VALUES (:name, :until, :now, :owner) ON CONFLICT (name) DO UPDATE SET "
     "lock_until_ms = excluded.lock_until_ms, locked_at_ms = excluded.locked_at_ms, "
     "locked_by = excluded.locked_by WHERE lock.lock_until_ms <= excluded.locked_at_ms"},
    {Stmt::kCheckLockOwner, "check_lock_owner",
     "SELECT count(*) FROM lock WHERE name = :name AND locked_by = :owner "
     "AND lock_until_ms > :now"},
    {Stmt::kReleaseLock, "release_lock",
     "DELETE FROM lock WHERE name = :name AND locked_by = :owner"},
    {Stmt::kReleaseLockAnyOwner, "release_lock_any_owner", "DELETE FROM lock WHERE name = :name"},
    {Stmt::kCheckFence, "check_fence",
     "INSERT INTO fence (name, fence, owner, fenced_at_ms) VALUES (:name, :fence, :owner, :now) "
     "ON CONFLICT (name) DO UPDATE SET fence = excluded.fence, owner = excluded.owner, "
     "fenced_at_ms = excluded.fenced_at_ms WHERE fence.fence < excluded.fence"},
    {Stmt::kLogAttempt, "log_attempt",
     "INSERT INTO attempt (source, biz_seq, strategy, pitfall, outcome, reason, replayed, fault, "
     "at_ms, isolation, guard_store, node) VALUES (:source, :biz_seq, :strategy, :pitfall, "
     ":outcome, :reason, :replayed, :fault, :now, :isolation, :guard_store, :node)"},
    {Stmt::kLogDelivery, "log_delivery",
     "INSERT INTO delivery (queue, message_id, redelivered, source, biz_seq, keyed_by, ack, "
     "at_ms) VALUES (:queue, :message_id, :redelivered, :source, :biz_seq, :keyed_by, :ack, "
     ":now)"},
    // The strategy that first left a trace of the request: a flow row, a dedup record, a lock
    // or an answered attempt. Every lookup is by an index.
    {Stmt::kServedBy, "served_by",
     "SELECT strategy FROM (SELECT strategy, created_at_ms AS at FROM transfer_flow "
     "WHERE " FLOW_KEY " UNION ALL SELECT strategy, created_at_ms FROM dedup "
     "WHERE " FLOW_KEY " UNION ALL SELECT 'lock-table', locked_at_ms FROM lock "
     "WHERE name = 'transfer:' || :source || ':' || :biz_seq UNION ALL "
     "SELECT strategy, at_ms FROM attempt WHERE " FLOW_KEY ") AS trace ORDER BY at LIMIT 1"},
    {Stmt::kSetLimit, "set_limit",
     "INSERT INTO account_limit (account, limit_minor, updated_at_ms) VALUES (:account, "
     ":amount, :now) ON CONFLICT (account) DO UPDATE SET limit_minor = excluded.limit_minor, "
     "updated_at_ms = excluded.updated_at_ms"},
    {Stmt::kRaiseLimit, "raise_limit",
     "UPDATE account_limit SET limit_minor = limit_minor + :amount, updated_at_ms = :now "
     "WHERE account = :account"},
    {Stmt::kRemoveLimit, "remove_limit", "DELETE FROM account_limit WHERE account = :account"},
    {Stmt::kListTables, "list_tables",
     "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"},
}};

constexpr bool table_is_in_order() {
  for (size_t i = 0; i < kStatements.size(); ++i)
    if (static_cast<size_t>(kStatements[i].id) != i) return false;
  return true;
}
static_assert(table_is_in_order(), "kStatements must list every Stmt in enum order");

}  // namespace

std::string_view statement_sql(Stmt id) {
  return kStatements[static_cast<size_t>(id)].sql;
}
std::string_view statement_name(Stmt id) {
  return kStatements[static_cast<size_t>(id)].name;
}

}  // namespace idemlab

namespace idemlab {

bool statement_writes_guard(Stmt id) {
  return statement_is_guard(id) && id != Stmt::kSelectToken && id != Stmt::kCheckLockOwner;
}

bool statement_is_guard(Stmt id) {
  switch (id) {
    case Stmt::kInsertToken:
    case Stmt::kSelectToken:
    case Stmt::kConsumeToken:
    case Stmt::kConsumeTokenUnchecked:
    case Stmt::kAcquireLock:
    case Stmt::kCheckLockOwner:
    case Stmt::kReleaseLock:
    case Stmt::kReleaseLockAnyOwner:
      return true;
    default:
      return false;
  }
}

// Read once per statement: the simulator asks it of every step it runs.
bool statement_takes_write_lock(Stmt id) {
  static constexpr auto kTakes = [] {
    std::array<bool, static_cast<size_t>(Stmt::kCount)> takes{};
    for (size_t i = 0; i < takes.size(); ++i) {
      const std::string_view sql = kStatements[i].sql;
      takes[i] = kStatements[i].id == Stmt::kBeginImmediate || sql.starts_with("INSERT") ||
                 sql.starts_with("UPDATE") || sql.starts_with("DELETE");
    }
    return takes;
  }();
  return kTakes[static_cast<size_t>(id)];
}

}  // namespace idemlab
