// Tests for sim/explore: every interleaving of two duplicates.
#include <doctest/doctest.h>

#include "sim/explore/explore.h"

using namespace idemlab;

namespace {
ExploreResult explored(const char* name, bool pitfall, int64_t lock_ttl_ms = 30000) {
  ExploreConfig config;
  config.lock_ttl_ms = lock_ttl_ms;
  ExploreResult result;
  const Strategy& strategy = *find_strategy(name);
  Status status =
      explore(strategy, pitfall ? main_pitfall(strategy.info()) : Pitfall::kNone, config, &result);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return result;
}
}  // namespace

TEST_CASE("no interleaving of two duplicates breaks a safe strategy") {
  for (const Strategy* strategy : all_strategies()) {
    if (!strategy->info().guarded) continue;
    CAPTURE(strategy->info().name);
    ExploreResult result = explored(std::string(strategy->info().name).c_str(), false);
    CHECK(result.interleavings > 1);
    CHECK(result.breaking == 0);
    CHECK_FALSE(result.truncated);
  }
}

TEST_CASE("each pitfall a concurrent duplicate exposes has a breaking interleaving") {
  for (const char* name : {"select-insert", "direct-insert", "state-machine", "token",
                           "select-for-update", "optimistic-lock", "naive"}) {
    CAPTURE(name);
    ExploreResult result = explored(name, true);
    CHECK(result.breaking >= 1);
    CHECK(result.by_invariant["moved_twice_or_more"] >= 1);
    CHECK_FALSE(result.first_breaking.empty());
  }
  ExploreResult lock = explored("lock-table", true, 3);
  CHECK(lock.breaking >= 1);
  CHECK(explored("lock-table", false, 3).breaking == 0);
}

TEST_CASE("the count of interleavings is the number of merges of the two step sequences") {
  // naive: check_accounts, then one transaction: two steps per attempt, so C(4,2) = 6.
  ExploreResult result = explored("naive", false);
  CHECK(result.interleavings == 6);
  CHECK(result.breaking == 6);
}

namespace {
ExploreResult crashed(const char* name, Pitfall pitfall, int64_t lock_ttl_ms = 30000) {
  ExploreConfig config;
  config.lock_ttl_ms = lock_ttl_ms;
  config.crash = true;
  ExploreResult result;
  Status status = explore(*find_strategy(name), pitfall, config, &result);
  REQUIRE_MESSAGE(status.is_ok(), status.message());
  return result;
}
}  // namespace

TEST_CASE("--crash: no crash point in any interleaving breaks a safe strategy") {
  for (const Strategy* strategy : all_strategies()) {
    if (!strategy->info().guarded) continue;
    CAPTURE(strategy->info().name);
    ExploreResult result = crashed(std::string(strategy->info().name).c_str(), Pitfall::kNone);
    CHECK(result.breaking == 0);
    CHECK_FALSE(result.truncated);
  }
}

TEST_CASE("--crash: separate transactions and a lock that outlives its holder get stuck") {
  ExploreResult dedup = crashed("dedup-table", Pitfall::kSeparateTransactions);
  CHECK(dedup.by_invariant["stuck"] > 0);
  CHECK(dedup.first_breaking_point.attempt >= 0);
  ExploreResult lock = crashed("lock-table", Pitfall::kTtlTooLong, 20);
  CHECK(lock.by_invariant["stuck"] > 0);
  CHECK(crashed("lock-table", Pitfall::kNone, 20).breaking == 0);
}

TEST_CASE("--crash: success on duplicate tells a crashed request's repeat it succeeded") {
  ExploreResult result = crashed("state-machine", Pitfall::kSuccessOnDuplicate);
  CHECK(result.by_invariant["never_moved"] > 0);
}
