// Tests for sim/scenario.
#include <doctest/doctest.h>

#include "attempt/fault_check.h"
#include "sim/shared/scenario.h"

using namespace idemlab;

TEST_CASE("every built-in scenario parses and names what it exposes") {
  REQUIRE(builtin_scenarios().size() >= 9);
  for (const auto& builtin : builtin_scenarios()) {
    CAPTURE(builtin.name);
    SimConfig config;
    Scenario scenario;
    REQUIRE(parse_scenario(builtin.text, builtin.name, &config, &scenario).is_ok());
    CHECK(scenario.name == builtin.name);
    CHECK_FALSE(scenario.summary.empty());
    CHECK_FALSE(scenario.exposes.empty());
    CHECK(check_faults(Surface::kSimulate, config.faults, nullptr, Pitfall::kNone).is_ok());
  }
}

TEST_CASE("a scenario sets the config; unknown keys and bad faults are refused") {
  SimConfig config;
  REQUIRE(parse_scenario("requests = 12\nseed = 5\nfaults = [\"response-lost:p=0.5\"]\n"
                         "retry = \"attempts=2\"\n",
                         "inline", &config, nullptr)
              .is_ok());
  CHECK(config.requests == 12);
  CHECK(config.seed == 5);
  REQUIRE(config.faults.size() == 1);
  CHECK(config.faults[0].kind == FaultKind::kResponseLost);
  CHECK(config.retry.attempts == 2);
  CHECK(parse_scenario("requets = 12\n", "typo", &config, nullptr).code() == StatusCode::kUsage);
  CHECK(parse_scenario("faults = [\"meteor\"]\n", "bad", &config, nullptr).code() ==
        StatusCode::kUsage);
  CHECK(parse_scenario("requests = [\n", "broken", &config, nullptr).code() == StatusCode::kUsage);
  CHECK(load_scenario("/no/such/scenario.toml", &config, nullptr).code() == StatusCode::kUsage);
}

TEST_CASE("fault steps must belong to some strategy") {
  FaultSpec fault;
  REQUIRE(parse_fault("crash:after=insert_dedup", &fault).is_ok());
  CHECK(check_faults(Surface::kSimulate, {fault}, nullptr, Pitfall::kNone).is_ok());
  REQUIRE(parse_fault("crash:after=nowhere", &fault).is_ok());
  CHECK(check_faults(Surface::kSimulate, {fault}, nullptr, Pitfall::kNone).code() ==
        StatusCode::kUsage);
}

TEST_CASE("a simulation refuses a gate: its twins meet in virtual time") {
  FaultSpec fault;
  REQUIRE(parse_fault("slow:gate=/tmp/g", &fault).is_ok());
  CHECK(check_faults(Surface::kSimulate, {fault}, nullptr, Pitfall::kNone).code() ==
        StatusCode::kUsage);
}
