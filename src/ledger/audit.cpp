// The audit's checks, each one SQL query whose rows are violations.
#include "ledger/audit.h"

#include <fmt/format.h>

#include <array>

#include "ledger/money.h"

namespace idemlab {

namespace {

struct Check {
  const char* kind;
  const char* sql;  // each row: the biz_seq it concerns (or NULL), and a text for people
};

constexpr std::array kChecks{
    Check{"money_not_conserved",
          "SELECT NULL, printf('balances sum to %d, opening balances to %d', sum(balance_minor), "
          "sum(opening_balance_minor)) FROM account "
          "HAVING sum(balance_minor) != sum(opening_balance_minor)"},
    Check{"negative_balance",
          "SELECT NULL, printf('account %s has balance %d', name, balance_minor) FROM account "
          "WHERE balance_minor < 0"},
    Check{"balance_disagrees_with_journal",
          "SELECT NULL, printf('account %s: balance %d, opening %d plus journal %d', a.name, "
          "a.balance_minor, a.opening_balance_minor, coalesce(j.delta, 0)) FROM account a "
          "LEFT JOIN (SELECT account, sum(CASE side WHEN 'credit' THEN amount_minor "
          "ELSE -amount_minor END) AS delta FROM journal GROUP BY account) j "
          "ON j.account = a.name WHERE a.balance_minor != a.opening_balance_minor + "
          "coalesce(j.delta, 0)"},
    Check{"unbalanced_entry",
          "SELECT biz_seq, printf('biz_seq %s: debits %d, credits %d', biz_seq, "
          "sum(CASE side WHEN 'debit' THEN amount_minor ELSE 0 END), "
          "sum(CASE side WHEN 'credit' THEN amount_minor ELSE 0 END)) FROM journal "
          "GROUP BY biz_seq HAVING sum(CASE side WHEN 'debit' THEN amount_minor ELSE 0 END) != "
          "sum(CASE side WHEN 'credit' THEN amount_minor ELSE 0 END) "
          "OR sum(side = 'debit') != sum(side = 'credit')"},
    Check{"applied_more_than_once",
          "SELECT biz_seq, printf('biz_seq %s moved money %d times', biz_seq, sum(side = 'debit')) "
          "FROM journal GROUP BY biz_seq HAVING sum(side = 'debit') > 1"},
    Check{"duplicate_flow",
          "SELECT biz_seq, printf('biz_seq %s has %d flow rows', biz_seq, count(*)) FROM "
          "transfer_flow "
          "GROUP BY biz_seq HAVING count(*) > 1"},
    Check{"journal_without_flow",
          "SELECT biz_seq, printf('biz_seq %s moved money but no flow row says it succeeded', "
          "biz_seq) "
          "FROM (SELECT DISTINCT biz_seq FROM journal) j WHERE NOT EXISTS (SELECT 1 FROM "
          "transfer_flow f WHERE f.biz_seq = j.biz_seq AND f.status = 2)"},
    Check{"flow_without_journal",
          "SELECT biz_seq, printf('biz_seq %s is marked succeeded but moved no money', biz_seq) "
          "FROM transfer_flow f WHERE status = 2 AND outcome = 'applied' AND NOT EXISTS "
          "(SELECT 1 FROM journal j WHERE j.biz_seq = f.biz_seq)"},
    Check{"rejected_flow_with_journal",
          "SELECT biz_seq, printf('biz_seq %s is marked failed but moved money', biz_seq) "
          "FROM transfer_flow f WHERE status = 3 AND EXISTS "
          "(SELECT 1 FROM journal j WHERE j.biz_seq = f.biz_seq)"},
    Check{"stuck_dedup_record",
          "SELECT biz_seq, printf('biz_seq %s has a dedup record but no answer: every retry is "
          "blocked', biz_seq) FROM dedup d WHERE NOT EXISTS (SELECT 1 FROM transfer_flow f "
          "WHERE f.biz_seq = d.biz_seq AND f.status IN (2, 3))"},
};

// SQLite's own check comes first: on a damaged file the other checks could fail or mislead, so
// its messages are then the whole report.
bool file_intact(Connection& connection, AuditReport* report) {
  StepResult integrity = connection.query("PRAGMA integrity_check", {}, [&](const Row& row) {
    if (as_text(row[0]) != "ok") report->violations.push_back({"integrity", "", as_text(row[0])});
  });
  if (!integrity.ok())
    report->violations.push_back(
        {"integrity", "", fmt::format("{}: {}", connection.path(), integrity.error)});
  return report->violations.empty();
}

}  // namespace

Status audit_ledger(Connection& connection, AuditReport* out) {
  AuditReport report;
  if (!file_intact(connection, &report)) {
    *out = std::move(report);
    return Status::ok();
  }
  for (const Check& check : kChecks) {
    int listed = 0;
    StepResult result = connection.query(check.sql, {}, [&](const Row& row) {
      if (listed++ < kMaxViolationsPerCheck)
        report.violations.push_back({check.kind, as_text(row[0]), as_text(row[1])});
    });
    if (result.code == StepCode::kDamaged) {
      report.violations.push_back(
          {"integrity", "", fmt::format("{}: {}", connection.path(), result.error)});
      continue;
    }
    if (!result.ok())
      return Status::internal(fmt::format("audit check {} failed: {}", check.kind, result.error));
    if (listed > kMaxViolationsPerCheck)
      report.violations.push_back(
          {check.kind, "", fmt::format("... and {} more", listed - kMaxViolationsPerCheck)});
  }
  StepResult counted = connection.query(
      "SELECT (SELECT count(DISTINCT biz_seq) FROM journal), "
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
