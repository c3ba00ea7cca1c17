// Tests for attempt/fault_site: where a crash or slow fault lands against an attempt's steps,
// the one decision both drivers act on.
#include <doctest/doctest.h>

#include "attempt/fault_site.h"

using namespace idemlab;

namespace {
FaultSpec fault(const char* text) {
  FaultSpec spec;
  REQUIRE(parse_fault(text, &spec).is_ok());
  return spec;
}
PendingStep step(std::string_view name, Stmt stmt) {
  return PendingStep{name, stmt, {}, {}};
}
}  // namespace

TEST_CASE("a slow fault pauses once, before its step, or before the strategy's race") {
  const FaultSpec named = fault("slow:ms=40,at=insert_flow");
  FaultSites sites("select_flow", Phase::kNone);
  sites.arm(named);
  CHECK(sites.pause_before(step("select_flow", Stmt::kSelectFlow)) == 0);
  CHECK(sites.pause_before(step("insert_flow", Stmt::kInsertFlow)) == 40);
  CHECK(sites.pause_site() == "insert_flow");
  CHECK(sites.pause_before(step("insert_flow", Stmt::kInsertFlow)) == 0);  // once
  const FaultSpec plain = fault("slow:ms=40");
  FaultSites race("select_flow", Phase::kNone);
  race.arm(plain);
  CHECK(race.pause_before(step("select_flow", Stmt::kSelectFlow)) == 40);
}

TEST_CASE("a simulated slow fault with no at= pauses at one phase for every strategy") {
  const FaultSpec plain = fault("slow:ms=40");
  FaultSites simulated("select_flow", kSimulatedSlowPhase);
  simulated.arm(plain);
  CHECK(simulated.pause_site() == phase_name(kSimulatedSlowPhase));
  CHECK(simulated.pause_before(step("select_flow", Stmt::kSelectFlow)) == 0);
  simulated.ran(Stmt::kSelectFlow, {}, false, false);
  CHECK(simulated.pause_before(step("begin", Stmt::kBeginImmediate)) == 40);  // before-guard
  // at=critical names the strategy's own race instead, in either mode.
  const FaultSpec critical = fault("slow:ms=40,at=critical");
  CHECK(critical.step.empty());
  CHECK(critical.phase == Phase::kNone);
  FaultSites race("select_flow", kSimulatedSlowPhase);
  race.arm(critical);
  CHECK(race.pause_site() == "select_flow");
  CHECK(race.pause_before(step("select_flow", Stmt::kSelectFlow)) == 40);
}

TEST_CASE("a fault at a phase lands where that phase opens, whatever the steps are called") {
  const FaultSpec crash = fault("crash:after=holding-guard");
  FaultSites sites;
  sites.arm(crash);
  CHECK_FALSE(sites.crash_before(step("begin", Stmt::kBeginImmediate)));
  sites.ran(Stmt::kBeginImmediate, {}, true, false);
  CHECK(sites.crash_before(step("debit", Stmt::kDebit)));
  const FaultSpec after_commit = fault("slow:ms=9,at=after-commit");
  FaultSites slow;
  slow.arm(after_commit);
  CHECK(slow.pause_before(step("debit", Stmt::kDebit)) == 0);
  slow.ran(Stmt::kDebit, {}, true, false);
  CHECK(slow.pause_after_commit() == 0);  // not committed yet
  slow.ran(Stmt::kCommit, {}, false, false);
  CHECK(slow.pause_after_commit() == 9);
  CHECK(slow.pause_after_commit() == 0);
}

TEST_CASE("a crash lands after its step, or after the drawn statement, or at the end") {
  const FaultSpec named = fault("crash:after=debit");
  FaultSites sites;
  sites.arm(named);
  sites.ran(Stmt::kBeginImmediate, {}, true, false);
  CHECK_FALSE(sites.crash_after("begin"));
  sites.ran(Stmt::kDebit, {}, true, false);
  CHECK(sites.crash_after("debit"));
  const FaultSpec drawn = fault("crash");
  FaultSites second;
  second.arm(drawn, 2);
  second.ran(Stmt::kSelectFlow, {}, false, false);
  CHECK_FALSE(second.crash_after("select_flow"));
  second.ran(Stmt::kBeginImmediate, {}, true, false);
  CHECK(second.crash_after("begin"));
  FaultSites short_one;
  short_one.arm(drawn, 9);
  short_one.ran(Stmt::kSelectFlow, {}, false, true);  // the attempt ended first
  CHECK(short_one.crash_after("select_flow"));
  FaultSites unarmed;
  unarmed.ran(Stmt::kDebit, {}, true, false);
  CHECK_FALSE(unarmed.crash_after("debit"));
}

TEST_CASE("a failover lands once: after the guard write, after a step, or at a phase") {
  const FaultSpec plain = fault("failover");
  FaultSites sites("begin", Phase::kNone);
  sites.arm(plain);
  CHECK(sites.failover_site() == "the guard write");
  CHECK_FALSE(sites.failover_after("begin", false));
  CHECK(sites.failover_after("consume_token", true));
  CHECK_FALSE(sites.failover_after("consume_token", true));  // once

  const FaultSpec named = fault("failover:after=insert_flow,lag-ms=7");
  FaultSites at_step("begin", Phase::kNone);
  at_step.arm(named);
  CHECK(at_step.failover_lag_ms() == 7);
  CHECK_FALSE(at_step.failover_after("consume_token", true));
  CHECK(at_step.failover_after("insert_flow", false));

  const FaultSpec phased = fault("failover:after=holding-guard");
  FaultSites at_phase("begin", Phase::kNone);
  at_phase.arm(phased);
  CHECK_FALSE(at_phase.failover_before(step("insert_flow", Stmt::kInsertFlow)));
  CHECK(at_phase.failover_before(step("debit", Stmt::kDebit)));
  CHECK(at_phase.failover_site() == "holding-guard");
}

TEST_CASE("a failover of the ledger lands after the commit that moved the money") {
  const FaultSpec ledger = fault("failover:of=ledger,lag-ms=20");
  FaultSites sites("begin", Phase::kNone);
  sites.arm(ledger);
  CHECK(sites.failover_of() == FailoverOf::kLedger);
  CHECK(sites.failover_lag_ms() == 20);
  CHECK(sites.failover_site() == "the commit that moved the money");
  sites.ran(Stmt::kDebit, {}, true, false);
  CHECK_FALSE(sites.failover_after("debit", true));  // a guard write is no commit
  sites.ran(Stmt::kCommit, {}, false, false);
  CHECK(sites.failover_after("commit", false));
  CHECK_FALSE(sites.failover_after("commit", false));  // once
}
