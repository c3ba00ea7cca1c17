// Tests for every strategy, one attempt at a time: first attempt, replay, mismatch, rejection.
#include <doctest/doctest.h>

#include <map>

#include "strategies/strategy.h"
#include "strategy_harness.h"

using namespace idemlab;
using namespace idemlab::test;

namespace {

struct Fixture {
  LedgerFile ledger;
  Connection connection = ledger.open();
  ManualClock clock{1'000'000};

  Answer attempt(const Strategy& strategy, const TransferRequest& req, bool pitfall = false) {
    StrategyOptions options;
    options.pitfall = pitfall ? main_pitfall(strategy.info()) : Pitfall::kNone;
    if (strategy.info().needs_token) options.token = token_for(req.biz_seq);
    clock.advance_ms(5);
    return attempt_once(connection, clock, strategy, req, options);
  }
  // One token per biz_seq, reused by its retries (as a client keeps its token).
  std::string token_for(const std::string& biz_seq) {
    auto found = tokens.find(biz_seq);
    if (found != tokens.end()) return found->second;
    return tokens[biz_seq] = fresh_token(connection, clock);
  }
  std::map<std::string, std::string> tokens;
};

bool is_unguarded(const Strategy& strategy) {
  return !strategy.info().guarded;
}

}  // namespace

TEST_CASE("the first attempt applies and moves the money once") {
  for (const Strategy* strategy : all_strategies()) {
    CAPTURE(strategy->info().name);
    Fixture f;
    CHECK(f.attempt(*strategy, request("r1")).outcome == Outcome::kApplied);
    CHECK(journal_pairs(f.ledger, "r1") == 1);
    CHECK(f.ledger.scalar("SELECT balance_minor FROM account WHERE name = 'bob'") == 1000);
  }
}

TEST_CASE("a replayed transfer returns the first answer and moves nothing") {
  for (const Strategy* strategy : all_strategies()) {
    if (is_unguarded(*strategy)) continue;
    CAPTURE(strategy->info().name);
    Fixture f;
    REQUIRE(f.attempt(*strategy, request("r1")).outcome == Outcome::kApplied);
    Answer again = f.attempt(*strategy, request("r1"));
    CHECK(again.outcome == Outcome::kApplied);
    CHECK(again.replayed);
    CHECK(again.replayed);
    CHECK(journal_pairs(f.ledger, "r1") == 1);
  }
}

TEST_CASE("naive moves the money again on every repeat") {
  Fixture f;
  const Strategy& naive = *find_strategy("naive");
  f.attempt(naive, request("r1"));
  CHECK(f.attempt(naive, request("r1")).outcome == Outcome::kApplied);
  CHECK(journal_pairs(f.ledger, "r1") == 2);
}

TEST_CASE("the same biz_seq with another payload is a mismatch") {
  for (const Strategy* strategy : all_strategies()) {
    if (is_unguarded(*strategy)) continue;
    CAPTURE(strategy->info().name);
    Fixture f;
    REQUIRE(f.attempt(*strategy, request("r1", 1000)).outcome == Outcome::kApplied);
    CHECK(f.attempt(*strategy, request("r1", 2000)).outcome == Outcome::kMismatch);
    CHECK(journal_pairs(f.ledger, "r1") == 1);
  }
}

TEST_CASE("insufficient funds is rejected, and the rejection is replayed") {
  for (const Strategy* strategy : all_strategies()) {
    if (is_unguarded(*strategy)) continue;
    CAPTURE(strategy->info().name);
    Fixture f;
    auto req = request("r1", 600, "carol", "bob");  // carol holds 5.00
    Answer first = f.attempt(*strategy, req);
    CHECK(first.outcome == Outcome::kRejected);
    CHECK(first.reason == "insufficient_funds");
    CHECK_FALSE(first.replayed);
    Answer again = f.attempt(*strategy, req);
    CHECK(again.outcome == Outcome::kRejected);
    CHECK(again.reason == "insufficient_funds");
    CHECK(again.replayed);
    CHECK(journal_pairs(f.ledger, "r1") == 0);
  }
}

TEST_CASE("unknown and identical accounts are rejected before anything is written") {
  for (const Strategy* strategy : all_strategies()) {
    CAPTURE(strategy->info().name);
    Fixture f;
    CHECK(f.attempt(*strategy, request("r1", 100, "alice", "nobody")).reason == "unknown_account");
    CHECK(f.attempt(*strategy, request("r2", 100, "alice", "alice")).reason == "same_account");
    CHECK(f.ledger.scalar("SELECT count(*) FROM transfer_flow") == 0);
    CHECK(f.ledger.scalar("SELECT count(*) FROM dedup") == 0);
    CHECK(f.ledger.scalar("SELECT count(*) FROM attempt") == 0);
  }
}

TEST_CASE("token answers: unknown, used by another request, expired") {
  Fixture f;
  const Strategy& token = *find_strategy("token");
  StrategyOptions options;
  options.token = "no-such-token";
  CHECK(attempt_once(f.connection, f.clock, token, request("r1"), options).outcome ==
        Outcome::kTokenUnknown);
  options.token = fresh_token(f.connection, f.clock);
  REQUIRE(attempt_once(f.connection, f.clock, token, request("r1"), options).outcome ==
          Outcome::kApplied);
  CHECK(attempt_once(f.connection, f.clock, token, request("r2"), options).outcome ==
        Outcome::kTokenUsed);
  options.token = fresh_token(f.connection, f.clock, 100);
  f.clock.advance_ms(101);
  CHECK(attempt_once(f.connection, f.clock, token, request("r3"), options).outcome ==
        Outcome::kTokenExpired);
}

TEST_CASE("lock-table answers in_progress while another owner holds the lock") {
  Fixture f;
  const Strategy& lock = *find_strategy("lock-table");
  f.connection.exec_script(
      "INSERT INTO lock VALUES ('transfer:api:r1', 9999999999, 0, 'someone-else')");
  CHECK(attempt_once(f.connection, f.clock, lock, request("r1")).outcome == Outcome::kInProgress);
  CHECK(journal_pairs(f.ledger, "r1") == 0);
}

TEST_CASE("every attempt that reaches a strategy is logged, with the fault") {
  Fixture f;
  const Strategy& strategy = *find_strategy("select-insert");
  f.attempt(strategy, request("r1"));
  f.attempt(strategy, request("r1"));
  std::vector<AttemptRecord> attempts;
  AttemptFilter filter;
  filter.biz_seq = "r1";
  filter.limit = 10;
  REQUIRE(list_attempts(f.connection, filter, &attempts).is_ok());
  REQUIRE(attempts.size() == 2);
  CHECK(attempts[0].outcome == "applied");
  CHECK_FALSE(attempts[0].replayed);
  CHECK(attempts[1].outcome == "applied");
  CHECK(attempts[1].replayed);
}
