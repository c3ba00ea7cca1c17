// Tests for attempt/direct: faults in one attempt.
#include <doctest/doctest.h>

#include "strategies/strategy.h"
#include "strategy_harness.h"

using namespace idemlab;
using namespace idemlab::test;

namespace {
AttemptReport run_with(LedgerFile& ledger, const char* strategy, const char* fault) {
  Connection connection = ledger.open();
  ManualClock clock(5000);
  AttemptSetup setup;
  setup.strategy = find_strategy(strategy);
  setup.request = request("r1");
  setup.options.owner = "t";
  FaultSpec spec;
  REQUIRE(parse_fault(fault, &spec).is_ok());
  setup.faults.push_back(spec);
  REQUIRE(check_attempt_faults(setup).is_ok());
  AttemptReport report;
  REQUIRE(run_direct_attempt(connection, clock, setup, &report).is_ok());
  return report;
}
}  // namespace

TEST_CASE("a lost request changes nothing and reads as a timeout") {
  LedgerFile ledger;
  AttemptReport report = run_with(ledger, "select-insert", "request-lost");
  CHECK(report.answer.outcome == Outcome::kTimeout);
  CHECK(report.answer.reason == "request_lost");
  CHECK(journal_pairs(ledger, "r1") == 0);
  CHECK(ledger.scalar("SELECT count(*) FROM attempt") == 0);
}

TEST_CASE("a lost response reads as a timeout although the money moved") {
  LedgerFile ledger;
  AttemptReport report = run_with(ledger, "select-insert", "response-lost");
  CHECK(report.answer.outcome == Outcome::kTimeout);
  CHECK(report.server_answer.outcome == Outcome::kApplied);
  CHECK(journal_pairs(ledger, "r1") == 1);
  CHECK(ledger.scalar("SELECT count(*) FROM attempt WHERE fault = 'response-lost'") == 1);
}

TEST_CASE("faults that need a simulation, p=, nth= and unknown steps are refused") {
  AttemptSetup setup;
  setup.strategy = find_strategy("select-insert");
  for (const char* text :
       {"redeliver", "double-submit", "busy:ms=5", "short-ttl:ms=5", "response-lost:p=0.5",
        "request-lost:nth=2", "crash:after=nowhere", "slow:ms=5,at=nowhere"}) {
    CAPTURE(text);
    FaultSpec spec;
    REQUIRE(parse_fault(text, &spec).is_ok());
    setup.faults = {spec};
    CHECK(check_attempt_faults(setup).code() == StatusCode::kUsage);
  }
}

TEST_CASE("one attempt takes one crash and one slow fault, not two of a kind") {
  AttemptSetup setup;
  setup.strategy = find_strategy("select-insert");
  const auto with = [&](std::initializer_list<const char*> texts) {
    setup.faults.clear();
    for (const char* text : texts) {
      FaultSpec spec;
      REQUIRE(parse_fault(text, &spec).is_ok());
      setup.faults.push_back(spec);
    }
    return check_attempt_faults(setup).code();
  };
  CHECK(with({"slow:ms=5", "crash:after=insert_flow"}) == StatusCode::kOk);
  CHECK(with({"slow:ms=5", "slow:ms=7"}) == StatusCode::kUsage);
  CHECK(with({"crash:after=insert_flow", "crash:after=debit"}) == StatusCode::kUsage);
}
