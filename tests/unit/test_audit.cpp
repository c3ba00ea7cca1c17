// Tests for ledger/audit: each check fires on the damage it names and stays quiet otherwise.
#include <doctest/doctest.h>

#include <algorithm>

#include "ledger/audit.h"
#include "scratch.h"

using namespace idemlab;
using idemlab::test::ScratchLedger;

namespace {
bool has(const AuditReport& report, std::string_view kind) {
  return std::any_of(report.violations.begin(), report.violations.end(),
                     [&](const Violation& v) { return v.kind == kind; });
}
AuditReport audit(const ScratchLedger& ledger) {
  Connection connection = ledger.open();
  AuditReport report;
  REQUIRE(audit_ledger(connection, &report).is_ok());
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
  ScratchLedger ledger;
  CHECK(audit(ledger).ok());
  ledger.open().exec_script(kOneTransfer);
  AuditReport report = audit(ledger);
  CHECK(report.ok());
  CHECK(report.requests_applied == 1);
  CHECK(report.times_money_moved == 1);
  CHECK(report.journal_entries == 2);
}

TEST_CASE("a transfer applied twice is reported") {
  ScratchLedger ledger;
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
  ScratchLedger ledger;
  ledger.open().exec_script(
      "UPDATE account SET balance_minor = balance_minor + 1 WHERE name = 'bob'");
  AuditReport report = audit(ledger);
  CHECK(has(report, "money_not_conserved"));
  CHECK(has(report, "balance_disagrees_with_journal"));
}

TEST_CASE("a journal pair without a flow, and a half entry, are reported") {
  ScratchLedger ledger;
  ledger.open().exec_script(
      "INSERT INTO journal (biz_seq, account, side, amount_minor, created_at_ms) VALUES "
      "('lonely', 'alice', 'debit', 5, 0);");
  AuditReport report = audit(ledger);
  CHECK(has(report, "journal_without_flow"));
  CHECK(has(report, "unbalanced_entry"));
}

TEST_CASE("a dedup record with no answer is reported as stuck") {
  ScratchLedger ledger;
  ledger.open().exec_script(
      "INSERT INTO dedup (biz_seq, source, payload, created_at_ms) VALUES ('r9', 't', 'x', 0)");
  CHECK(has(audit(ledger), "stuck_dedup_record"));
}
