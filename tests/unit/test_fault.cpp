// Tests for attempt/fault: the NAME[:key=value,...] syntax.
#include <doctest/doctest.h>

#include "attempt/fault.h"

using namespace idemlab;

TEST_CASE("fault specs parse with their parameters") {
  FaultSpec fault;
  REQUIRE(parse_fault("slow:ms=800,at=begin,p=0.05", &fault).is_ok());
  CHECK(fault.kind == FaultKind::kSlow);
  CHECK(fault.ms == 800);
  CHECK(fault.step == "begin");
  CHECK(fault.probability == doctest::Approx(0.05));
  REQUIRE(parse_fault("crash:after=insert_dedup,nth=3", &fault).is_ok());
  CHECK(fault.kind == FaultKind::kCrash);
  CHECK(fault.nth == 3);
  REQUIRE(parse_fault("double-submit", &fault).is_ok());
  CHECK(fault.count == 2);
  REQUIRE(parse_fault("redeliver:k=3", &fault).is_ok());
  CHECK(fault.count == 3);
  REQUIRE(parse_fault("response-lost:p=0.1", &fault).is_ok());
  CHECK(fault.text == "response-lost:p=0.1");
  REQUIRE(parse_fault("failover:after=consume_token,lag-ms=5,p=0.1", &fault).is_ok());
  CHECK(fault.kind == FaultKind::kFailover);
  CHECK(fault.step == "consume_token");
  CHECK(fault.lag_ms == 5);
  REQUIRE(parse_fault("failover:at-ms=100", &fault).is_ok());
  CHECK(fault.at_ms == 100);
  CHECK(fault.of == FailoverOf::kGuards);
  REQUIRE(parse_fault("failover:of=ledger", &fault).is_ok());
  CHECK(fault.of == FailoverOf::kLedger);
  REQUIRE(parse_fault("failover:of=both", &fault).is_ok());
  CHECK((fails_over_guards(fault.of) && fails_over_ledger(fault.of)));
  CHECK_FALSE(fault.lag_given);
  REQUIRE(parse_fault("failover:lag-ms=0", &fault).is_ok());
  CHECK(fault.lag_given);
}

TEST_CASE("a failover's sync= is refused with the topology key that replaces it") {
  FaultSpec fault;
  const Status sync = parse_fault("failover:of=ledger,sync=on", &fault);
  CHECK(sync.code() == StatusCode::kUsage);
  CHECK(sync.message().find("--topology ledger=standby:sync=on") != std::string::npos);
}

TEST_CASE("a fault that became a topology is refused with the topology that replaces it") {
  FaultSpec fault;
  const Status lag = parse_fault("replica-lag:ms=250", &fault);
  CHECK(lag.code() == StatusCode::kUsage);
  CHECK(lag.message().find("--topology ledger=standby:lag-ms=250,reads=standby") !=
        std::string::npos);
  const Status galera = parse_fault("galera:nodes=4,apply-ms=50", &fault);
  CHECK(galera.message().find("--topology ledger=galera:nodes=4,apply-ms=50") != std::string::npos);
  CHECK(parse_fault("galera", &fault).message().find("--topology ledger=galera ") !=
        std::string::npos);
}

TEST_CASE("bad fault specs are usage errors") {
  FaultSpec fault;
  for (const char* text : {"",
                           "meteor",
                           "slow:ms=0",
                           "slow:ms=abc",
                           "crash:after=",
                           "response-lost:p=1.5",
                           "response-lost:p=-0.1",
                           "request-lost:nth=0",
                           "request-lost:ms=5",
                           "slow:ms",
                           "redeliver:k=0",
                           "busy",
                           "short-ttl",
                           "slow:ms=86400001",
                           "double-submit:k=101",
                           "failover:lag-ms=-1",
                           "failover:ms=5",
                           "crash:lag-ms=5",
                           "failover:after=",
                           "failover:at-ms=5,nth=1",
                           "failover:at-ms=5,after=begin",
                           "crash:at-ms=5",
                           "failover:of=disk",
                           "failover:of=",
                           "failover:sync=yes",
                           "crash:of=ledger",
                           "crash:sync=on"}) {
    CAPTURE(text);
    CHECK(parse_fault(text, &fault).code() == StatusCode::kUsage);
  }
}

TEST_CASE("slow without ms= pauses the documented default; crash without after= picks a step") {
  FaultSpec fault;
  REQUIRE(parse_fault("slow", &fault).is_ok());
  CHECK(fault.ms == kDefaultSlowMs);
  REQUIRE(parse_fault("crash:p=0.05", &fault).is_ok());
  CHECK(fault.step.empty());
}

TEST_CASE("slow:gate= waits at a gate, capped at the documented default unless ms= says") {
  FaultSpec fault;
  REQUIRE(parse_fault("slow:gate=/tmp/g,at=critical", &fault).is_ok());
  CHECK(fault.gate == "/tmp/g");
  CHECK(fault.ms == kDefaultGateCapMs);
  CHECK(fault.at_given);
  REQUIRE(parse_fault("slow:gate=/tmp/g,ms=50", &fault).is_ok());
  CHECK(fault.ms == 50);
  CHECK(parse_fault("slow:gate=", &fault).code() == StatusCode::kUsage);
  CHECK(parse_fault("crash:gate=/tmp/g", &fault).code() == StatusCode::kUsage);
}
