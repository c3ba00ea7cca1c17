// The three limit changes, each one named statement inside a writing transaction, with the limit
// read before and after it so that the caller can say what a repeat did.
#include "ledger/account_limit.h"

#include "ledger/ledger.h"

namespace idemlab {

namespace {

Stmt change_statement(LimitChange change) {
  switch (change) {
    case LimitChange::kSet:
      return Stmt::kSetLimit;
    case LimitChange::kRaise:
      return Stmt::kRaiseLimit;
    case LimitChange::kRemove:
      return Stmt::kRemoveLimit;
  }
  return Stmt::kRemoveLimit;
}

Status read_into(Connection& connection, const std::string& account, bool* found,
                 std::optional<int64_t>* limit) {
  AccountView view;
  Status status = read_account(connection, account, &view);
  *found = view.found;
  *limit = view.limit_minor;
  return status;
}

Status apply(Connection& connection, const Clock& clock, LimitChange change,
             const std::string& account, int64_t amount_minor, LimitResult* out) {
  if (Status status = read_into(connection, account, &out->account_found, &out->before_minor);
      !status.is_ok() || !out->account_found)
    return status;
  StepResult result =
      connection.run(change_statement(change),
                     {{":account", account}, {":amount", amount_minor}, {":now", clock.now_ms()}});
  if (!result.ok()) return step_error(connection, result);
  bool found = false;
  return read_into(connection, account, &found, &out->after_minor);
}

}  // namespace

Status change_limit(Connection& connection, const Clock& clock, LimitChange change,
                    const std::string& account, int64_t amount_minor, LimitResult* out) {
  *out = LimitResult{};
  if (StepResult begun = connection.run(Stmt::kBeginImmediate, {}); !begun.ok())
    return step_error(connection, begun);
  Status status = apply(connection, clock, change, account, amount_minor, out);
  if (status.is_ok())
    if (StepResult committed = connection.run(Stmt::kCommit, {}); !committed.ok())
      status = step_error(connection, committed);
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
