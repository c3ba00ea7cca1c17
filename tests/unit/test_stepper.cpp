// Tests for sim/stepper: two duplicate attempts forced through the overlapping interleaving,
// on two real SQLite connections to a scratch ledger, as the simulator and the explorer race them.
// Safe strategies move money once; pitfalls move it twice.
#include <doctest/doctest.h>

#include "sim/shared/scratch_ledger.h"
#include "strategies/strategy.h"
#include "strategy_harness.h"

using namespace idemlab;
using namespace idemlab::test;

namespace {

struct Race {
  Race() {
    REQUIRE(ScratchLedger::create({{"alice", 100000}, {"bob", 0}, {"carol", 500}}, &ledger, &first)
                .is_ok());
    Result<Connection> connected = ledger.connect();
    REQUIRE(connected.is_ok());
    second = std::move(connected).value();
  }
  ScratchLedger ledger;
  Connection first;
  Connection second;
  ManualClock clock{1'000'000};
  Stepper stepper;

  // Both attempts run up to the strategy's critical step, then both run to their end.
  int64_t overlap(const Strategy& strategy, bool pitfall) {
    StrategyOptions options;
    options.pitfall = pitfall ? main_pitfall(strategy.info()) : Pitfall::kNone;
    options.token = fresh_token(first, clock);
    const TransferRequest req = request("twin");
    options.owner = "a";
    size_t a = stepper.start(first, clock, strategy, options, req);
    options.owner = "b";
    size_t b = stepper.start(second, clock, strategy, options, req);
    std::string_view critical = slow_default_step(strategy.info(), options.pitfall);
    run_until(stepper, a, critical);
    run_until(stepper, b, critical);
    run_all(stepper);
    return journal_pairs(first, "twin");
  }
};

}  // namespace

TEST_CASE("overlapping twins move money exactly once with every safe strategy") {
  for (const Strategy* strategy : all_strategies()) {
    if (!strategy->info().guarded) continue;
    CAPTURE(strategy->info().name);
    Race race;
    CHECK(race.overlap(*strategy, false) == 1);
    for (size_t i = 0; i < 2; ++i) {
      Outcome outcome = race.stepper.answer(i).outcome;
      CHECK((outcome == Outcome::kApplied || outcome == Outcome::kInProgress));
    }
  }
}

TEST_CASE("overlapping twins move money twice under each race-exposed pitfall and naive") {
  for (const char* name : {"select-insert", "direct-insert", "state-machine", "token",
                           "select-for-update", "optimistic-lock", "naive"}) {
    CAPTURE(name);
    Race race;
    CHECK(race.overlap(*find_strategy(name), true) == 2);
  }
}

TEST_CASE("a twin waits for the write lock the first attempt holds") {
  Race race;
  const Strategy& strategy = *find_strategy("select-for-update");
  StrategyOptions options;
  size_t a = race.stepper.start(race.first, race.clock, strategy, options, request("t"));
  size_t b = race.stepper.start(race.second, race.clock, strategy, options, request("t"));
  run_until(race.stepper, a, "select_flow");  // a holds BEGIN IMMEDIATE
  CHECK(race.stepper.pending(b).step == "check_accounts");
  race.stepper.advance(b);
  CHECK(race.stepper.pending(b).step == "begin");
  StepResult busy = race.stepper.advance(b).result;  // really tried: SQLite says busy
  CHECK(busy.code == StepCode::kBusy);
  CHECK(race.stepper.pending(b).step == "begin");
  run_all(race.stepper);
  CHECK(race.stepper.answer(a).outcome == Outcome::kApplied);
  CHECK(race.stepper.answer(b).outcome == Outcome::kApplied);
  CHECK(race.stepper.answer(b).replayed);
}

TEST_CASE("lock-table: a TTL shorter than the work doubles only without owner checks") {
  for (bool pitfall : {false, true}) {
    CAPTURE(pitfall);
    Race race;
    const Strategy& strategy = *find_strategy("lock-table");
    StrategyOptions options;
    options.pitfall = pitfall ? main_pitfall(strategy.info()) : Pitfall::kNone;
    options.lock_ttl_ms = 50;
    options.owner = "a";
    size_t a = race.stepper.start(race.first, race.clock, strategy, options, request("t"));
    run_until(race.stepper, a, "begin");  // a holds the lock and found no record
    race.clock.advance_ms(100);           // a is slow: its lock expires
    options.owner = "b";
    size_t b = race.stepper.start(race.second, race.clock, strategy, options, request("t"));
    run_until(race.stepper, b, "begin");  // b takes the expired lock, finds no record
    run_all(race.stepper);
    // With owner checks, a finds the lock is b's and stands down; b moves the money once.
    CHECK(journal_pairs(race.first, "t") == (pitfall ? 2 : 1));
    if (!pitfall) CHECK(race.stepper.answer(a).outcome == Outcome::kInProgress);
  }
}

TEST_CASE("dedup-table: a crash between the two transactions leaves the request stuck") {
  for (bool pitfall : {false, true}) {
    CAPTURE(pitfall);
    Race race;
    const Strategy& strategy = *find_strategy("dedup-table");
    StrategyOptions options;
    options.pitfall = pitfall ? main_pitfall(strategy.info()) : Pitfall::kNone;
    size_t a = race.stepper.start(race.first, race.clock, strategy, options, request("t"));
    run_until(race.stepper, a, "insert_dedup");
    race.stepper.advance(a);  // the dedup row is written (committed, with --pitfall)
    race.stepper.kill(a);     // the server dies
    Answer retry = attempt_once(race.second, race.clock, strategy, request("t"), options);
    if (pitfall) {
      CHECK(retry.outcome == Outcome::kInProgress);
      CHECK(journal_pairs(race.first, "t") == 0);
    } else {
      CHECK(retry.outcome == Outcome::kApplied);
      CHECK(journal_pairs(race.first, "t") == 1);
    }
  }
}
