// The audit's checks, each one SQL query whose rows are violations.
#include "ledger/audit.h"

#include <fmt/format.h>

#include <array>

#include "ledger/money.h"

namespace idemlab {

namespace {

struct Check {
  const char* kind;
  const char* sql;  // each row: the request it concerns (source, biz_seq, or NULLs) and a text
};

// How a request is named in a detail: its biz_seq, with its source in front unless it is the
// default one.
#define REQUEST_LABEL(source, biz_seq) \
  "CASE WHEN " source " = 'api' THEN " biz_seq " ELSE " source " || '/' || " biz_seq " END"
#define LABEL REQUEST_LABEL("source", "biz_seq")
#define SAME_REQUEST(a, b) a ".source = " b ".source AND " a ".biz_seq = " b ".biz_seq"

constexpr std::array kChecks{
    Check{"money_not_conserved",
          "SELECT NULL, NULL, printf('balances sum to %d, opening balances to %d', "
          "sum(balance_minor), sum(opening_balance_minor)) FROM account "
          "HAVING sum(balance_minor) != sum(opening_balance_minor)"},
    Check{"negative_balance",
          "SELECT NULL, NULL, printf('account %s has balance %d', name, balance_minor) "
          "FROM account WHERE balance_minor < 0"},
    Check{"balance_disagrees_with_journal",
          "SELECT NULL, NULL, printf('account %s: balance %d, opening %d plus journal %d', "
          "a.name, a.balance_minor, a.opening_balance_minor, coalesce(j.delta, 0)) FROM account a "
          "LEFT JOIN (SELECT account, sum(CASE side WHEN 'credit' THEN amount_minor "
          "ELSE -amount_minor END) AS delta FROM journal GROUP BY account) j "
          "ON j.account = a.name WHERE a.balance_minor != a.opening_balance_minor + "
          "coalesce(j.delta, 0)"},
    Check{"unbalanced_entry",
          "SELECT source, biz_seq, printf('biz_seq %s: debits %d, credits %d', " LABEL ", "
          "sum(CASE side WHEN 'debit' THEN amount_minor ELSE 0 END), "
          "sum(CASE side WHEN 'credit' THEN amount_minor ELSE 0 END)) FROM journal "
          "GROUP BY source, biz_seq HAVING sum(CASE side WHEN 'debit' THEN amount_minor ELSE 0 "
          "END) != sum(CASE side WHEN 'credit' THEN amount_minor ELSE 0 END) "
          "OR sum(side = 'debit') != sum(side = 'credit')"},
    Check{"applied_more_than_once",
          "SELECT source, biz_seq, printf('biz_seq %s moved money %d times', " LABEL ", "
          "sum(side = 'debit')) FROM journal GROUP BY source, biz_seq "
          "HAVING sum(side = 'debit') > 1"},
    Check{"duplicate_flow",
          "SELECT source, biz_seq, printf('biz_seq %s has %d flow rows', " LABEL ", count(*)) "
          "FROM transfer_flow WHERE biz_seq IS NOT NULL GROUP BY source, biz_seq "
          "HAVING count(*) > 1"},
    Check{"journal_without_flow",
          "SELECT source, biz_seq, printf('biz_seq %s moved money but no flow row says it "
          "succeeded', " LABEL ") FROM (SELECT DISTINCT source, biz_seq FROM journal) j "
          "WHERE NOT EXISTS (SELECT 1 FROM transfer_flow f WHERE " SAME_REQUEST(
              "f", "j") " "
                        "AND f.status = 2)"},
    Check{
        "flow_without_journal",
        "SELECT source, biz_seq, printf('biz_seq %s is marked succeeded but moved no money', " LABEL
        ") FROM transfer_flow f WHERE status = 2 AND outcome = 'applied' AND NOT EXISTS "
        "(SELECT 1 FROM journal j WHERE " SAME_REQUEST("j", "f") ")"},
    Check{"rejected_flow_with_journal",
          "SELECT source, biz_seq, printf('biz_seq %s is marked failed but moved money', " LABEL
          ") FROM transfer_flow f WHERE status = 3 AND EXISTS "
          "(SELECT 1 FROM journal j WHERE " SAME_REQUEST("j", "f") ")"},
    Check{"flow_without_key",
          "SELECT source, NULL, printf('%d flow rows of source %s carry no key: a unique index "
          "stops none of their repeats', count(*), source) FROM transfer_flow "
          "WHERE biz_seq IS NULL GROUP BY source"},
};

// Warnings: leftovers that are not wrong in themselves but cost retries or storage. Each query
// takes :now and :stale_ms.
constexpr std::array kWarnings{
    Check{"expired_lock",
          "SELECT NULL, NULL, printf('lock %s expired at %d ms and was never released (held by "
          "%s)', name, lock_until_ms, locked_by) FROM lock WHERE lock_until_ms <= :now"},
    Check{"unanswered_dedup_record",
          "SELECT source, biz_seq, printf('biz_seq %s has a dedup record %d ms old and no "
          "answer: every retry is refused as a repeat', " LABEL ", :now - created_at_ms) "
          "FROM dedup d WHERE created_at_ms <= :now - :stale_ms AND NOT EXISTS (SELECT 1 FROM "
          "transfer_flow f WHERE " SAME_REQUEST("f", "d") " AND f.status IN (2, 3))"},
};

// SQLite's own check comes first: on a damaged file the other checks could fail or mislead, so
// its messages are then the whole report.
bool file_intact(Connection& connection, AuditReport* report) {
  StepResult integrity = connection.query("PRAGMA integrity_check", {}, [&](const Row& row) {
    if (as_text(row[0]) != "ok")
      report->violations.push_back({"integrity", "", "", as_text(row[0])});
  });
  if (!integrity.ok())
    report->violations.push_back(
        {"integrity", "", "", fmt::format("{}: {}", connection.path(), integrity.error)});
  return report->violations.empty();
}

// Runs one check; its rows (at most kMaxViolationsPerCheck, then a count) go to `out`.
Status run_check(Connection& connection, const Check& check, const Binds& binds,
                 std::vector<Violation>* out) {
  int listed = 0;
  StepResult result = connection.query(check.sql, binds, [&](const Row& row) {
    if (listed++ < kMaxViolationsPerCheck)
      out->push_back({check.kind, as_text(row[0]), as_text(row[1]), as_text(row[2])});
  });
  if (result.code == StepCode::kDamaged) {
    out->push_back({"integrity", "", "", fmt::format("{}: {}", connection.path(), result.error)});
    return Status::ok();
  }
  if (!result.ok())
    return Status::internal(fmt::format("audit check {} failed: {}", check.kind, result.error));
  if (listed > kMaxViolationsPerCheck)
    out->push_back(
        {check.kind, "", "", fmt::format("... and {} more", listed - kMaxViolationsPerCheck)});
  return Status::ok();
}

}  // namespace

Status audit_ledger(Connection& connection, const AuditClock& clock, AuditReport* out) {
  AuditReport report;
  if (!file_intact(connection, &report)) {
    *out = std::move(report);
    return Status::ok();
  }
  for (const Check& check : kChecks)
    if (Status status = run_check(connection, check, {}, &report.violations); !status.is_ok())
      return status;
  const Binds binds{{":now", clock.now_ms}, {":stale_ms", clock.stale_after_ms}};
  for (const Check& check : kWarnings)
    if (Status status = run_check(connection, check, binds, &report.warnings); !status.is_ok())
      return status;
  StepResult counted = connection.query(
      "SELECT (SELECT count(*) FROM (SELECT DISTINCT source, biz_seq FROM journal)), "
      "(SELECT count(*) FROM journal WHERE side = 'debit'), (SELECT count(*) FROM journal)",
      {}, [&](const Row& row) {
        report.requests_applied = as_int(row[0]);
        report.times_money_moved = as_int(row[1]);
        report.journal_entries = as_int(row[2]);
      });
  if (!counted.ok()) return step_error(connection, counted);
  *out = std::move(report);
  return Status::ok();
}

}  // namespace idemlab
