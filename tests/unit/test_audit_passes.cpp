// Tests for ledger/audit_passes: the flows' one pass finds what the four queries that set the
// flows against the journal find, on any mix of rows.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <rapidcheck.h>

#include <algorithm>

#include "ledger/audit.h"
#include "ledger/flow_tally.h"
#include "scratch.h"

using namespace idemlab;
using idemlab::test::LedgerFile;

namespace {

// Every violation as one line, sorted: the pass lists in request order, a query in its own.
std::vector<std::string> audited(Connection& connection, bool flow_pass) {
  AuditSettings settings;
  settings.flow_pass = flow_pass;
  AuditReport report;
  REQUIRE(audit_ledger(connection, settings, &report).is_ok());
  std::vector<std::string> lines;
  for (const Violation& v : report.violations)
    lines.push_back(fmt::format("{} {} {}: {}", v.kind, v.source, v.biz_seq, v.detail));
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::string flow_row(const std::string& source, const std::string& biz_seq, int status,
                     const std::string& outcome) {
  return fmt::format(
      "INSERT INTO transfer_flow (source, biz_seq, from_account, to_account, amount_minor, "
      "status, unique_key, strategy, outcome, created_at_ms, updated_at_ms) VALUES "
      "('{}', {}, 'alice', 'bob', 1, {}, 0, 'test', {}, 0, 0);",
      source, biz_seq, status, outcome);
}

std::string journal_row(const std::string& source, const std::string& biz_seq, bool debit) {
  return fmt::format(
      "INSERT INTO journal (source, biz_seq, account, side, amount_minor, created_at_ms) "
      "VALUES ('{}', '{}', '{}', '{}', 1, 0);",
      source, biz_seq, debit ? "alice" : "bob", debit ? "debit" : "credit");
}

}  // namespace

TEST_CASE("the flows' one pass finds what the queries find, on any mix of rows") {
  // Rows of two sources under a few keys, some with none, some repeated, in every status and
  // outcome, and journal entries of some of the same keys: the violations both ways, line for
  // line. (It found that a row with no key is one the queries report as moving no money.)
  LedgerFile ledger;
  Connection connection = ledger.open();
  const std::vector<std::string> sources{"api", "batch"};
  const std::vector<std::string> keys{"'r1'", "'r2'", "'r3'", "'r10'", "NULL"};
  const std::vector<std::string> outcomes{"'applied'", "'rejected'", "NULL"};
  bool ok = rc::check("pass and queries agree", [&] {
    std::string script = "DELETE FROM transfer_flow; DELETE FROM journal;";
    const int flows = *rc::gen::inRange(0, 12);
    for (int i = 0; i < flows; ++i)
      script += flow_row(*rc::gen::elementOf(sources), *rc::gen::elementOf(keys),
                         *rc::gen::inRange(0, 4), *rc::gen::elementOf(outcomes));
    const int entries = *rc::gen::inRange(0, 12);
    for (int i = 0; i < entries; ++i) {
      std::string key = *rc::gen::elementOf(keys);
      if (key == "NULL") continue;  // a journal entry always names its request
      script += journal_row(*rc::gen::elementOf(sources), key.substr(1, key.size() - 2),
                            *rc::gen::arbitrary<bool>());
    }
    RC_ASSERT(connection.exec_script(script.c_str()).is_ok());
    const auto by_pass = audited(connection, true);
    RC_ASSERT(by_pass == audited(connection, false));
  });
  CHECK(ok);
}

TEST_CASE("the flows' one pass hands on each request once, in order, with its counts") {
  LedgerFile ledger;
  Connection connection = ledger.open();
  REQUIRE(
      connection
          .exec_script((flow_row("api", "'r2'", 3, "'rejected'") +
                        flow_row("api", "'r1'", 2, "'applied'") +
                        flow_row("batch", "'r1'", 2, "'rejected'") +
                        flow_row("api", "'r1'", 2, "'applied'") +
                        flow_row("api", "NULL", 2, "'applied'") + journal_row("api", "r2", true))
                           .c_str())
          .is_ok());
  std::vector<std::string> seen;
  REQUIRE(tally_flows(connection, [&](const RequestFlows& r) {
            seen.push_back(fmt::format("{}/{}: {} {} {} {} {}", r.source,
                                       r.keyed ? r.biz_seq : "(no key)", r.rows, r.succeeded,
                                       r.applied, r.failed, r.moved));
          }).is_ok());
  // SQLite puts NULL first.
  CHECK(seen == std::vector<std::string>{"api/(no key): 1 1 1 0 false", "api/r1: 2 2 2 0 false",
                                         "api/r2: 1 0 0 1 true", "batch/r1: 1 1 0 0 false"});
}
