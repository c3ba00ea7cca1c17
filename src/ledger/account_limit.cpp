// The three limit changes, each one SQL statement inside BEGIN IMMEDIATE, with the limit read
// before and after it so that the caller can say what a repeat did.
#include "ledger/account_limit.h"

namespace idemlab {

namespace {

constexpr const char* kSetSql =
    "INSERT INTO account_limit (account, limit_minor, updated_at_ms) VALUES (:account, :amount, "
    ":now) ON CONFLICT (account) DO UPDATE SET limit_minor = excluded.limit_minor, "
    "updated_at_ms = excluded.updated_at_ms";
constexpr const char* kRaiseSql =
    "UPDATE account_limit SET limit_minor = limit_minor + :amount, updated_at_ms = :now "
    "WHERE account = :account";
constexpr const char* kRemoveSql = "DELETE FROM account_limit WHERE account = :account";

const char* change_sql(LimitChange change) {
  switch (change) {
    case LimitChange::kSet:
      return kSetSql;
    case LimitChange::kRaise:
      return kRaiseSql;
    case LimitChange::kRemove:
      return kRemoveSql;
  }
  return kRemoveSql;
}

Status read_into(Connection& connection, const std::string& account, bool* found,
                 std::optional<int64_t>* limit) {
  *found = false;
  limit->reset();
  StepResult result = connection.query(
      "SELECT l.limit_minor FROM account a LEFT JOIN account_limit l ON l.account = a.name "
      "WHERE a.name = :account",
      {{":account", account}}, [&](const Row& row) {
        *found = true;
        if (!is_null(row[0])) *limit = as_int(row[0]);
      });
  return result.ok() ? Status::ok() : step_error(connection, result);
}

Status apply(Connection& connection, const Clock& clock, LimitChange change,
             const std::string& account, int64_t amount_minor, LimitResult* out) {
  if (Status status = read_into(connection, account, &out->account_found, &out->before_minor);
      !status.is_ok() || !out->account_found)
    return status;
  StepResult result = connection.query(
      change_sql(change),
      {{":account", account}, {":amount", amount_minor}, {":now", clock.now_ms()}});
  if (!result.ok()) return step_error(connection, result);
  bool found = false;
  return read_into(connection, account, &found, &out->after_minor);
}

}  // namespace

Status change_limit(Connection& connection, const Clock& clock, LimitChange change,
                    const std::string& account, int64_t amount_minor, LimitResult* out) {
  *out = LimitResult{};
  if (Status status = connection.exec_script("BEGIN IMMEDIATE"); !status.is_ok()) return status;
  Status status = apply(connection, clock, change, account, amount_minor, out);
  if (status.is_ok()) status = connection.exec_script("COMMIT");
  connection.rollback_if_open();
  return status;
}

Status read_limit(Connection& connection, const std::string& account, LimitResult* out) {
  *out = LimitResult{};
  Status status = read_into(connection, account, &out->account_found, &out->before_minor);
  out->after_minor = out->before_minor;
  return status;
}

}  // namespace idemlab
