// Tests for ledger/audit: each check fires on the damage it names and stays quiet otherwise.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ledger/audit.h"
#include "ledger/journal_tally.h"
#include "scratch.h"

using namespace idemlab;
using idemlab::test::LedgerFile;

namespace {
bool has(const AuditReport& report, std::string_view kind) {
  return std::any_of(report.violations.begin(), report.violations.end(),
                     [&](const Violation& v) { return v.kind == kind; });
}
bool warns(const AuditReport& report, std::string_view kind) {
  return std::any_of(report.warnings.begin(), report.warnings.end(),
                     [&](const Violation& v) { return v.kind == kind; });
}
AuditSettings at(int64_t now_ms, int64_t stale_after_ms) {
  AuditSettings settings;
  settings.now_ms = now_ms;
  settings.stale_after_ms = stale_after_ms;
  return settings;
}
AuditReport audit(const LedgerFile& ledger, const AuditSettings& clock = {}) {
  Connection connection = ledger.open();
  AuditReport report;
  REQUIRE(audit_ledger(connection, clock, &report).is_ok());
  return report;
}
const char* kOneTransfer =
    "BEGIN;"
    "UPDATE account SET balance_minor = balance_minor - 100 WHERE name = 'alice';"
    "UPDATE account SET balance_minor = balance_minor + 100 WHERE name = 'bob';"
    "INSERT INTO journal (biz_seq, account, side, amount_minor, created_at_ms) VALUES "
    "('r1', 'alice', 'debit', 100, 0), ('r1', 'bob', 'credit', 100, 0);"
    "INSERT INTO transfer_flow (biz_seq, from_account, to_account, amount_minor, status, "
    "unique_key, strategy, outcome, created_at_ms, updated_at_ms) VALUES "
    "('r1', 'alice', 'bob', 100, 2, 1, 'test', 'applied', 0, 0);"
    "COMMIT;";
}  // namespace

TEST_CASE("a fresh ledger and a ledger with one clean transfer pass the audit") {
  LedgerFile ledger;
  CHECK(audit(ledger).ok());
  ledger.open().exec_script(kOneTransfer);
  AuditReport report = audit(ledger);
  CHECK(report.ok());
  CHECK(report.requests_applied == 1);
  CHECK(report.times_money_moved == 1);
  CHECK(report.journal_entries == 2);
}

TEST_CASE("a transfer applied twice is reported") {
  LedgerFile ledger;
  Connection connection = ledger.open();
  connection.exec_script(kOneTransfer);
  connection.exec_script(
      "UPDATE account SET balance_minor = balance_minor - 100 WHERE name = 'alice';"
      "UPDATE account SET balance_minor = balance_minor + 100 WHERE name = 'bob';"
      "INSERT INTO journal (biz_seq, account, side, amount_minor, created_at_ms) VALUES "
      "('r1', 'alice', 'debit', 100, 0), ('r1', 'bob', 'credit', 100, 0);");
  AuditReport report = audit(ledger);
  CHECK(has(report, "applied_more_than_once"));
  CHECK_FALSE(has(report, "money_not_conserved"));
}

TEST_CASE("money created from nothing and a balance off the journal are reported") {
  LedgerFile ledger;
  ledger.open().exec_script(
      "UPDATE account SET balance_minor = balance_minor + 1 WHERE name = 'bob'");
  AuditReport report = audit(ledger);
  CHECK(has(report, "money_not_conserved"));
  CHECK(has(report, "balance_disagrees_with_journal"));
}

TEST_CASE("a journal pair without a flow, and a half entry, are reported") {
  LedgerFile ledger;
  ledger.open().exec_script(
      "INSERT INTO journal (biz_seq, account, side, amount_minor, created_at_ms) VALUES "
      "('lonely', 'alice', 'debit', 5, 0);");
  AuditReport report = audit(ledger);
  CHECK(has(report, "journal_without_flow"));
  CHECK(has(report, "unbalanced_entry"));
}

TEST_CASE("a dedup record with no answer is a warning once it is older than the threshold") {
  LedgerFile ledger;
  ledger.open().exec_script(
      "INSERT INTO dedup (dedup_key, source, biz_seq, strategy, payload, created_at_ms) "
      "VALUES ('api:r9', 'api', 'r9', 'dedup-table', 'x', 0)");
  CHECK_FALSE(warns(audit(ledger, at(59'999, 60'000)), "unanswered_dedup_record"));
  const AuditReport late = audit(ledger, at(60'000, 60'000));
  CHECK(warns(late, "unanswered_dedup_record"));
  CHECK(late.ok());  // a warning, not a violation
}

TEST_CASE("an expired lock row left behind is a warning") {
  LedgerFile ledger;
  ledger.open().exec_script("INSERT INTO lock VALUES ('transfer:api:r1', 100, 0, 'pid-1')");
  CHECK_FALSE(warns(audit(ledger, at(99, 60'000)), "expired_lock"));
  CHECK(warns(audit(ledger, at(100, 60'000)), "expired_lock"));
}

TEST_CASE("requests of two sources with one serial number are two requests") {
  LedgerFile ledger;
  ledger.open().exec_script(
      "INSERT INTO journal (source, biz_seq, account, side, amount_minor, created_at_ms) VALUES "
      "('api', 'r1', 'alice', 'debit', 1, 0), ('api', 'r1', 'bob', 'credit', 1, 0), "
      "('batch', 'r1', 'alice', 'debit', 1, 0), ('batch', 'r1', 'bob', 'credit', 1, 0)");
  const AuditReport report = audit(ledger);
  CHECK_FALSE(has(report, "applied_more_than_once"));
  CHECK(report.requests_applied == 2);
  CHECK(report.times_money_moved == 2);
}

TEST_CASE("the journal's one pass hands on each request once, in order, with its sums") {
  LedgerFile ledger;
  Connection connection = ledger.open();
  REQUIRE(connection
              .exec_script(
                  "INSERT INTO journal (source, biz_seq, account, side, amount_minor, "
                  "created_at_ms) VALUES "
                  "('api', 'r2', 'alice', 'debit', 50, 0), ('api', 'r1', 'alice', 'debit', 100, 0),"
                  "('batch', 'r1', 'carol', 'debit', 7, 0), ('api', 'r2', 'bob', 'credit', 50, 0),"
                  "('api', 'r1', 'bob', 'credit', 100, 0), ('api', 'r1', 'alice', 'debit', 100, 0),"
                  "('batch', 'r1', 'bob', 'credit', 7, 0)")
              .is_ok());
  std::vector<std::string> seen;
  JournalTotals totals;
  REQUIRE(tally_journal(
              connection,
              [&](const RequestEntries& r) {
                seen.push_back(fmt::format("{}/{}: {} {} {} {}", r.source, r.biz_seq, r.debit_minor,
                                           r.credit_minor, r.debits, r.credits));
              },
              &totals)
              .is_ok());
  CHECK(seen ==
        std::vector<std::string>{"api/r1: 200 100 2 1", "api/r2: 50 50 1 1", "batch/r1: 7 7 1 1"});
  CHECK(totals.requests == 3);
  CHECK(totals.debits == 4);
  CHECK(totals.entries == 7);
  CHECK(totals.account_delta ==
        std::map<std::string, int64_t>{{"alice", -250}, {"bob", 157}, {"carol", -7}});
  // The audit reads the same pass: r1 is unbalanced and moved money twice.
  const AuditReport report = audit(ledger);
  const auto detail = [&](std::string_view kind) {
    for (const Violation& v : report.violations)
      if (v.kind == kind) return v.source + " " + v.biz_seq + ": " + v.detail;
    return std::string();
  };
  CHECK(detail("unbalanced_entry") == "api r1: biz_seq r1: debits 200, credits 100");
  CHECK(detail("applied_more_than_once") == "api r1: biz_seq r1 moved money 2 times");
  CHECK(detail("balance_disagrees_with_journal") ==
        " : account alice: balance 100000, opening 100000 plus journal -250");
  CHECK(report.requests_applied == 3);
  CHECK(report.times_money_moved == 4);
}

TEST_CASE("a check lists its first 100 findings and counts the rest") {
  LedgerFile ledger;
  Connection connection = ledger.open();
  REQUIRE(connection
              .exec_script("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                           "WHERE i < 103) INSERT INTO journal (biz_seq, account, side, "
                           "amount_minor, created_at_ms) SELECT 'r' || i, 'alice', 'debit', 1, 0 "
                           "FROM n")
              .is_ok());
  const AuditReport report = audit(ledger);
  int unbalanced = 0;
  std::string last;
  for (const Violation& v : report.violations)
    if (v.kind == "unbalanced_entry") ++unbalanced, last = v.detail;
  CHECK(unbalanced == kMaxViolationsPerCheck + 1);
  CHECK(last == "... and 3 more");
}
