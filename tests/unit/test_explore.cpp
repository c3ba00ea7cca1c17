// Tests for sim/explore: every interleaving of two duplicates.
#include <doctest/doctest.h>

#include "sim/explore.h"

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
