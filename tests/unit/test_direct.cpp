// Tests for attempt/direct: faults in one attempt.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "attempt/fault_check.h"
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
  REQUIRE(check_faults(Surface::kOneAttempt, setup.faults, setup.strategy, Pitfall::kNone).is_ok());
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

TEST_CASE("a crash after the money's commit leaves the attempt in the log, then kills") {
  LedgerFile ledger;
  // The crash is a real SIGKILL: it runs in a child process, and the ledger is read after.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    Connection connection = ledger.open();
    ManualClock clock(5000);
    AttemptSetup setup;
    setup.strategy = find_strategy("select-insert");
    setup.request = request("r1");
    setup.options.owner = "t";
    FaultSpec spec;
    if (!parse_fault("crash:after=after-commit", &spec).is_ok()) _exit(3);
    setup.faults.push_back(spec);
    AttemptReport report;
    (void)run_direct_attempt(connection, clock, setup, &report);
    _exit(0);  // not reached: the fault kills the process
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  CHECK(journal_pairs(ledger, "r1") == 1);
  CHECK(ledger.scalar("SELECT count(*) FROM attempt WHERE outcome = 'applied' AND fault = "
                      "'crash:after=after-commit'") == 1);
}
